//! Guarantees from samples (\[E\] Sec. II-B, IV-D; `docs/theory.md` §6).
//!
//! A prior estimated from `m` i.i.d. samples, `p^_x = count_x / m`, is within l1
//! distance `beta` of the true prior with probability at least `1 - delta`
//! (\[E\] Theorem 2). A mechanism designed to be eps-PML over the whole ball
//! `B_beta(p^)` is therefore eps-PML for the true prior with probability `>= 1 - delta`;
//! a mechanism that is eps-PML for the point estimate `p^` only is `eps'(delta)`-PML
//! for the true prior with that probability (\[E\] eq. (8)).
//!
//! Relations implemented here, with `L_N = ln(2^N - 2)`:
//!
//! - eq. (7), distribution-free radius: `beta*(delta) = sqrt((2/m)(L_N - ln delta))`;
//! - Theorem 2 radius: `beta = sqrt(4 (L_N - ln delta) / (m phi(kappa_p)))`;
//! - eq. (8): `eps' = eps - ln(1 - beta e^eps / 2)`, i.e. `e^-eps' = e^-eps - beta/2`;
//! - Corollary 3: `delta_min(eps') = (2^N - 2) exp(-2 m (e^-eps - e^-eps')^2)`.
//!
//! Eq. (8) with `beta = beta*(delta)` and Corollary 3 are the same relation read two
//! ways: from (8), `beta*(delta) = 2 (e^-eps - e^-eps')`, and solving (7) for delta
//! gives Corollary 3. So designing at eps, taking `eps'(delta)` from (8) and feeding it
//! to [`delta_min`] returns delta again (up to rounding).
//!
//! ```
//! use pmldesign_model::sample;
//! // N = 20 categories, m = 10 000 samples, failure probability 1e-6.
//! let beta = sample::radius_free(10_000, 1e-6, 20)?;
//! assert!((beta - 0.0744).abs() < 1e-3);
//! let eps_prime = sample::epsilon_prime(5f64.ln(), beta)?;
//! let delta = sample::delta_min(5f64.ln(), eps_prime, 10_000, 20)?;
//! assert!((delta / 1e-6 - 1.0).abs() < 1e-9);
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

use crate::error::{ModelError, Result};
use crate::prior::Prior;
use serde::{Deserialize, Serialize};
use std::f64::consts::LN_2;

/// Largest alphabet for which [`kappa`] is computed exactly; above it [`kappa`]
/// returns the distribution-free value [`KAPPA_DISTRIBUTION_FREE`].
pub const KAPPA_EXACT_MAX_N: usize = 40;

/// The distribution-free kappa, `1/2`: `phi` is decreasing, so `phi(1/2) = 2` is
/// its minimum and the Theorem 2 radius with it holds for every prior (it equals
/// the radius of \[E\] eq. (7)).
pub const KAPPA_DISTRIBUTION_FREE: f64 = 0.5;

/// The largest sample size m: up to 2^53 every count and the total are exact in
/// the f64 arithmetic of the bounds.
pub const MAX_SAMPLES: u64 = 1 << 53;

/// How the l1 radius is derived from the sample size m and the failure
/// probability delta (\[E\] eq. (7) or Theorem 2; `docs/theory.md` §6).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RadiusMethod {
    /// The distribution-free `beta*(delta)` of \[E\] eq. (7).
    DistributionFree,
    /// Theorem 2 with `phi(kappa)` evaluated at the estimate in place of the unknown
    /// prior: sharper, but a plug-in.
    Kappa,
}

impl RadiusMethod {
    /// Where the radius comes from, in a report's words:
    /// `distribution-free, eq. (7)` or `Theorem 2 with phi(kappa)`.
    pub fn describe(self) -> &'static str {
        match self {
            RadiusMethod::DistributionFree => "distribution-free, eq. (7)",
            RadiusMethod::Kappa => "Theorem 2 with phi(kappa)",
        }
    }

    /// The l1 radius from `m` samples of `estimate` with failure probability delta:
    /// [`radius_free`] or [`radius_kappa`].
    pub fn radius(self, m: u64, delta: f64, estimate: &Prior) -> Result<f64> {
        match self {
            RadiusMethod::DistributionFree => radius_free(m, delta, estimate.len()),
            RadiusMethod::Kappa => radius_kappa(m, delta, estimate),
        }
    }

    /// The `phi` of Theorem 2 this method uses: `phi(1/2) = 2` without an estimate
    /// ([`KAPPA_DISTRIBUTION_FREE`]), `phi(kappa)` of the estimate with one. The
    /// kappa method without an estimate is an error.
    pub fn phi(self, estimate: Option<&Prior>) -> Result<f64> {
        match (self, estimate) {
            (RadiusMethod::DistributionFree, _) => phi(KAPPA_DISTRIBUTION_FREE),
            (RadiusMethod::Kappa, Some(p)) => phi(kappa(p)),
            (RadiusMethod::Kappa, None) => Err(ModelError::invalid(
                "radius method",
                "kappa",
                "Theorem 2 needs kappa of a prior and no estimate was given",
                "give the estimate, or use the distribution-free radius",
            )),
        }
    }
}

/// The sample size `m = sum_x count_x` behind counts (\[E\] eq. (3)); an error naming
/// the first count at which the total passes [`MAX_SAMPLES`].
pub fn sample_size(counts: &[u64]) -> Result<u64> {
    let mut total: u64 = 0;
    for (i, &c) in counts.iter().enumerate() {
        total = total.saturating_add(c);
        if total > MAX_SAMPLES {
            return Err(ModelError::invalid(
                format!("counts[{i}]"),
                c,
                format!(
                    "the total m exceeds 2^53 = {MAX_SAMPLES} here, beyond which it is not exact"
                ),
                "give counts totalling at most 2^53",
            ));
        }
    }
    Ok(total)
}

/// `phi(t) = ln((1 - t) / t) / (1 - 2t)` on `(0, 1/2]`, with `phi(1/2) = 2` by
/// continuity (\[E\] Sec. II-B, before Theorem 2).
///
/// `phi` is decreasing on `(0, 1/2]`, so `phi(t) >= 2` everywhere. Near `t = 1/2` it
/// is evaluated for `t >= 1/4` as `2 atanh(u) / u` with `u = 1 - 2t` (exact there) and
/// its Taylor series for tiny `u`, which has no cancellation.
pub fn phi(t: f64) -> Result<f64> {
    if !(t > 0.0 && t <= 0.5) {
        return Err(ModelError::invalid(
            "t",
            t,
            "phi is defined on (0, 1/2]",
            "pass kappa_p, which lies in (0, 1/2] for every full-support prior",
        ));
    }
    if t < 0.25 {
        // 1 - 2t >= 1/2: the direct formula has no cancellation.
        return Ok(((1.0 - t) / t).ln() / (1.0 - 2.0 * t));
    }
    // Exact for t in [1/4, 1/2] (Sterbenz).
    let u = 1.0 - 2.0 * t;
    if u < 1e-4 {
        // ln((1+u)/(1-u)) / u = 2 (1 + u^2/3 + u^4/5 + ...); the next term is < 1e-24.
        let u2 = u * u;
        Ok(2.0 * (1.0 + u2 / 3.0 + u2 * u2 / 5.0))
    } else {
        Ok(2.0 * u.atanh() / u)
    }
}

/// `kappa_p = max_A min(p(A), 1 - p(A))` over subsets A of the alphabet (\[E\] Sec. II-B,
/// the argument of phi in Theorem 2).
///
/// Exact for `N <= KAPPA_EXACT_MAX_N` (40): it is the subset sum closest to 1/2, found by
/// meet-in-the-middle over the `2^(N-1)` subsets that leave out symbol 0 (A and its
/// complement give the same value), in `O(2^(N/2) N)` time.
///
/// For larger N it returns `1/2`, the conservative, distribution-free choice: `phi` is
/// decreasing, so `phi(kappa_p) >= phi(1/2) = 2` for every prior, and using 1/2 can only
/// enlarge the radius of [`radius_kappa`] (it then equals [`radius_free`]).
pub fn kappa(p: &Prior) -> f64 {
    let masses = p.masses().to_vec();
    let n = masses.len();
    if n > KAPPA_EXACT_MAX_N {
        return KAPPA_DISTRIBUTION_FREE;
    }
    // Subsets of symbols 1..n, split into two halves.
    let rest = &masses[1..];
    let (left, right) = rest.split_at(rest.len() / 2);
    let lo = subset_sums(left);
    let mut hi = subset_sums(right);
    hi.sort_unstable_by(f64::total_cmp);
    let mut best = 0.0f64;
    for &a in &lo {
        // min(s, 1 - s) is unimodal in b with its peak at b = 1/2 - a: only the two
        // neighbours of that point in sorted `hi` can be best.
        let idx = hi.partition_point(|&b| b <= 0.5 - a);
        for &b in hi[idx.saturating_sub(1)..(idx + 1).min(hi.len())].iter() {
            let s = a + b;
            best = best.max(s.min(1.0 - s));
        }
    }
    best.clamp(f64::MIN_POSITIVE, 0.5)
}

/// All `2^k` subset sums of `values` (index bit i selects `values[i]`).
fn subset_sums(values: &[f64]) -> Vec<f64> {
    let mut sums = Vec::with_capacity(1 << values.len());
    sums.push(0.0);
    for &v in values {
        let len = sums.len();
        for j in 0..len {
            sums.push(sums[j] + v);
        }
    }
    sums
}

/// The distribution-free radius `beta*(delta) = sqrt((2/m)(ln(2^N - 2) - ln delta))`
/// (\[E\] eq. (7)): with probability `>= 1 - delta` the true prior lies within l1
/// distance `beta*` of the estimate from `m` samples over `n` categories.
pub fn radius_free(m: u64, delta: f64, n: usize) -> Result<f64> {
    check_m(m)?;
    check_delta(delta)?;
    check_n(n)?;
    Ok(((2.0 / m as f64) * (ln_subsets(n) - delta.ln())).sqrt())
}

/// The Theorem 2 radius `sqrt(4 (ln(2^N - 2) - ln delta) / (m phi(kappa)))` (\[E\] the
/// bound before eq. (7)), with `kappa` = [`kappa`] of `prior_estimate` and N its length.
///
/// Theorem 2 needs `kappa` of the *true* prior; the estimate's is a plug-in value, and
/// the radius is smaller than [`radius_free`] whenever `kappa < 1/2`. Use
/// [`radius_free`] (equal to this with `kappa = 1/2`) when a distribution-free
/// guarantee is required.
pub fn radius_kappa(m: u64, delta: f64, prior_estimate: &Prior) -> Result<f64> {
    check_m(m)?;
    check_delta(delta)?;
    let n = prior_estimate.len();
    check_n(n)?;
    let phi_k = phi(kappa(prior_estimate))?;
    Ok(((4.0 / (m as f64 * phi_k)) * (ln_subsets(n) - delta.ln())).sqrt())
}

/// The Theorem 2 bound on `P(||p - p^||_1 >= beta)`:
/// `(2^N - 2) exp(-m phi beta^2 / 4)`, capped at 1 (\[E\] Theorem 2).
///
/// `phi` is `phi(kappa_p)`; pass `2.0` for the distribution-free bound (then this
/// inverts [`radius_free`]). Values below 2 are refused: `phi(kappa) >= 2` always.
pub fn failure_probability(m: u64, beta: f64, n: usize, phi: f64) -> Result<f64> {
    check_m(m)?;
    check_n(n)?;
    if !beta.is_finite() || beta < 0.0 {
        return Err(ModelError::invalid(
            "beta",
            beta,
            "the l1 radius must be a finite number >= 0",
            "pass a radius such as 0.05 (l1 distances between distributions are at most 2)",
        ));
    }
    if !phi.is_finite() || phi < 2.0 {
        return Err(ModelError::invalid(
            "phi",
            phi,
            "phi(kappa) is a finite number >= 2",
            "pass phi(kappa(p)) from sample::phi, or 2.0 for the distribution-free bound",
        ));
    }
    let log_bound = ln_subsets(n) - m as f64 * phi * beta * beta / 4.0;
    Ok(log_bound.exp().min(1.0))
}

/// The leakage bound over the ball of radius `beta` for a mechanism that is eps-PML
/// for the estimate: `eps' = eps - ln(1 - beta e^eps / 2)` (\[E\] eq. (8), from Theorem 4).
///
/// Equivalently `e^-eps' = e^-eps - beta/2`. Needs `beta e^eps < 2`.
pub fn epsilon_prime(eps: f64, beta: f64) -> Result<f64> {
    check_eps("eps", eps)?;
    if !beta.is_finite() || beta < 0.0 {
        return Err(ModelError::invalid(
            "beta",
            beta,
            "the l1 radius must be a finite number >= 0",
            "pass beta*(delta) from sample::radius_free",
        ));
    }
    let x = beta * eps.exp() / 2.0;
    if x >= 1.0 {
        let eps_max = (2.0 / beta).ln();
        let beta_max = 2.0 * (-eps).exp();
        let fix = if eps_max > 0.0 {
            format!(
                "design at eps < ln(2/beta) = {eps_max} (for example eps = {}), or use a \
                 radius beta < 2 e^-eps = {beta_max} (more samples or a larger delta)",
                eps_max * (1.0 - 1e-9)
            )
        } else {
            format!(
                "a radius beta >= 2 bounds no eps; use a radius beta < 2 e^-eps = {beta_max} \
                 (more samples or a larger delta)"
            )
        };
        return Err(ModelError::invalid(
            "beta",
            beta,
            format!(
                "beta e^eps = {} >= 2 (eps = {eps}): eq. (8) gives no bound over the ball",
                2.0 * x
            ),
            fix,
        ));
    }
    Ok(eps - (-x).ln_1p())
}

/// The failure probability of an `eps'`-PML guarantee for a mechanism that is eps-PML
/// for an estimate from `m` samples over `n` categories (\[E\] Corollary 3):
/// `delta_min(eps') = (2^N - 2) exp(-2 m (e^-eps - e^-eps')^2)`, capped at 1.
/// Needs `eps' > eps`.
///
/// This is eq. (7) solved for delta with `beta* = 2 (e^-eps - e^-eps')` from eq. (8).
pub fn delta_min(eps: f64, eps_prime: f64, m: u64, n: usize) -> Result<f64> {
    check_m(m)?;
    check_n(n)?;
    let d = exp_gap(eps, eps_prime)?;
    Ok((ln_subsets(n) - 2.0 * m as f64 * d * d).exp().min(1.0))
}

/// The smallest sample size `m` with `delta_min(eps, eps') <= delta` (\[E\] Corollary 3,
/// equivalently eqs. (7) and (8)): `m = ceil((ln(2^N - 2) - ln delta) / (2 (e^-eps -
/// e^-eps')^2))`, adjusted so that [`delta_min`] at `m` is `<= delta` and at `m - 1`
/// is not.
pub fn min_samples(eps: f64, eps_prime: f64, delta: f64, n: usize) -> Result<u64> {
    check_delta(delta)?;
    check_n(n)?;
    let d = exp_gap(eps, eps_prime)?;
    let need = (ln_subsets(n) - delta.ln()) / (2.0 * d * d);
    // Keep m well inside the range where u64 -> f64 is exact.
    const M_LIMIT: f64 = (1u64 << 52) as f64;
    if need.is_nan() || need >= M_LIMIT {
        return Err(ModelError::invalid(
            "eps_prime",
            eps_prime,
            format!(
                "eps' - eps = {} is so small that more than 2^52 samples are needed",
                eps_prime - eps
            ),
            "allow a larger eps' (or design at a smaller eps), or a larger delta",
        ));
    }
    let ok = |m: u64| -> Result<bool> { Ok(delta_min(eps, eps_prime, m, n)? <= delta) };
    let mut m = (need.ceil() as u64).max(1);
    while m > 1 && ok(m - 1)? {
        m -= 1;
    }
    while !ok(m)? {
        m += 1;
    }
    Ok(m)
}

/// The largest design parameter eps whose `eps'(delta)` from eq. (8), with
/// `beta = beta*(delta)` from eq. (7), is `<= eps_prime` (\[E\] eqs. (7), (8); the
/// inverse of Corollary 3).
///
/// Closed form: `e^-eps' = e^-eps - beta*/2`, so `eps = -ln(e^-eps' + beta*/2)`.
/// An error when `e^-eps' + beta*/2 > 1`: no eps >= 0 reaches `eps_prime` with `m`
/// samples.
pub fn max_epsilon(m: u64, delta: f64, n: usize, eps_prime: f64) -> Result<f64> {
    let beta = radius_free(m, delta, n)?;
    check_eps("eps_prime", eps_prime)?;
    let level = estimate_level(eps_prime, beta);
    if level.is_none() {
        return Err(ModelError::invalid(
            "eps_prime",
            eps_prime,
            format!(
                "with m = {m}, delta = {delta}, N = {n} the radius is beta* = {beta}, and even \
                 eps = 0 gives eps' = -ln(1 - beta*/2) = {}",
                -(-beta / 2.0).ln_1p()
            ),
            "allow a larger eps', use more samples, or accept a larger delta",
        ));
    }
    Ok(level.expect("checked"))
}

/// The level eps at which a mechanism designed for the estimate is eps'-PML for
/// every prior within l1 distance beta (\[E\] eq. (8) inverted, the same factor as
/// eq. (13)): `e^-eps = e^-eps' + beta/2`. `None` when `e^-eps' + beta/2 > 1`, where
/// even eps = 0 leaks more than eps' somewhere in the ball.
pub fn estimate_level(eps_prime: f64, beta: f64) -> Option<f64> {
    let e = (-eps_prime).exp() + beta / 2.0;
    (e <= 1.0).then(|| -e.ln())
}

/// An (eps', delta) guarantee from `m` samples for a mechanism designed at `epsilon`
/// for the estimate (\[E\] eqs. (7), (8), Corollary 3).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SampleGuarantee {
    /// Number of samples behind the estimate.
    pub m: u64,
    /// Failure probability over the sample.
    pub delta: f64,
    /// l1 radius `beta*(delta)` of eq. (7).
    pub beta: f64,
    /// The design parameter: the mechanism is eps-PML for the estimate.
    pub epsilon: f64,
    /// The guaranteed leakage `eps'(delta)` of eq. (8) for the true prior, w.p. `1 - delta`.
    pub epsilon_prime: f64,
}

impl SampleGuarantee {
    /// The guarantee of a design at `epsilon` from `m` samples over `n` categories:
    /// `beta = beta*(delta)` (7), `epsilon_prime = eps'(delta)` (8).
    pub fn from_design(epsilon: f64, m: u64, delta: f64, n: usize) -> Result<Self> {
        let beta = radius_free(m, delta, n)?;
        let epsilon_prime = epsilon_prime(epsilon, beta)?;
        Ok(SampleGuarantee {
            m,
            delta,
            beta,
            epsilon,
            epsilon_prime,
        })
    }

    /// The design that reaches the target `epsilon_prime` with probability `1 - delta`
    /// from `m` samples over `n` categories: `epsilon` = [`max_epsilon`].
    pub fn for_target(epsilon_prime: f64, m: u64, delta: f64, n: usize) -> Result<Self> {
        let epsilon = max_epsilon(m, delta, n, epsilon_prime)?;
        let beta = radius_free(m, delta, n)?;
        Ok(SampleGuarantee {
            m,
            delta,
            beta,
            epsilon,
            epsilon_prime,
        })
    }
}

/// The smallest sample size for an (eps', delta) guarantee of a design at eps, with
/// the figures at that size (\[E\] Corollary 3 solved for m, then eqs. (7), (8)).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SamplePlan {
    /// The guarantee at `m` = [`min_samples`]: `beta*(delta)` and `eps'(delta)`.
    pub guarantee: SampleGuarantee,
    /// `delta_min(eps')` at that m (at most delta).
    pub delta_min: f64,
}

impl SamplePlan {
    /// Plans for a design at `eps` to be `eps_prime`-PML for the true prior with
    /// probability `1 - delta` over `n` categories.
    pub fn new(eps: f64, eps_prime: f64, delta: f64, n: usize) -> Result<Self> {
        let m = min_samples(eps, eps_prime, delta, n)?;
        let delta_min = delta_min(eps, eps_prime, m, n)?;
        let guarantee = SampleGuarantee::from_design(eps, m, delta, n)?;
        Ok(SamplePlan {
            guarantee,
            delta_min,
        })
    }
}

/// `ln(2^N - 2) = N ln 2 + ln(1 - 2^(1-N))`, stable for any N >= 2.
fn ln_subsets(n: usize) -> f64 {
    let nf = n as f64;
    nf * LN_2 + (-(1.0 - nf).exp2()).ln_1p()
}

/// `e^-eps - e^-eps' > 0`, computed as `e^-eps (1 - e^-(eps' - eps))` without cancellation.
fn exp_gap(eps: f64, eps_prime: f64) -> Result<f64> {
    check_eps("eps", eps)?;
    check_eps("eps_prime", eps_prime)?;
    if eps_prime <= eps {
        return Err(ModelError::invalid(
            "eps_prime",
            eps_prime,
            format!("eps' must exceed the design parameter eps = {eps}"),
            "pass eps' > eps: the guarantee for the true prior is weaker than for the estimate",
        ));
    }
    Ok((-eps).exp() * -(-(eps_prime - eps)).exp_m1())
}

fn check_m(m: u64) -> Result<()> {
    if m == 0 {
        return Err(ModelError::invalid(
            "m",
            m,
            "the number of samples must be at least 1",
            "pass the number of samples behind the estimate",
        ));
    }
    Ok(())
}

fn check_delta(delta: f64) -> Result<()> {
    if !(delta > 0.0 && delta < 1.0) {
        return Err(ModelError::invalid(
            "delta",
            delta,
            "the failure probability must lie strictly between 0 and 1",
            "pass a small probability such as 1e-6",
        ));
    }
    Ok(())
}

fn check_n(n: usize) -> Result<()> {
    if n < 2 {
        return Err(ModelError::invalid(
            "n",
            n,
            "the alphabet size must be at least 2",
            "pass the number of categories of the secret",
        ));
    }
    Ok(())
}

pub(crate) fn check_eps(field: &str, eps: f64) -> Result<()> {
    if !eps.is_finite() || eps < 0.0 {
        return Err(ModelError::invalid(
            field,
            eps,
            "a privacy parameter must be a finite number >= 0",
            "pass a value such as ln(5) = 1.609",
        ));
    }
    Ok(())
}
