//! Label-dependent losses `d(x, y)` (docs/theory.md §4): the expected loss, the
//! loss without privacy, and a loss as the sub-linear column function
//! `mu(v) = max_y -c[:, y] . v` that column generation maximises.

use crate::error::Result;
use crate::objective::utility::Utility;
use ndarray::{Array1, Array2, Axis};
use ndarray::{ArrayView1, ArrayView2};
use pmldesign_model::{Mechanism, ModelError};
use std::borrow::Cow;

/// A loss `d(x, y) >= 0` for guessing label y when the secret is x.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
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
pub struct LabelledLoss<'a> {
    pub(crate) c: &'a Array2<f64>,
    /// The cost matrix's shape, which decides how the best label is found.
    pub shape: Cow<'a, Shape>,
}

/// The form of a weighted loss matrix `c[x][y] = w_x d(x, y)` that prices a
/// column's labels in time linear in N ([`LabelledLoss::costs`]): the built-in
/// losses. A general matrix costs N^2 a column, which at N = 2048 made the
/// start columns alone take 6 s.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// Any matrix.
    Matrix,
    /// `w_x 1[x != y]`.
    Hamming(Vec<f64>),
    /// `w_x |x - y|`.
    Absolute(Vec<f64>),
    /// `w_x (x - y)^2`.
    Squared(Vec<f64>),
}

impl Shape {
    /// The shape of `c`: a built-in loss if every entry is, to the bit, the
    /// product `d(x, y) w_x` that built it (`w_x` read next to the diagonal,
    /// where `d = 1`), else [`Shape::Matrix`].
    pub fn of(c: &Array2<f64>) -> Shape {
        let n = c.nrows();
        if n < 2 || c.ncols() != n {
            return Shape::Matrix;
        }
        let w: Vec<f64> = (0..n)
            .map(|x| c[[x, if x == 0 { 1 } else { x - 1 }]])
            .collect();
        let fits = |d: &dyn Fn(usize, usize) -> f64| {
            c.indexed_iter().all(|((x, y), &v)| v == d(x, y) * w[x])
        };
        let index = |x: usize, y: usize| x.abs_diff(y) as f64;
        if fits(&|x, y| f64::from(x != y)) {
            Shape::Hamming(w)
        } else if fits(&index) {
            Shape::Absolute(w)
        } else if fits(&|x, y| index(x, y).powi(2)) {
            Shape::Squared(w)
        } else {
            Shape::Matrix
        }
    }
}

impl<'a> LabelledLoss<'a> {
    /// The loss of `c`, its [`Shape`] found once.
    pub fn new(c: &'a Array2<f64>) -> Self {
        LabelledLoss {
            c,
            shape: Cow::Owned(Shape::of(c)),
        }
    }

    /// The loss of `c` whose shape the caller keeps.
    pub fn with_shape(c: &'a Array2<f64>, shape: &'a Shape) -> Self {
        LabelledLoss {
            c,
            shape: Cow::Borrowed(shape),
        }
    }

    /// The cost `c[:, y] . v` of every label y.
    pub fn costs(&self, column: ArrayView1<f64>) -> Array1<f64> {
        let weighted =
            |w: &[f64]| -> Vec<f64> { w.iter().zip(column).map(|(w, v)| w * v).collect() };
        match &*self.shape {
            Shape::Matrix => {
                // A sum of c's rows (contiguous, vectorised, zeros skipped),
                // where ndarray's vector-matrix product walks c's columns with
                // a stride: at N = 256 that was a quarter of a loss design.
                let mut costs = Array1::zeros(self.c.ncols());
                for (&v, row) in column.iter().zip(self.c.outer_iter()) {
                    if v != 0.0 {
                        costs.scaled_add(v, &row);
                    }
                }
                costs
            }
            Shape::Hamming(w) => {
                let u = weighted(w);
                let total: f64 = u.iter().sum();
                u.iter().map(|u| total - u).collect()
            }
            Shape::Absolute(w) => absolute_costs(&weighted(w)),
            Shape::Squared(w) => squared_costs(&weighted(w)),
        }
    }

    /// The best label of a column and its cost `c[:, y] . v`.
    pub(crate) fn best_label(&self, column: ArrayView1<f64>) -> (usize, f64) {
        let costs = self.costs(column);
        let y = argmin(costs.view());
        (y, costs[y])
    }
}

/// `sum_x u_x |x - y|` for every y, by running sums of non-negative terms:
/// `left_{y+1} = left_y + u(x <= y)`, and the same from the right.
fn absolute_costs(u: &[f64]) -> Array1<f64> {
    let n = u.len();
    let mut costs = Array1::zeros(n);
    let (mut left, mut mass) = (0.0, 0.0);
    for y in 0..n {
        costs[y] = left;
        mass += u[y];
        left += mass;
    }
    let (mut right, mut mass) = (0.0, 0.0);
    for y in (0..n).rev() {
        costs[y] += right;
        mass += u[y];
        right += mass;
    }
    costs
}

/// `sum_x u_x (x - y)^2 = sum_x u_x (x - m)^2 + u(X) (m - y)^2` for every y,
/// around the mean m: two non-negative terms, no cancellation.
fn squared_costs(u: &[f64]) -> Array1<f64> {
    let mass: f64 = u.iter().sum();
    if mass <= 0.0 {
        return Array1::zeros(u.len());
    }
    let m = u.iter().enumerate().map(|(x, u)| x as f64 * u).sum::<f64>() / mass;
    let spread: f64 = u
        .iter()
        .enumerate()
        .map(|(x, u)| u * (x as f64 - m).powi(2))
        .sum();
    (0..u.len())
        .map(|y| spread + mass * (m - y as f64).powi(2))
        .collect()
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
