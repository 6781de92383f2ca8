//! The objective of a design for estimation (docs/theory.md §13, "Designing for
//! estimation"): minus the asymptotic error per released row of the
//! maximum-likelihood estimate of the input distribution, its linearisation (a
//! sub-convex utility the design LP maximises) and the lower bound a bound on
//! that LP proves.

use crate::objective::utility::Utility;
use ndarray::{Array2, ArrayView1};
use pmldesign_model::frequency::asymptotic_error;
use pmldesign_model::{DensityRange, Mechanism};

/// The utility name of a design for estimation; its value is minus the
/// asymptotic error per row, `-(tr J^-1 - ||p||^2)`.
pub const ESTIMATION_UTILITY_NAME: &str = "estimation";

/// The objective of a design for estimation: minus the asymptotic error per
/// row at the reference prior, `-inf` where some input is not estimable.
pub fn estimation_value(w: &Mechanism, p: ArrayView1<f64>) -> f64 {
    asymptotic_error(w, p).map_or(f64::NEG_INFINITY, |e| -e)
}

/// The linearisation at a mechanism: `u(c) = c^T C c / (p . c)` with
/// `C = J^-2`, sub-convex (quadratic over linear), so the design LP maximises it
/// over the cone's rays like any other utility.
pub(crate) struct Linearised(pub(crate) Array2<f64>);

impl Utility for Linearised {
    fn name(&self) -> String {
        "estimation_linearised".into()
    }

    fn column_value(&self, c: ArrayView1<f64>, p: ArrayView1<f64>) -> f64 {
        let q = p.dot(&c);
        if q <= 0.0 {
            0.0
        } else {
            c.dot(&self.0.dot(&c)) / q
        }
    }

    fn quadratic(&self) -> Option<&Array2<f64>> {
        Some(&self.0)
    }
}

/// The lower bound on `min f` that a certified upper bound `u_bound` on the
/// linearisation's optimum at W proves (`2 f(W) - U`), never below `floor`,
/// the notion's closed-form floor ([`notion_floor`], at least 1).
pub(crate) fn error_floor(f: f64, u_bound: f64, floor: f64) -> f64 {
    (2.0 * f - u_bound).max(floor)
}

/// The least `f = tr J^-1` any mechanism can have at the prior `p` under a
/// notion whose information density is bounded by `range` (docs/theory.md §13,
/// "A floor in closed form"). Where every density of input x is at most
/// `d_x`, `J_xx = sum_y W[x,y]^2 / P(y) <= d_x`; with `J p = 1`, the
/// Cauchy-Schwarz inequality `(J^-1)_xx >= (e_x . v)^2 / (v^T J v)` at
/// `v = e_x - a p` and its best a give `(J^-1)_xx >= p_x^2 + (1 - p_x)^2 /
/// (d_x - 1)`. Every density is at most `1 / p_x` (`P(y) >= p_x W[x,y]`),
/// where the term is `p_x`: without a range the floor is 1, the identity's.
/// Lowered by 1e-12 relative, so that rounding never overstates it.
pub(crate) fn notion_floor(p: ArrayView1<f64>, range: Option<DensityRange>) -> f64 {
    let ceiling = |px: f64| -> f64 {
        let own = 1.0 / px;
        match range {
            None => own,
            // P(y) >= (p_x + (1 - p_x) e^-eps) W[x,y]: every other row is at
            // least e^-eps W[x,y].
            Some(DensityRange::Spread { epsilon }) => 1.0 / (px + (1.0 - px) * (-epsilon).exp()),
            // Every other density is at least e^-eps_l, and sum_x p_x r_x = 1.
            Some(DensityRange::Levels { lower, upper }) => {
                let lo = lower.map_or(0.0, |l| (-l).exp());
                upper.exp().min((1.0 - lo * (1.0 - px)) / px)
            }
        }
    };
    let total: f64 = p
        .iter()
        .map(|&px| {
            let d = ceiling(px);
            match d > 1.0 {
                true => px * px + (1.0 - px).powi(2) / (d - 1.0),
                false => px,
            }
        })
        .sum();
    total * (1.0 - 1e-12)
}
