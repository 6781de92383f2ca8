//! Label-dependent losses `d(x, y)` (docs/theory.md §4): the expected loss, the
//! loss without privacy, and a loss as the sub-linear column function
//! `mu(v) = max_y -c[:, y] . v` that column generation maximises.

use crate::error::Result;
use crate::objective::utility::Utility;
use ndarray::{Array2, Axis};
use ndarray::{ArrayView1, ArrayView2};
use pmldesign_model::{Mechanism, ModelError};

/// A loss `d(x, y) >= 0` for guessing label y when the secret is x.
#[derive(Debug, Clone, PartialEq)]
pub enum Loss {
    /// `1[x != y]`: the expected loss is the probability of a wrong guess.
    Hamming,
    /// `|x - y|` over the label indices.
    Absolute,
    /// `(x - y)^2` over the label indices.
    Squared,
    /// A user matrix, `d(x, y) = matrix[[x, y]]`: N x N, finite, `>= 0`.
    Matrix(Array2<f64>),
}

impl Loss {
    /// A short name: `hamming`, `absolute`, `squared` or `matrix`.
    pub fn name(&self) -> &'static str {
        match self {
            Loss::Hamming => "hamming",
            Loss::Absolute => "absolute",
            Loss::Squared => "squared",
            Loss::Matrix(_) => "matrix",
        }
    }

    /// The loss as an N x N matrix `d[[x, y]]`. A user matrix is validated: it must
    /// be N x N, finite and `>= 0` (the error names the field `loss`).
    pub fn matrix(&self, n: usize) -> Result<Array2<f64>> {
        let index = |x: usize, y: usize| x.abs_diff(y) as f64;
        Ok(match self {
            Loss::Hamming => Array2::from_shape_fn((n, n), |(x, y)| f64::from(x != y)),
            Loss::Absolute => Array2::from_shape_fn((n, n), |(x, y)| index(x, y)),
            Loss::Squared => Array2::from_shape_fn((n, n), |(x, y)| index(x, y).powi(2)),
            Loss::Matrix(d) => {
                if d.dim() != (n, n) {
                    return Err(ModelError::invalid(
                        "loss",
                        format!("{}x{} matrix", d.nrows(), d.ncols()),
                        format!(
                            "a loss matrix must be N x N = {n}x{n}, one row per secret and one column per label"
                        ),
                        "give d(x, y) for every secret x (rows) and guessed label y (columns)",
                    )
                    .into());
                }
                if let Some(((x, y), v)) =
                    d.indexed_iter().find(|(_, v)| !v.is_finite() || **v < 0.0)
                {
                    return Err(ModelError::invalid(
                        format!("loss[{x}][{y}]"),
                        v,
                        "losses must be finite and >= 0",
                        "fix the entry (shift a loss matrix by a constant to make it non-negative)",
                    )
                    .into());
                }
                d.clone()
            }
        })
    }
}

/// The expected loss `sum_x p_x sum_y W[x][y] d(x, y)` of an N x N mechanism.
pub fn expected_loss(mechanism: &Mechanism, prior: ArrayView1<f64>, d: ArrayView2<f64>) -> f64 {
    let w = mechanism.matrix();
    prior
        .iter()
        .zip(w.outer_iter().zip(d.outer_iter()))
        .map(|(p, (wr, dr))| p * wr.dot(&dr))
        .sum()
}

/// Without privacy the best is to send each input to its cheapest label:
/// `sum_x min_y c[x][y]` bounds every loss from below.
pub(crate) fn free_lower_bound(c: &Array2<f64>) -> f64 {
    c.outer_iter()
        .map(|r| r.iter().copied().fold(f64::INFINITY, f64::min))
        .sum()
}

pub(crate) fn argmin(v: ArrayView1<f64>) -> usize {
    (0..v.len())
        .min_by(|&a, &b| v[a].total_cmp(&v[b]))
        .unwrap_or(0)
}

/// `mu(v) = max_y -c[:, y] . v`: the negated loss of a column given its best label.
pub(crate) struct LabelledLoss<'a> {
    pub(crate) c: &'a Array2<f64>,
}

impl LabelledLoss<'_> {
    /// The best label of a column and its cost `c[:, y] . v`.
    pub(crate) fn best_label(&self, column: ArrayView1<f64>) -> (usize, f64) {
        let costs = column.dot(self.c);
        let y = argmin(costs.view());
        (y, costs[y])
    }
}

impl Utility for LabelledLoss<'_> {
    fn name(&self) -> String {
        "negated expected loss".to_string()
    }

    fn column_value(&self, column: ArrayView1<f64>, _prior: ArrayView1<f64>) -> f64 {
        -self.best_label(column).1
    }
}

/// The constant guess of least expected loss: the label y of least total cost
/// `sum_x c[x][y]`, with that cost. At eps = 0 every row is the same, so this
/// is the optimum and its cost bounds every private mechanism's loss.
pub(crate) fn constant_label(c: &Array2<f64>) -> (usize, f64) {
    let col_cost = c.sum_axis(Axis(0));
    let y = argmin(col_cost.view());
    (y, col_cost[y])
}
