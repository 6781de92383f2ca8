//! Exact draws of discrete Laplace and discrete Gaussian noise, and the binary
//! additive mechanism released on a grid (`docs/theory.md` §7b).
//!
//! Noise added in floating point leaks the secret through the low bits of the
//! output (Mironov 2012), so the noise here is an integer number of grid steps,
//! drawn by the algorithms of Canonne, Kamath and Steinke (2020, "The discrete
//! Gaussian for differential privacy"): Bernoulli(e^-gamma) for rational gamma
//! (their Alg. 1), the discrete Laplace law of rational scale t/s (Alg. 2) and the
//! discrete Gaussian law of rational variance (Alg. 3), all in integer arithmetic
//! from uniform integers drawn by rejection from 64-bit words. No floating point
//! touches a draw. The released value is `clamp(x n + N, -m, m) / n`, whose
//! matrix is [`pmldesign_model::lattice::released_mechanism`].
//!
//! ```
//! use pmldesign_data::discrete_noise::{DiscreteLaplace, bernoulli_exp};
//! use pmldesign_data::seeded_rng;
//! let lap = DiscreteLaplace::on_grid(1.0, 4)?; // scale 1 on the grid of step 1/4
//! assert_eq!(lap.ratio(), (4, 1));
//! let mut rng = seeded_rng(1);
//! let k = lap.sample(&mut rng); // an integer number of steps
//! let _ = (k, bernoulli_exp(&mut rng, 1, 2)); // Bernoulli(e^(-1/2))
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

use crate::privatise::ColumnPrivatiser;
use crate::sampler::binary_value;
use crate::stream::{StreamKey, column_seed};
use chacha20::ChaCha20Rng;
use num_bigint::BigUint;
use pmldesign_model::lattice::{GridNoise, check_range, released_mechanism};
use pmldesign_model::{Mechanism, ModelError, Result};
use rand::{Rng, SeedableRng};
use std::io::Write as _;

/// Separates the noise keystreams from every other use of the key.
const DOMAIN: &[u8] = b"pmldesign/grid-noise/v1\0";

/// The denominator of a discrete Gaussian's variance: `variance = a / 1024`
/// steps², the user's `(sigma n)^2` rounded to the nearest multiple of 1/1024.
pub const VARIANCE_DENOMINATOR: u64 = 1024;

/// The widest discrete Gaussian drawn, in steps (its variance stays below 2^40 so
/// the integer arithmetic of Alg. 3 fits 128 bits).
pub const MAX_SIGMA_STEPS: f64 = pmldesign_model::lattice::MAX_GAUSSIAN_STEPS;

/// A uniform integer in `[0, m)` (`m >= 1`) by rejection: one 64-bit word a try
/// for `m <= 2^64 - 1`, two otherwise; never biased.
pub fn uniform_below<R: Rng + ?Sized>(rng: &mut R, m: u128) -> u128 {
    debug_assert!(m >= 1);
    if let Ok(m) = u64::try_from(m) {
        // Words below 2^64 mod m are rejected: the rest is a multiple of m.
        let low = m.wrapping_neg() % m;
        loop {
            let r = rng.next_u64();
            if r >= low {
                return u128::from(r % m);
            }
        }
    }
    let low = m.wrapping_neg() % m;
    loop {
        let r = (u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64());
        if r >= low {
            return r % m;
        }
    }
}

/// Bernoulli(num/den), `num <= den`, `den >= 1`.
fn bernoulli_ratio<R: Rng + ?Sized>(rng: &mut R, num: u128, den: u128) -> bool {
    uniform_below(rng, den) < num
}

/// Bernoulli(e^-gamma) for `gamma = num/den` in [0, 1] (CKS Alg. 1, first case):
/// draw `A_k ~ Bernoulli(gamma/k)` for k = 1, 2, .. until one is 0; true iff that
/// k is odd. `Bernoulli(gamma/k)` is drawn as Bernoulli(gamma) and Bernoulli(1/k)
/// together, so nothing overflows.
fn bernoulli_exp_unit<R: Rng + ?Sized>(rng: &mut R, num: u128, den: u128) -> bool {
    let mut k: u128 = 1;
    while bernoulli_ratio(rng, num, den) && uniform_below(rng, k) == 0 {
        k += 1;
    }
    k % 2 == 1
}

/// Bernoulli(e^-(whole + num/den)), `num <= den` (CKS Alg. 1, second case): whole
/// draws of Bernoulli(e^-1), then one of the fraction.
fn bernoulli_exp_split<R: Rng + ?Sized>(rng: &mut R, whole: u128, num: u128, den: u128) -> bool {
    let mut i = 0;
    while i < whole {
        if !bernoulli_exp_unit(rng, 1, 1) {
            return false;
        }
        i += 1;
    }
    bernoulli_exp_unit(rng, num, den)
}

/// Bernoulli(e^-(num/den)) for any rational `num/den >= 0` (`den >= 1`), exactly.
pub fn bernoulli_exp<R: Rng + ?Sized>(rng: &mut R, num: u128, den: u128) -> bool {
    bernoulli_exp_split(rng, num / den, num % den, den)
}

/// The discrete Laplace law `P(N = k) ∝ e^(-|k| s/t)` of scale `t/s` steps, with
/// `t, s < 2^64`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiscreteLaplace {
    t: u64,
    s: u64,
}

impl DiscreteLaplace {
    /// The law of scale exactly `t/s` steps (both >= 1).
    pub fn new(t: u64, s: u64) -> Result<Self> {
        if t == 0 || s == 0 {
            return Err(ModelError::invalid(
                "discrete laplace scale",
                format!("{t}/{s}"),
                "the scale must be a positive ratio",
                "give t, s >= 1",
            ));
        }
        Ok(DiscreteLaplace { t, s })
    }

    /// The law of scale `b` (a unit of the secret) on the grid of step `1/n`: the
    /// scale `b n` steps, exactly (every f64 is a ratio of integers), reduced.
    /// Errors when that ratio needs more than 64 bits.
    pub fn on_grid(b: f64, n: u64) -> Result<Self> {
        let bad = |why: &str| {
            ModelError::invalid(
                "laplace scale",
                b,
                why.to_owned(),
                "give a scale between about 1e-3 grid steps and 1e18 grid steps",
            )
        };
        if !(b.is_finite() && b > 0.0) || n == 0 {
            return Err(bad(
                "it must be a finite number > 0 on a grid of step 1/n, n >= 1",
            ));
        }
        let (m, e) = dyadic(b);
        let t = u128::from(m) * u128::from(n);
        let (t, s) = if e >= 0 {
            let fits = e < 64 && t.leading_zeros() as i32 > e;
            (if fits { t << e } else { u128::MAX }, 1u128)
        } else {
            let neg = (-e) as u32;
            let shift = t.trailing_zeros().min(neg);
            let rest = neg - shift;
            (
                t >> shift,
                if rest < 127 { 1u128 << rest } else { u128::MAX },
            )
        };
        match (u64::try_from(t), u64::try_from(s)) {
            (Ok(t), Ok(s)) => Self::new(t, s),
            _ => Err(bad("its ratio in grid steps needs more than 64 bits")),
        }
    }

    /// The law `P(N = k) ∝ e^(-epsilon |k|)`: the scale `1/epsilon` exactly (the
    /// dyadic `epsilon = m 2^e` gives `2^-e / m`). Errors when that ratio needs
    /// more than 64 bits (epsilon below about 5e-4) or epsilon is not positive.
    pub fn of_epsilon(epsilon: f64) -> Result<Self> {
        let bad = || {
            ModelError::invalid(
                "laplace epsilon",
                epsilon,
                "its scale 1/epsilon must be a ratio of 64-bit integers",
                "give a finite epsilon >= 0.001",
            )
        };
        if !(epsilon.is_finite() && epsilon > 0.0) {
            return Err(bad());
        }
        let (m, e) = dyadic(epsilon);
        // 1/epsilon = 2^-e / m: t = 2^-e, s = m for e <= 0; t = 1, s = m 2^e else.
        let (t, s) = match e {
            e if e <= 0 && -e < 64 => (1u64 << -e, m),
            e if e > 0 && m.leading_zeros() as i32 > e => (1, m << e),
            _ => return Err(bad()),
        };
        Self::new(t, s)
    }

    /// The scale as `(t, s)`: `t/s` steps.
    pub fn ratio(&self) -> (u64, u64) {
        (self.t, self.s)
    }

    /// The scale in steps, rounded to f64 (for reporting).
    pub fn scale(&self) -> f64 {
        self.t as f64 / self.s as f64
    }

    /// One draw, in steps (CKS Alg. 2). Magnitudes beyond 2^126 (probability far
    /// below 2^-1000) saturate; the release clamps them anyway.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> i128 {
        let (t, s) = (u128::from(self.t), u128::from(self.s));
        loop {
            let u = uniform_below(rng, t);
            if !bernoulli_exp_unit(rng, u, t) {
                continue;
            }
            let mut v: u128 = 0;
            while bernoulli_exp_unit(rng, 1, 1) {
                v += 1;
            }
            let x = t.saturating_mul(v).saturating_add(u);
            let y = (x / s).min(1 << 126) as i128;
            let negative = uniform_below(rng, 2) == 1;
            if negative && y == 0 {
                continue;
            }
            return if negative { -y } else { y };
        }
    }
}

/// `v = m 2^e` with m odd (or 0), for a finite f64 `v > 0`.
fn dyadic(v: f64) -> (u64, i32) {
    let bits = v.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1u64 << 52) - 1);
    let (m, e) = if exponent == 0 {
        (fraction, -1074)
    } else {
        (fraction | (1u64 << 52), exponent - 1075)
    };
    let z = m.trailing_zeros().min(63);
    (m >> z, e + z as i32)
}

/// The discrete Gaussian law `P(N = k) ∝ e^(-k²/(2 a/c))` of variance `a/c`
/// steps² (CKS Alg. 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiscreteGaussian {
    a: u64,
    c: u64,
    /// The proposal's scale, `floor(sqrt(a/c)) + 1`.
    t: u64,
}

impl DiscreteGaussian {
    /// The law whose variance parameter is `(sigma n)^2` rounded to a multiple of
    /// `1/VARIANCE_DENOMINATOR` steps² (reported by [`DiscreteGaussian::variance`]),
    /// on the grid of step `1/n`; at least 1/1024 and at most `MAX_SIGMA_STEPS^2`.
    pub fn on_grid(sigma: f64, n: u64) -> Result<Self> {
        let steps = sigma * n as f64;
        let c = VARIANCE_DENOMINATOR;
        let a = (steps * steps * c as f64).round();
        if !(sigma.is_finite() && sigma > 0.0 && steps <= MAX_SIGMA_STEPS && a >= 1.0) {
            return Err(ModelError::invalid(
                "gaussian sigma",
                sigma,
                format!("sigma is {steps:e} grid steps, outside [1/32, {MAX_SIGMA_STEPS:e}]"),
                "give a finer or coarser grid, or another sigma",
            ));
        }
        let a = a as u64;
        Ok(DiscreteGaussian {
            a,
            c,
            t: (a / c).isqrt() + 1,
        })
    }

    /// The variance parameter as `(a, c)`: `a/c` steps².
    pub fn ratio(&self) -> (u64, u64) {
        (self.a, self.c)
    }

    /// The variance parameter in steps², rounded to f64 (for reporting).
    pub fn variance(&self) -> f64 {
        self.a as f64 / self.c as f64
    }

    /// One draw, in steps: a discrete Laplace proposal Y of scale t, kept with
    /// probability `e^(-(|Y| - sigma²/t)² / (2 sigma²))`, i.e.
    /// `e^(-(|Y| c t - a)² / (2 a c t²))`.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> i128 {
        let proposal = DiscreteLaplace { t: self.t, s: 1 };
        let (a, c, t) = (
            BigUint::from(self.a),
            BigUint::from(self.c),
            BigUint::from(self.t),
        );
        // 2 a c t² < 2^(1 + 50 + 10 + 42): fits 128 bits.
        let den: BigUint = BigUint::from(2u8) * &a * &c * &t * &t;
        let den128 = u128::try_from(&den).unwrap_or(u128::MAX);
        loop {
            let y = proposal.sample(rng);
            let big = BigUint::from(y.unsigned_abs()) * &c * &t;
            let d = if big >= a { big - &a } else { &a - big };
            let num = &d * &d;
            let whole = u128::try_from(&num / &den).unwrap_or(u128::MAX);
            let rest = u128::try_from(&num % &den).unwrap_or(0);
            if bernoulli_exp_split(rng, whole, rest, den128) {
                return y;
            }
        }
    }
}

/// Exact noise in steps: one of the two laws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ExactNoise {
    /// Discrete Laplace.
    Laplace(DiscreteLaplace),
    /// Discrete Gaussian.
    Gaussian(DiscreteGaussian),
}

impl ExactNoise {
    /// One draw, in steps.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> i128 {
        match self {
            ExactNoise::Laplace(l) => l.sample(rng),
            ExactNoise::Gaussian(g) => g.sample(rng),
        }
    }

    /// The law's name in answers: `discrete_laplace` or `discrete_gaussian`.
    pub fn name(&self) -> &'static str {
        match self {
            ExactNoise::Laplace(_) => "discrete_laplace",
            ExactNoise::Gaussian(_) => "discrete_gaussian",
        }
    }

    /// The law, for measuring ([`pmldesign_model::lattice`]).
    pub fn law(&self) -> GridNoise {
        match self {
            ExactNoise::Laplace(l) => GridNoise::Laplace { scale: l.scale() },
            ExactNoise::Gaussian(g) => GridNoise::Gaussian {
                variance: g.variance(),
            },
        }
    }
}

/// The binary additive mechanism on a grid: a value `-1` or `1` (any spelling of
/// those numbers) becomes `clamp(x n + N, -m, m) / n`, written as the shortest
/// decimal that reads back as that f64. Row r draws from its own ChaCha20 stream
/// (stream id r, from word 0) under a key of the column and a domain tag of its
/// own, so a row's output depends only on the key, the column, r and its value.
#[derive(Debug, Clone)]
pub struct GridPrivatiser {
    noise: ExactNoise,
    n: u64,
    m: u64,
    seed: [u8; 32],
    alphabet: [String; 2],
}

impl GridPrivatiser {
    /// Noise `noise` on the grid of step `1/n`, clamped to `[-m/n, m/n]`
    /// (`n <= m`, at most `MAX_GRID_POINTS` points).
    pub fn new(
        noise: ExactNoise,
        (n, m): (u64, u64),
        (key, column): (&StreamKey, &str),
    ) -> Result<Self> {
        check_range(n, m)?;
        Ok(GridPrivatiser {
            noise,
            n,
            m,
            seed: column_seed(key, DOMAIN, column),
            alphabet: ["-1".to_owned(), "1".to_owned()],
        })
    }

    /// The released mechanism: rows x = -1, +1; columns the grid points
    /// `-m/n, .., m/n`.
    pub fn released(&self) -> Result<Mechanism> {
        released_mechanism(self.noise.law(), self.n, self.m)
    }

    /// The grid index (in steps) released for secret `x` at row `row`.
    pub fn draw(&self, row: u64, positive: bool) -> i64 {
        let mut rng = ChaCha20Rng::from_seed(self.seed);
        rng.set_stream(row);
        let x = if positive {
            self.n
        } else {
            self.n.wrapping_neg()
        } as i64;
        let m = self.m as i128;
        (i128::from(x) + self.noise.sample(&mut rng)).clamp(-m, m) as i64
    }
}

impl ColumnPrivatiser for GridPrivatiser {
    fn privatise(&mut self, row: u64, value: &[u8], out: &mut Vec<u8>) -> bool {
        match binary_value(value) {
            Some(x) => {
                // Written from the grid index alone: the shortest round-trip decimal.
                let k = self.draw(row, x > 0.0);
                write!(out, "{}", k as f64 / self.n as f64).expect("writing to a Vec cannot fail");
                true
            }
            None => false,
        }
    }

    fn alphabet(&self) -> &[String] {
        &self.alphabet
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_are_held_exactly() {
        assert_eq!(DiscreteLaplace::on_grid(1.0, 4).unwrap().ratio(), (4, 1));
        assert_eq!(DiscreteLaplace::on_grid(0.75, 2).unwrap().ratio(), (3, 2));
        let l = DiscreteLaplace::on_grid(0.8, 10).unwrap();
        assert_eq!(l.scale(), 0.8 * 10.0);
        assert!(DiscreteLaplace::on_grid(1e-30, 1).is_err());
        assert!(DiscreteLaplace::on_grid(1e300, 1).is_err());
        assert!(DiscreteLaplace::on_grid(f64::NAN, 1).is_err());
        let g = DiscreteGaussian::on_grid(1.5, 2).unwrap();
        assert_eq!(g.ratio(), (9 * 1024, 1024));
        assert_eq!(g.t, 4);
        assert!(DiscreteGaussian::on_grid(1e-3, 1).is_err());
        assert!(DiscreteGaussian::on_grid(1e6, 1).is_err());
    }

    #[test]
    fn uniform_is_in_range() {
        let mut rng = crate::seeded_rng(3);
        for m in [1u128, 2, 3, 7, u64::MAX as u128, 1 << 64, (1 << 100) + 3] {
            for _ in 0..100 {
                assert!(uniform_below(&mut rng, m) < m);
            }
        }
    }
}
