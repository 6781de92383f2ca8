//! A mixture of mechanisms as one mechanism: proportional columns merged and
//! the rows' sums restored.

use crate::error::Result;
use ndarray::{Array1, Array2, Axis};
use pmldesign_model::Mechanism;
use pmldesign_model::mechanism::CERTIFIED_ROW_SUM_TOLERANCE;

/// The columns of `w` that are multiples of one another added into one (J and
/// every notion's levels unchanged: both are homogeneous in a column), zero
/// columns dropped: the reduced mechanism of the envelope (\[V\] App. A), whose
/// fingerprints rule out most pairs of outputs by two numbers instead of a
/// column.
///
/// The columns are first rescaled so that the rows sum to 1 to rounding
/// ([`rows_summed`]): a mixture's weights meet the row sums only to the
/// tolerance of the solve that found them.
pub(crate) fn merge_proportional(w: Array2<f64>) -> Result<Mechanism> {
    let (merged, _) = pmldesign_model::envelope::reduce(&Mechanism::new(rows_summed(w))?)?;
    Ok(merged)
}

/// Row sums off by less than this are left as they are.
const ROW_SUM_ROUNDING: f64 = 1e-14;

/// Nor are row sums of M entries off by less than `M` units of rounding, up
/// to a tenth of what a certificate accepts: summing thousands of
/// entries rounds by as much, so a rescaling cannot do better, and its Gram
/// product (`N^2 M`) and least squares (`N^3`) are most of a large mixture's
/// cost (docs/theory.md §13).
const ROW_SUM_ROUNDING_MOST: f64 = CERTIFIED_ROW_SUM_TOLERANCE / 10.0;

/// `w` with each column scaled by `1 + t_y`, t the least-norm solution of
/// `W t = 1 - W 1` (the rows' shortfalls), repeated while the shortfall
/// shrinks: scaling a column keeps its shape, so every notion's level and
/// the column's ray are unchanged (J moves by the shortfall, relative). `w`
/// itself where the shortfall is already within the rounding of its rows'
/// sums (`M` units, from [`ROW_SUM_ROUNDING`] to [`ROW_SUM_ROUNDING_MOST`]) or
/// the solve fails (W without full row rank).
fn rows_summed(mut w: Array2<f64>) -> Array2<f64> {
    let shortfall = |m: &Array2<f64>| m.sum_axis(Axis(1)).mapv(|s| 1.0 - s);
    let worst = |r: &Array1<f64>| r.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let rounding = (w.ncols() as f64 * f64::EPSILON).clamp(ROW_SUM_ROUNDING, ROW_SUM_ROUNDING_MOST);
    let mut r = shortfall(&w);
    for _ in 0..3 {
        if worst(&r) <= rounding {
            break;
        }
        let Some(y) = pmldesign_model::linalg::least_squares(&w.dot(&w.t()), &r) else {
            break;
        };
        let t = w.t().dot(&y);
        if t.iter().any(|&x| !x.is_finite() || x <= -0.5) {
            break;
        }
        let scaled = &w * &t.mapv(|x| 1.0 + x).insert_axis(Axis(0));
        let next = shortfall(&scaled);
        if worst(&next) >= worst(&r) {
            break;
        }
        (w, r) = (scaled, next);
    }
    w
}
