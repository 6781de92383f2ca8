//! The Fisher information of the released outputs about the input distribution,
//! and the asymptotic error of the maximum-likelihood estimate (docs/theory.md
//! §13): `J(W) = W diag(1/q) W^T` at `q = W^T p`. On the simplex the
//! Cramér-Rao bound is `J^-1 - p p^T` (`J p = 1`), which EM attains as the number
//! of rows m grows: `m E||p^ - p||^2 -> tr(J^-1) - ||p||^2`.

use crate::mechanism::Mechanism;
use faer::Side;
use faer::linalg::solvers::DenseSolveCore;
use ndarray::{Array2, ArrayView1, ArrayView2};

/// A Cholesky pivot `L_ii^2` below this fraction of `J_ii` counts as zero: the
/// rows of W are then (numerically) dependent and some input is not estimable.
const PIVOT: f64 = 1e-12;

/// `J(W) = sum_y c_y c_y^T / q_y` over the outputs of positive probability
/// under `p` (`c_y` the column of output y).
pub fn fisher_information(w: &Mechanism, p: ArrayView1<f64>) -> Array2<f64> {
    fisher_of(w.matrix(), p)
}

/// [`fisher_information`] of a row-stochastic matrix.
pub(crate) fn fisher_of(m: ArrayView2<f64>, p: ArrayView1<f64>) -> Array2<f64> {
    let n = m.nrows();
    let q = m.t().dot(&p);
    let mut scaled = m.to_owned();
    for (y, mut col) in scaled.columns_mut().into_iter().enumerate() {
        let s = if q[y] > 0.0 { 1.0 / q[y] } else { 0.0 };
        col.mapv_inplace(|v| v * s);
    }
    let j = scaled.dot(&m.t());
    Array2::from_shape_fn((n, n), |(a, b)| 0.5 * (j[[a, b]] + j[[b, a]]))
}

/// `J^-1` of a symmetric positive definite `j` by Cholesky (faer); `None` when
/// a pivot vanishes (below `PIVOT` = 1e-12 of its diagonal entry): J is singular.
pub fn inverse_fisher(j: &Array2<f64>) -> Option<Array2<f64>> {
    let n = j.nrows();
    let mat = faer::Mat::<f64>::from_fn(n, n, |a, b| j[[a, b]]);
    let llt = mat.llt(Side::Lower).ok()?;
    let l = llt.L();
    if (0..n).any(|i| l[(i, i)] * l[(i, i)] <= PIVOT * j[[i, i]]) {
        return None;
    }
    let inv = llt.inverse();
    Some(Array2::from_shape_fn((n, n), |(a, b)| inv[(a, b)]))
}

/// The asymptotic error per released row of the maximum-likelihood estimate of
/// `p` from W's outputs, `tr(J^-1) - ||p||^2` (docs/theory.md §13); `None`
/// when J is singular
/// (some input is not estimable). At least `1 - ||p||^2`, the error of the raw
/// sample (the identity), since `J <= diag(1/p)`.
pub fn asymptotic_error(w: &Mechanism, p: ArrayView1<f64>) -> Option<f64> {
    asymptotic_error_of(w.matrix(), p)
}

/// [`asymptotic_error`] of a row-stochastic matrix.
pub(crate) fn asymptotic_error_of(m: ArrayView2<f64>, p: ArrayView1<f64>) -> Option<f64> {
    let inv = inverse_fisher(&fisher_of(m, p))?;
    // Never below 0, which rounding could pass where one mass is 1.
    Some((inv.diag().sum() - p.dot(&p)).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn binary_randomized_response_meets_its_closed_form() {
        // W = [[a, 1-a], [1-a, a]]: the inversion estimate is unbiased with
        // m Var(p^_0) = q_0 q_1 / (2a - 1)^2, the ML estimate's asymptotic variance.
        let (a, p0) = (0.75, 0.3);
        let w = Mechanism::new(array![[a, 1.0 - a], [1.0 - a, a]]).unwrap();
        let p = array![p0, 1.0 - p0];
        let q0 = p0 * a + (1.0 - p0) * (1.0 - a);
        let var = q0 * (1.0 - q0) / (2.0 * a - 1.0).powi(2);
        let err = asymptotic_error(&w, p.view()).unwrap();
        assert!((err - 2.0 * var).abs() < 1e-12, "{err} vs {}", 2.0 * var);
    }

    #[test]
    fn the_identity_has_the_error_of_the_raw_sample_and_merged_rows_none() {
        let p = array![0.5, 0.3, 0.2];
        let err = asymptotic_error(&Mechanism::identity(3), p.view()).unwrap();
        assert!((err - (1.0 - p.dot(&p))).abs() < 1e-12);
        let merged = Mechanism::new(array![[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]).unwrap();
        assert!(asymptotic_error(&merged, p.view()).is_none());
    }
}
