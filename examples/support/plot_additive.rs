//! Plotting and output helpers shared by the additive-noise examples
//! (`fig4_5_laplace`, `fig6_7_gaussian`): line charts with linear or logarithmic axes
//! drawn to SVG with plotters (files and flags: `support/files.rs`).

use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use std::error::Error;
use std::path::Path;

/// Distinct line colours (the "tab10" palette).
pub const COLORS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

/// One curve of a panel.
pub struct Series {
    /// Legend text; empty for no legend entry.
    pub label: String,
    /// The points `(x, y)`; points that a logarithmic axis cannot show are dropped.
    pub points: Vec<(f64, f64)>,
    /// Index into [`COLORS`]; a negative index draws in grey.
    pub color: i32,
    /// Dashed instead of solid.
    pub dashed: bool,
}

/// One chart: axes, ranges and curves.
pub struct Panel {
    /// Caption above the chart.
    pub title: String,
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// Range of the x axis.
    pub x: (f64, f64),
    /// Range of the y axis.
    pub y: (f64, f64),
    /// Logarithmic x axis.
    pub x_log: bool,
    /// Logarithmic y axis.
    pub y_log: bool,
    /// Where the legend goes.
    pub legend: SeriesLabelPosition,
    /// The curves.
    pub series: Vec<Series>,
}

/// Draws `panels` on a `rows x cols` grid into an SVG file of `size` pixels.
pub fn draw(
    path: &Path,
    size: (u32, u32),
    rows: usize,
    cols: usize,
    panels: &[Panel],
) -> Result<(), Box<dyn Error>> {
    let root = SVGBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE)?;
    for (area, panel) in root.split_evenly((rows, cols)).iter().zip(panels) {
        let (x, y) = (panel.x.0..panel.x.1, panel.y.0..panel.y.1);
        match (panel.x_log, panel.y_log) {
            (false, false) => draw_panel(area, panel, x, y)?,
            (false, true) => draw_panel(area, panel, x, y.log_scale())?,
            (true, false) => draw_panel(area, panel, x.log_scale(), y)?,
            (true, true) => draw_panel(area, panel, x.log_scale(), y.log_scale())?,
        }
    }
    root.present()?;
    Ok(())
}

fn tick(v: f64, log: bool) -> String {
    if log && (v.abs() >= 1e4 || (v != 0.0 && v.abs() < 1e-2)) {
        format!("{v:.0e}")
    } else {
        // Rounded to six decimals, so that 0.06 does not print as 0.0600000000005.
        format!("{}", (v * 1e6).round() / 1e6)
    }
}

fn draw_panel<X, Y>(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    panel: &Panel,
    x_spec: X,
    y_spec: Y,
) -> Result<(), Box<dyn Error>>
where
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let mut chart = ChartBuilder::on(area)
        .caption(&panel.title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x_spec, y_spec)?;
    let (x_log, y_log) = (panel.x_log, panel.y_log);
    chart
        .configure_mesh()
        .x_desc(panel.x_label.as_str())
        .y_desc(panel.y_label.as_str())
        .x_label_formatter(&|v| tick(*v, x_log))
        .y_label_formatter(&|v| tick(*v, y_log))
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    let visible = |&(x, y): &(f64, f64)| {
        x.is_finite() && y.is_finite() && (!x_log || x > 0.0) && (!y_log || y > 0.0)
    };
    for s in &panel.series {
        let color = if s.color < 0 {
            RGBColor(90, 90, 90)
        } else {
            COLORS[s.color as usize % COLORS.len()]
        };
        let style = color.stroke_width(2);
        let points: Vec<(f64, f64)> = s.points.iter().copied().filter(visible).collect();
        let anno = if s.dashed {
            chart.draw_series(DashedLineSeries::new(points, 8, 5, style))?
        } else {
            chart.draw_series(LineSeries::new(points, style))?
        };
        if s.label.is_empty() {
            continue;
        }
        let dashed = s.dashed;
        anno.label(s.label.as_str()).legend(move |(x, y)| {
            let (size, gap) = if dashed { (6, 4) } else { (30, 0) };
            DashedPathElement::new(vec![(x, y), (x + 26, y)], size, gap, style)
        });
    }
    chart
        .configure_series_labels()
        .position(panel.legend.clone())
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .label_font(("sans-serif", 12))
        .draw()?;
    Ok(())
}
