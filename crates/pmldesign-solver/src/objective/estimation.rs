//! The objective of a design for estimation (docs/theory.md §13, "Designing for
//! estimation"): minus the asymptotic error per released row of the
//! maximum-likelihood estimate of the input distribution, its linearisation (a
//! sub-convex utility the design LP maximises) and the lower bound a bound on
//! that LP proves.

use crate::objective::utility::Utility;
use crate::tolerance::BOUND_ROUNDING;
use ndarray::{Array2, ArrayView1};
use pmldesign_model::Mechanism;
use pmldesign_model::frequency::{asymptotic_error, has_quick_error};

/// The utility name of a design for estimation; its value is minus the
/// asymptotic error per row, `-(tr J^-1 - ||p||^2)`.
pub const ESTIMATION_UTILITY_NAME: &str = "estimation";

/// The objective of a design for estimation: minus the asymptotic error per
/// row at the reference prior, `-inf` where some input is not estimable.
pub fn estimation_value(w: &Mechanism, p: ArrayView1<f64>) -> f64 {
    asymptotic_error(w, p).map_or(f64::NEG_INFINITY, |e| -e)
}

/// Whether `m`'s error is measured (for an estimation table, or a baseline of
/// a design for estimation): always up to
/// [`crate::limits::SCORED_SQUARE_UP_TO`] inputs, past it only where that is
/// quick ([`has_quick_error`]; a square's Fisher information and inverse
/// cost seconds each there, tens of seconds for a design's many outputs).
pub fn quick(m: &Mechanism) -> bool {
    m.inputs() <= crate::limits::SCORED_SQUARE_UP_TO || has_quick_error(m)
}

/// [`estimation_value`] of a baseline: `-inf` (no comparison, left out of the
/// list) where its error is not [`quick`] to measure. The design and a reader
/// of its file score the same baselines, so that both list the same.
pub fn baseline_estimation_value(w: &Mechanism, p: ArrayView1<f64>) -> f64 {
    match quick(w) {
        true => estimation_value(w, p),
        false => f64::NEG_INFINITY,
    }
}

/// The linearisation at a mechanism: `u(c) = c^T C c / (p . c)` with
/// `C = J^-2`, sub-convex (quadratic over linear), so the design LP maximises it
/// over the cone's rays like any other utility.
pub(crate) struct Linearised(pub(crate) Array2<f64>);

impl Linearised {
    /// The identity's value, `sum_y C_yy / p_y`: the same terms in the same
    /// order as [`Utility::value`] of `Mechanism::identity` (each column
    /// `e_y` gives exactly `C_yy / p_y`), in O(N) where that route costs a
    /// matrix-vector product per column (about 45 s at N = 2,048). The
    /// identity is the largest value of the linearisation over mechanisms (every
    /// mechanism is a garbling of it), so it bounds the LP's optimum.
    pub(crate) fn identity_value(&self, p: ArrayView1<f64>) -> f64 {
        (0..p.len())
            .map(|y| match p[y] > 0.0 {
                true => self.0[[y, y]] / p[y],
                false => 0.0,
            })
            .sum()
    }
}

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
/// the notion's floor ([`super::estimation_floor::notion_floor`], at least 1).
/// `U >= f(W)` holds exactly (W itself scores f under the linearisation); where
/// rounding puts `2 f - U` above f by more than half of [`BOUND_ROUNDING`]
/// (J near singular, at levels near 0, where `J^-1` carries the error of its
/// condition number), the LP's bound proves nothing and `floor` alone is kept.
pub(crate) fn error_floor(f: f64, u_bound: f64, floor: f64) -> f64 {
    let linearised = 2.0 * f - u_bound;
    match linearised - f > 0.5 * BOUND_ROUNDING * (1.0 + f.abs()) {
        true => floor,
        false => linearised.max(floor),
    }
}
