//! Shared drawing of the figure examples, with `pmldesign_report::chart` (the charts
//! of the reports): panels of line, dashed and dot series (`fig2_theorem4`,
//! `fig3_sample_bounds`, `utility_vs_eps`), and [`grid`], which lays charts side by
//! side in one SVG file (all figure examples). Files and flags are in
//! `support/files.rs`, which an example using [`write_figure`] must include as
//! `files`. Included with `#[path = "support/plot_figs.rs"] mod plot_figs;`. No
//! mathematics here.
//!
//! The charts have a logarithmic x axis only, ticked at powers of e, and no
//! logarithmic y axis: a log axis of a panel is drawn as the log10 of the values,
//! named in the axis label.
#![allow(dead_code)]

use pmldesign_report::chart::{self, Axes, line_chart, standalone};
use std::error::Error;
use std::path::Path;

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// A solid line through the points.
    Line,
    /// A dashed line through the points.
    Dashed,
    /// One dot per point, nothing between them.
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

/// One chart.
#[derive(Debug, Clone)]
pub struct Panel {
    /// The caption.
    pub title: String,
    /// The x-axis description.
    pub x_label: String,
    /// The y-axis description.
    pub y_label: String,
    /// Logarithmic x axis (drawn as log10 x).
    pub log_x: bool,
    /// Logarithmic y axis (drawn as log10 y).
    pub log_y: bool,
    /// The x window in data coordinates; lines are cut at its edges. `None` fits the
    /// data.
    pub x_range: Option<(f64, f64)>,
    /// The y window in data coordinates; lines are cut at its edges. `None` fits the
    /// data (the charts always show y = 0).
    pub y_range: Option<(f64, f64)>,
    /// The series, drawn in order.
    pub series: Vec<Series>,
}

impl Panel {
    /// A panel with linear axes fitted to the data.
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
            series: Vec::new(),
        }
    }
}

/// Colours of series, by index (the "tab10" palette, then black).
const PALETTE: [&str; 7] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#000000",
];

/// Height of the title row above each chart of a [`grid`].
pub const TITLE_H: f64 = 28.0;

/// Writes a figure: its data to `dir/stem.csv` (`header`, then each row
/// comma-joined, through `files::write_csv`) and its panels, side by side, to
/// `dir/stem.svg`; says where.
pub fn write_figure(
    dir: &Path,
    stem: &str,
    header: &str,
    rows: &[Vec<String>],
    panels: &[Panel],
) -> Result<(), Box<dyn Error>> {
    let csv = dir.join(format!("{stem}.csv"));
    crate::files::write_csv(&csv, header, rows.iter().map(|r| r.join(",")))?;
    let svg = dir.join(format!("{stem}.svg"));
    let charts: Vec<(String, String)> = panels
        .iter()
        .map(|p| (p.title.clone(), draw_panel(p)))
        .collect();
    std::fs::write(&svg, grid(&charts, panels.len().max(1)))?;
    println!("wrote {} and {}", svg.display(), csv.display());
    Ok(())
}

/// `charts` (title, chart) on a grid of `cols` columns, each under its title, as one
/// standalone SVG document.
pub fn grid(charts: &[(String, String)], cols: usize) -> String {
    let size = |svg: &str, attr: &str| -> f64 {
        let at = svg
            .find(&format!(" {attr}=\""))
            .expect("a chart has a size")
            + attr.len()
            + 3;
        svg[at..]
            .split('"')
            .next()
            .and_then(|v| v.parse().ok())
            .expect("a numeric size")
    };
    let w = charts
        .iter()
        .map(|c| size(&c.1, "width"))
        .fold(0.0, f64::max);
    let h = charts
        .iter()
        .map(|c| size(&c.1, "height"))
        .fold(0.0, f64::max)
        + TITLE_H;
    let rows = charts.len().div_ceil(cols);
    let (total_w, total_h) = (w * cols as f64, h * rows as f64);
    let mut svg =
        format!(r#"<svg viewBox="0 0 {total_w} {total_h}" width="{total_w}" height="{total_h}">"#);
    for (k, (title, chart)) in charts.iter().enumerate() {
        let (x, y) = (w * (k % cols) as f64, h * (k / cols) as f64);
        let title = title
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        svg.push_str(&format!(
            r#"<text x="{}" y="{}" font-size="15" text-anchor="middle">{title}</text>"#,
            x + w / 2.0,
            y + 19.0
        ));
        svg.push_str(&chart.replacen("<svg ", &format!(r#"<svg x="{x}" y="{}" "#, y + TITLE_H), 1));
    }
    svg.push_str("</svg>");
    standalone(&svg)
}

/// A coordinate as drawn: log10 on a log axis, where a non-positive value becomes
/// the smallest positive double's (far below any window, so a line down to it
/// crosses the window's edge); `None` if not finite.
fn axis(v: f64, log: bool) -> Option<f64> {
    let t = if log {
        v.max(f64::MIN_POSITIVE).log10()
    } else {
        v
    };
    t.is_finite().then_some(t)
}

/// An axis label: the log10 of the description on a log axis.
fn label(text: &str, log: bool) -> String {
    if log {
        format!("log10 {text}")
    } else {
        text.to_string()
    }
}

/// A window `(x_lo, x_hi, y_lo, y_hi)` in drawn coordinates.
pub type Window = (f64, f64, f64, f64);

/// The part of the segment a -> b inside the window (Liang-Barsky), as fractions.
fn clip(a: (f64, f64), b: (f64, f64), (x_lo, x_hi, y_lo, y_hi): Window) -> Option<(f64, f64)> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - x_lo),
        (dx, x_hi - a.0),
        (-dy, a.1 - y_lo),
        (dy, y_hi - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else if p < 0.0 {
            t0 = t0.max(q / p);
        } else {
            t1 = t1.min(q / p);
        }
    }
    (t0 <= t1).then_some((t0, t1))
}

/// A line through `pts` (drawn coordinates) cut to the window: a segment that leaves
/// it ends on its edge, and a NaN breaks the line until it comes back.
pub fn windowed(pts: &[(f64, f64)], win: Window) -> Vec<(f64, f64)> {
    let inside = |(x, y): (f64, f64)| x >= win.0 && x <= win.1 && y >= win.2 && y <= win.3;
    let at = |a: (f64, f64), b: (f64, f64), t: f64| (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1));
    let mut out = Vec::new();
    if let Some(&first) = pts.first()
        && inside(first)
    {
        out.push(first);
    }
    for w in pts.windows(2) {
        let (a, b) = (w[0], w[1]);
        if let Some((t0, t1)) = clip(a, b, win) {
            if t0 > 0.0 {
                // Enters the window: break the line, then start on the edge.
                out.push((f64::NAN, f64::NAN));
                out.push(at(a, b, t0));
            }
            out.push(at(a, b, t1));
        }
    }
    out
}

/// One panel as a chart of `pmldesign_report::chart`.
fn draw_panel(p: &Panel) -> String {
    let range = |r: Option<(f64, f64)>, log: bool| match r {
        Some((a, b)) => (
            axis(a, log).unwrap_or(f64::NEG_INFINITY),
            axis(b, log).unwrap_or(f64::INFINITY),
        ),
        None => (f64::NEG_INFINITY, f64::INFINITY),
    };
    let ((x_lo, x_hi), (y_lo, y_hi)) = (range(p.x_range, p.log_x), range(p.y_range, p.log_y));
    let win = (x_lo, x_hi, y_lo, y_hi);
    let series: Vec<chart::Series> = p
        .series
        .iter()
        .map(|s| {
            let pts: Vec<(f64, f64)> = s
                .points
                .iter()
                .filter_map(|&(x, y)| Some((axis(x, p.log_x)?, axis(y, p.log_y)?)))
                .collect();
            let points = match s.style {
                Style::Line | Style::Dashed => windowed(&pts, win),
                // Markers at the points inside the window; a NaN after each keeps
                // them apart.
                Style::Dots => pts
                    .into_iter()
                    .filter(|&(x, y)| x >= x_lo && x <= x_hi && y >= y_lo && y <= y_hi)
                    .flat_map(|q| [q, (q.0, f64::NAN)])
                    .collect(),
            };
            chart::Series {
                name: s.name.clone(),
                points,
                colour: PALETTE[s.color % PALETTE.len()],
                dashed: s.style == Style::Dashed,
                markers: s.style == Style::Dots,
            }
        })
        .collect();
    let (x_label, y_label) = (label(&p.x_label, p.log_x), label(&p.y_label, p.log_y));
    let axes = Axes {
        x_label: &x_label,
        y_label: &y_label,
        log_x: false,
    };
    let alt = format!("{}: {y_label} against {x_label}", p.title);
    line_chart(&alt, &axes, &series, &[])
}
