//! The mechanism as a heatmap: inline SVG up to [`SVG_MAX_INPUTS`] inputs, an
//! embedded PNG (a `data:` URI) above it, downsampled by block means to at most
//! [`RASTER_MAX`] pixels a side so that the page stays small at N = 2048.

use crate::colormap::{dark_text, hex, viridis};
use crate::text::{escape, num};
use base64::Engine;
use std::fmt::Write;

/// The largest alphabet drawn as SVG cells.
pub const SVG_MAX_INPUTS: usize = 64;
/// The largest side of the raster image, in pixels.
pub const RASTER_MAX: usize = 512;

/// A matrix to draw: rows (inputs) of values in [0, `max`], with their labels.
pub struct Grid<'a> {
    /// One row per input.
    pub rows: &'a [Vec<f64>],
    /// Row labels (inputs).
    pub row_labels: &'a [String],
    /// Column labels (outputs).
    pub col_labels: &'a [String],
}

impl Grid<'_> {
    fn max(&self) -> f64 {
        let m = self.rows.iter().flatten().copied().fold(0.0, f64::max);
        if m > 0.0 { m } else { 1.0 }
    }

    fn cols(&self) -> usize {
        self.rows.first().map_or(0, Vec::len)
    }
}

/// The heatmap of `grid` (SVG or PNG) with its colour legend; `alt` is its text
/// alternative.
pub fn heatmap(grid: &Grid, alt: &str) -> String {
    let max = grid.max();
    let body = if grid.rows.len() <= SVG_MAX_INPUTS && grid.cols() <= SVG_MAX_INPUTS {
        svg_cells(grid, max, alt)
    } else {
        raster(grid, max, alt)
    };
    format!("{body}\n{}", legend(max))
}

fn svg_cells(grid: &Grid, max: f64, alt: &str) -> String {
    let (n, m) = (grid.rows.len(), grid.cols());
    let cell = (560 / m.max(n).max(1)).clamp(8, 48) as f64;
    let label_w = 90.0;
    let top = 70.0;
    let (w, h) = (
        (label_w + cell * m as f64 + 10.0).max(400.0),
        top + cell * n as f64 + 30.0,
    );
    let font = (cell * 0.45).clamp(6.0, 12.0);
    let mut s = format!(
        r#"<svg class="heatmap" role="img" aria-label="{a}" viewBox="0 0 {w} {h}" width="{w}" height="{h}"><title>{a}</title>"#,
        a = escape(alt)
    );
    for (j, y) in grid.col_labels.iter().enumerate() {
        let x = label_w + cell * (j as f64 + 0.5);
        let _ = write!(
            s,
            r#"<text x="{x}" y="{}" font-size="{font}" transform="rotate(-60 {x} {})">{}</text>"#,
            top - 4.0,
            top - 4.0,
            escape(y)
        );
    }
    for (i, (row, label)) in grid.rows.iter().zip(grid.row_labels).enumerate() {
        let y = top + cell * i as f64;
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" font-size="{font}" text-anchor="end">{}</text>"#,
            label_w - 4.0,
            y + cell * 0.65,
            escape(label)
        );
        for (j, v) in row.iter().enumerate() {
            let _ = write!(
                s,
                r#"<rect x="{}" y="{y}" width="{cell}" height="{cell}" fill="{}"><title>{} -&gt; {}: {}</title></rect>"#,
                label_w + cell * j as f64,
                hex(v / max),
                escape(label),
                escape(&grid.col_labels[j]),
                num(*v)
            );
        }
    }
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" font-size="12" text-anchor="middle">outputs y (columns); inputs x (rows)</text></svg>"#,
        w / 2.0,
        h - 8.0
    );
    s
}

/// The image as a `data:image/png;base64,` URI inside an `<img>`, each pixel the
/// mean of a block of cells when the matrix is larger than [`RASTER_MAX`].
fn raster(grid: &Grid, max: f64, alt: &str) -> String {
    let (n, m) = (grid.rows.len(), grid.cols());
    let (h, w) = (n.min(RASTER_MAX), m.min(RASTER_MAX));
    let mut pixels = Vec::with_capacity(3 * w * h);
    for py in 0..h {
        let (r0, r1) = (py * n / h, ((py + 1) * n / h).max(py * n / h + 1));
        for px in 0..w {
            let (c0, c1) = (px * m / w, ((px + 1) * m / w).max(px * m / w + 1));
            let sum: f64 = grid.rows[r0..r1]
                .iter()
                .map(|r| r[c0..c1].iter().sum::<f64>())
                .sum();
            let mean = sum / ((r1 - r0) * (c1 - c0)) as f64;
            pixels.extend_from_slice(&viridis(mean / max));
        }
    }
    let note = if h < n || w < m {
        format!(
            " Each pixel is the mean of a block of about {}x{} entries.",
            n.div_ceil(h),
            m.div_ceil(w)
        )
    } else {
        String::new()
    };
    match encode_png(w, h, &pixels) {
        Ok(png) => format!(
            r#"<img class="raster" alt="{}" width="{}" height="{}" src="data:image/png;base64,{}"><p class="note">{n} inputs (rows, top to bottom: {} ... {}) by {m} outputs (columns, left to right).{note}</p>"#,
            escape(&format!("{alt}.{note}")),
            w.clamp(256, 720),
            (h * w.clamp(256, 720) / w.max(1)).max(1),
            base64::engine::general_purpose::STANDARD.encode(png),
            escape(grid.row_labels.first().map_or("", String::as_str)),
            escape(grid.row_labels.last().map_or("", String::as_str)),
        ),
        Err(e) => format!(
            r#"<p class="note">The image could not be encoded: {}</p>"#,
            escape(&e)
        ),
    }
}

fn encode_png(w: usize, h: usize, rgb: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let to_u32 = |v: usize| u32::try_from(v).map_err(|e| e.to_string());
    let mut encoder = png::Encoder::new(&mut out, to_u32(w)?, to_u32(h)?);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(rgb).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

/// The colour scale from 0 to `max`, as a small SVG gradient with its ends labelled.
fn legend(max: f64) -> String {
    let mut steps = String::new();
    for k in 0..30 {
        let t = (k as f64 + 0.5) / 30.0;
        let _ = write!(
            steps,
            r#"<rect x="{}" y="2" width="10.5" height="12" fill="{}"/>"#,
            10 + 10 * k,
            hex(t)
        );
    }
    let a = format!("Colour scale: dark purple is 0, yellow is {}", num(max));
    format!(
        r#"<svg class="legend" role="img" aria-label="{a}" viewBox="0 0 320 34" width="320" height="34"><title>{a}</title>{steps}<text x="10" y="28" font-size="11">0</text><text x="310" y="28" font-size="11" text-anchor="end">{}</text><text x="160" y="28" font-size="11" text-anchor="middle">P(y | x)</text></svg>"#,
        num(max)
    )
}

/// The numbers table: one row per input with its prior, one column per output.
pub fn numbers_table(grid: &Grid, prior: &[f64]) -> String {
    let max = grid.max();
    let mut s = String::from(
        r#"<table class="numbers"><thead><tr><th scope="col">x</th><th scope="col">P(x)</th>"#,
    );
    for y in grid.col_labels {
        let _ = write!(s, r#"<th scope="col">{}</th>"#, escape(y));
    }
    s.push_str("</tr></thead><tbody>");
    for ((row, label), p) in grid.rows.iter().zip(grid.row_labels).zip(prior) {
        let _ = write!(
            s,
            r#"<tr><th scope="row">{}</th><td>{:.4}</td>"#,
            escape(label),
            p
        );
        for v in row {
            let t = v / max;
            let ink = if dark_text(t) { "#000" } else { "#fff" };
            let _ = write!(
                s,
                r#"<td style="background:{};color:{ink}">{v:.4}</td>"#,
                hex(t)
            );
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table>");
    s
}
