//! The post-processing envelope of a design (\[V\] Thm 3): its bounds at the
//! design's delta, in the CLI's words, and the curve of the bounds over delta
//! measured on the design's matrix under its reference prior.

use crate::chart::{Axes, Mark, Series, line_chart};
use crate::colormap::SERIES;
use crate::document::{facts, figure, note, para};
use crate::text::{level, num, short};
use pmldesign_model::envelope::{Envelope, EnvelopeBounds, log_grid};
use pmldesign_model::statement::envelope as envelope_statement;
use pmldesign_model::{Mechanism, Prior};
use pmldesign_solver::Design;

/// The largest alphabet whose envelope curve is drawn (each point runs the binary
/// envelope of \[V\] Algorithm 1).
pub const CURVE_MAX_INPUTS: usize = 256;

/// Points of the curve, spaced evenly in `ln delta` from 1e-3 to 0.5.
const CURVE_POINTS: usize = 24;

/// The envelope section of `d`, when the design has its bounds (measured under
/// its reference prior).
pub fn section(d: &Design) -> Option<String> {
    let b = d.envelope()?;
    Some(match Prior::new(d.uncertainty().reference().to_vec()) {
        Ok(prior) => bounds_section(b, d.mechanism(), &prior),
        Err(e) => {
            let mut s = statement(b);
            s.push_str(&note(&format!("The curve could not be computed: {e}")));
            s
        }
    })
}

/// The bounds `b` in the CLI's words, then the curve of the bounds over delta of
/// `mechanism` under `prior` with `b.delta` marked.
pub fn bounds_section(b: &EnvelopeBounds, mechanism: &Mechanism, prior: &Prior) -> String {
    let mut s = statement(b);
    match curve(mechanism, prior) {
        Ok(Some(points)) => s.push_str(&chart(&points, b.delta)),
        Ok(None) => s.push_str(&note(&format!("The curve over delta is drawn up to {CURVE_MAX_INPUTS} inputs; pml envelope computes it for any mechanism."))),
        Err(e) => s.push_str(&note(&format!("The curve could not be computed: {e}"))),
    }
    s
}

fn statement(b: &EnvelopeBounds) -> String {
    let mut s = para(&format!("Statement: {}.", envelope_statement(b)));
    s.push_str(&facts(&[
        ("delta", short(b.delta)),
        ("lower bound on eps_c(delta)", num(b.lower)),
        ("upper bound on eps_c(delta)", level(b.upper)),
        (
            "bounds meet",
            if b.exact { "yes".into() } else { "no".into() },
        ),
    ]));
    s
}

fn curve(mechanism: &Mechanism, prior: &Prior) -> Result<Option<Vec<EnvelopeBounds>>, String> {
    if mechanism.inputs() > CURVE_MAX_INPUTS {
        return Ok(None);
    }
    let env = Envelope::new(mechanism, prior).map_err(|e| e.to_string())?;
    let grid = log_grid(1e-3, 0.5, CURVE_POINTS).map_err(|e| e.to_string())?;
    env.curve(&grid).map(Some).map_err(|e| e.to_string())
}

/// The chart of the bounds over delta, with the design's delta marked.
pub fn chart(points: &[EnvelopeBounds], delta: f64) -> String {
    let upper: Vec<(f64, f64)> = points.iter().map(|b| (b.delta, b.upper)).collect();
    let lower: Vec<(f64, f64)> = points.iter().map(|b| (b.delta, b.lower)).collect();
    let alt = format!(
        "Envelope bounds over delta from {} to {}: upper bound from {} to {}, lower bound from {} to {}",
        short(points.first().map_or(0.0, |b| b.delta)),
        short(points.last().map_or(0.0, |b| b.delta)),
        num(upper.first().map_or(0.0, |p| p.1)),
        num(upper.last().map_or(0.0, |p| p.1)),
        num(lower.first().map_or(0.0, |p| p.1)),
        num(lower.last().map_or(0.0, |p| p.1)),
    );
    let series = vec![
        Series {
            name: "upper bound on eps_c(delta) (Thm 3)".into(),
            points: upper,
            colour: SERIES[0],
            dashed: false,
            markers: false,
        },
        Series {
            name: "lower bound on eps_c(delta)".into(),
            points: lower,
            colour: SERIES[1],
            dashed: true,
            markers: false,
        },
    ];
    let marks = [Mark::Vertical(delta, format!("delta = {}", short(delta)))];
    let axes = Axes {
        x_label: "delta (log scale)",
        y_label: "eps_c(delta) (nats)",
        log_x: true,
    };
    figure(
        &line_chart(&alt, &axes, &series, &marks),
        "The post-processing envelope eps_c(delta) lies between the two curves: for every post-processing Z of the output, P(l(X -> Z) > eps_c(delta)) <= delta.",
    )
}
