//! The literature's estimation mechanisms whose outputs are too many to list,
//! as rows of the estimation table (docs/theory.md §13): k-subset selection at
//! its best subset size and optimised unary encoding, each by the error of the
//! maximum-likelihood estimate under the reference prior, computed without
//! their outputs. They are calibrated to the design's notion and level where a
//! closed calibration exists, and left out elsewhere:
//!
//! - eps-LDP: boost `a = e^eps - 1` (both are eps-LDP there);
//! - eps-PML for a known prior or an l1 ball of radius beta: an output S of
//!   either leaks `ln((1 + a) / (1 + a Q(S)))`, largest at the smallest mass a
//!   prior Q of the set gives a released set (the d smallest masses less
//!   `beta / 2`, at least 0), so `a = (e^eps - 1) / (1 - e^eps m)` where
//!   `e^eps m < 1`, with m that smallest mass (subsets of size d for k-subset
//!   selection, a single input for OUE, whose empty output leaks nothing).
//!
//! They are figures only: no row of the table is released from them.

use crate::solution::design::Design;
use crate::solution::estimation::{EstimationRow, FIGURE_ONLY};
use ndarray::ArrayView1;
use pmldesign_model::frequency::{subset_error, subset_error_uniform, unary_error};
use pmldesign_model::{Notion, UncertaintySet};

/// Work past which k-subset selection's figure is not computed: the distinct
/// masses times the inputs times the subset size (per quadrature node).
const SUBSET_WORK_UP_TO: usize = 5_000_000;

/// The rows of `d`'s table for the mechanisms of the literature, under `prior`.
pub(crate) fn rows(d: &Design, prior: &[f64]) -> Vec<EstimationRow> {
    let k = prior.len();
    let Some(level) = Level::of(d) else {
        return Vec::new();
    };
    if k < 3 {
        return Vec::new();
    }
    let p = ArrayView1::from(prior);
    let mut sorted = prior.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mut rows = Vec::new();
    if let Some((size, a)) = best_size(&sorted, &level) {
        let mut distinct = sorted.clone();
        distinct.dedup();
        if distinct.len() * k * size <= SUBSET_WORK_UP_TO {
            rows.push(row(
                format!("{size}-subset selection {FIGURE_ONLY}"),
                k,
                subset_error(p, size, a),
            ));
        }
    }
    if let Some(a) = level.boost(sorted[0]) {
        rows.push(row(
            format!("unary encoding, OUE {FIGURE_ONLY}"),
            k,
            unary_error(p, a),
        ));
    }
    rows
}

fn row(mechanism: String, k: usize, error: Option<f64>) -> EstimationRow {
    EstimationRow {
        mechanism,
        groups: k,
        merged: Vec::new(),
        error_per_row: error,
    }
}

/// The subset size of least error under the uniform prior at the boost the
/// notion allows for that size (the general prior's error is computed once,
/// at that size).
fn best_size(sorted: &[f64], level: &Level) -> Option<(usize, f64)> {
    let k = sorted.len();
    let mut smallest = 0.0;
    let mut best: Option<(usize, f64, f64)> = None;
    for size in 1..k {
        smallest += sorted[size - 1];
        let Some(a) = level.boost(smallest) else {
            continue;
        };
        let e = subset_error_uniform(k, size, a);
        if best.is_none_or(|(_, _, b)| e < b) {
            best = Some((size, a, e));
        }
    }
    best.map(|(size, a, _)| (size, a))
}

/// What the design's notion allows an output of smallest released mass m.
enum Level {
    /// eps-LDP: `e^eps - 1`, whatever m.
    Ldp(f64),
    /// eps-PML over priors that may take `shift` from a released set's mass.
    Pml { epsilon: f64, shift: f64 },
}

impl Level {
    fn of(d: &Design) -> Option<Self> {
        match (&d.notion, &d.uncertainty) {
            (Notion::Ldp { epsilon }, _) => Some(Level::Ldp(*epsilon)),
            (Notion::Pml { epsilon }, UncertaintySet::Known { .. }) => Some(Level::Pml {
                epsilon: *epsilon,
                shift: 0.0,
            }),
            (Notion::Pml { epsilon }, UncertaintySet::L1Ball { beta, .. }) => Some(Level::Pml {
                epsilon: *epsilon,
                shift: beta / 2.0,
            }),
            _ => None,
        }
    }

    /// The boost `a` at which an output whose released set has mass `m`
    /// under the reference prior meets the level; `None` where none is finite
    /// or where the level allows no boost.
    fn boost(&self, m: f64) -> Option<f64> {
        let a = match *self {
            Level::Ldp(epsilon) => epsilon.exp_m1(),
            Level::Pml { epsilon, shift } => {
                let worst = (m - shift).max(0.0);
                let room = 1.0 - epsilon.exp() * worst;
                if room <= 0.0 {
                    return None;
                }
                epsilon.exp_m1() / room
            }
        };
        (a.is_finite() && a > 0.0).then_some(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pmldesign_model::measures::pml::eps_min;
    use pmldesign_model::{Mechanism, Prior};

    /// k-subset selection written out: `W(S|x) = (1 + a [x in S]) / Z`.
    fn subsets(k: usize, size: usize, a: f64) -> Mechanism {
        let sets: Vec<u32> = (0u32..1 << k)
            .filter(|s| s.count_ones() as usize == size)
            .collect();
        let rows = (0..k)
            .map(|x| {
                let r: Vec<f64> = sets
                    .iter()
                    .map(|s| 1.0 + a * f64::from((s >> x) & 1 == 1))
                    .collect();
                let z: f64 = r.iter().sum();
                r.iter().map(|v| v / z).collect()
            })
            .collect();
        Mechanism::from_rows(rows).unwrap()
    }

    #[test]
    fn pml_calibration_meets_the_level_exactly() {
        let masses = vec![0.35, 0.25, 0.2, 0.12, 0.08];
        let prior = Prior::new(masses.clone()).unwrap();
        let mut sorted = masses.clone();
        sorted.sort_by(f64::total_cmp);
        for epsilon in [0.3, 1.0, 2.0] {
            let level = Level::Pml {
                epsilon,
                shift: 0.0,
            };
            for size in 1..5 {
                let smallest: f64 = sorted[..size].iter().sum();
                let Some(a) = level.boost(smallest) else {
                    // No finite boost: the level allows the set itself.
                    assert!(epsilon.exp() * smallest >= 1.0);
                    continue;
                };
                let leak = eps_min(&subsets(5, size, a), &prior);
                assert!(
                    (leak - epsilon).abs() < 1e-12,
                    "{size}: {leak} vs {epsilon}"
                );
            }
        }
    }

    #[test]
    fn a_stored_table_without_the_literature_rows_still_reads() {
        let set = UncertaintySet::known(Prior::new(vec![0.4, 0.3, 0.2, 0.1]).unwrap());
        let problem = crate::Problem::new(set).notion(Notion::Ldp { epsilon: 1.0 });
        let d = problem.solve().unwrap().with_estimation().unwrap();
        let full = d.estimation.clone().unwrap();
        assert!(full.rows.iter().any(|r| r.mechanism.ends_with(FIGURE_ONLY)));
        let mut older = full.clone();
        older.rows.retain(|r| !r.mechanism.ends_with(FIGURE_ONLY));
        assert_eq!(older.check(&d).unwrap(), full);
        let mut altered = full.clone();
        altered.rows.pop();
        assert!(altered.check(&d).is_err());
    }
}
