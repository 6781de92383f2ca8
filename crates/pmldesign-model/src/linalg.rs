//! Small dense linear algebra: least squares by faer's Householder QR, and
//! non-negative least squares (used to polish LP solutions so that designed
//! mechanisms have exact row sums); every column's extremes and dot products in
//! one row-major pass.

use ndarray::{Array1, Array2, ArrayView1, ArrayView2};

/// `(max, min)` of every column of `a` (`(-inf, inf)` for none), read in row
/// order: a pass column by column over a row-major N x N matrix misses the
/// cache at every entry. Maxima and minima are exact, so any order gives them.
pub fn column_extremes(a: ArrayView2<'_, f64>) -> Vec<(f64, f64)> {
    let mut ext = vec![(f64::NEG_INFINITY, f64::INFINITY); a.ncols()];
    for row in a.rows() {
        for ((hi, lo), &v) in ext.iter_mut().zip(row) {
            *hi = hi.max(v);
            *lo = lo.min(v);
        }
    }
    ext
}

/// `((max, first row of it), (min, first row of it))` of every column of a
/// non-empty `a`, read in row order as [`column_extremes`].
pub fn column_first_extremes(a: ArrayView2<'_, f64>) -> Vec<((f64, usize), (f64, usize))> {
    let Some(first) = a.rows().into_iter().next() else {
        return Vec::new();
    };
    let mut ext: Vec<_> = first.iter().map(|&v| ((v, 0), (v, 0))).collect();
    for (x, row) in a.rows().into_iter().enumerate().skip(1) {
        for (((hi, top), (lo, bottom)), &v) in ext.iter_mut().zip(row) {
            if v > *hi {
                (*hi, *top) = (v, x);
            }
            if v < *lo {
                (*lo, *bottom) = (v, x);
            }
        }
    }
    ext
}

/// `p . a[:, y]` for every column y, added in row order from 0 as ndarray's dot
/// product of a strided column adds them: the same bits as column by column, in
/// one pass that reads the matrix in memory order. `None` where `a` is not
/// row-major or has one column (a contiguous column, whose dot product ndarray
/// unrolls into eight sums).
pub fn column_dots(p: ArrayView1<'_, f64>, a: ArrayView2<'_, f64>) -> Option<Vec<f64>> {
    let k = a.ncols();
    let rows = a.as_slice().filter(|_| k > 1)?;
    let mut dots = vec![0.0; k];
    for (row, &px) in rows.chunks_exact(k).zip(p) {
        for (d, &c) in dots.iter_mut().zip(row) {
            *d += px * c;
        }
    }
    Some(dots)
}

/// Solves `min ||A x - b||_2` for a tall or square `A` (rows >= cols) with full
/// column rank by faer's blocked Householder QR (one thread, a fixed order of
/// operations: the same bytes on every run). Returns `None` when `A` is rank
/// deficient (a diagonal of R below `1e-13` times the largest column norm).
pub fn least_squares(a: &Array2<f64>, b: &Array1<f64>) -> Option<Array1<f64>> {
    if b.len() != a.nrows() {
        return None;
    }
    let b = b.view().insert_axis(ndarray::Axis(1)).to_owned();
    least_squares_columns(a, &b).map(|x| x.column(0).to_owned())
}

/// [`least_squares`] for every column of `B` at once (one factorisation):
/// `X` with `min ||A X[:, j] - B[:, j]||_2` for each j; `None` as there.
pub fn least_squares_columns(a: &Array2<f64>, b: &Array2<f64>) -> Option<Array2<f64>> {
    use faer::linalg::solvers::SolveLstsq;
    let (m, n) = a.dim();
    if m < n || b.nrows() != m {
        return None;
    }
    let qr = full_rank_qr(a)?;
    let mut y = faer::Mat::<f64>::from_fn(m, b.ncols(), |i, j| b[[i, j]]);
    qr.solve_lstsq_in_place(&mut y);
    Some(Array2::from_shape_fn((n, b.ncols()), |(i, j)| y[(i, j)]))
}

/// The pseudo-inverse `A^+ = R^-1 Q^T` of a tall or square `A` (rows >= cols)
/// with full column rank, from the same QR as [`least_squares_columns`]: each
/// column of `A^+` solves `min ||A x - e_y||`, at `O(m n^2)` work where solving
/// for the `m` columns of the identity costs `O(m^2 n)`. `None` as there.
pub fn left_inverse(a: &Array2<f64>) -> Option<Array2<f64>> {
    let (m, n) = a.dim();
    if m < n {
        return None;
    }
    let qr = full_rank_qr(a)?;
    let mut x = qr.compute_thin_Q().transpose().to_owned();
    faer::linalg::triangular_solve::solve_upper_triangular_in_place(
        qr.thin_R(),
        x.as_mut(),
        faer::Par::Seq,
    );
    Some(Array2::from_shape_fn((n, m), |(i, j)| x[(i, j)]))
}

/// faer's blocked Householder QR of `a` (one thread, a fixed order of
/// operations), `None` where `a` is rank deficient ([`rank_deficient`]).
fn full_rank_qr(a: &Array2<f64>) -> Option<faer::linalg::solvers::Qr<f64>> {
    let qr = faer::Mat::<f64>::from_fn(a.nrows(), a.ncols(), |i, j| a[[i, j]]).qr();
    (!rank_deficient(a, qr.R())).then_some(qr)
}

/// Whether the triangular factor `t` of `a` (QR's R, LU's U) has a diagonal
/// entry below `1e-13` times the largest column norm of `a` (or NaN): `a` is
/// then rank deficient to working precision.
fn rank_deficient(a: &Array2<f64>, t: faer::MatRef<'_, f64>) -> bool {
    let scale = (0..a.ncols())
        .map(|j| a.column(j).dot(&a.column(j)).sqrt())
        .fold(0.0, f64::max);
    let tolerance = 1e-13 * scale.max(f64::MIN_POSITIVE);
    (0..a.ncols()).any(|k| t[(k, k)].is_nan() || t[(k, k)].abs() <= tolerance)
}

/// The inverse of a square `A` by faer's partial-pivoting LU (one thread, a
/// fixed order of operations), about half the work of [`least_squares_columns`]
/// against the identity. `None` when `A` is singular to working precision (a
/// pivot below `1e-13` times the largest column norm).
pub fn inverse(a: &Array2<f64>) -> Option<Array2<f64>> {
    use faer::linalg::solvers::DenseSolveCore;
    let (m, n) = a.dim();
    if m != n {
        return None;
    }
    let lu = faer::Mat::<f64>::from_fn(n, n, |i, j| a[[i, j]]).partial_piv_lu();
    if rank_deficient(a, lu.U()) {
        return None;
    }
    let inv = lu.inverse();
    Some(Array2::from_shape_fn((n, n), |(i, j)| inv[(i, j)]))
}

/// Solves `min ||A x - b||_2` over `x >= 0` by the active-set method of Lawson
/// and Hanson (Solving Least Squares Problems, 1974, ch. 23): columns enter the
/// passive set by largest gradient and leave when an unconstrained step would
/// make them negative. `None` if a passive set is rank deficient or the
/// iterations (`3 cols`) run out.
pub fn nonnegative_least_squares(a: &Array2<f64>, b: &Array1<f64>) -> Option<Array1<f64>> {
    nonnegative_least_squares_until(a, b, &|_| false)
}

/// [`nonnegative_least_squares`], asking `stop(i)` before iteration i (each one
/// least squares on the passive columns, cubic in their number): `None` once it
/// says stop, so that a deadline or an interrupt ends a long solve.
pub fn nonnegative_least_squares_until(
    a: &Array2<f64>,
    b: &Array1<f64>,
    stop: &dyn Fn(usize) -> bool,
) -> Option<Array1<f64>> {
    let n = a.ncols();
    let mut x = Array1::<f64>::zeros(n);
    let mut passive = vec![false; n];
    let scale = b.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1.0);
    for i in 0..3 * n {
        if stop(i) {
            return None;
        }
        let gradient = a.t().dot(&(b - &a.dot(&x)));
        let entering = (0..n)
            .filter(|&j| !passive[j])
            .max_by(|&i, &j| gradient[i].total_cmp(&gradient[j]));
        match entering {
            Some(j) if gradient[j] > 1e-14 * scale => passive[j] = true,
            _ => return Some(x),
        }
        x = feasible_step(a, b, x, &mut passive)?;
    }
    None
}

/// The inner loop of [`nonnegative_least_squares`]: least squares on the
/// passive columns, stepping back to the boundary (and dropping the columns
/// that reach 0) until the solution is positive.
fn feasible_step(
    a: &Array2<f64>,
    b: &Array1<f64>,
    mut x: Array1<f64>,
    passive: &mut [bool],
) -> Option<Array1<f64>> {
    loop {
        let cols: Vec<usize> = (0..passive.len()).filter(|&j| passive[j]).collect();
        let z = least_squares(&a.select(ndarray::Axis(1), &cols), b)?;
        if z.iter().all(|&v| v > 0.0) {
            x.fill(0.0);
            for (k, &j) in cols.iter().enumerate() {
                x[j] = z[k];
            }
            return Some(x);
        }
        let alpha = cols
            .iter()
            .zip(z.iter())
            .filter(|(_, zk)| **zk <= 0.0)
            .map(|(&j, &zk)| x[j] / (x[j] - zk))
            .fold(f64::INFINITY, f64::min);
        for (k, &j) in cols.iter().enumerate() {
            x[j] += alpha * (z[k] - x[j]);
            if x[j] <= 0.0 || (z[k] <= 0.0 && x[j] <= 1e-300) {
                x[j] = 0.0;
                passive[j] = false;
            }
        }
        if cols.iter().all(|&j| passive[j]) {
            // No column reached 0 (rounding): drop the most negative.
            let worst = (0..cols.len()).min_by(|&i, &k| z[i].total_cmp(&z[k]))?;
            passive[cols[worst]] = false;
            x[cols[worst]] = 0.0;
        }
    }
}
