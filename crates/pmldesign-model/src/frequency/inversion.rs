//! Least squares on the output frequencies and its covariance (docs/theory.md
//! §13): `p^ = A q^` with `A = (W W^T)^-1 W`.

use crate::linalg::{inverse, left_inverse};
use ndarray::{Array1, Array2};

/// `A = (W W^T)^-1 W` for a mechanism `W` (groups x outputs) with linearly
/// independent rows.
pub(crate) struct Inversion {
    a: Array2<f64>,
}

impl Inversion {
    /// `None` when the rows of `w` are linearly dependent.
    pub(crate) fn new(w: &Array2<f64>) -> Option<Self> {
        let (g, m) = w.dim();
        if g > m {
            return None;
        }
        // Square: A = (W^T)^-1 (an LU inverse, half the work of the QR below).
        // Tall W^T: A = pinv(W^T), column y solving min ||W^T a - e_y||.
        let wt = w.t().to_owned();
        let a = if g == m {
            inverse(&wt)?
        } else {
            left_inverse(&wt)?
        };
        Some(Inversion { a })
    }

    /// The unbiased estimate `A q^` (sums to 1; may be negative).
    pub(crate) fn estimate(&self, q_hat: &Array1<f64>) -> Array1<f64> {
        self.a.dot(q_hat)
    }

    /// Standard errors of `A q^` when `q^` is the mean of `rows` draws from
    /// `q`: the square roots of the diagonal of `A (diag q - q q^T) A^T / m`.
    pub(crate) fn standard_errors(&self, q: &Array1<f64>, rows: u64) -> Array1<f64> {
        let aq = self.a.dot(q);
        let m = rows as f64;
        Array1::from_shape_fn(self.a.nrows(), |g| {
            let row = self.a.row(g);
            let second: f64 = row.iter().zip(q).map(|(a, q)| a * a * q).sum();
            ((second - aq[g] * aq[g]).max(0.0) / m).sqrt()
        })
    }
}

/// The Euclidean projection of `v` onto the probability simplex (Held, Wolfe
/// and Crowder 1974; Duchi et al. 2008): `max(v - tau, 0)` with `tau` set by
/// the sorted entries so that the result sums to 1.
pub(crate) fn project_to_simplex(v: &Array1<f64>) -> Array1<f64> {
    let mut sorted = v.to_vec();
    sorted.sort_by(|a, b| b.total_cmp(a));
    let (mut sum, mut tau) = (0.0, 0.0);
    for (k, &s) in sorted.iter().enumerate() {
        sum += s;
        let t = (sum - 1.0) / (k + 1) as f64;
        if s - t > 0.0 {
            tau = t;
        }
    }
    v.mapv(|x| (x - tau).max(0.0))
}
