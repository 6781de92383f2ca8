//! Guarantees from noisy counts (`docs/theory.md` §6, "A private prior").
//!
//! A design over the ball around the empirical estimate states its centre, and an
//! optimal mechanism's tight constraints give that centre back, so the design
//! publishes the sample's frequencies. The private route adds independent discrete
//! Laplace noise `Z_x`, `P(Z = k) ∝ e^(-eps_D |k|)`, to each of the N counts, clamps
//! the noisy counts at 0 and centres the ball at `q = c~ / M~` (`M~` the noisy total).
//! Everything published is then a post-processing of the noisy counts.
//!
//! With `T = sum_x |Z_x|` and `S = sum_x |c~_x - c_x| <= T` (clamping at 0 only moves a
//! count towards the true one), `||q - p^||_1 <= S / M~ + |m - M~| / M~ <= 2 T / M~`,
//! and `|m - M~| <= T`. A Chernoff bound gives the integer `t` with `P(T >= t) <=
//! delta_noise` ([`noise_bound`]). On that event and the sample's, the true prior lies
//! within `beta(M~ - t, delta_sample) + 2 t / M~` of `q` ([`private_radius`]); the
//! user's delta is split in halves between the sample and the noise.
//!
//! ```
//! use pmldesign_model::private_prior::{log_tail, noise_bound};
//! // 4 counts, eps_D = 1, delta_noise = 0.025.
//! let t = noise_bound(4, 1.0, 0.025)?;
//! assert!(log_tail(4, 1.0, t as f64) <= 0.025f64.ln());
//! assert!(log_tail(4, 1.0, (t - 1) as f64) > 0.025f64.ln());
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

use crate::error::{ModelError, Result};
use crate::prior::Prior;
use crate::sample::{MAX_SAMPLES, RadiusMethod};
use serde::{Deserialize, Serialize};

/// The share of the user's delta spent on the noise (the rest on the sample).
pub const NOISE_SHARE: f64 = 0.5;

/// The smallest eps_D taken: the scale `1/eps_D` of the noise is an exact ratio of
/// 64-bit integers from there on.
pub const MIN_EPSILON: f64 = 1e-3;

/// Checks the level eps_D of the noise on the counts: finite and at least
/// [`MIN_EPSILON`]. The error names `field`.
pub fn check_epsilon(field: &str, epsilon: f64) -> Result<()> {
    if !(epsilon.is_finite() && epsilon >= MIN_EPSILON) {
        return Err(ModelError::invalid(
            field,
            epsilon,
            format!(
                "the level of the noise on the counts must be a finite number >= {MIN_EPSILON}"
            ),
            "give e.g. 1 (noise of scale 1 per count); smaller is more private and noisier",
        ));
    }
    Ok(())
}

/// The Chernoff bound on `ln P(T >= t)` for `T` the sum of `n` independent `|Z|`,
/// `P(Z = k) ∝ e^(-epsilon |k|)`: with `a = e^-epsilon` and `u = a e^lambda`,
/// `E e^(lambda |Z|) = (1 - a)(1 + u) / ((1 + a)(1 - u))`, and the exponent
/// `n ln E e^(lambda |Z|) - lambda t` is least at `u = t / (sqrt(n^2 + t^2) + n)`.
/// Returns 0 (the trivial bound) where that `u <= a`, i.e. `t` at most the mean.
pub fn log_tail(n: usize, epsilon: f64, t: f64) -> f64 {
    let nf = n as f64;
    let u = t / ((nf * nf + t * t).sqrt() + nf);
    let ln_a = -epsilon;
    if u.is_nan() || u <= 0.0 || u.ln() <= ln_a {
        return 0.0;
    }
    let ln_ratio = (-(-epsilon).exp_m1()).ln() - (-epsilon).exp().ln_1p();
    let exponent = nf * (ln_ratio + 2.0 * u.atanh()) - t * (u.ln() - ln_a);
    exponent.min(0.0)
}

/// The least integer `t >= 1` with [`log_tail`]`(n, epsilon, t) <= ln delta`: with
/// probability at least `1 - delta` the noise moves the counts by less than `t` in
/// total (`T < t`).
pub fn noise_bound(n: usize, epsilon: f64, delta: f64) -> Result<u64> {
    check_epsilon("private prior epsilon", epsilon)?;
    if !(delta > 0.0 && delta < 1.0) {
        return Err(ModelError::invalid(
            "private prior delta",
            delta,
            "the failure probability of the noise must lie strictly between 0 and 1",
            "pass a small probability such as 1e-6",
        ));
    }
    let target = delta.ln();
    let holds = |t: u64| log_tail(n, epsilon, t as f64) <= target;
    let mut hi: u64 = 1;
    while !holds(hi) {
        if hi > MAX_SAMPLES {
            return Err(ModelError::invalid(
                "private prior epsilon",
                epsilon,
                format!("the noise on {n} counts is past 2^53 in total"),
                "give a larger level for the noise",
            ));
        }
        hi *= 2;
    }
    let mut lo = hi / 2; // fails (or 0)
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if holds(mid) { hi = mid } else { lo = mid }
    }
    Ok(hi)
}

/// The radius of a ball around the noisy estimate and how it was made
/// ([`private_radius`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrivateRadius {
    /// The level eps_D of the discrete Laplace noise on each count.
    pub epsilon: f64,
    /// The failure probability spent on the noise (`delta / 2`).
    pub noise_delta: f64,
    /// `t`: with probability `1 - noise_delta` the noise moves the counts by less
    /// than `t` in total ([`noise_bound`]).
    pub noise_bound: u64,
    /// `M~ - t`: on that event, the true sample size is at least this.
    pub samples_lower: u64,
    /// The sample's radius at `samples_lower` and `delta / 2`.
    pub sample_beta: f64,
    /// `2 t / M~`: the most the noise moves the estimate in l1 on that event.
    pub noise_beta: f64,
}

impl PrivateRadius {
    /// The radius of the ball: `sample_beta + noise_beta`.
    pub fn beta(&self) -> f64 {
        self.sample_beta + self.noise_beta
    }
}

/// The radius around the noisy estimate `estimate` of noisy total `noisy_total`
/// (counts noised at level `epsilon`) that holds the true prior with probability
/// at least `1 - delta`: `delta / 2` for the sample, `delta / 2` for the noise.
pub fn private_radius(
    method: RadiusMethod,
    noisy_total: u64,
    delta: f64,
    epsilon: f64,
    estimate: &Prior,
) -> Result<PrivateRadius> {
    let noise_delta = delta * NOISE_SHARE;
    let t = noise_bound(estimate.len(), epsilon, noise_delta)?;
    if noisy_total <= t {
        return Err(ModelError::invalid(
            "samples",
            noisy_total,
            format!("the noisy total is not above the bound t = {t} on the noise in the counts"),
            "give more rows, or a larger level for the noise",
        ));
    }
    let samples_lower = noisy_total - t;
    let sample_beta = method.radius(samples_lower, delta - noise_delta, estimate)?;
    Ok(PrivateRadius {
        epsilon,
        noise_delta,
        noise_bound: t,
        samples_lower,
        sample_beta,
        noise_beta: 2.0 * t as f64 / noisy_total as f64,
    })
}
