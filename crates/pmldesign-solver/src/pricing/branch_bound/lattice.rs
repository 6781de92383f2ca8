//! The weights a set can have when every mass is a multiple of one unit
//! (docs/theory.md §4b, "Masses on a lattice"): an estimate from m samples has
//! `p_x = n_x / m`, so every `p(S)` is `k / m` for a whole k.
//!
//! A box cut's reduced cost is convex in W over its window, so its bound is
//! reached at the window's ends; a fractional-knapsack chain reaches them
//! exactly, sets only on the lattice. Near the optimum of a mutual-information
//! design the duals are nearly proportional to the masses and every member's
//! bound sits at the window's top end: the Zipf column's 120 members all
//! bounded 7.7e-6 there while no set came within 1.3e-6 (in `1 - hi W`) of it.
//! Moving each end inward to the nearest weight a set can have gives the same
//! bound at those sets' weights, which the search can then prove.

/// Masses `p_x = (k_x + e_x) / m` for whole `k_x` and small residuals `e_x`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lattice {
    /// `1 / m`.
    pub unit: f64,
    /// A bound on `|p(S) - k / m|` for every set S: the residuals' sum plus
    /// the rounding of a search's running sums.
    pub slack: f64,
}

/// Largest denominator of one mass: up to about 1e8 its continued fraction
/// recovers `n_x / m` from the rounded mass (Legendre: a fraction within
/// `1 / (2 q^2)` of x is a convergent).
const MAX_DENOMINATOR: u64 = 100_000_000;

/// Largest common denominator: beyond it the lattice is finer than the
/// rounding of sums of masses, and nothing is gained.
const MAX_UNITS: u64 = 1_000_000_000_000;

impl Lattice {
    /// The lattice of `p` (masses in `[0, 1]`), if they have a common unit
    /// `1 / m` with `m <= 1e12` whose residuals stay within a hundredth of
    /// the unit in total.
    pub fn of(p: &[f64]) -> Option<Self> {
        let mut m: u64 = 1;
        for &x in p {
            let q = denominator(x)?;
            m = m.checked_mul(q / gcd(m, q)).filter(|&m| m <= MAX_UNITS)?;
        }
        let m = m as f64;
        let residuals: f64 = p.iter().map(|&x| (x - (x * m).round() / m).abs()).sum();
        // Running sums of up to n masses round by n eps each; a margin of the
        // branch and bound's end tolerance covers them and the residuals' own
        // rounding.
        let rounding = 4.0 * f64::EPSILON * p.len() as f64 + super::BOUND_TOL;
        let slack = residuals + rounding;
        (slack * m < 0.01).then_some(Lattice {
            unit: 1.0 / m,
            slack,
        })
    }

    /// The part of `[lo, hi]` that holds every weight a set can have: the
    /// ends moved inward to the nearest `k / m`, widened by the slack (an
    /// empty range has `lo > hi`).
    pub fn narrow(&self, (lo, hi): (f64, f64)) -> (f64, f64) {
        let m = 1.0 / self.unit;
        let k_lo = ((lo - self.slack) * m).ceil();
        let k_hi = ((hi + self.slack) * m).floor();
        // `k / m` rounds by at most one ulp of a number at most 1.
        let ulp = 2.0 * f64::EPSILON;
        (
            lo.max(k_lo / m - self.slack - ulp),
            hi.min(k_hi / m + self.slack + ulp),
        )
    }
}

/// The denominator of the first convergent of x's continued fraction within
/// a few ulps of x, if it is at most [`MAX_DENOMINATOR`].
fn denominator(x: f64) -> Option<u64> {
    if x == 0.0 {
        return Some(1);
    }
    let (mut h, mut h_prev, mut k, mut k_prev) = (1u64, 0u64, 0u64, 1u64);
    let mut y = x;
    for _ in 0..64 {
        let a = y.floor();
        if !(0.0..=MAX_DENOMINATOR as f64).contains(&a) {
            return None;
        }
        let a = a as u64;
        (h, h_prev) = (a.checked_mul(h)?.checked_add(h_prev)?, h);
        (k, k_prev) = (a.checked_mul(k)?.checked_add(k_prev)?, k);
        if k > MAX_DENOMINATOR {
            return None;
        }
        if (x - h as f64 / k as f64).abs() <= 8.0 * f64::EPSILON * x {
            return Some(k);
        }
        let r = y - a as f64;
        if r <= 0.0 {
            return None;
        }
        y = 1.0 / r;
    }
    None
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}
