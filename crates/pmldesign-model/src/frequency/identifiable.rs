//! Which combinations of inputs the released data determine when the distinct
//! rows of a mechanism are linearly dependent (docs/theory.md §13).
//!
//! The data determine p only through `q = W^T p`, so p is known up to a vector
//! of `null(W^T)`. The total of a set S of inputs is determined exactly when
//! its indicator `1_S` is orthogonal to `null(W^T)`, i.e. `1_S = W g` for some
//! weights g on the outputs; `g . q^` then estimates it without bias, with the
//! delta-method variance `g^T (diag q - q q^T) g / m`.
//!
//! The partition: a basis of `null(W^T)` (the left singular vectors of W whose
//! singular values are at most 1e-13 of the largest), brought to reduced
//! row-echelon form so that each vector's support is as small as elimination
//! makes it. An input outside every vector's support is identifiable alone;
//! the others form blocks, the connected components of the supports (two
//! inputs are joined when some basis vector is non-zero on both). A block's
//! indicator is orthogonal to every basis vector, since each sums to 0 over its
//! own support (`v^T W = 0` and W's rows sum to 1 give `v . 1 = 0`), so every
//! block's total is identifiable. This is the finest partition that the
//! reduced basis shows, not necessarily the finest there is: a finer one needs
//! subsets on which some combination of null vectors sums to zero, a zero-sum
//! subset problem.

use super::inversion::project_to_simplex;
use super::{FrequencyMethod, FrequencySettings, Parts, em, fitted_outputs};
use crate::error::{ModelError, Result};
use ndarray::{Array1, Array2};

/// A singular value at most this fraction of the largest counts as zero (the
/// rank tolerance of `linalg`'s least squares: a QR that finds the rows
/// dependent always leaves a singular value below it).
const RANK: f64 = 1e-13;

/// An entry of a reduced null vector at most this fraction of the vector's
/// largest entry is rounding, outside its support.
const SUPPORT: f64 = 1e-9;

/// The blocks of a merged mechanism `w` (one row per group of equal rows)
/// whose rows are linearly dependent, and the output weights of each block's
/// total.
pub(crate) struct Blocks {
    /// Indices of `w`'s rows, each block in increasing order and the blocks by
    /// their first index; singletons where a row is identifiable alone.
    pub(crate) members: Vec<Vec<usize>>,
    /// Column b: weights `g` on the outputs with `W g = 1_B` for block b (the
    /// minimum-norm ones; all ones for a block of every row, whose total is 1).
    weights: Array2<f64>,
    /// The left singular vectors of the rank's singular values (rows x rank).
    left: Array2<f64>,
    /// The right ones, each divided by its singular value (outputs x rank):
    /// `pinv(W) = right left^T`.
    right: Array2<f64>,
}

impl Blocks {
    /// The blocks of `w`, from one singular value decomposition (U complete).
    pub(crate) fn new(w: &Array2<f64>) -> Result<Self> {
        let (g, m) = w.dim();
        let (u, s, v) = singular_values(w)?;
        let largest = s.iter().fold(0.0, |a: f64, &b| a.max(b));
        let rank = (0..s.len())
            .filter(|&i| s[i] > RANK * largest)
            .count()
            .min(g.saturating_sub(1));
        let null = Array2::from_shape_fn((g - rank, g), |(k, x)| u[[x, rank + k]]);
        let members = components(&reduced(null), g);
        let left = Array2::from_shape_fn((g, rank), |(x, i)| u[[x, i]]);
        let right = Array2::from_shape_fn((m, rank), |(y, i)| v[[y, i]] / s[i]);
        // pinv(W) 1_B = right (left^T 1_B).
        let sums = Array2::from_shape_fn((rank, members.len()), |(i, b)| {
            members[b].iter().map(|&x| left[[x, i]]).sum::<f64>()
        });
        let mut weights = right.dot(&sums);
        for (b, block) in members.iter().enumerate() {
            if block.len() == g {
                weights.column_mut(b).fill(1.0);
            }
        }
        Ok(Blocks {
            members,
            weights,
            left,
            right,
        })
    }

    /// The minimum-norm least-squares solution of `W^T p = q`, `pinv(W^T) q`.
    fn least_squares(&self, q: &Array1<f64>) -> Array1<f64> {
        self.left.dot(&self.right.t().dot(q))
    }

    /// The unbiased estimates `g_B . q^` of the blocks' totals.
    fn totals(&self, q_hat: &Array1<f64>) -> Array1<f64> {
        self.weights.t().dot(q_hat)
    }

    /// Standard errors of `g_B . q^` from `rows` draws of `q` (delta method).
    fn standard_errors(&self, q: &Array1<f64>, rows: u64) -> Array1<f64> {
        Array1::from_shape_fn(self.members.len(), |b| {
            let g = self.weights.column(b);
            let first: f64 = g.iter().zip(q).map(|(g, q)| g * q).sum();
            let second: f64 = g.iter().zip(q).map(|(g, q)| g * g * q).sum();
            ((second - first * first).max(0.0) / rows as f64).sqrt()
        })
    }

    /// The sum of `p` over each block.
    fn sums(&self, p: &Array1<f64>) -> Array1<f64> {
        Array1::from_iter(self.members.iter().map(|b| b.iter().map(|&x| p[x]).sum()))
    }
}

/// `W = U S V^T` with U complete (g x g), the singular values decreasing. The
/// SVD is of W without its zero columns (outputs no input reaches: their rows
/// of V are zero), by faer, or where that does not converge by that of the
/// transpose, `W^T = V S U^T`. Seen: faer's iteration did not converge on the
/// 238 distinct rows of a loss baseline with 5 of its 256 outputs used (nor on
/// their transpose), and does on those 5 columns (tests/data/svd_baseline.txt).
fn singular_values(w: &Array2<f64>) -> Result<(Array2<f64>, Vec<f64>, Array2<f64>)> {
    let g = w.nrows();
    let used = used_columns(w);
    let m = used.len();
    let mat = faer::Mat::<f64>::from_fn(g, m, |i, j| w[[i, used[j]]]);
    // The thin U is square when g <= m; past that the full one is needed.
    let direct = if g <= m { mat.thin_svd() } else { mat.svd() };
    let (u, s, v) = match direct {
        Ok(svd) => {
            let (u, v, s) = (svd.U(), svd.V(), svd.S().column_vector());
            let k = s.nrows();
            let s: Vec<f64> = (0..k).map(|i| s[i]).collect();
            let u = Array2::from_shape_fn((g, g), |(i, j)| u[(i, j)]);
            (u, s, Array2::from_shape_fn((m, k), |(i, j)| v[(i, j)]))
        }
        Err(_) => {
            let t = mat.transpose().to_owned();
            // W^T is m x g: its V (g x g) is W's complete U.
            let svd = if m >= g { t.thin_svd() } else { t.svd() };
            let svd = svd.map_err(|_| not_converged(w))?;
            let (u, v, s) = (svd.U(), svd.V(), svd.S().column_vector());
            let k = s.nrows().min(g);
            let s: Vec<f64> = (0..k).map(|i| s[i]).collect();
            let u_w = Array2::from_shape_fn((g, g), |(i, j)| v[(i, j)]);
            (u_w, s, Array2::from_shape_fn((m, k), |(i, j)| u[(i, j)]))
        }
    };
    let mut full_v = Array2::zeros((w.ncols(), s.len()));
    for (j, &y) in used.iter().enumerate() {
        full_v.row_mut(y).assign(&v.row(j));
    }
    Ok((u, s, full_v))
}

/// The columns of `w` some row reaches (the outputs an SVD must keep: the rest
/// carry weight 0 in `W^+`).
pub(super) fn used_columns(w: &Array2<f64>) -> Vec<usize> {
    (0..w.ncols())
        .filter(|&y| w.column(y).iter().any(|&v| v != 0.0))
        .collect()
}

/// The error of an SVD of `w` that did not converge.
pub(super) fn not_converged(w: &Array2<f64>) -> ModelError {
    let (g, m) = w.dim();
    ModelError::invalid(
        "mechanism",
        format!("{g}x{m}"),
        "its singular value decomposition did not converge",
        "check the matrix for extreme entries",
    )
}

/// The estimate per block of `w` (one row per group of equal rows) by
/// `settings.method`: inversion's `g_B . q^` projected onto the simplex, or the
/// block totals of an EM maximiser (every maximiser has the same). The fitted
/// model, for the log-likelihood and the bootstrap, is EM's maximiser, or for
/// inversion the projection of the minimum-norm solution of `W^T p = q^`.
pub(crate) fn estimate(
    w: &Array2<f64>,
    blocks: &Blocks,
    (n, rows): (&Array1<f64>, u64),
    settings: &FrequencySettings,
) -> Parts {
    let q_hat = n / rows as f64;
    match settings.method {
        FrequencyMethod::Inversion => {
            let raw = blocks.totals(&q_hat);
            let full = project_to_simplex(&blocks.least_squares(&q_hat));
            let (log_likelihood, likelihood_gap) = em::measured(w, n, &full);
            Parts {
                estimate: project_to_simplex(&raw),
                unprojected: raw.to_vec(),
                centre: raw,
                standard_error: blocks.standard_errors(&q_hat, rows),
                log_likelihood,
                likelihood_gap,
                fitted: fitted_outputs(w, &full),
                iterations: 0,
                converged: true,
            }
        }
        FrequencyMethod::Em => {
            let fit = em::maximum_likelihood(w, n, settings, None);
            let q = w.t().dot(&fit.estimate);
            let estimate = blocks.sums(&fit.estimate);
            Parts {
                centre: estimate.clone(),
                estimate,
                unprojected: Vec::new(),
                standard_error: blocks.standard_errors(&q, rows),
                log_likelihood: fit.log_likelihood,
                likelihood_gap: fit.gap,
                fitted: fitted_outputs(w, &fit.estimate),
                iterations: fit.iterations,
                converged: fit.converged,
            }
        }
    }
}

/// `basis` (one vector a row) in reduced row-echelon form by Gauss-Jordan
/// elimination with partial pivoting, entries at most [`SUPPORT`] of their
/// row's largest set to zero.
fn reduced(mut basis: Array2<f64>) -> Array2<f64> {
    let (k, n) = basis.dim();
    let scale = basis.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    let mut top = 0;
    for col in 0..n {
        if top == k {
            break;
        }
        let best = (top..k)
            .max_by(|&a, &b| basis[[a, col]].abs().total_cmp(&basis[[b, col]].abs()))
            .unwrap_or(top);
        let pivot = basis[[best, col]];
        if pivot.abs() <= SUPPORT * scale {
            continue;
        }
        for j in 0..n {
            basis.swap([top, j], [best, j]);
            basis[[top, j]] /= pivot;
        }
        for r in (0..k).filter(|&r| r != top) {
            let f = basis[[r, col]];
            if f != 0.0 {
                for j in 0..n {
                    basis[[r, j]] -= f * basis[[top, j]];
                }
            }
        }
        top += 1;
    }
    for mut row in basis.rows_mut() {
        let big = row.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        row.mapv_inplace(|v| if v.abs() <= SUPPORT * big { 0.0 } else { v });
    }
    basis
}

/// The partition of `0..n` into the connected components of the rows' supports
/// (an index in no support alone), each in increasing order, ordered by their
/// first index.
fn components(basis: &Array2<f64>, n: usize) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for row in basis.rows() {
        let support: Vec<usize> = (0..n).filter(|&x| row[x] != 0.0).collect();
        for pair in support.windows(2) {
            let (a, b) = (root(&mut parent, pair[0]), root(&mut parent, pair[1]));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut blocks: Vec<Vec<usize>> = Vec::new();
    let mut at: Vec<Option<usize>> = vec![None; n];
    for x in 0..n {
        let r = root(&mut parent, x);
        match at[r] {
            Some(b) => blocks[b].push(x),
            None => {
                at[r] = Some(blocks.len());
                blocks.push(vec![x]);
            }
        }
    }
    blocks
}
