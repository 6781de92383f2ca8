//! Pointwise maximal leakage of a mechanism under a known prior (\[E\] Sec. II,
//! Thm 1, Defs 3-4; `docs/theory.md` §2): the PML of each output, `eps_min` and
//! `eps_max`, the privacy regions and the `(eps, delta)` tail.

use crate::linalg::{column_dots, column_extremes};
use crate::mechanism::Mechanism;
use crate::prior::Prior;
use ndarray::ArrayView1;
use serde::Serialize;

/// PML values closer than this are one step of the tail curve (see [`tail_curve`]).
pub const TAIL_MERGE_TOLERANCE: f64 = 1e-12;

/// PML of one output with likelihood column `c` (\[E\] Thm 1):
/// `l(y) = ln(max_x c_x / p . c)`. `None` when the output has probability 0
/// (it is never observed, so it is ignored).
pub fn column_pml(column: ArrayView1<f64>, prior: &Prior) -> Option<f64> {
    let q = prior.dot(column);
    let m = column.iter().copied().fold(0.0, f64::max);
    (q > 0.0).then(|| (m / q).ln().max(0.0))
}

/// PML of every output `l(y)`, `None` for outputs of probability 0 (\[E\] Thm 1);
/// [`column_pml`]'s bits, in one pass in memory order.
pub fn pml_per_outcome(mechanism: &Mechanism, prior: &Prior) -> Vec<Option<f64>> {
    let w = mechanism.matrix();
    let Some(q) = column_dots(prior.masses(), w) else {
        return mechanism.columns().map(|c| column_pml(c, prior)).collect();
    };
    q.into_iter()
        .zip(column_extremes(w))
        .map(|(q, (m, _))| (q > 0.0).then(|| (m.max(0.0) / q).ln().max(0.0)))
        .collect()
}

/// `eps_min(W, p) = max_y l(y)`: the smallest eps for which W is eps-PML w.r.t. p.
pub fn eps_min(mechanism: &Mechanism, prior: &Prior) -> f64 {
    pml_per_outcome(mechanism, prior)
        .into_iter()
        .flatten()
        .fold(0.0, f64::max)
}

/// `eps_max(p) = -ln(min_x p_x)`: no outcome can leak more; at this level every
/// mechanism (the identity included) is eps-PML.
pub fn eps_max(prior: &Prior) -> f64 {
    -prior.min_mass().ln()
}

/// The thresholds `eps_0 = 0 < eps_1 <= ... <= eps_N = inf` of the privacy regions
/// (\[E\] Def 4): with p sorted descending, `eps_k = -ln(sum_{i <= N-k} p_(i))`.
pub fn privacy_thresholds(prior: &Prior) -> Vec<f64> {
    let mut sorted = prior.masses().to_vec();
    sorted.sort_by(|a, b| b.total_cmp(a));
    let n = sorted.len();
    let mut out = Vec::with_capacity(n + 1);
    out.push(0.0);
    for k in 1..=n {
        let s: f64 = sorted[..n - k].iter().sum();
        out.push(if k == n { f64::INFINITY } else { -s.ln() });
    }
    out
}

/// The privacy region k of eps (\[E\] Def 4): `eps_{k-1} <= eps < eps_k`, so that a
/// column of an eps-PML mechanism has at most `k - 1` zeros. Region 1 forces every
/// entry to be positive.
pub fn privacy_region(prior: &Prior, epsilon: f64) -> usize {
    let t = privacy_thresholds(prior);
    (1..t.len())
        .find(|&k| epsilon < t[k])
        .unwrap_or(t.len() - 1)
}

/// The tail probability `sum_{y : l(y) > eps} q_y`; W is (eps, delta)-PML iff it is
/// at most delta (\[E\] Def 3).
pub fn tail_probability(mechanism: &Mechanism, prior: &Prior, epsilon: f64) -> f64 {
    let q = mechanism.output_marginal(prior);
    pml_per_outcome(mechanism, prior)
        .into_iter()
        .zip(q.iter())
        .filter(|(l, _)| l.is_some_and(|l| l > epsilon))
        .map(|(_, q)| q)
        .sum()
}

/// The `(eps, delta)` curve of W under p (\[E\] Def 3): one point `(l, P(l(Y) > l))` for
/// each distinct PML value `l` of an outcome of positive probability, ascending.
///
/// Read it as a right-continuous step function: for `eps` in `[eps_i, eps_(i+1))` the
/// smallest delta with W `(eps, delta)`-PML is `delta_i`; below the first point it is 1,
/// and the last point is `(eps_min, 0)`. PML values within [`TAIL_MERGE_TOLERANCE`] of
/// each other form one step placed at the largest of them (conservative: delta is
/// never understated).
pub fn tail_curve(mechanism: &Mechanism, prior: &Prior) -> Vec<(f64, f64)> {
    let q = mechanism.output_marginal(prior);
    let mut outcomes: Vec<(f64, f64)> = pml_per_outcome(mechanism, prior)
        .into_iter()
        .zip(q.iter())
        .filter_map(|(l, &q)| l.map(|l| (l, q)))
        .collect();
    outcomes.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Distinct values, merging near-equal ones into the largest of their run.
    let mut steps: Vec<f64> = Vec::new();
    for &(l, _) in &outcomes {
        match steps.last_mut() {
            Some(last) if l - *last <= TAIL_MERGE_TOLERANCE => *last = l,
            _ => steps.push(l),
        }
    }
    steps
        .into_iter()
        .map(|eps| {
            // (A fold from +0.0: an empty f64 sum is -0.0.)
            let delta = outcomes
                .iter()
                .filter(|(l, _)| *l > eps)
                .fold(0.0, |acc, (_, q)| acc + q);
            (eps, delta)
        })
        .collect()
}

/// One step of the `(eps, delta)` tail curve (\[E\] Def 3).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TailPoint {
    /// The leakage level eps (a PML value of an outcome).
    pub epsilon: f64,
    /// `P(l(Y) > eps)`: the smallest delta for which W is (eps, delta)-PML.
    pub delta: f64,
}
