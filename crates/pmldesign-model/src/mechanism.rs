//! A privacy mechanism `W = P(Y|X)`: an `N x M` row-stochastic matrix (\[E\] Sec. II).

use crate::error::{ModelError, Result};
use crate::prior::Prior;
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use serde::{Deserialize, Serialize};

/// Tolerance on row sums accepted when a mechanism is read from the user.
/// Designed mechanisms are held to the stricter
/// [`CERTIFIED_ROW_SUM_TOLERANCE`].
pub const INPUT_ROW_SUM_TOLERANCE: f64 = 1e-9;

/// Row sums of every emitted (certified) mechanism are 1 within this.
pub const CERTIFIED_ROW_SUM_TOLERANCE: f64 = 1e-12;

/// A row-stochastic matrix: rows are inputs x, columns are outputs y,
/// `W[x][y] = P(Y = y | X = x)`. Any number of outputs `M >= 1`.
///
/// The matrix is always stored row-major (standard layout), whatever the layout it
/// was built from, so that every row is one contiguous slice for its consumers.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(try_from = "Vec<Vec<f64>>")]
pub struct Mechanism {
    matrix: Array2<f64>,
}

impl Mechanism {
    /// Validates a matrix: finite, non-negative, every row summing to 1 within
    /// [`INPUT_ROW_SUM_TOLERANCE`]. A matrix in any memory layout (for example
    /// columns selected with `select(Axis(1), ..)`) is stored row-major.
    pub fn new(matrix: Array2<f64>) -> Result<Self> {
        if matrix.nrows() == 0 || matrix.ncols() == 0 {
            return Err(ModelError::invalid(
                "mechanism",
                format!("{}x{}", matrix.nrows(), matrix.ncols()),
                "is empty",
                "give one row per input symbol and at least one column",
            ));
        }
        // The first bad entry in row order (`iter` walks that order without the
        // index bookkeeping of `indexed_iter`).
        let bad = |v: &f64| !v.is_finite() || *v < 0.0;
        if let Some(i) = matrix.iter().position(bad) {
            let (x, y) = (i / matrix.ncols(), i % matrix.ncols());
            return Err(ModelError::invalid(
                format!("mechanism[{x}][{y}]"),
                matrix[[x, y]],
                "entries are probabilities and must be finite and >= 0",
                "fix the entry so that it is a probability",
            ));
        }
        for (x, row) in matrix.axis_iter(Axis(0)).enumerate() {
            let s = row.sum();
            if (s - 1.0).abs() > INPUT_ROW_SUM_TOLERANCE {
                return Err(ModelError::invalid(
                    format!("mechanism row {x}"),
                    s,
                    format!("row sums to {s}, not 1 (tolerance {INPUT_ROW_SUM_TOLERANCE:e})"),
                    "each row is P(Y|X=x) and must sum to 1",
                ));
            }
        }
        let matrix = if matrix.is_standard_layout() {
            matrix
        } else {
            matrix.as_standard_layout().into_owned()
        };
        Ok(Mechanism { matrix })
    }

    /// Builds a mechanism from its rows.
    pub fn from_rows(rows: Vec<Vec<f64>>) -> Result<Self> {
        let n = rows.len();
        let m = rows.first().map_or(0, Vec::len);
        if let Some((x, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != m) {
            return Err(ModelError::invalid(
                format!("mechanism row {x}"),
                format!("{} entries", r.len()),
                format!("row 0 has {m} entries"),
                "give every row the same number of outputs",
            ));
        }
        let flat: Vec<f64> = rows.into_iter().flatten().collect();
        let matrix = Array2::from_shape_vec((n, m), flat).expect("shape checked");
        Mechanism::new(matrix)
    }

    /// The identity mechanism on `n` symbols (no privacy, full utility).
    pub fn identity(n: usize) -> Self {
        Mechanism {
            matrix: Array2::eye(n),
        }
    }

    /// An error naming the mechanism unless it has one row per symbol of `prior`.
    pub(crate) fn check_inputs(&self, prior: &Prior) -> Result<()> {
        let n = prior.len();
        if self.inputs() != n {
            return Err(ModelError::invalid(
                "mechanism",
                format!("{} rows", self.inputs()),
                format!("the prior has {n} symbols"),
                "give one row per symbol of the prior (rows are inputs x, columns outputs y)",
            ));
        }
        Ok(())
    }

    /// Number of inputs N.
    pub fn inputs(&self) -> usize {
        self.matrix.nrows()
    }

    /// Number of outputs M.
    pub fn outputs(&self) -> usize {
        self.matrix.ncols()
    }

    /// The matrix `W`, in standard (row-major) layout.
    pub fn matrix(&self) -> ArrayView2<'_, f64> {
        self.matrix.view()
    }

    /// Column `W[:, y]`, the likelihood of output y under each input.
    pub fn column(&self, y: usize) -> ArrayView1<'_, f64> {
        self.matrix.column(y)
    }

    /// Iterates the columns.
    pub fn columns(&self) -> impl Iterator<Item = ArrayView1<'_, f64>> {
        self.matrix.axis_iter(Axis(1))
    }

    /// Output marginal `q = p^T W` (\[E\] Sec. II).
    pub fn output_marginal(&self, prior: &Prior) -> Array1<f64> {
        prior.masses().dot(&self.matrix)
    }

    /// `max_x |sum_y W[x][y] - 1|`.
    pub fn max_row_sum_error(&self) -> f64 {
        self.matrix
            .sum_axis(Axis(1))
            .iter()
            .map(|s| (s - 1.0).abs())
            .fold(0.0, f64::max)
    }

    /// `min_{x,y} W[x][y]`.
    pub fn min_entry(&self) -> f64 {
        self.matrix.iter().copied().fold(f64::INFINITY, f64::min)
    }

    /// Rows as nested vectors (for output formats).
    pub fn to_rows(&self) -> Vec<Vec<f64>> {
        self.matrix.outer_iter().map(|r| r.to_vec()).collect()
    }
}

impl TryFrom<Vec<Vec<f64>>> for Mechanism {
    type Error = ModelError;
    fn try_from(rows: Vec<Vec<f64>>) -> Result<Self> {
        Mechanism::from_rows(rows)
    }
}

/// Rows of numbers, as `Vec<Vec<f64>>` writes them, straight from the rows
/// (a copy of the matrix first: an LDP design of N = 4096 peaked at 1.83 GB,
/// 1.70 GB without it).
impl Serialize for Mechanism {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.matrix.nrows()))?;
        for row in self.matrix.rows() {
            match row.as_slice() {
                Some(r) => seq.serialize_element(r)?,
                None => seq.serialize_element(&row.to_vec())?,
            }
        }
        seq.end()
    }
}

impl From<Mechanism> for Vec<Vec<f64>> {
    fn from(m: Mechanism) -> Self {
        m.to_rows()
    }
}
