//! Shared plumbing of the figure examples (`fig2_theorem4`, `fig3_sample_bounds`,
//! `utility_vs_eps`): SVG line/scatter charts (plotters); files and flags are in
//! `support/files.rs`. Included with `#[path = "support/plot_figs.rs"] mod plot_figs;`.
//! No mathematics here.
#![allow(dead_code)]

use plotters::coord::Shift;
use plotters::prelude::*;
use std::error::Error;
use std::path::Path;

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// A solid line through the points.
    Line,
    /// A dashed line through the points.
    Dashed,
    /// One small dot per point.
    Dots,
}

/// One named series of points `(x, y)` in data coordinates.
#[derive(Debug, Clone)]
pub struct Series {
    /// The legend entry.
    pub name: String,
    /// The points; non-finite ones (and, on a log axis, non-positive ones) are left out.
    pub points: Vec<(f64, f64)>,
    /// How to draw it.
    pub style: Style,
    /// Index into the palette.
    pub color: usize,
}

impl Series {
    /// A series.
    pub fn new(
        name: impl Into<String>,
        points: Vec<(f64, f64)>,
        style: Style,
        color: usize,
    ) -> Self {
        Series {
            name: name.into(),
            points,
            style,
            color,
        }
    }
}

/// Where a panel's legend goes.
#[derive(Debug, Clone, Copy)]
pub enum Legend {
    /// Upper left corner.
    UpperLeft,
    /// Upper right corner.
    UpperRight,
    /// Lower right corner.
    LowerRight,
    /// Lower left corner.
    LowerLeft,
}

/// One chart.
#[derive(Debug, Clone)]
pub struct Panel {
    /// The caption.
    pub title: String,
    /// The x-axis description.
    pub x_label: String,
    /// The y-axis description.
    pub y_label: String,
    /// Logarithmic x axis (base 10).
    pub log_x: bool,
    /// Logarithmic y axis (base 10).
    pub log_y: bool,
    /// The x range in data coordinates; `None` fits the data.
    pub x_range: Option<(f64, f64)>,
    /// The y range in data coordinates; `None` fits the data.
    pub y_range: Option<(f64, f64)>,
    /// Where the legend goes.
    pub legend: Legend,
    /// The series, drawn in order.
    pub series: Vec<Series>,
}

impl Panel {
    /// A panel with linear axes fitted to the data and the legend at the upper left.
    pub fn new(
        title: impl Into<String>,
        x_label: impl Into<String>,
        y_label: impl Into<String>,
    ) -> Self {
        Panel {
            title: title.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            log_x: false,
            log_y: false,
            x_range: None,
            y_range: None,
            legend: Legend::UpperLeft,
            series: Vec::new(),
        }
    }
}

/// Colours of series, by index.
const PALETTE: [RGBColor; 7] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(0, 0, 0),
];

/// Writes a figure: its data to `dir/stem.csv` (`header`, then each row
/// comma-joined, through `files::write_csv`) and its panels to `dir/stem.svg`;
/// says where. The example must also include `support/files.rs` as `files`.
pub fn write_figure(
    dir: &Path,
    stem: &str,
    header: &str,
    rows: &[Vec<String>],
    panels: &[Panel],
    panel_size: (u32, u32),
) -> Result<(), Box<dyn Error>> {
    let csv = dir.join(format!("{stem}.csv"));
    crate::files::write_csv(&csv, header, rows.iter().map(|r| r.join(",")))?;
    let svg = dir.join(format!("{stem}.svg"));
    draw_svg(&svg, panels, panel_size)?;
    println!("wrote {} and {}", svg.display(), csv.display());
    Ok(())
}

/// Draws the panels side by side into one SVG file, each `panel_size` pixels.
pub fn draw_svg(
    path: &Path,
    panels: &[Panel],
    panel_size: (u32, u32),
) -> Result<(), Box<dyn Error>> {
    let width = panel_size.0 * panels.len() as u32;
    let root = SVGBackend::new(path, (width, panel_size.1)).into_drawing_area();
    root.fill(&WHITE)?;
    let areas = root.split_evenly((1, panels.len()));
    for (area, panel) in areas.iter().zip(panels) {
        draw_panel(area, panel)?;
    }
    root.present()?;
    Ok(())
}

/// Maps a data coordinate to the drawn one (log10 on a log axis).
fn axis(v: f64, log: bool) -> Option<f64> {
    let t = if log { v.log10() } else { v };
    (t.is_finite() && (!log || v > 0.0)).then_some(t)
}

/// A tick label: the value, or `1e{k}` at integers of a log axis (blank between).
fn tick(v: f64, log: bool) -> String {
    if !log {
        let a = v.abs();
        return if a != 0.0 && !(1e-3..1e5).contains(&a) {
            format!("{v:.0e}")
        } else {
            let s = format!("{v:.4}");
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
    }
    let k = v.round();
    if (v - k).abs() < 1e-9 {
        format!("1e{k}")
    } else {
        String::new()
    }
}

fn fit(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
        (a.min(v), b.max(v))
    });
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = if hi > lo { 0.03 * (hi - lo) } else { 0.5 };
    (lo - pad, hi + pad)
}

fn draw_panel(area: &DrawingArea<SVGBackend, Shift>, p: &Panel) -> Result<(), Box<dyn Error>> {
    let series: Vec<(&Series, Vec<(f64, f64)>)> = p
        .series
        .iter()
        .map(|s| {
            let pts = s
                .points
                .iter()
                .filter_map(|&(x, y)| Some((axis(x, p.log_x)?, axis(y, p.log_y)?)))
                .collect();
            (s, pts)
        })
        .collect();
    let range = |given: Option<(f64, f64)>, log: bool, pick: fn(&(f64, f64)) -> f64| match given {
        Some((a, b)) => (axis(a, log).unwrap_or(0.0), axis(b, log).unwrap_or(1.0)),
        None => fit(series.iter().flat_map(|(_, pts)| pts.iter().map(pick))),
    };
    let (x0, x1) = range(p.x_range, p.log_x, |q| q.0);
    let (y0, y1) = range(p.y_range, p.log_y, |q| q.1);
    let mut chart = ChartBuilder::on(area)
        .caption(&p.title, ("sans-serif", 17))
        .margin(12)
        .x_label_area_size(42)
        .y_label_area_size(58)
        .build_cartesian_2d(x0..x1, y0..y1)?;
    let (lx, ly) = (p.log_x, p.log_y);
    chart
        .configure_mesh()
        .x_desc(p.x_label.as_str())
        .y_desc(p.y_label.as_str())
        .x_label_formatter(&|v| tick(*v, lx))
        .y_label_formatter(&|v| tick(*v, ly))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()?;
    let inside = |&(x, y): &(f64, f64)| x >= x0 && x <= x1 && y >= y0 && y <= y1;
    for (s, pts) in series {
        let color = PALETTE[s.color % PALETTE.len()];
        let pts: Vec<(f64, f64)> = pts.into_iter().filter(inside).collect();
        let name = s.name.clone();
        // A series without a name has no legend entry.
        let named = !name.is_empty();
        match s.style {
            Style::Line => {
                let a = chart.draw_series(LineSeries::new(pts, color.stroke_width(2)))?;
                if named {
                    a.label(name).legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                    });
                }
            }
            Style::Dashed => {
                let a =
                    chart.draw_series(DashedLineSeries::new(pts, 6, 4, color.stroke_width(2)))?;
                if named {
                    a.label(name).legend(move |(x, y)| {
                        EmptyElement::at((x, y))
                            + PathElement::new(vec![(0, 0), (7, 0)], color.stroke_width(2))
                            + PathElement::new(vec![(12, 0), (20, 0)], color.stroke_width(2))
                    });
                }
            }
            Style::Dots => {
                let a = chart.draw_series(
                    pts.into_iter()
                        .map(|q| Circle::new(q, 1, color.mix(0.5).filled())),
                )?;
                if named {
                    a.label(name)
                        .legend(move |(x, y)| Circle::new((x + 10, y), 3, color.filled()));
                }
            }
        }
    }
    let position = match p.legend {
        Legend::UpperLeft => SeriesLabelPosition::UpperLeft,
        Legend::UpperRight => SeriesLabelPosition::UpperRight,
        Legend::LowerRight => SeriesLabelPosition::LowerRight,
        Legend::LowerLeft => SeriesLabelPosition::LowerLeft,
    };
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(RGBColor(180, 180, 180))
        .label_font(("sans-serif", 13))
        .draw()?;
    Ok(())
}
