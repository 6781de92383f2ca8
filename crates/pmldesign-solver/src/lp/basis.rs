//! The factorised basis of the restricted master ([`crate::lp::master`]).
//!
//! The basis `B` is kept as `B = B_0 E_1^-1 .. E_k^-1`: `B_0` factorised by
//! faer's dense LU with partial pivoting (`P B_0 = L U`), and every pivot since
//! as an eta matrix `E_i` (the identity with column `r` replaced by
//! `(-d_1, .., 1, .., -d_n) / d_r` for the entering direction `d = B^-1 a`), the
//! product form of the inverse. Solving with `B` (FTRAN) applies the LU, then
//! the etas in order; solving with `B^T` (BTRAN) applies the etas in reverse,
//! then the transposed LU. A pivot costs O(N) to record, a solve O(N^2 + k N)
//! for k etas, and a refactorisation (which drops the etas) O(N^3) with
//! blocked, vectorised kernels: the master refactorises every few dozen to
//! N/2 pivots. faer is built without its rayon feature: every operation runs on
//! one thread in a fixed order, so its results are the same bytes whatever the
//! thread count.

use faer::linalg::solvers::{PartialPivLu, Solve};
use faer::{ColMut, Mat};

/// Smallest `|u_ii| / max |u_jj|` of an acceptable factorisation: a basis this
/// ill-conditioned gives duals that are rounding noise.
const MIN_PIVOT_RATIO: f64 = 1e-13;

/// An LU factorisation with an eta file (module docs).
#[derive(Debug, Clone)]
pub struct Factor {
    lu: PartialPivLu<f64>,
    etas: Vec<Eta>,
}

/// One pivot in product form: the entering direction `d` on row `row`.
#[derive(Debug, Clone)]
struct Eta {
    row: usize,
    d: Vec<f64>,
}

impl Factor {
    /// Factorises the `n x n` matrix whose column `j` is `column(j)`; `None`
    /// if it is singular or too ill-conditioned ([`MIN_PIVOT_RATIO`]).
    pub fn new<'a>(n: usize, column: impl Fn(usize) -> Column<'a>) -> Option<Self> {
        let mut b = Mat::<f64>::zeros(n, n);
        for j in 0..n {
            match column(j) {
                Column::Dense(v) => {
                    for (i, &x) in v.iter().enumerate() {
                        b[(i, j)] = x;
                    }
                }
                Column::Unit(i) => b[(i, j)] = 1.0,
            }
        }
        let lu = b.partial_piv_lu();
        let u = lu.U();
        let diag = (0..n).map(|i| u[(i, i)].abs());
        let (min, max) = diag.fold((f64::INFINITY, 0.0f64), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        });
        if n > 0 && !(min.is_finite() && max.is_finite() && min > MIN_PIVOT_RATIO * max) {
            return None;
        }
        Some(Factor {
            lu,
            etas: Vec::new(),
        })
    }

    /// Pivots recorded since the factorisation.
    pub fn etas(&self) -> usize {
        self.etas.len()
    }

    /// `a <- B^-1 a`.
    pub fn ftran(&self, a: &mut [f64]) {
        self.lu.solve_in_place(ColMut::from_slice_mut(a));
        for eta in &self.etas {
            let xr = a[eta.row] / eta.d[eta.row];
            if xr != 0.0 {
                for (x, &d) in a.iter_mut().zip(&eta.d) {
                    *x -= d * xr;
                }
            }
            a[eta.row] = xr;
        }
    }

    /// `c <- B^-T c`.
    pub fn btran(&self, c: &mut [f64]) {
        for eta in self.etas.iter().rev() {
            let r = eta.row;
            let others: f64 = dot(c, &eta.d) - c[r] * eta.d[r];
            c[r] = (c[r] - others) / eta.d[r];
        }
        self.lu.solve_transpose_in_place(ColMut::from_slice_mut(c));
    }

    /// Records a pivot: the column with direction `d = B^-1 a` (before the
    /// pivot) replaces basis column `row`.
    pub fn update(&mut self, row: usize, d: Vec<f64>) {
        self.etas.push(Eta { row, d });
    }

    /// Row `r` of `B^-1` (`B^-T e_r`).
    pub(crate) fn inverse_row(&self, r: usize, n: usize) -> Vec<f64> {
        let mut e = vec![0.0; n];
        e[r] = 1.0;
        self.btran(&mut e);
        e
    }
}

/// A basis column: a column of the master, or the unit vector of a row.
pub enum Column<'a> {
    /// A column of the master, dense.
    Dense(&'a [f64]),
    /// The unit vector of this row.
    Unit(usize),
}

/// `a . b`, with four accumulators so that the loop vectorises (a fixed order:
/// the same bytes on every run).
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0; 4];
    let (a4, b4) = (a.chunks_exact(4), b.chunks_exact(4));
    let tail: f64 = a4
        .remainder()
        .iter()
        .zip(b4.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a4.zip(b4) {
        for k in 0..4 {
            acc[k] += x[k] * y[k];
        }
    }
    acc[0] + acc[1] + acc[2] + acc[3] + tail
}
