//! The Fisher information of the released outputs about the input distribution,
//! and the asymptotic error of the maximum-likelihood estimate (docs/theory.md
//! §13): `J(W) = W diag(1/q) W^T` at `q = W^T p`. On the simplex the
//! Cramér-Rao bound is `J^-1 - p p^T` (`J p = 1`), which EM attains as the number
//! of rows m grows: `m E||p^ - p||^2 -> tr(J^-1) - ||p||^2`.

use crate::mechanism::Mechanism;
use faer::Side;
use faer::linalg::solvers::DenseSolveCore;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2};

/// A Cholesky pivot `L_ii^2` below this fraction of `J_ii` counts as zero: the
/// rows of W are then (numerically) dependent and some input is not estimable.
const PIVOT: f64 = 1e-12;

/// `J(W) = sum_y c_y c_y^T / q_y` over the outputs of positive probability
/// under `p` (`c_y` the column of output y).
pub fn fisher_information(w: &Mechanism, p: ArrayView1<f64>) -> Array2<f64> {
    fisher_of(w.matrix(), p)
}

/// [`fisher_information`] of a row-stochastic matrix; Hadamard response's by
/// its transform ([`super::hadamard_fisher`]).
pub fn fisher_of(m: ArrayView2<f64>, p: ArrayView1<f64>) -> Array2<f64> {
    if let Some(j) = super::hadamard::hadamard_fisher(m, p) {
        return j;
    }
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
    let inv = cholesky(j)?.inverse();
    Some(Array2::from_shape_fn((n, n), |(a, b)| inv[(a, b)]))
}

/// `tr(J^-1)` of the `j` that [`inverse_fisher`] inverts (`None` where it
/// refuses it): `||L^-1||_F^2` for the Cholesky factor L, two thirds of the
/// inverse's work (1.3 s of it at 4,096 inputs on two cores).
pub fn trace_of_inverse(j: &Array2<f64>) -> Option<f64> {
    let n = j.nrows();
    let llt = cholesky(j)?;
    let mut inv = faer::Mat::<f64>::zeros(n, n);
    faer::linalg::triangular_inverse::invert_lower_triangular(
        inv.as_mut(),
        llt.L(),
        faer::get_global_parallelism(),
    );
    let column = |c: usize| (c..n).map(|r| inv[(r, c)] * inv[(r, c)]).sum::<f64>();
    Some((0..n).map(column).sum())
}

/// faer's Cholesky factor of `j`, `None` where a pivot vanishes ([`PIVOT`]).
fn cholesky(j: &Array2<f64>) -> Option<faer::linalg::solvers::Llt<f64>> {
    let n = j.nrows();
    let mat = faer::Mat::<f64>::from_fn(n, n, |a, b| j[[a, b]]);
    let llt = mat.llt(Side::Lower).ok()?;
    let l = llt.L();
    if (0..n).any(|i| l[(i, i)] * l[(i, i)] <= PIVOT * j[[i, i]]) {
        return None;
    }
    Some(llt)
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
    // J is a sum of one rank-one term per output of positive probability: with
    // fewer of them than inputs it is singular, known without its N^3 work (a
    // partition's, a cover's of fewer arcs than inputs).
    let q = m.t().dot(&p);
    if q.iter().filter(|&&q| q > 0.0).count() < m.nrows() {
        return None;
    }
    let trace = match closed_form_trace(m, p) {
        Some(t) => t,
        None => trace_of_inverse(&fisher_of(m, p))?,
    };
    // Never below 0, which rounding could pass where one mass is 1.
    Some((trace - p.dot(&p)).max(0.0))
}

/// `tr(J^-1)` in closed form for a square `W = D + 1 b^T` (each column
/// constant off the diagonal, `b_y`, and above it on the diagonal by `d_y > 0`):
/// k-ary randomized response (`D = alpha I`, `b = beta 1`) and randomized
/// response toward a prior (`D = (1 - a) I`, `b = a p`; docs/theory.md §13),
/// `None` for any other matrix. By Sherman-Morrison the rows of `W^-1` are
/// `(e_y - g)^T / d_y` with `g = D^-1 b / (1 + b . D^-1 1)`, and
/// `J^-1 = W^-T diag(q) W^-1` with `q = W^T p`, so
/// `tr(J^-1) = sum_y q_y (1 - 2 g_y + |g|^2) / d_y^2` for any prior. O(N^2)
/// (the check of the form) where the general route costs O(N^3): 134 MB
/// matrices and seconds each at N = 4096. Every output's probability is
/// positive (checked by the caller).
pub fn closed_form_trace(m: ArrayView2<f64>, p: ArrayView1<f64>) -> Option<f64> {
    if randomized_response_form(m) {
        return Some(randomized_response_trace(m, p));
    }
    let (d, b) = diagonal_plus_columns(m)?;
    let s: f64 = b.iter().zip(&d).map(|(b, d)| b / d).sum();
    let g: Vec<f64> = b.iter().zip(&d).map(|(b, d)| b / (d * (1.0 + s))).collect();
    let norm: f64 = g.iter().map(|g| g * g).sum();
    let mass: f64 = p.sum();
    let trace = (0..d.len())
        .map(|y| {
            let q = b[y] * mass + d[y] * p[y];
            q * (1.0 - 2.0 * g[y] + norm) / (d[y] * d[y])
        })
        .sum();
    Some(trace)
}

/// [`closed_form_trace`] of k-ary randomized response, `W = alpha I + beta 1
/// 1^T`: `W^-1 = (I - gamma 1 1^T) / alpha`, `gamma = beta / (alpha + N beta)`,
/// so `tr(J^-1) = (alpha + N beta)(1 - 2 gamma + N gamma^2) / alpha^2`.
fn randomized_response_trace(m: ArrayView2<f64>, p: ArrayView1<f64>) -> f64 {
    let (n, d, o) = (m.nrows(), m[[0, 0]], m[[0, 1]]);
    let (alpha, beta, nf) = (d - o, o, n as f64);
    let total = alpha + nf * beta;
    let gamma = beta / total;
    p.sum() * total * (1.0 - 2.0 * gamma + nf * gamma * gamma) / (alpha * alpha)
}

/// Whether `w` is k-ary randomized response's form: square with at least two
/// inputs, every diagonal entry equal, every other entry equal and smaller
/// (its error then has a closed form, O(N^2) where the general route is O(N^3)).
pub fn is_randomized_response(w: &Mechanism) -> bool {
    randomized_response_form(w.matrix())
}

/// Whether `w`'s error has the closed form of [`closed_form_trace`]:
/// square with at least two inputs, each column constant off the diagonal
/// and larger on it (k-ary randomized response, and randomized response
/// toward a prior).
pub fn has_closed_form_error(w: &Mechanism) -> bool {
    diagonal_plus_columns(w.matrix()).is_some()
}

/// Whether `w`'s error costs no `N^2 K` product and at most one `N^3` step:
/// fewer outputs than inputs (J is singular, known at once), the closed form
/// ([`has_closed_form_error`]), or Hadamard response's form (its Fisher
/// information by the transform, [`super::hadamard_fisher`]).
pub fn has_quick_error(w: &Mechanism) -> bool {
    w.outputs() < w.inputs()
        || has_closed_form_error(w)
        || super::hadamard::has_hadamard_form(w.matrix())
}

/// [`is_randomized_response`] of a matrix.
fn randomized_response_form(m: ArrayView2<f64>) -> bool {
    let n = m.nrows();
    if n < 2 || m.ncols() != n {
        return false;
    }
    let (d, o) = (m[[0, 0]], m[[0, 1]]);
    d > o
        && m.indexed_iter()
            .all(|((x, y), &v)| v == if x == y { d } else { o })
}

/// `(d, b)` of a square `m = diag(d) + 1 b^T` with at least two rows and every
/// `d_y > 0` (each column's entries off the diagonal equal, `b_y`, and its
/// diagonal entry larger), else `None`.
fn diagonal_plus_columns(m: ArrayView2<f64>) -> Option<(Vec<f64>, Vec<f64>)> {
    let n = m.nrows();
    if n < 2 || m.ncols() != n {
        return None;
    }
    let b: Vec<f64> = (0..n).map(|y| m[[(y + 1) % n, y]]).collect();
    let d: Vec<f64> = (0..n).map(|y| m[[y, y]] - b[y]).collect();
    let form =
        d.iter().all(|&d| d > 0.0) && m.indexed_iter().all(|((x, y), &v)| x == y || v == b[y]);
    form.then_some((d, b))
}

/// Standard errors of the maximum-likelihood estimate `p` from `rows` released
/// rows through `m`: the square roots of the diagonal of `(J^-1 - p p^T) / m`,
/// the inverse Fisher information on the simplex (docs/theory.md §13); `None`
/// where J is singular at `p`.
pub(crate) fn simplex_standard_errors(
    m: ArrayView2<f64>,
    p: ArrayView1<f64>,
    rows: u64,
) -> Option<Array1<f64>> {
    let inv = inverse_fisher(&fisher_of(m, p))?;
    let rows = rows as f64;
    Some(Array1::from_shape_fn(p.len(), |g| {
        ((inv[[g, g]] - p[g] * p[g]).max(0.0) / rows).sqrt()
    }))
}

/// The inverse Fisher information on the simplex at an estimate `p`, for the
/// variances of functionals `a . p^`: `a^T J^+ a - (a . p)^2` per row, with `J`
/// possibly singular (inputs not identifiable). From the thin SVD `B = U S V^T`
/// of `B = W diag(q)^(-1/2)` over the outputs of positive probability
/// (`J = B B^T`, so `a^T J^+ a = ||S^-1 U^T a||^2` for `a` in U's range).
pub(crate) struct SimplexFisher {
    q: Array1<f64>,
    /// `U` over the singular values above 1e-12 of the largest.
    u: Option<Array2<f64>>,
    /// The kept singular values.
    s: Vec<f64>,
}

impl SimplexFisher {
    pub(crate) fn new(w: ArrayView2<f64>, p: ArrayView1<f64>) -> Self {
        let q = w.t().dot(&p);
        let kept: Vec<usize> = (0..q.len()).filter(|&y| q[y] > 0.0).collect();
        let b = faer::Mat::<f64>::from_fn(w.nrows(), kept.len(), |x, k| {
            w[[x, kept[k]]] / q[kept[k]].sqrt()
        });
        let Ok(svd) = b.thin_svd() else {
            return SimplexFisher {
                q,
                u: None,
                s: Vec::new(),
            };
        };
        let sv = svd.S().column_vector();
        let top = (0..sv.nrows()).fold(0.0f64, |a, i| a.max(sv[i]));
        let rank: Vec<usize> = (0..sv.nrows()).filter(|&i| sv[i] > 1e-12 * top).collect();
        let u = svd.U();
        let u = Array2::from_shape_fn((w.nrows(), rank.len()), |(x, k)| u[(x, rank[k])]);
        SimplexFisher {
            q,
            u: Some(u),
            s: rank.iter().map(|&i| sv[i]).collect(),
        }
    }

    /// `W^T p`.
    pub(crate) fn fitted(&self) -> &Array1<f64> {
        &self.q
    }

    /// `a^T J^+ a - value^2` (0 where below 1e-12 of the first term), `value`
    /// being `a . p`; `None` where
    /// `a` is not in J's range to 1e-9 of its largest weight.
    pub(crate) fn variance(&self, a: &[f64], value: f64) -> Option<f64> {
        let u = self.u.as_ref()?;
        let a = ArrayView1::from(a);
        let c = u.t().dot(&a);
        let back = u.dot(&c);
        let scale = a.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        if back
            .iter()
            .zip(&a)
            .any(|(b, a)| (b - a).abs() > 1e-9 * scale)
        {
            return None;
        }
        let quad: f64 = c.iter().zip(&self.s).map(|(c, s)| (c / s).powi(2)).sum();
        // Below rounding of the quadratic form, 0 (the total mass: `J p = 1`).
        let v = quad - value * value;
        Some(if v <= 1e-12 * quad { 0.0 } else { v })
    }
}
