//! Calibration of a structured shape D (N x K) to a notion (docs/theory.md §5b):
//! the mechanism `t D + (1 - t) U`, with U every row uniform over the K outputs
//! (a constant mechanism, in every cone), at the largest t in `[0, 1]` where the
//! notion holds. Each column is `t d + (1 - t)/K`, and every notion bounds a ratio
//! of its entries or of an entry to an output probability `Q . c` (at its worst
//! over the set): a constraint `a t <= b` with `b >= 0`, so the largest t is a
//! minimum of ratios, computed in one pass. The result is then re-measured like
//! a design (the caller keeps only what passes).

use ndarray::Array2;
use pmldesign_model::linalg::column_extremes;
use pmldesign_model::measures::NotionLevels;
use pmldesign_model::{Mechanism, Notion, UncertaintySet};

/// Relative margin taken off the largest t, so that rounding in the mixture
/// cannot push a level past its target.
const MARGIN: f64 = 1e-9;

/// The largest weight t on `shape` at which `t D + (1 - t) U` meets `notion`
/// over `set` (`None` for a metric notion, which has no per-column form).
pub(crate) fn largest_weight(
    shape: &Array2<f64>,
    set: &UncertaintySet,
    notion: &Notion,
) -> Option<f64> {
    let k = shape.ncols() as f64;
    let u = 1.0 / k;
    let mut t: f64 = 1.0;
    let mut bound = |a: f64, b: f64| {
        if a > 0.0 {
            t = t.min(b / a);
        }
    };
    let lowest = match notion {
        Notion::Ldp { .. } | Notion::Metric { .. } => Vec::new(),
        _ if notion.upper().is_some() => set.min_output_probabilities(shape.view()),
        _ => Vec::new(),
    };
    for (y, (d, (d_max, d_min))) in shape
        .columns()
        .into_iter()
        .zip(column_extremes(shape.view()))
        .enumerate()
    {
        match *notion {
            Notion::Ldp { epsilon } => {
                let e = epsilon.exp();
                bound(d_max - e * d_min + (e - 1.0) * u, (e - 1.0) * u);
            }
            Notion::Metric { .. } => return None,
            _ => {
                if let Some(up) = notion.upper() {
                    let e = up.exp();
                    let q = lowest[y];
                    bound(d_max - u - e * (q - u), (e - 1.0) * u);
                }
                if let Some(lo) = notion.lower() {
                    let e = (-lo).exp();
                    let q = set.max_output_probability(d);
                    bound(e * (q - u) - (d_min - u), (1.0 - e) * u);
                }
            }
        }
    }
    Some(if t >= 1.0 {
        1.0
    } else {
        (t * (1.0 - MARGIN)).max(0.0)
    })
}

/// `t D + (1 - t) U`, rows renormalised.
pub(crate) fn mixed(shape: &Array2<f64>, t: f64) -> Option<Mechanism> {
    let u = 1.0 / shape.ncols() as f64;
    let mut w = shape.mapv(|v| t * v + (1.0 - t) * u);
    for mut row in w.rows_mut() {
        let s = row.sum();
        row.mapv_inplace(|v| v / s);
    }
    Mechanism::new(w).ok()
}

/// The notion's headline level of measured levels (eps_u for ALIP).
pub(crate) fn headline(levels: &NotionLevels, notion: &Notion) -> f64 {
    match notion {
        Notion::Pml { .. } | Notion::Alip { .. } => levels.pml,
        Notion::Pmc { .. } => levels.pmc,
        Notion::Lip { .. } => levels.lip(),
        Notion::Ldp { .. } => levels.ldp,
        Notion::Metric { .. } => levels.metric.unwrap_or(f64::INFINITY),
        // A notion these levels do not measure meets no level.
        _ => f64::INFINITY,
    }
}
