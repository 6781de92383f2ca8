//! The direct loss LP over generated labels (docs/theory.md §4, "Losses by
//! generated labels"): an optimal loss mechanism uses few of its N labels (11 of
//! 256 and 16 of 512 for the squared loss of a Dirichlet(1.3) prior at eps 0.8),
//! so the interior point solves the direct LP over a subset of the labels (the
//! columns of `c` it is given, `loss_ipm`), and every label is then priced
//! exactly as column generation prices it (`pricing::labels`): the largest
//! `-min (c[:, y] - alpha) . v` over the slice `r . v = 1`. Labels that price
//! out enter and the restricted LP is solved again; when none does, the
//! restricted optimum is the optimum.
//!
//! The bound is column generation's (`colgen::engine::dual_bound`): with
//! `lambda = -alpha`, `sum lambda + max(0, max reduced cost)` over every ray and
//! the all-ones column bounds the negated loss for any `lambda`, so every round,
//! finished or stopped by the clock, is certified, and the stored dual is
//! re-checked by the same exact knapsacks. Only where the cone has such a slice
//! (a known prior, the ball under \[E\] Prop 2); other sets keep the full LP.

use crate::colgen::engine::Progress;
use crate::cones::sparse::Constraints;
use crate::design::loss_direct::repaired;
use crate::design::loss_ipm::{self, IpmFailure};
use crate::objective::loss::LabelledLoss;
use crate::objective::utility::Utility;
use crate::pricing::labels::{LossOracle, Slice};
use crate::settings::Interrupt;
use crate::solution::certificate::DualCertificate;
use ndarray::{Array1, Array2, Axis};
use rayon::prelude::*;
use std::time::Instant;

/// Labels in the first restricted LP: this many spread evenly over the label
/// order (ordered losses use labels across the range) and this many of the
/// cheapest single columns (the pricing at `alpha = 0`).
const FIRST_LABELS: usize = 16;

/// Labels that enter per round at most (those of largest reduced cost). Each
/// round is a new interior-point solve, so few rounds of larger LPs win: at
/// N = 512, 64 labels a round need fewer rounds (2 against 5) than 16 or 32.
const ENTERING: usize = 64;

/// The answer of label generation.
pub(crate) struct Generated {
    /// The last restricted LP's W, N x N with zero columns off its labels.
    pub w: Array2<f64>,
    /// `lambda = -alpha` of that LP with its exact pricing over every label.
    pub dual: DualCertificate,
    /// Restricted LPs solved.
    pub rounds: usize,
    /// Whether no label priced out (else the clock stopped the rounds).
    pub converged: bool,
    /// The converged LP solved again over the labels it uses ([`polished`]).
    pub polished: Option<Array2<f64>>,
}

/// A label is used when its output probability `r . W[:, y]` exceeds this.
const USED: f64 = 1e-9;

/// The restricted LP solved again over the labels its solution `w` uses, when
/// it leaves some out and time remains: the interior point gives every label
/// of its LP a little mass, and cleaning lifts each such near-empty column
/// that exceeds eps (by about 1e-13) across all N inputs. The caller keeps
/// whichever cleaned mechanism loses less: for a known prior usually the
/// polished one, with a fraction of the outputs and a smaller gap; over the
/// ball the used columns' own lifts cost more and the first one stays.
fn polished(
    cons: &Constraints,
    c: &Array2<f64>,
    (w, labels): (&Array2<f64>, &[usize]),
    e_lp: f64,
    (deadline, interrupt): (Option<Instant>, &Interrupt),
) -> Option<Array2<f64>> {
    let r = &cons.functionals[0];
    let used: Vec<usize> = labels
        .iter()
        .copied()
        .filter(|&y| r.dot(&w.column(y)) > USED)
        .collect();
    if used.len() == labels.len() || used.is_empty() || interrupt.or_past(deadline) {
        return None;
    }
    let restricted = c.select(Axis(1), &used);
    let sol = loss_ipm::solve(cons, &restricted, e_lp, deadline, interrupt).ok()?;
    Some(spread(&sol.w, &used, c.nrows()))
}

/// Label generation (module docs) with `E` tightened to `e_lp` in the primal
/// rows, until no label prices out by more than `tol` (relative to
/// `1 + |bound|`), the deadline passes or `interrupt` is set; a round stopped by
/// the clock ends the search with the last finished round, or with its own
/// iterate in the first round. `None` when the interior point fails: the
/// caller solves the full LP.
pub(crate) fn solve(
    cons: &Constraints,
    slice: &Slice,
    c: &Array2<f64>,
    e_lp: f64,
    tol: f64,
    (deadline, interrupt): (Option<Instant>, &Interrupt),
    progress: &mut dyn FnMut(Progress),
) -> Option<Generated> {
    let n = c.nrows();
    let mut labels = first_labels(slice, c);
    let mut last: Option<Generated> = None;
    for round in 1.. {
        let restricted = c.select(Axis(1), &labels);
        let (sol, stopped) = match loss_ipm::solve(cons, &restricted, e_lp, deadline, interrupt) {
            Ok(sol) => (sol, false),
            Err(IpmFailure::Stopped(_)) if last.is_some() => return last,
            Err(IpmFailure::Stopped(it)) => (*it, true),
            Err(IpmFailure::Failed) => return None,
        };
        let sol_w = sol.w;
        let w = spread(&sol_w, &labels, n);
        let alpha = Array1::from(repaired(cons, &restricted, sol.dual).alpha);
        let dual = certificate(slice, c, &alpha);
        let at = tol * (1.0 + dual.bound.abs());
        let entering = entering(&reduced_costs(slice, c, &alpha), &labels, at);
        progress(Progress {
            iterations: round,
            lower_bound: -(&restricted * &sol_w).sum(),
            upper_bound: dual.bound,
            rays_priced: (round * c.ncols()) as u64,
        });
        let converged = entering.is_empty() && !stopped;
        let polished = converged
            .then(|| polished(cons, c, (&w, &labels), e_lp, (deadline, interrupt)))
            .flatten();
        let generated = Generated {
            w,
            dual,
            rounds: round,
            converged,
            polished,
        };
        if converged || stopped || interrupt.or_past(deadline) {
            return Some(generated);
        }
        last = Some(generated);
        labels.extend(entering);
        labels.sort_unstable();
    }
    unreachable!("the rounds end by returning")
}

/// The first labels (module docs), sorted and distinct.
fn first_labels(slice: &Slice, c: &Array2<f64>) -> Vec<usize> {
    let n = c.ncols();
    let k = FIRST_LABELS.min(n);
    let mut labels: Vec<usize> = (0..k).map(|i| i * n / k).collect();
    let costs = reduced_costs(slice, c, &Array1::zeros(c.nrows()));
    labels.extend(largest(&costs, k));
    labels.sort_unstable();
    labels.dedup();
    labels
}

/// For each label y, `max_v (alpha - c[:, y]) . v` over the slice: by how much
/// its best column would lower the restricted LP's loss per unit of mass.
fn reduced_costs(slice: &Slice, c: &Array2<f64>, alpha: &Array1<f64>) -> Vec<f64> {
    (0..c.ncols())
        .into_par_iter()
        .map(|y| {
            let a = &c.column(y) - alpha;
            -a.dot(&slice.minimise(a.view()))
        })
        .collect()
}

/// The labels off `labels` whose reduced cost exceeds `at`, at most
/// [`ENTERING`] of the largest.
fn entering(costs: &[f64], labels: &[usize], at: f64) -> Vec<usize> {
    let outside: Vec<f64> = costs
        .iter()
        .enumerate()
        .map(|(y, &rc)| {
            if labels.binary_search(&y).is_ok() || rc <= at {
                f64::NEG_INFINITY
            } else {
                rc
            }
        })
        .collect();
    let mut chosen = largest(&outside, ENTERING);
    chosen.retain(|&y| outside[y] > f64::NEG_INFINITY);
    chosen
}

/// The indices of the `k` largest values (ties by index), largest first.
fn largest(values: &[f64], k: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[b].total_cmp(&values[a]).then(a.cmp(&b)));
    order.truncate(k);
    order
}

/// Column generation's certificate of `lambda = -alpha`: its largest reduced
/// cost over every ray of the slice and the all-ones column, exactly as a
/// stored design's dual is re-priced (`verify::loss`).
fn certificate(slice: &Slice, c: &Array2<f64>, alpha: &Array1<f64>) -> DualCertificate {
    let lambda = -alpha;
    let oracle = LossOracle {
        slice: slice.clone(),
        loss: LabelledLoss::new(c),
    };
    let ones = Array1::ones(c.nrows());
    let ones_value = oracle.loss.column_value(ones.view(), slice.r.view());
    let bound = crate::colgen::engine::dual_bound(&oracle, ones_value, &lambda, 0.0);
    DualCertificate::new(lambda.to_vec(), bound - lambda.sum())
}

/// The columns of `part` placed at `labels` among `n` zero columns.
fn spread(part: &Array2<f64>, labels: &[usize], n: usize) -> Array2<f64> {
    let mut full = Array2::zeros((part.nrows(), n));
    for (j, &y) in labels.iter().enumerate() {
        full.column_mut(y).assign(&part.column(j));
    }
    full
}
