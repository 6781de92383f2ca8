//! Additive noise on a binary secret (\[E\] Sec. VI; `docs/theory.md` §7).
//!
//! X takes values in `{-1, +1}`; a binary [`Prior`] lists `[P(X = -1), P(X = +1)]` in
//! that order. The mechanism releases `Y = X + N` with N independent of X, and the PML
//! of an outcome is `l(y) = ln(max_x f(y|x) / f_Y(y))` (\[E\] Sec. VI, before (15)).
//!
//! - **Laplace** `N ~ Lap(b)` (\[E\] (15)): every outcome leaks at most
//!   `eps(b) = 2/b - ln(e^(2/b) p_min + 1 - p_min)` (\[E\] Proposition 3), i.e.
//!   `e^-eps = p_min + (1 - p_min) e^(-2/b)`. Over the l1 ball `B_beta(p^)` the worst prior
//!   has the smallest minimum mass, `p^_min - beta/2` (\[E\] eq. (16)); beta = 1 around
//!   `(1/2, 1/2)` gives the LDP value `2/b` (\[E\] Remark 4).
//! - **Gaussian** `N ~ N(0, sigma^2)`: the leakage is unbounded, so the guarantee is
//!   `(eps, delta)`. For `y >= 0`, `l(y) = -ln(p_+ + p_- e^(-2y/sigma^2))` grows with y
//!   (and mirrored for `y < 0`), so the violating set `E_eps(P) = {y : l(y) > eps}` is
//!   the union of two half-lines whose end points solve `l(y) = eps` in closed form.
//!   `delta_1(eps)` (\[E\] eq. (17)) is the supremum of `P_Y(E_eps(P))` over the ball,
//!   found by branch and bound with a reported error bound; then
//!   `eps* = eps - ln(1 - beta(delta_2) e^eps / 2)` and
//!   `delta* = delta_1 + delta_2 - delta_1 delta_2` (\[E\] Sec. VI-B).
//! - **pLDP comparator** (\[E\] Sec. VI-C2, from [34, Thm 8] with sensitivity 2):
//!   `sigma = sqrt(2) (f + sqrt(f^2 + eps)) / eps`, `f = erfc^-1(delta)`.
//!
//! ```
//! use pmldesign_model::{Prior, additive};
//! let p = Prior::new(vec![0.76, 0.24])?;
//! let b = additive::laplace_scale(2f64.ln(), &p)?;
//! assert!((additive::laplace_epsilon(b, &p)? - 2f64.ln()).abs() < 1e-12);
//! // LDP needs more noise: b = 2/eps.
//! assert!(additive::laplace_ldp_scale(2f64.ln())? > b);
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

use crate::error::{ModelError, Result};
use crate::prior::Prior;
use crate::sample;
use serde::Serialize;
use statrs::function::erf::{erfc, erfc_inv};
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::f64::consts::SQRT_2;

/// Relative accuracy at which [`gaussian_delta1`] stops refining: it stops once the
/// upper bound on the supremum exceeds the best value found by at most this fraction
/// of that value (or by [`DELTA1_ABSOLUTE_TOLERANCE`]).
///
/// The interval bound is first order (its slack shrinks like the interval width), so at
/// a smooth interior maximum the number of intervals grows like `tol^(-1/2)`; 1e-6
/// keeps a call near a millisecond and is far below any failure probability of interest.
pub const DELTA1_RELATIVE_TOLERANCE: f64 = 1e-6;

/// Absolute accuracy at which [`gaussian_delta1`] stops refining.
pub const DELTA1_ABSOLUTE_TOLERANCE: f64 = 1e-18;

/// Most interval splits [`gaussian_delta1`] makes; the error bound it reports is valid
/// whether or not the tolerance was reached.
pub const DELTA1_MAX_SPLITS: usize = 100_000;

// ---------------------------------------------------------------------------------
// Laplace ([E] Sec. VI-A)
// ---------------------------------------------------------------------------------

/// PML of the outcome y of the binary Laplace mechanism `Y = X + Lap(b)` (\[E\] (15),
/// App. E): `l(y) = ln(max_x e^(-|y-x|/b) / sum_x P(x) e^(-|y-x|/b))`.
pub fn laplace_leakage(b: f64, prior: &Prior, y: f64) -> Result<f64> {
    check_scale("b", b)?;
    let (p_minus, p_plus) = binary(prior)?;
    check_finite("y", y)?;
    let a_minus = -(y + 1.0).abs() / b;
    let a_plus = -(y - 1.0).abs() / b;
    let top = a_minus.max(a_plus);
    Ok(-(p_minus * (a_minus - top).exp() + p_plus * (a_plus - top).exp()).ln())
}

/// `eps(b) = 2/b - ln(e^(2/b) p_min + 1 - p_min)` (\[E\] Proposition 3): the largest PML
/// of any outcome of the binary Laplace mechanism with scale b, for a known prior.
pub fn laplace_epsilon(b: f64, prior: &Prior) -> Result<f64> {
    check_scale("b", b)?;
    binary(prior)?;
    Ok(laplace_epsilon_at(b, prior.min_mass()))
}

/// `eps(b, delta)` of \[E\] eq. (16): the largest PML of the Laplace mechanism over every
/// prior within l1 distance `beta` of the estimate, i.e. Proposition 3 at
/// `p_min = p^_min - beta/2`.
///
/// With `beta = beta*(delta)` of \[E\] eq. (14) (`sample::radius_free(m, delta, 2)`) the
/// mechanism is `eps(b, delta)`-PML for the true prior with probability `>= 1 - delta`.
/// For `beta >= 2 p^_min` the ball reaches the degenerate priors, the supremum is the
/// LDP value `2/b` (\[E\] Remark 4), and that is returned.
pub fn laplace_epsilon_ball(b: f64, estimate: &Prior, beta: f64) -> Result<f64> {
    check_scale("b", b)?;
    let p_min = ball_min_mass(estimate, beta)?;
    Ok(laplace_epsilon_at(b, p_min))
}

/// The scale b at which the binary Laplace mechanism is exactly eps-PML for a known
/// prior (\[E\] Proposition 3 inverted): `e^(-2/b) = (e^-eps - p_min) / (1 - p_min)`.
///
/// Returns `0.0` when `eps >= eps_max = -ln p_min` (releasing X itself is eps-PML, no
/// noise is needed) and `f64::INFINITY` when `eps = 0`.
pub fn laplace_scale(eps: f64, prior: &Prior) -> Result<f64> {
    sample::check_eps("eps", eps)?;
    binary(prior)?;
    Ok(laplace_scale_at(eps, prior.min_mass()))
}

/// The scale b at which the Laplace mechanism is exactly eps-PML over the ball
/// `B_beta(p^)` (\[E\] eq. (16) inverted), i.e. [`laplace_scale`] at `p^_min - beta/2`;
/// the LDP scale `2/eps` when `beta >= 2 p^_min`.
pub fn laplace_scale_ball(eps: f64, estimate: &Prior, beta: f64) -> Result<f64> {
    sample::check_eps("eps", eps)?;
    let p_min = ball_min_mass(estimate, beta)?;
    Ok(laplace_scale_at(eps, p_min))
}

/// The eps-LDP scale of the binary Laplace mechanism, `b = 2/eps` (sensitivity 2;
/// \[E\] Remark 4, the baseline of Figs 4-5). `f64::INFINITY` for `eps = 0`.
pub fn laplace_ldp_scale(eps: f64) -> Result<f64> {
    sample::check_eps("eps", eps)?;
    Ok(2.0 / eps)
}

/// `-ln(p_min + (1 - p_min) e^(-2/b))`, written without cancellation.
fn laplace_epsilon_at(b: f64, p_min: f64) -> f64 {
    -((1.0 - p_min) * (-2.0 / b).exp_m1()).ln_1p()
}

/// The inverse of [`laplace_epsilon_at`] in b.
fn laplace_scale_at(eps: f64, p_min: f64) -> f64 {
    let r = (-eps).exp_m1() / (1.0 - p_min);
    if r <= -1.0 {
        return 0.0;
    }
    -2.0 / r.ln_1p()
}

/// `max(p^_min - beta/2, 0)`, the smallest minimum mass over the ball.
fn ball_min_mass(estimate: &Prior, beta: f64) -> Result<f64> {
    binary(estimate)?;
    check_beta(beta)?;
    Ok((estimate.min_mass() - beta / 2.0).max(0.0))
}

// ---------------------------------------------------------------------------------
// Gaussian ([E] Sec. VI-B)
// ---------------------------------------------------------------------------------

/// PML of the outcome y of the binary Gaussian mechanism `Y = X + N(0, sigma^2)`
/// (\[E\] Sec. VI-B): `-ln(P(+1) + P(-1) e^(-2y/sigma^2))` for `y >= 0`, mirrored for
/// `y < 0`.
pub fn gaussian_leakage(sigma: f64, prior: &Prior, y: f64) -> Result<f64> {
    check_scale("sigma", sigma)?;
    let (p_minus, p_plus) = binary(prior)?;
    check_finite("y", y)?;
    // The weight of the symbol farther from y.
    let far = if y >= 0.0 { p_minus } else { p_plus };
    Ok(-(far * (-2.0 * y.abs() / (sigma * sigma)).exp_m1()).ln_1p())
}

/// The set of outcomes whose PML exceeds eps, `E_eps(P) = (-inf, -below) ∪ (above, inf)`
/// (\[E\] Sec. VI-B, before (17)); `None` marks an empty half.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ViolationSet {
    /// `s >= 0` with `l(-s) = eps`: outcomes `y < -s` violate. `None` when no negative
    /// outcome does (`e^-eps <= P(-1)`).
    pub below: Option<f64>,
    /// `t >= 0` with `l(t) = eps`: outcomes `y > t` violate. `None` when no positive
    /// outcome does (`e^-eps <= P(+1)`).
    pub above: Option<f64>,
}

/// The violating set `E_eps(P)` of the binary Gaussian mechanism. `l` is increasing in
/// `|y|` on each half-line, so `l(y) = eps` has at most one root per half:
/// `t = -(sigma^2 / 2) ln(1 + (e^-eps - 1) / P(-1))` for `y > 0` (and the mirror).
pub fn gaussian_violation_set(sigma: f64, prior: &Prior, eps: f64) -> Result<ViolationSet> {
    check_scale("sigma", sigma)?;
    let (p_minus, p_plus) = binary(prior)?;
    sample::check_eps("eps", eps)?;
    Ok(violation_set(sigma, p_plus, p_minus, eps))
}

/// `P_Y(E_eps(P))`: the probability that the Gaussian mechanism emits an outcome of PML
/// above eps under the prior P (the quantity maximised in \[E\] eq. (17)).
pub fn gaussian_violation_probability(sigma: f64, prior: &Prior, eps: f64) -> Result<f64> {
    check_scale("sigma", sigma)?;
    let (_, p_plus) = binary(prior)?;
    sample::check_eps("eps", eps)?;
    Ok(violation_probability(sigma, p_plus, eps))
}

/// `delta_1(eps)` of \[E\] eq. (17) with its accuracy.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Delta1 {
    /// The violation probability at [`Delta1::worst_prior`]: a value the supremum
    /// attains, so `delta1 <= sup <= delta1 + error_bound`.
    pub delta1: f64,
    /// Bound on `sup - delta1`, from the interval upper bounds (0 for a single prior).
    pub error_bound: f64,
    /// `P(X = +1)` of the prior of the ball at which `delta1` is attained.
    pub worst_prior: f64,
    /// Number of priors at which the violation probability was evaluated.
    pub evaluations: usize,
}

impl Delta1 {
    /// `min(delta1 + error_bound, 1)`: an upper bound on the supremum (exact up to the
    /// rounding of the normal tail function).
    pub fn upper(&self) -> f64 {
        (self.delta1 + self.error_bound).min(1.0)
    }
}

/// `delta_1(eps) = sup_{P in B_beta(p^)} P_Y(E_eps(P))` (\[E\] eq. (17)) for the binary
/// Gaussian mechanism with noise sigma; `beta = 0` is the known prior `p^`.
///
/// The ball is the interval `|P(+1) - p^(+1)| <= beta/2` (clipped to `[0, 1]`; the
/// supremum over the open simplex equals the maximum over its closure, the function
/// being continuous). Writing `p = P(+1)`, the positive end point `t(p)` of
/// [`gaussian_violation_set`] increases with p and the negative one decreases, and the
/// Gaussian tail is decreasing, so on `[a, c]`
///
/// `P_Y(E(p)) <= c Q((t(a)-1)/sigma) + (1-c) Q((t(a)+1)/sigma)
///              + (1-a) Q((s(c)-1)/sigma) + a Q((s(c)+1)/sigma)`
///
/// (at fixed end points each half is linear in p, increasing for the positive half
/// and decreasing for the negative one, since `Q((t-1)/sigma) >= Q((t+1)/sigma)`).
///
/// Branch and bound splits the interval of largest bound until that bound exceeds the
/// best value found by at most [`DELTA1_RELATIVE_TOLERANCE`] of it (or
/// [`DELTA1_ABSOLUTE_TOLERANCE`], or after [`DELTA1_MAX_SPLITS`]); the remaining gap is
/// returned as [`Delta1::error_bound`]. No grid: the bound holds between the points.
pub fn gaussian_delta1(sigma: f64, estimate: &Prior, beta: f64, eps: f64) -> Result<Delta1> {
    check_scale("sigma", sigma)?;
    let (_, p_hat) = binary(estimate)?;
    check_beta(beta)?;
    sample::check_eps("eps", eps)?;
    let lo = (p_hat - beta / 2.0).max(0.0);
    let hi = (p_hat + beta / 2.0).min(1.0);
    let g = |p: f64| violation_probability(sigma, p, eps);

    let (g_lo, g_hi) = (g(lo), g(hi));
    let mut best = if g_hi > g_lo { (g_hi, hi) } else { (g_lo, lo) };
    let mut evaluations = 2;
    let mut heap = BinaryHeap::new();
    if hi > lo {
        heap.push(Interval {
            lo,
            hi,
            bound: interval_bound(sigma, lo, hi, eps),
        });
    }
    let mut splits = 0;
    let mut error_bound = 0.0;
    while let Some(top) = heap.pop() {
        let gap = top.bound - best.0;
        let tol = DELTA1_ABSOLUTE_TOLERANCE.max(DELTA1_RELATIVE_TOLERANCE * best.0);
        let mid = 0.5 * (top.lo + top.hi);
        if gap <= tol || splits >= DELTA1_MAX_SPLITS || !(top.lo < mid && mid < top.hi) {
            error_bound = gap.max(0.0);
            break;
        }
        splits += 1;
        let g_mid = g(mid);
        evaluations += 1;
        if g_mid > best.0 {
            best = (g_mid, mid);
        }
        for (a, c) in [(top.lo, mid), (mid, top.hi)] {
            let bound = interval_bound(sigma, a, c, eps);
            if bound > best.0 {
                heap.push(Interval {
                    lo: a,
                    hi: c,
                    bound,
                });
            }
        }
    }
    Ok(Delta1 {
        delta1: best.0,
        error_bound,
        worst_prior: best.1,
        evaluations,
    })
}

/// The `(eps*, delta*)` guarantee of the binary Gaussian mechanism designed from an
/// estimate (\[E\] Sec. VI-B).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct GaussianGuarantee {
    /// The PML level eps of the violating set.
    pub eps: f64,
    /// The ball radius `beta*(delta_2)` of \[E\] eq. (14).
    pub beta: f64,
    /// `delta_1(eps)` over the ball (\[E\] eq. (17)).
    pub delta1: Delta1,
    /// The estimation failure probability `delta_2`.
    pub delta2: f64,
    /// `eps* = eps - ln(1 - beta e^eps / 2)` (\[E\] Sec. VI-B, eq. (8)).
    pub eps_star: f64,
    /// `delta* = delta_1 + delta_2 - delta_1 delta_2`, with the certified upper value
    /// [`Delta1::upper`] for `delta_1`.
    pub delta_star: f64,
}

/// The `(eps*, delta*)`-PML guarantee of the binary Gaussian mechanism with noise sigma
/// for an estimate `p^` from m samples, estimation failure probability `delta_2` and
/// level eps (\[E\] Sec. VI-B): `beta = beta*(delta_2)` of eq. (14), `delta_1` over
/// `B_beta(p^)` by [`gaussian_delta1`], then eps* and delta*.
///
/// Needs `beta e^eps < 2` (the bound of eq. (8)); the error names the largest eps.
pub fn gaussian_guarantee(
    sigma: f64,
    estimate: &Prior,
    m: u64,
    delta2: f64,
    eps: f64,
) -> Result<GaussianGuarantee> {
    binary(estimate)?;
    let beta = sample::radius_free(m, delta2, 2)?;
    let eps_star = sample::epsilon_prime(eps, beta)?;
    // eq. (8) refused beta e^eps >= 2 above, so beta < 2 here.
    let delta1 = gaussian_delta1(sigma, estimate, beta, eps)?;
    let d1 = delta1.upper();
    Ok(GaussianGuarantee {
        eps,
        beta,
        delta1,
        delta2,
        eps_star,
        delta_star: d1 + delta2 - d1 * delta2,
    })
}

/// The noise of the Gaussian `(eps, delta)`-pLDP mechanism on `{-1, +1}` (\[E\] Sec.
/// VI-C2, [34, Thm 8] with sensitivity 2): `sigma = sqrt(2) (f + sqrt(f^2 + eps)) / eps`,
/// `f = erfc^-1(delta)`. Needs `eps > 0` and `0 < delta < 1`.
pub fn pldp_sigma(eps: f64, delta: f64) -> Result<f64> {
    sample::check_eps("eps", eps)?;
    if eps == 0.0 {
        return Err(ModelError::invalid(
            "eps",
            eps,
            "eps = 0 needs infinite Gaussian noise",
            "pass eps > 0, for example 1.0",
        ));
    }
    if !(delta > 0.0 && delta < 1.0) {
        return Err(ModelError::invalid(
            "delta",
            delta,
            "the pLDP failure probability must lie strictly between 0 and 1",
            "pass a small probability such as 1e-6",
        ));
    }
    let f = erfc_inv(delta);
    Ok(SQRT_2 * (f + (f * f + eps).sqrt()) / eps)
}

/// [`pldp_sigma`] solved for delta at a given sigma: `delta = erfc(f)` with
/// `f = (s^2 - eps) / (2 s)`, `s = sigma eps / sqrt(2)`, i.e.
/// `delta = erfc((sigma^2 eps - 2) / (2 sqrt(2) sigma))`, capped at 1.
pub fn pldp_delta(sigma: f64, eps: f64) -> Result<f64> {
    check_scale("sigma", sigma)?;
    sample::check_eps("eps", eps)?;
    let f = (sigma * sigma * eps - 2.0) / (2.0 * SQRT_2 * sigma);
    Ok(erfc(f).min(1.0))
}

/// End points for `p_plus = P(+1)`, `p_minus = P(-1)`.
fn violation_set(sigma: f64, p_plus: f64, p_minus: f64, eps: f64) -> ViolationSet {
    ViolationSet {
        below: end_point(sigma, p_plus, eps),
        above: end_point(sigma, p_minus, eps),
    }
}

/// The root `a >= 0` of `-ln(1 + far (e^(-2a/sigma^2) - 1)) = eps`, where `far` is the
/// mass of the symbol on the other side; `None` if the leakage never exceeds eps there.
fn end_point(sigma: f64, far: f64, eps: f64) -> Option<f64> {
    if far <= 0.0 {
        return None;
    }
    let r = (-eps).exp_m1() / far;
    (r > -1.0).then(|| -0.5 * sigma * sigma * r.ln_1p())
}

/// Standard normal upper tail `Q(z)`.
fn normal_tail(z: f64) -> f64 {
    0.5 * erfc(z / SQRT_2)
}

/// Mass above t of the mixture, with the weights `w_minus` on `-1 + G`, `w_plus` on `1 + G`.
fn tail_above(sigma: f64, t: Option<f64>, w_plus: f64, w_minus: f64) -> f64 {
    t.map_or(0.0, |t| {
        w_plus * normal_tail((t - 1.0) / sigma) + w_minus * normal_tail((t + 1.0) / sigma)
    })
}

/// `P_Y(E_eps(P))` for `p = P(+1)` in `[0, 1]`.
fn violation_probability(sigma: f64, p: f64, eps: f64) -> f64 {
    let q = 1.0 - p;
    let set = violation_set(sigma, p, q, eps);
    // By symmetry, P(Y < -s) = P(-Y > s) with the roles of the symbols swapped.
    (tail_above(sigma, set.above, p, q) + tail_above(sigma, set.below, q, p)).min(1.0)
}

/// Upper bound of [`violation_probability`] over `p in [a, c]` (see [`gaussian_delta1`]).
fn interval_bound(sigma: f64, a: f64, c: f64, eps: f64) -> f64 {
    let above = end_point(sigma, 1.0 - a, eps);
    let below = end_point(sigma, c, eps);
    // Each half is `w Q((t-1)/sigma) + (1-w) Q((t+1)/sigma)` with the first tail the
    // larger, so at fixed t it is largest at the largest near weight w.
    (tail_above(sigma, above, c, 1.0 - c) + tail_above(sigma, below, 1.0 - a, a)).min(1.0)
}

/// A sub-interval of priors with its upper bound, ordered by the bound.
struct Interval {
    lo: f64,
    hi: f64,
    bound: f64,
}

impl PartialEq for Interval {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Interval {}

impl PartialOrd for Interval {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Interval {
    fn cmp(&self, other: &Self) -> Ordering {
        self.bound.total_cmp(&other.bound)
    }
}

// ---------------------------------------------------------------------------------
// Input checks
// ---------------------------------------------------------------------------------

/// `(P(-1), P(+1))` of a binary prior.
fn binary(prior: &Prior) -> Result<(f64, f64)> {
    if prior.len() != 2 {
        return Err(ModelError::invalid(
            "prior",
            format!("{} masses", prior.len()),
            "the additive mechanisms act on a binary secret X in {-1, +1}",
            "pass two masses [P(X = -1), P(X = +1)], for example [0.76, 0.24]",
        ));
    }
    let m = prior.masses();
    Ok((m[0], m[1]))
}

fn check_scale(field: &str, value: f64) -> Result<()> {
    if !(value.is_finite() && value > 0.0) {
        return Err(ModelError::invalid(
            field,
            value,
            "a noise scale must be a finite number > 0",
            "pass a positive scale such as 1.5",
        ));
    }
    Ok(())
}

fn check_finite(field: &str, value: f64) -> Result<()> {
    if !value.is_finite() {
        return Err(ModelError::invalid(
            field,
            value,
            "an outcome must be a finite number",
            "pass a real outcome such as 0.3",
        ));
    }
    Ok(())
}

fn check_beta(beta: f64) -> Result<()> {
    if !(beta.is_finite() && (0.0..=2.0).contains(&beta)) {
        return Err(ModelError::invalid(
            "beta",
            beta,
            "the l1 radius must lie in [0, 2] (l1 distances between distributions are at most 2)",
            "pass beta*(delta) from sample::radius_free(m, delta, 2); beta = 2 already covers every prior",
        ));
    }
    Ok(())
}
