//! Small hand-written SVG charts: lines with markers over a linear or log x axis,
//! and bars with a reference line. Every chart carries its text alternative.

use crate::text::{escape, tick};
use std::fmt::Write;

const W: f64 = 640.0;
const H: f64 = 300.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 48.0;

/// One line of a chart.
pub struct Series {
    /// Its name in the legend.
    pub name: String,
    /// Its points, in x order (a NaN y breaks the line).
    pub points: Vec<(f64, f64)>,
    /// Its colour (`#rrggbb`).
    pub colour: &'static str,
    /// Dashed (a bound or a baseline) or solid.
    pub dashed: bool,
    /// Filled circles at the points.
    pub markers: bool,
}

/// A mark on a chart beside the series.
#[non_exhaustive]
pub enum Mark {
    /// A vertical line at x with a label (the chosen eps).
    Vertical(f64, String),
    /// A horizontal line at y with a label (eps on a leakage chart).
    Horizontal(f64, String),
    /// A hollow marker at (x, y) with a label (a point the time limit stopped).
    Hollow(f64, f64, String),
    /// A cross on the x axis at x (a point that was not computed).
    Missing(f64, String),
}

/// The axes of a chart.
pub struct Axes<'a> {
    /// Label of the x axis.
    pub x_label: &'a str,
    /// Label of the y axis.
    pub y_label: &'a str,
    /// A logarithmic x axis (every x must be positive).
    pub log_x: bool,
}

/// Ticks of a log axis over [e^lo, e^hi]: the powers of ten inside, with 2 and 5
/// times them where the axis spans less than three decades (round numbers a reader
/// knows, not powers of e).
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let (a, b) = (lo / std::f64::consts::LN_10, hi / std::f64::consts::LN_10);
    let steps: &[f64] = if b - a < 3.0 {
        &[1.0, 2.0, 5.0]
    } else {
        &[1.0]
    };
    let inside = |v: f64| v.ln() >= lo - 1e-9 && v.ln() <= hi + 1e-9;
    ((a.floor() as i32)..=(b.ceil() as i32))
        .flat_map(|k| steps.iter().map(move |m| m * 10f64.powi(k)))
        .filter(|v| inside(*v))
        .collect()
}

/// Ticks over [lo, hi]: about five round numbers.
fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    if hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater) {
        return vec![lo];
    }
    let raw = (hi - lo) / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|k| k * mag)
        .find(|s| *s >= raw)
        .unwrap_or(raw);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// Maps data to the plot area.
struct Frame {
    x: (f64, f64),
    y: (f64, f64),
    log_x: bool,
}

impl Frame {
    fn new(xs: &[f64], ys: &[f64], log_x: bool) -> Frame {
        let fin = |v: &[f64]| {
            v.iter()
                .copied()
                .filter(|t| t.is_finite() && (!log_x || *t > 0.0))
                .collect::<Vec<_>>()
        };
        let (xs, ys) = (
            fin(xs),
            ys.iter()
                .copied()
                .filter(|t| t.is_finite())
                .collect::<Vec<_>>(),
        );
        let span = |v: &[f64]| {
            let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if !lo.is_finite() {
                (0.0, 1.0)
            } else if hi > lo {
                (lo, hi)
            } else {
                (lo - 0.5, hi + 0.5)
            }
        };
        let mut x = span(&xs);
        if log_x {
            x = (x.0.ln(), x.1.ln());
            if x.1 <= x.0 {
                x = (x.0 - 0.5, x.1 + 0.5);
            }
        }
        let (ylo, yhi) = span(&ys);
        let y = (ylo.min(0.0), yhi + 0.05 * (yhi - ylo.min(0.0)));
        Frame { x, y, log_x }
    }

    fn px(&self, x: f64) -> f64 {
        let x = if self.log_x { x.ln() } else { x };
        LEFT + (x - self.x.0) / (self.x.1 - self.x.0) * (W - LEFT - RIGHT)
    }

    fn py(&self, y: f64) -> f64 {
        H - BOTTOM - (y - self.y.0) / (self.y.1 - self.y.0) * (H - TOP - BOTTOM)
    }
}

fn open_svg(alt: &str, height: f64) -> String {
    let a = escape(alt);
    format!(
        r#"<svg class="chart" role="img" aria-label="{a}" viewBox="0 0 {W} {height}" width="{W}" height="{height}"><title>{a}</title>"#
    )
}

fn axes(s: &mut String, f: &Frame, a: &Axes) {
    let (x0, x1, y0, y1) = (LEFT, W - RIGHT, TOP, H - BOTTOM);
    let _ = write!(
        s,
        r##"<path d="M{x0} {y0}V{y1}H{x1}" fill="none" stroke="#333"/>"##
    );
    for t in ticks(f.y.0, f.y.1) {
        let y = f.py(t);
        let _ = write!(
            s,
            r##"<path d="M{x0} {y}H{x1}" stroke="#ddd"/><text x="{}" y="{}" font-size="11" text-anchor="end">{}</text>"##,
            x0 - 4.0,
            y + 4.0,
            tick(t)
        );
    }
    let xt: Vec<f64> = if f.log_x {
        log_ticks(f.x.0, f.x.1)
    } else {
        ticks(f.x.0, f.x.1)
    };
    let xt = if f.log_x && xt.len() < 3 {
        vec![f.x.0.exp(), ((f.x.0 + f.x.1) / 2.0).exp(), f.x.1.exp()]
    } else {
        xt
    };
    for t in xt {
        let x = f.px(t);
        let _ = write!(
            s,
            r##"<path d="M{x} {y1}v4" stroke="#333"/><text x="{x}" y="{}" font-size="11" text-anchor="middle">{}</text>"##,
            y1 + 16.0,
            tick(t)
        );
    }
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" font-size="12" text-anchor="middle">{}</text>"#,
        (x0 + x1) / 2.0,
        H - 12.0,
        escape(a.x_label)
    );
    let _ = write!(
        s,
        r#"<text x="14" y="{}" font-size="12" text-anchor="middle" transform="rotate(-90 14 {})">{}</text>"#,
        (y0 + y1) / 2.0,
        (y0 + y1) / 2.0,
        escape(a.y_label)
    );
}

/// A chart of this module as a standalone SVG file: the namespace a document of
/// its own needs, and the white background and font the page gives it.
pub fn standalone(chart: &str) -> String {
    let opened = chart.replacen(
        "<svg ",
        r#"<svg xmlns="http://www.w3.org/2000/svg" style="background:#fff;font-family:sans-serif" "#,
        1,
    );
    opened + "\n"
}

/// A line chart of `series` with `marks`, and a legend below it.
pub fn line_chart(alt: &str, a: &Axes, series: &[Series], marks: &[Mark]) -> String {
    let mut xs: Vec<f64> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .collect();
    let mut ys: Vec<f64> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .collect();
    for m in marks {
        match m {
            Mark::Vertical(x, _) | Mark::Missing(x, _) => xs.push(*x),
            Mark::Horizontal(y, _) => ys.push(*y),
            Mark::Hollow(x, y, _) => {
                xs.push(*x);
                ys.push(*y);
            }
        }
    }
    let f = Frame::new(&xs, &ys, a.log_x);
    let legend_h = 18.0 * series.len() as f64 + 6.0;
    let mut s = open_svg(alt, H + legend_h);
    axes(&mut s, &f, a);
    for line in series {
        draw_series(&mut s, &f, line);
    }
    for m in marks {
        draw_mark(&mut s, &f, m);
    }
    for (k, line) in series.iter().enumerate() {
        let y = H + 12.0 + 18.0 * k as f64;
        let dash = if line.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = write!(
            s,
            r#"<path d="M{LEFT} {y}h28" stroke="{}" stroke-width="2"{dash}/><text x="{}" y="{}" font-size="12">{}</text>"#,
            line.colour,
            LEFT + 34.0,
            y + 4.0,
            escape(&line.name)
        );
    }
    s.push_str("</svg>");
    s
}

fn draw_series(s: &mut String, f: &Frame, line: &Series) {
    let mut d = String::new();
    let mut pen_up = true;
    for &(x, y) in &line.points {
        if !x.is_finite() || !y.is_finite() || (f.log_x && x <= 0.0) {
            pen_up = true;
            continue;
        }
        let _ = write!(
            d,
            "{}{:.2} {:.2}",
            if pen_up { "M" } else { "L" },
            f.px(x),
            f.py(y)
        );
        pen_up = false;
    }
    let dash = if line.dashed {
        r#" stroke-dasharray="6 4""#
    } else {
        ""
    };
    let _ = write!(
        s,
        r#"<path d="{d}" fill="none" stroke="{}" stroke-width="2"{dash}/>"#,
        line.colour
    );
    if line.markers {
        for &(x, y) in line
            .points
            .iter()
            .filter(|p| p.0.is_finite() && p.1.is_finite())
        {
            let _ = write!(
                s,
                r#"<circle cx="{:.2}" cy="{:.2}" r="3.5" fill="{}"><title>{}: {} at {}</title></circle>"#,
                f.px(x),
                f.py(y),
                line.colour,
                escape(&line.name),
                tick(y),
                tick(x)
            );
        }
    }
}

fn draw_mark(s: &mut String, f: &Frame, m: &Mark) {
    match m {
        Mark::Vertical(x, label) => {
            let px = f.px(*x);
            let _ = write!(
                s,
                r##"<path d="M{px:.2} {TOP}V{}" stroke="#b5367a" stroke-width="1.5" stroke-dasharray="2 3"/><text x="{:.2}" y="{}" font-size="11" fill="#b5367a">{}</text>"##,
                H - BOTTOM,
                px + 4.0,
                TOP + 10.0,
                escape(label)
            );
        }
        Mark::Horizontal(y, label) => {
            let py = f.py(*y);
            let _ = write!(
                s,
                r##"<path d="M{LEFT} {py:.2}H{}" stroke="#b5367a" stroke-width="1.5" stroke-dasharray="2 3"/><text x="{}" y="{:.2}" font-size="11" fill="#b5367a" text-anchor="end">{}</text>"##,
                W - RIGHT,
                W - RIGHT,
                py - 4.0,
                escape(label)
            );
        }
        Mark::Hollow(x, y, label) => {
            let _ = write!(
                s,
                r##"<circle cx="{:.2}" cy="{:.2}" r="5" fill="#fff" stroke="#333" stroke-width="1.5"><title>{}</title></circle>"##,
                f.px(*x),
                f.py(*y),
                escape(label)
            );
        }
        Mark::Missing(x, label) => {
            let (px, py) = (f.px(*x), H - BOTTOM);
            let _ = write!(
                s,
                r##"<path d="M{} {}l8 8m0 -8l-8 8" stroke="#b5367a" stroke-width="2"><title>{}</title></path>"##,
                px - 4.0,
                py - 4.0,
                escape(label)
            );
        }
    }
}

/// A bar chart: one bar per label, an optional reference line, its text alternative.
pub fn bar_chart(
    alt: &str,
    y_label: &str,
    labels: &[String],
    values: &[f64],
    reference: Option<(f64, String)>,
) -> String {
    let n = values.len().max(1);
    let mut ys: Vec<f64> = values.to_vec();
    if let Some((r, _)) = &reference {
        ys.push(*r);
    }
    let f = Frame::new(&[0.0, n as f64], &ys, false);
    let mut s = open_svg(alt, H);
    let x_label = if labels.len() <= 40 {
        ""
    } else {
        "outputs, in order"
    };
    axes_bars(&mut s, &f, y_label, x_label);
    let slot = (W - LEFT - RIGHT) / n as f64;
    let bar = (slot * 0.8).max(0.5);
    // Horizontal labels where each fits its slot (about 6 px a character at 10 px).
    let flat = labels
        .iter()
        .all(|l| l.chars().count() as f64 * 6.0 <= slot);
    for (k, v) in values.iter().enumerate() {
        let v = if v.is_finite() { *v } else { f.y.1 };
        let (x, y) = (
            LEFT + slot * k as f64 + (slot - bar) / 2.0,
            f.py(v.max(0.0)),
        );
        let label = labels.get(k).map_or("", String::as_str);
        let _ = write!(
            s,
            r##"<rect x="{x:.2}" y="{y:.2}" width="{bar:.2}" height="{:.2}" fill="#21918c"><title>{}: {}</title></rect>"##,
            (f.py(0.0) - y).max(0.0),
            escape(label),
            tick(v)
        );
        if labels.len() <= 40 {
            bar_label(&mut s, x + bar / 2.0, label, flat);
        }
    }
    if let Some((r, label)) = reference {
        draw_mark(&mut s, &f, &Mark::Horizontal(r, label));
    }
    s.push_str("</svg>");
    s
}

/// Longest label drawn under a bar when labels are slanted; the whole label is
/// in the bar's tooltip.
const SLANTED_CHARS: usize = 9;

/// The label of the bar centred at `cx`: horizontal when `flat`, else slanted
/// and cut to [`SLANTED_CHARS`] characters so it stays inside the chart.
fn bar_label(s: &mut String, cx: f64, label: &str, flat: bool) {
    let y = H - BOTTOM + 12.0;
    if flat {
        let _ = write!(
            s,
            r#"<text x="{cx:.2}" y="{y}" font-size="10" text-anchor="middle">{}</text>"#,
            escape(label)
        );
        return;
    }
    let shown: String = if label.chars().count() > SLANTED_CHARS {
        let cut: String = label.chars().take(SLANTED_CHARS - 1).collect();
        format!("{cut}\u{2026}")
    } else {
        label.to_string()
    };
    let _ = write!(
        s,
        r#"<text x="{cx:.2}" y="{y}" font-size="10" text-anchor="end" transform="rotate(-45 {cx:.2} {y})">{}</text>"#,
        escape(&shown)
    );
}

fn axes_bars(s: &mut String, f: &Frame, y_label: &str, x_label: &str) {
    let (x0, x1, y0, y1) = (LEFT, W - RIGHT, TOP, H - BOTTOM);
    let _ = write!(
        s,
        r##"<path d="M{x0} {y0}V{y1}H{x1}" fill="none" stroke="#333"/>"##
    );
    for t in ticks(f.y.0, f.y.1) {
        let y = f.py(t);
        let _ = write!(
            s,
            r##"<path d="M{x0} {y}H{x1}" stroke="#ddd"/><text x="{}" y="{}" font-size="11" text-anchor="end">{}</text>"##,
            x0 - 4.0,
            y + 4.0,
            tick(t)
        );
    }
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" font-size="12" text-anchor="middle">{}</text>"#,
        (x0 + x1) / 2.0,
        H - 6.0,
        escape(x_label)
    );
    let _ = write!(
        s,
        r#"<text x="14" y="{}" font-size="12" text-anchor="middle" transform="rotate(-90 14 {})">{}</text>"#,
        (y0 + y1) / 2.0,
        (y0 + y1) / 2.0,
        escape(y_label)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_ticks() {
        let t = ticks(0.0, 1.0);
        assert_eq!((t.len(), t[0], t[5]), (6, 0.0, 1.0));
        assert_eq!(ticks(1.0, 1.0), vec![1.0]);
    }
}
