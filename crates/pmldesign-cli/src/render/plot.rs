//! The `--plot` of `pml envelope`: the envelope bounds over delta (log axis) as an
//! SVG document.

use crate::error::CliError;
use plotters::coord::combinators::LogCoord;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use pmldesign_model::envelope::{Envelope, EnvelopeBounds};
use pmldesign_solver::envelope::EnvelopeValue;

/// Which number of the bounds a plotted series shows.
type Value = fn(&EnvelopeBounds) -> f64;

/// A drawing error, as a failure naming `--plot`.
fn plot_error(e: impl std::fmt::Display) -> CliError {
    CliError::Failure(format!("cannot draw --plot: {e}"))
}

/// The curves over delta (log axis) as an SVG document.
pub fn plot(
    curve: &[EnvelopeBounds],
    lp: Option<&[EnvelopeValue]>,
    env: &Envelope,
    source: &str,
) -> Result<String, CliError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let lo = curve.iter().map(|b| b.delta).fold(f64::INFINITY, f64::min);
        let hi = curve.iter().map(|b| b.delta).fold(0.0, f64::max);
        let (lo, hi) = if lo < hi {
            (lo, hi)
        } else {
            (lo * 0.9, (hi * 1.1).min(1.0))
        };
        let top = (env.max_pml() * 1.1).max(1e-3);
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("PML envelope bounds: {source}"), ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d((lo..hi).log_scale(), 0.0..top)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .x_desc("delta")
            .y_desc("eps (nats)")
            .draw()
            .map_err(plot_error)?;
        draw_curves(&mut chart, curve, lp, top)?;
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

/// The chart of [`plot`]: delta on a log axis, eps on a linear one.
type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<LogCoord<f64>, RangedCoordf64>>;

/// The bounds over the grid, one line with points each (values above `top` are
/// cut at it), and the LP's envelope when there is one.
fn draw_curves(
    chart: &mut Chart,
    curve: &[EnvelopeBounds],
    lp: Option<&[EnvelopeValue]>,
    top: f64,
) -> Result<(), CliError> {
    let series: [(&str, RGBColor, Value); 5] = [
        ("upper bound (Thm 3)", RED, |b| b.upper),
        ("L + ln(1/delta)", MAGENTA, |b| b.markov),
        ("lower bound", BLUE, |b| b.lower),
        ("binary eps_b (Alg. 1)", CYAN, |b| b.binary),
        ("raw eps_Y (left quantile)", BLACK, |b| b.left_quantile),
    ];
    for (name, color, value) in series {
        let points: Vec<(f64, f64)> = curve.iter().map(|b| (b.delta, value(b).min(top))).collect();
        chart
            .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
            .map_err(plot_error)?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        chart
            .draw_series(points.iter().map(|&p| Circle::new(p, 2, color.filled())))
            .map_err(plot_error)?;
    }
    if let Some(lp) = lp {
        let points: Vec<(f64, f64)> = lp.iter().map(|v| (v.delta, v.upper.min(top))).collect();
        chart
            .draw_series(LineSeries::new(points, GREEN.stroke_width(3)))
            .map_err(plot_error)?
            .label("envelope (LP)")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], GREEN));
    }
    Ok(())
}
