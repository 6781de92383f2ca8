//! Additive noise released on a grid: the finite mechanism that `pml apply`
//! certifies for a binary secret (`docs/theory.md` §7b).
//!
//! The secret `x in {-1, 1}` sits on the grid of step `1/n` at `x n`; the noise `N`
//! is an integer number of steps, drawn from the discrete Laplace law
//! `P(N = k) ∝ e^(-|k|/b)` or the discrete Gaussian law `P(N = k) ∝ e^(-k²/(2 s²))`
//! (Canonne, Kamath, Steinke 2020); the release is `clamp(x n + N, -m, m)` (in
//! steps), so the clamped end points carry the tails. [`released_mechanism`] is that
//! release as a 2 x (2m + 1) matrix (rows `x = -1`, `x = +1`), to be measured by
//! [`crate::measures`]. Probabilities here are f64 for reporting and measuring;
//! the draws themselves are exact integer arithmetic (`pmldesign_data`).
//!
//! ```
//! use pmldesign_model::lattice::{GridNoise, released_mechanism};
//! use pmldesign_model::measures::ldp_parameter;
//! // Laplace of scale 1 on the grid of step 1/4: 4 steps; range [-20, 20].
//! let w = released_mechanism(GridNoise::Laplace { scale: 4.0 }, 4, 80)?;
//! assert_eq!(w.outputs(), 161);
//! // The grid keeps the continuous LDP level 2/b.
//! assert!((ldp_parameter(&w) - 2.0).abs() < 1e-9);
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

use crate::error::{ModelError, Result};
use crate::mechanism::Mechanism;

/// Most grid points a release may have: its matrix is 2 x this at most.
pub const MAX_GRID_POINTS: u64 = 200_001;

/// Widest discrete Gaussian, in grid steps (its mass is summed term by term).
pub const MAX_GAUSSIAN_STEPS: f64 = 1e5;

/// Terms beyond this many standard deviations are below `e^-750` and underflow.
const GAUSSIAN_CUTOFF: f64 = 39.0;

/// The law of the noise, in grid steps.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GridNoise {
    /// `P(N = k) = (1 - q)/(1 + q) q^|k|`, `q = e^(-1/scale)`.
    Laplace {
        /// The scale in steps, > 0.
        scale: f64,
    },
    /// `P(N = k) ∝ e^(-k²/(2 variance))`.
    Gaussian {
        /// The variance in steps², > 0, with `sqrt(variance) <= MAX_GAUSSIAN_STEPS`.
        variance: f64,
    },
}

impl GridNoise {
    /// Checks the parameter: finite and > 0; a Gaussian at most
    /// [`MAX_GAUSSIAN_STEPS`] wide.
    pub fn check(&self) -> Result<()> {
        let (field, v, top) = match *self {
            GridNoise::Laplace { scale } => ("laplace scale in grid steps", scale, f64::MAX),
            GridNoise::Gaussian { variance } => (
                "gaussian variance in grid steps",
                variance,
                MAX_GAUSSIAN_STEPS * MAX_GAUSSIAN_STEPS,
            ),
        };
        if v.is_finite() && v > 0.0 && v <= top {
            return Ok(());
        }
        Err(ModelError::invalid(
            field,
            v,
            format!("it must be a finite number in (0, {top:e}]"),
            "give a coarser grid or a smaller noise",
        ))
    }

    /// `P(N = k)`.
    pub fn pmf(&self, k: i64) -> f64 {
        self.weight(k) / self.mass()
    }

    /// `P(N = k)` up to the constant [`GridNoise::mass`].
    fn weight(&self, k: i64) -> f64 {
        let k = k.unsigned_abs() as f64;
        match *self {
            GridNoise::Laplace { scale } => (-k / scale).exp(),
            GridNoise::Gaussian { variance } => (-k * k / (2.0 * variance)).exp(),
        }
    }

    /// The sum of [`GridNoise::weight`] over all integers.
    fn mass(&self) -> f64 {
        match *self {
            // (1 + q)/(1 - q), without cancellation for large scales.
            GridNoise::Laplace { scale } => (1.0 + (-1.0 / scale).exp()) / -(-1.0 / scale).exp_m1(),
            GridNoise::Gaussian { variance } => gaussian_mass(variance),
        }
    }

    /// `P(N >= k)` (by symmetry `P(N <= -k)`).
    pub fn upper_tail(&self, k: i64) -> f64 {
        if k <= 0 {
            return 1.0 - self.upper_tail(1 - k);
        }
        match *self {
            GridNoise::Laplace { scale } => {
                let q = (-1.0 / scale).exp();
                (-(k as f64) / scale).exp() / (1.0 + q)
            }
            GridNoise::Gaussian { variance } => {
                let end = gaussian_end(variance);
                let sum: f64 = (k..=end.max(k))
                    .rev()
                    .map(|j| (-(j as f64).powi(2) / (2.0 * variance)).exp())
                    .sum();
                sum / gaussian_mass(variance)
            }
        }
    }
}

/// The last k with a term above underflow.
fn gaussian_end(variance: f64) -> i64 {
    (GAUSSIAN_CUTOFF * variance.sqrt()).ceil() as i64 + 1
}

/// `sum_k e^(-k²/(2 variance))` over all integers k, summed smallest terms first.
fn gaussian_mass(variance: f64) -> f64 {
    let half: f64 = (1..=gaussian_end(variance))
        .rev()
        .map(|j| (-(j as f64).powi(2) / (2.0 * variance)).exp())
        .sum();
    1.0 + 2.0 * half
}

/// The release `clamp(x n + N, -m, m)` for `x = -1, +1` as a 2 x (2m + 1) matrix;
/// column j is the grid point `(j - m)/n`. Needs `n <= m` (both secrets inside
/// the range) and `2m + 1 <= MAX_GRID_POINTS`.
pub fn released_mechanism(noise: GridNoise, n: u64, m: u64) -> Result<Mechanism> {
    noise.check()?;
    check_range(n, m)?;
    let (n, m) = (n as i64, m as i64);
    let mass = noise.mass();
    let row = |x: i64| -> Vec<f64> {
        (-m..=m)
            .map(|k| {
                if k == m {
                    noise.upper_tail(m - x)
                } else if k == -m {
                    noise.upper_tail(m + x)
                } else {
                    noise.weight(k - x) / mass
                }
            })
            .collect()
    };
    Mechanism::from_rows(vec![row(-n), row(n)])
}

/// Checks a range of m steps on a grid of n steps per unit.
pub fn check_range(n: u64, m: u64) -> Result<()> {
    if n == 0 || m < n {
        return Err(ModelError::invalid(
            "range",
            format!("{m} steps of 1/{n}"),
            "the range must hold -1 and 1",
            "give a range of at least 1",
        ));
    }
    if m > (MAX_GRID_POINTS - 1) / 2 {
        return Err(ModelError::invalid(
            "range",
            format!("{m} steps of 1/{n}"),
            format!(
                "{} grid points, more than the {MAX_GRID_POINTS} a release may have",
                2 * u128::from(m) + 1
            ),
            "give a coarser grid or a smaller range",
        ));
    }
    Ok(())
}

/// The smallest range `m` (a multiple of n, in steps) at which each tail beyond it
/// has mass at most `delta` under either secret: `P(N > m - n) <= delta`. Errors
/// when it would exceed the grid-point limit.
pub fn tail_range(noise: GridNoise, n: u64, delta: f64) -> Result<u64> {
    noise.check()?;
    if !(delta > 0.0 && delta < 1.0) {
        return Err(ModelError::invalid(
            "tail delta",
            delta,
            "it must be in (0, 1)",
            "give a small positive mass such as 1e-9",
        ));
    }
    let limit = (MAX_GRID_POINTS - 1) / 2;
    let mut m = n.max(1);
    // The tail shrinks as m grows: double, then bisect on multiples of n.
    while noise.upper_tail((m - n + 1) as i64) > delta {
        if m > limit {
            check_range(n, m)?;
        }
        m = m.saturating_mul(2);
    }
    let (mut lo, mut hi) = (0u64, m / n.max(1));
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if noise.upper_tail((mid * n - n + 1) as i64) > delta {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let m = hi.max(1) * n;
    check_range(n, m)?;
    Ok(m)
}
