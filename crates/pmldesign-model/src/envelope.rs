//! PML envelopes: post-processing-safe `(eps, delta)` guarantees (`docs/theory.md` §8,
//! "Information leakage envelopes", cited as \[V\]).
//!
//! `(eps, delta)`-PML (\[E\] Def 3, \[V\] Def 5) is not closed under post-processing: merging
//! outputs can raise the leakage of the "good" outcomes (\[V\] Example 2). The envelope
//! `eps_c(delta) = sup_Z eps_Z(delta)` over every post-processing `X - Y - Z` (\[V\] Sec. IV)
//! is. This module computes, for a finite mechanism and prior:
//!
//! - the leakage distribution of `l(X -> Y)` over the reduced mechanism (similar, i.e.
//!   proportional, columns merged; \[V\] App. A) and its left and right quantiles
//!   `eps_Y(delta)` (\[V\] eqs. (9)-(10)) and `bar eps_Y(delta)`;
//! - the upper bound of \[V\] Theorem 3, `min(L + ln(1/delta), max_y l(y))` with maximal
//!   leakage `L`, and the lower bound `max(bar eps_Y(delta), eps_b(delta))` with the
//!   binary envelope of \[V\] Algorithm 1 (eq. (13));
//! - the additive relaxations `psi_1`, `psi_2` of \[V\] Theorem 1;
//! - the closed forms of \[V\] Theorem 4 (high-privacy extremal mechanism) and Theorem 5
//!   (k-ary randomized response).
//!
//! ```
//! use pmldesign_model::{Mechanism, Prior, envelope::Envelope};
//! // [V] Example 2 / Example 3: at delta = 0.1 the envelope is ln 4.
//! let w = Mechanism::from_rows(vec![
//!     vec![0.0, 0.0, 0.5, 0.5],
//!     vec![0.0, 0.0, 0.5, 0.5],
//!     vec![0.0, 0.2, 0.4, 0.4],
//!     vec![0.2, 0.0, 0.4, 0.4],
//! ])?;
//! let p = Prior::uniform(4)?;
//! let b = Envelope::new(&w, &p)?.bounds(0.1)?;
//! assert!((b.left_quantile - (10.0f64 / 9.0).ln()).abs() < 1e-12);
//! assert!((b.right_quantile - 4f64.ln()).abs() < 1e-12);
//! assert!(b.exact && (b.upper - 4f64.ln()).abs() < 1e-12);
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

use crate::error::{ModelError, Result};
use crate::linalg::column_dots;
use crate::measures;
use crate::mechanism::Mechanism;
use crate::prior::Prior;
use crate::ranking::in_order_until;
use ndarray::{Array1, Array2, ArrayView1};
use serde::Serialize;

/// Lower and upper bounds closer than this make the envelope exact.
pub const EXACT_TOLERANCE: f64 = 1e-12;

/// Probability masses within this of a level count as reaching it in the quantiles
/// and in Algorithm 1 (sums of probabilities carry rounding).
pub const MASS_TOLERANCE: f64 = 1e-12;

/// Relative tolerance under which two columns are similar (proportional) and merged
/// in the reduced mechanism.
pub const SIMILARITY_TOLERANCE: f64 = 1e-12;

/// Checks `0 < delta < 1`, naming the field.
pub fn check_delta(delta: f64) -> Result<()> {
    if delta.is_finite() && delta > 0.0 && delta < 1.0 {
        Ok(())
    } else {
        Err(ModelError::invalid(
            "delta",
            delta,
            "the failure probability of an envelope must lie in (0, 1)",
            "pass a probability such as 0.05",
        ))
    }
}

/// `n` failure probabilities spaced evenly in `ln delta` from `lo` to `hi` (both in
/// `(0, 1)`, `lo <= hi`; `n = 1` gives `lo` alone): the grid of an envelope curve.
pub fn log_grid(lo: f64, hi: f64, n: usize) -> Result<Vec<f64>> {
    check_delta(lo)?;
    check_delta(hi)?;
    if lo > hi {
        return Err(ModelError::invalid(
            "delta grid",
            format!("{lo}:{hi}"),
            "the first delta is larger than the last",
            "give the smaller delta first, as in 0.001:0.5:50",
        ));
    }
    if n == 0 {
        return Err(ModelError::invalid(
            "delta grid",
            n,
            "needs at least one point",
            "give the number of points last, as in 0.001:0.5:50",
        ));
    }
    if n == 1 {
        return Ok(vec![lo]);
    }
    let step = (hi / lo).ln() / (n - 1) as f64;
    Ok((0..n)
        .map(|i| {
            if i + 1 == n {
                hi
            } else {
                lo * (step * i as f64).exp()
            }
        })
        .collect())
}

/// Groups of similar outputs (\[V\] App. A): `y ~ y'` when `W[:, y] = c W[:, y']` for a
/// constant `c > 0`. All-zero columns (never observed) belong to no group. Groups are
/// listed by their first output, each ascending.
pub fn similar_outputs(mechanism: &Mechanism) -> Vec<Vec<usize>> {
    // Each column normalised to sum 1; similar columns have equal normalised forms.
    let normalised: Vec<Option<(Vec<f64>, [f64; 2])>> = normalised_columns(mechanism)
        .into_iter()
        .map(|col| {
            col.map(|col| {
                let moments = fingerprint(&col);
                (col, moments)
            })
        })
        .collect();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (y, entry) in normalised.iter().enumerate() {
        let Some((col, moments)) = entry else {
            continue;
        };
        let same = groups.iter_mut().find(|g| {
            let (rep, rep_moments) = normalised[g[0]]
                .as_ref()
                .expect("grouped columns are nonzero");
            may_be_similar(rep_moments, moments)
                && rep
                    .iter()
                    .zip(col)
                    .all(|(a, b)| (a - b).abs() <= SIMILARITY_TOLERANCE * a.abs().max(b.abs()))
        });
        match same {
            Some(g) => g.push(y),
            None => groups.push(vec![y]),
        }
    }
    groups
}

/// Every column divided by its sum (`None` for a zero column), read in memory
/// order: the sums add in row order from 0, as ndarray sums a strided column,
/// so the same bits as column by column (which missed the cache at every
/// entry of a dense N = 4096 design).
fn normalised_columns(mechanism: &Mechanism) -> Vec<Option<Vec<f64>>> {
    let w = mechanism.matrix();
    let ones = Array1::ones(w.nrows());
    let sums = column_dots(ones.view(), w)
        .unwrap_or_else(|| mechanism.columns().map(|c| c.sum()).collect());
    let mut cols: Vec<Option<Vec<f64>>> = sums
        .iter()
        .map(|&s| (s > 0.0).then(|| Vec::with_capacity(w.nrows())))
        .collect();
    for row in w.rows() {
        for ((col, &s), &v) in cols.iter_mut().zip(&sums).zip(row) {
            if let Some(col) = col {
                col.push(v / s);
            }
        }
    }
    cols
}

/// `(sum_i (i + 1) c_i, sum_i c_i^2)` of a normalised column: two columns within
/// [`SIMILARITY_TOLERANCE`] entry by entry have these within a relative
/// `2 * SIMILARITY_TOLERANCE` (plus rounding), so a larger difference rules
/// the pair out without comparing the columns. Comparing entries alone costs
/// O(K^2 N) for K outputs that share long runs of equal entries (LDP's
/// staircases), seconds at N = 2048.
fn fingerprint(col: &[f64]) -> [f64; 2] {
    let first = col
        .iter()
        .enumerate()
        .map(|(i, c)| (i + 1) as f64 * c)
        .sum();
    let second = col.iter().map(|c| c * c).sum();
    [first, second]
}

/// False only when the fingerprints differ by more than a relative 1e-9,
/// far beyond what similar columns and rounding allow ([`fingerprint`]).
fn may_be_similar(a: &[f64; 2], b: &[f64; 2]) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| (x - y).abs() <= 1e-9 * (x.abs() + y.abs()))
}

/// The reduced mechanism (\[V\] App. A): similar outputs merged into one (their columns
/// summed), never-observed outputs dropped; with the groups of original outputs, one
/// per reduced output. The distribution of `l(X -> Y)` is unchanged.
pub fn reduce(mechanism: &Mechanism) -> Result<(Mechanism, Vec<Vec<usize>>)> {
    let groups = similar_outputs(mechanism);
    let w = mechanism.matrix();
    let reduced = Array2::from_shape_fn((mechanism.inputs(), groups.len()), |(x, g)| {
        groups[g].iter().map(|&y| w[[x, y]]).sum()
    });
    Ok((Mechanism::new(reduced)?, groups))
}

/// One outcome of the reduced mechanism: its PML, probability and original outputs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LeakageAtom {
    /// `l(X -> y)` (\[E\] Thm 1), the same for every output of the group.
    pub pml: f64,
    /// `P_Y` of the group.
    pub probability: f64,
    /// The original outputs merged into this outcome (0-based).
    pub outputs: Vec<usize>,
}

/// The distribution of the leakage random variable `l(X -> Y)`: the outcomes of the
/// reduced mechanism sorted by ascending PML, with their probabilities (\[V\] Sec. IV).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LeakageDistribution {
    /// Outcomes by ascending PML (ties keep the order of their first output).
    pub atoms: Vec<LeakageAtom>,
}

impl LeakageDistribution {
    /// The leakage distribution of W under p. Errors when W does not have one row per
    /// symbol of p.
    pub fn new(mechanism: &Mechanism, prior: &Prior) -> Result<Self> {
        mechanism.check_inputs(prior)?;
        let (reduced, groups) = reduce(mechanism)?;
        // Per reduced output in memory order, the bits of `column_pml` and
        // `prior.dot` column by column.
        let probabilities = column_dots(prior.masses(), reduced.matrix())
            .unwrap_or_else(|| reduced.columns().map(|c| prior.dot(c)).collect());
        let mut atoms: Vec<LeakageAtom> = measures::pml_per_outcome(&reduced, prior)
            .into_iter()
            .zip(probabilities)
            .zip(groups)
            .filter_map(|((pml, probability), outputs)| {
                Some(LeakageAtom {
                    pml: pml?,
                    probability,
                    outputs,
                })
            })
            .collect();
        atoms.sort_by(|a, b| a.pml.total_cmp(&b.pml));
        Ok(LeakageDistribution { atoms })
    }

    /// The largest PML, `eps_min(W, p) = max_y l(y)`.
    pub fn max_pml(&self) -> f64 {
        self.atoms.last().map_or(0.0, |a| a.pml)
    }

    /// The left-continuous quantile `eps_Y(delta) = inf{t : P(l(Y) <= t) >= 1 - delta}`
    /// (\[V\] eq. (9)), equivalently `min_{P(A) >= 1 - delta} max_{y in A} l(y)` (eq. (10)):
    /// the smallest eps with W `(eps, delta)`-PML (\[E\] Def 3). Not post-processing safe.
    pub fn left_quantile(&self, delta: f64) -> Result<f64> {
        check_delta(delta)?;
        let mut cdf = 0.0;
        for a in &self.atoms {
            cdf += a.probability;
            if cdf >= 1.0 - delta - MASS_TOLERANCE {
                return Ok(a.pml);
            }
        }
        Ok(self.max_pml())
    }

    /// The right-continuous quantile `bar eps_Y(delta) = sup{t : P(l(Y) <= t) <= 1 - delta}
    /// = max_{P(A) >= delta} min_{y in A} l(y)` (\[V\] Sec. IV): the largest PML whose
    /// upper tail `P(l(Y) >= l)` still holds delta. A lower bound on the envelope.
    pub fn right_quantile(&self, delta: f64) -> Result<f64> {
        check_delta(delta)?;
        let mut tail = 0.0;
        for a in self.atoms.iter().rev() {
            tail += a.probability;
            if tail >= delta - MASS_TOLERANCE {
                return Ok(a.pml);
            }
        }
        Ok(self.atoms.first().map_or(0.0, |a| a.pml))
    }
}

/// The binary envelope `eps_b(delta)` of \[V\] eq. (13) by \[V\] Algorithm 1: for each x,
/// the outputs by decreasing `s_x(y) = W[x][y] / q_y` are taken until their mass reaches
/// delta (the last one in part), and `ln max_x P(E | x) / delta` is returned. A lower
/// bound on the envelope (\[V\] Sec. IV-B). The outputs are selected a few at a time
/// in the order of a stable sort (`ranking`): the mass delta is usually reached
/// after a few outputs, and sorting all of them for every x is N^2 log N work over
/// a dense N x N design.
pub fn binary_envelope(mechanism: &Mechanism, prior: &Prior, delta: f64) -> Result<f64> {
    mechanism.check_inputs(prior)?;
    check_delta(delta)?;
    let q = mechanism.output_marginal(prior);
    let w = mechanism.matrix();
    let observed: Vec<usize> = (0..q.len()).filter(|&y| q[y] > 0.0).collect();
    let mut best: f64 = 0.0;
    let mut s = vec![0.0; q.len()];
    // Each output adds at most the largest mass.
    let largest = q.iter().copied().fold(0.0, f64::max);
    let at_least = (delta / largest).ceil().clamp(1.0, q.len() as f64) as usize;
    for x in 0..mechanism.inputs() {
        for &y in &observed {
            s[y] = w[[x, y]] / q[y];
        }
        let order = |a: &usize, b: &usize| s[*b].total_cmp(&s[*a]).then(a.cmp(b));
        let outputs = (observed.clone(), at_least);
        best = best.max(binary_value(w.row(x), q.view(), outputs, order, delta));
    }
    Ok(best.ln().max(0.0))
}

/// Lines 8-11 of \[V\] Algorithm 1 for one x, the outputs taken by `order` (decreasing `s_x`).
fn binary_value(
    row: ArrayView1<f64>,
    q: ArrayView1<f64>,
    (outputs, at_least): (Vec<usize>, usize),
    order: impl Fn(&usize, &usize) -> std::cmp::Ordering,
    delta: f64,
) -> f64 {
    let mut mass = 0.0;
    let mut conditional = 0.0;
    let mut value = None;
    in_order_until(outputs, order, at_least, |y| {
        if mass + q[y] >= delta - MASS_TOLERANCE {
            let zeta = ((delta - mass) / q[y]).clamp(0.0, 1.0);
            value = Some((conditional + zeta * row[y]) / delta);
            return false;
        }
        mass += q[y];
        conditional += row[y];
        true
    });
    // Rounding left the whole output space short of delta: take all of it.
    value.unwrap_or(conditional / mass.max(f64::MIN_POSITIVE))
}

/// `psi_1(eps) = E_{P_Y}[max(0, 1 - e^eps / e^{l(Y)})]` (\[V\] Sec. III): a lower bound on
/// the tail `P(l(Y) > eps)` that is *not* post-processing safe (\[V\] Theorem 1 (i)).
pub fn psi1(mechanism: &Mechanism, prior: &Prior, epsilon: f64) -> Result<f64> {
    mechanism.check_inputs(prior)?;
    let q = mechanism.output_marginal(prior);
    Ok(measures::pml_per_outcome(mechanism, prior)
        .into_iter()
        .zip(q.iter())
        .filter_map(|(l, &q)| l.map(|l| q * (-(epsilon - l).exp_m1()).max(0.0)))
        .sum())
}

/// `psi_2(eps) = max_x E_{P_{Y|X=x}}[max(0, 1 - e^eps / e^{i(x;Y)})]
/// = max_x sum_y max(0, W[x][y] - e^eps q_y)` (\[V\] Sec. III): post-processing safe
/// (\[V\] Theorem 1 (ii)), but not comparable with the tail.
pub fn psi2(mechanism: &Mechanism, prior: &Prior, epsilon: f64) -> Result<f64> {
    mechanism.check_inputs(prior)?;
    let q = mechanism.output_marginal(prior);
    let e = epsilon.exp();
    Ok(mechanism
        .matrix()
        .outer_iter()
        .map(|row| {
            row.iter()
                .zip(q.iter())
                .map(|(&w, &q)| (w - e * q).max(0.0))
                .sum::<f64>()
        })
        .fold(0.0, f64::max))
}

/// \[V\] Theorem 3: a mechanism that is eps-PML has `eps_c(delta) <= min(L + ln(1/delta),
/// eps)`, with `L` its maximal leakage. Pass `eps = max_y l(y)` for the sharpest bound.
pub fn theorem3_upper_bound(maximal_leakage: f64, epsilon: f64, delta: f64) -> f64 {
    (maximal_leakage - delta.ln()).min(epsilon)
}

/// Bounds on the envelope `eps_c(delta)` at one delta, with the raw quantiles.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EnvelopeBounds {
    /// The failure probability delta.
    pub delta: f64,
    /// Raw `eps_Y(delta)` (\[V\] eq. (9)): the smallest eps with W `(eps, delta)`-PML,
    /// which post-processing can exceed.
    pub left_quantile: f64,
    /// Raw `bar eps_Y(delta)`, the right quantile: a lower bound on the envelope.
    pub right_quantile: f64,
    /// The binary envelope `eps_b(delta)` (\[V\] Algorithm 1): a lower bound.
    pub binary: f64,
    /// `L + ln(1/delta)`: the Markov term of \[V\] Theorem 3.
    pub markov: f64,
    /// Lower bound `max(right_quantile, binary)` on `eps_c(delta)`.
    pub lower: f64,
    /// Upper bound `min(L + ln(1/delta), max_y l(y))` on `eps_c(delta)` (\[V\] Thm 3):
    /// for every post-processing Z, `P(l(X -> Z) > upper) <= delta`.
    pub upper: f64,
    /// Whether the bounds meet (within [`EXACT_TOLERANCE`]): then `eps_c(delta) = upper`.
    pub exact: bool,
}

impl EnvelopeBounds {
    /// The value of the envelope when the bounds meet.
    pub fn envelope(&self) -> Option<f64> {
        self.exact.then_some(self.upper)
    }
}

/// A mechanism and prior prepared for envelope bounds at many deltas.
#[derive(Debug, Clone)]
pub struct Envelope {
    mechanism: Mechanism,
    prior: Prior,
    distribution: LeakageDistribution,
    maximal_leakage: f64,
}

impl Envelope {
    /// Prepares W under p. Errors when W does not have one row per symbol of p.
    pub fn new(mechanism: &Mechanism, prior: &Prior) -> Result<Self> {
        let distribution = LeakageDistribution::new(mechanism, prior)?;
        Ok(Envelope {
            mechanism: mechanism.clone(),
            prior: prior.clone(),
            distribution,
            maximal_leakage: measures::maximal_leakage(mechanism),
        })
    }

    /// The leakage distribution of the reduced mechanism.
    pub fn distribution(&self) -> &LeakageDistribution {
        &self.distribution
    }

    /// Maximal leakage `L = ln sum_y max_x W[x][y]`.
    pub fn maximal_leakage(&self) -> f64 {
        self.maximal_leakage
    }

    /// `max_y l(y)`: the envelope never exceeds it (\[V\] Thm 3) and equals it for small delta.
    pub fn max_pml(&self) -> f64 {
        self.distribution.max_pml()
    }

    /// The bounds at one delta in `(0, 1)`.
    pub fn bounds(&self, delta: f64) -> Result<EnvelopeBounds> {
        let left_quantile = self.distribution.left_quantile(delta)?;
        let right_quantile = self.distribution.right_quantile(delta)?;
        let binary = binary_envelope(&self.mechanism, &self.prior, delta)?;
        let markov = self.maximal_leakage - delta.ln();
        let upper = theorem3_upper_bound(self.maximal_leakage, self.max_pml(), delta);
        let lower = right_quantile.max(binary).min(upper);
        Ok(EnvelopeBounds {
            delta,
            left_quantile,
            right_quantile,
            binary,
            markov,
            lower,
            upper,
            exact: upper - lower <= EXACT_TOLERANCE,
        })
    }

    /// The bounds at each delta of a grid.
    pub fn curve(&self, deltas: &[f64]) -> Result<Vec<EnvelopeBounds>> {
        deltas.iter().map(|&d| self.bounds(d)).collect()
    }
}

/// \[V\] Theorem 4: the high-privacy extremal mechanism (\[V\] Sec. V-A, the closed form of
/// region 1) at `0 <= eps < -ln(1 - p_min)` has envelope `eps_c(delta) = eps` for every
/// delta. Returns eps after checking the hypothesis.
pub fn high_privacy_envelope(prior: &Prior, epsilon: f64, delta: f64) -> Result<f64> {
    check_delta(delta)?;
    let limit = measures::privacy_thresholds(prior)[1];
    if !(epsilon.is_finite() && epsilon >= 0.0 && epsilon < limit) {
        return Err(ModelError::invalid(
            "epsilon",
            epsilon,
            format!("Theorem 4 needs 0 <= eps < -ln(1 - p_min) = {limit}"),
            "use the general bounds (Envelope) for other mechanisms",
        ));
    }
    Ok(epsilon)
}

/// \[V\] Theorem 5: the envelope of k-ary randomized response (\[V\] eq. (14)) with LDP
/// parameter `e_r > 0` under a prior on k symbols.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RandomizedResponseEnvelope {
    /// `alpha = e^e_r / (e^e_r + k - 1)`, the diagonal entry.
    pub alpha: f64,
    /// `beta = 1 / (e^e_r + k - 1)`, the off-diagonal entry.
    pub beta: f64,
    /// The prior sorted ascending, `p_1 <= .. <= p_k`.
    pub sorted_prior: Vec<f64>,
    /// `q_j = beta + (alpha - beta) p_j`, ascending.
    pub sorted_outputs: Vec<f64>,
}

impl RandomizedResponseEnvelope {
    /// Prepares k-RR for the prior (k = its size). Errors unless `e_r` is finite and > 0.
    pub fn new(prior: &Prior, ldp_epsilon: f64) -> Result<Self> {
        if !(ldp_epsilon.is_finite() && ldp_epsilon > 0.0) {
            return Err(ModelError::invalid(
                "ldp epsilon",
                ldp_epsilon,
                "Theorem 5 needs a finite LDP parameter e_r > 0",
                "pass e_r > 0 (e_r = 0 releases nothing, e_r = inf is the identity)",
            ));
        }
        let k = prior.len() as f64;
        // Divide through by e^e_r to stay finite for large e_r.
        let off = (-ldp_epsilon).exp();
        let z = 1.0 + (k - 1.0) * off;
        let (alpha, beta) = (1.0 / z, off / z);
        let mut sorted_prior = prior.masses().to_vec();
        sorted_prior.sort_by(f64::total_cmp);
        let sorted_outputs = sorted_prior
            .iter()
            .map(|p| beta + (alpha - beta) * p)
            .collect();
        Ok(RandomizedResponseEnvelope {
            alpha,
            beta,
            sorted_prior,
            sorted_outputs,
        })
    }

    /// `ln(alpha / q_1)`: the largest PML of an outcome, and the envelope for
    /// `delta <= q_1` (\[V\] Theorem 5 (i)).
    pub fn max_pml(&self) -> f64 {
        (self.alpha / self.sorted_outputs[0]).ln()
    }

    /// \[V\] Theorem 5 (i): the exact envelope `ln(alpha / q_1)` when `delta <= q_1`,
    /// `None` for larger delta.
    pub fn exact(&self, delta: f64) -> Result<Option<f64>> {
        check_delta(delta)?;
        Ok((delta <= self.sorted_outputs[0]).then(|| self.max_pml()))
    }

    /// \[V\] Theorem 5 (ii): `eps_c(delta) <= min(ln(k alpha / delta), ln(alpha / q_1))`.
    pub fn upper_bound(&self, delta: f64) -> Result<f64> {
        check_delta(delta)?;
        let k = self.sorted_outputs.len() as f64;
        Ok((k * self.alpha / delta).ln().min(self.max_pml()))
    }

    /// \[V\] Theorem 5 (iii): the lower bound `h_delta(theta)` for `delta > q_1` when the
    /// prior satisfies condition (19) at the index N of delta; `None` otherwise. For
    /// `delta <= q_1` it returns the exact value of part (i).
    pub fn lower_bound(&self, delta: f64) -> Result<Option<f64>> {
        if let Some(e) = self.exact(delta)? {
            return Ok(Some(e));
        }
        let (a, b) = (self.alpha, self.beta);
        let q = &self.sorted_outputs;
        let p = &self.sorted_prior;
        let k = q.len();
        // N (1-based) with sum_{j < N} q_j < delta <= sum_{j <= N} q_j.
        let mut before = q[0];
        let mut n = 2;
        while n < k && before + q[n - 1] < delta {
            before += q[n - 1];
            n += 1;
        }
        let (qn1, qn) = (q[n - 2], q[n - 1]);
        let theta = ((delta - before) / qn).clamp(f64::MIN_POSITIVE, 1.0);
        // Condition (19): p_N <= (alpha sum_{j<N} p_j + beta) / ((N-2) alpha + beta).
        let p_before: f64 = p[..n - 1].iter().sum();
        let nf = n as f64;
        if p[n - 1] > (a * p_before + b) / ((nf - 2.0) * a + b) * (1.0 + 1e-12) {
            return Ok(None);
        }
        let q_before_n1: f64 = q[..n - 2].iter().sum();
        let theta1 = a * ((nf - 2.0) * qn1 - q_before_n1) / (a * qn - b * qn1);
        let theta2 = a * ((nf - 1.0) * qn - before) / (qn * (a - b));
        let h = if theta <= theta1 {
            (a / qn1).ln()
        } else if theta <= theta2 {
            (((nf - 1.0) * a + theta * b) / delta).ln()
        } else {
            (a / qn).ln()
        };
        Ok(Some(h))
    }
}
