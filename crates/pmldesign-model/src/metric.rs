//! Distances on the inputs for metric (d-) privacy (docs/theory.md §9):
//! `W[x][y] <= e^(eps d(x, x')) W[x'][y]` for every x, x', y.
//!
//! - the discrete metric (`d = 1` off the diagonal) makes it eps-LDP;
//! - the line metric `d(x, x') = |x - x'|` over the label order is the setting of
//!   the geometric mechanism;
//! - a user matrix must be square, finite, `>= 0`, zero on the diagonal and
//!   symmetric. The triangle inequality is not required: the constraints of d
//!   imply those of its shortest-path closure, which is what they protect.

use crate::error::{ModelError, Result};
use ndarray::Array2;
use serde::Serialize;

/// The largest exponent `eps d` a constraint is built with: `e^690` is a normal
/// double (`e^710` overflows); a larger one is designed at 690, which is stricter.
pub const MAX_EXPONENT: f64 = 690.0;

/// A distance on the N inputs. A user matrix is built by [`Metric::from_rows`],
/// and reading one from JSON checks it the same way:
///
/// ```compile_fail
/// let _ = pmldesign_model::Metric::Matrix { distances: vec![vec![0.0, -1.0], vec![-1.0, 0.0]] };
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    deny_unknown_fields,
    try_from = "RawMetric"
)]
pub enum Metric {
    /// `d(x, x') = 1` for `x != x'`: d-privacy is eps-LDP.
    Discrete,
    /// `d(x, x') = |x - x'|` over the label order.
    Line,
    /// A user matrix `d[x][x']`, N x N rows, checked ([`Metric::check`]).
    #[non_exhaustive]
    Matrix {
        /// The rows of d.
        distances: Vec<Vec<f64>>,
    },
}

/// A distance as written, before its check.
#[derive(serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum RawMetric {
    Discrete,
    Line,
    Matrix { distances: Vec<Vec<f64>> },
}

impl TryFrom<RawMetric> for Metric {
    type Error = ModelError;

    fn try_from(raw: RawMetric) -> Result<Self> {
        match raw {
            RawMetric::Discrete => Ok(Metric::Discrete),
            RawMetric::Line => Ok(Metric::Line),
            RawMetric::Matrix { distances } => Metric::from_rows(distances),
        }
    }
}

impl Metric {
    /// A user matrix, checked ([`Metric::check`]).
    pub fn from_rows(distances: Vec<Vec<f64>>) -> Result<Self> {
        let m = Metric::Matrix { distances };
        m.check()?;
        Ok(m)
    }

    /// Short name: `discrete`, `line` or `matrix`.
    pub fn name(&self) -> &'static str {
        match self {
            Metric::Discrete => "discrete",
            Metric::Line => "line",
            Metric::Matrix { .. } => "matrix",
        }
    }

    /// Checks a user matrix: square, finite, `>= 0`, zero diagonal, symmetric;
    /// the error names the entry (`metric[x][x']`).
    pub fn check(&self) -> Result<()> {
        let Metric::Matrix { distances: d } = self else {
            return Ok(());
        };
        let n = d.len();
        if let Some((x, row)) = d.iter().enumerate().find(|(_, r)| r.len() != n) {
            return Err(ModelError::invalid(
                format!("metric[{x}]"),
                format!("{} entries", row.len()),
                format!("a distance matrix must be square ({n} rows, so {n} entries a row)"),
                "give d(x, x') for every pair of inputs, one row per input",
            ));
        }
        let entry = |x: usize, y: usize, problem: &str, fix: &str| {
            Err(ModelError::invalid(
                format!("metric[{x}][{y}]"),
                d[x][y],
                problem,
                fix,
            ))
        };
        for (x, y) in (0..n).flat_map(|x| (0..n).map(move |y| (x, y))) {
            let v = d[x][y];
            if !v.is_finite() || v < 0.0 {
                return entry(x, y, "distances must be finite and >= 0", "fix the entry");
            }
            if x == y && v != 0.0 {
                return entry(x, y, "d(x, x) must be 0", "put 0 on the diagonal");
            }
            if d[y][x] != v {
                return entry(
                    x,
                    y,
                    &format!("d is not symmetric: metric[{y}][{x}] = {}", d[y][x]),
                    "make d(x, x') = d(x', x)",
                );
            }
        }
        Ok(())
    }

    /// The N x N matrix of d; a user matrix of another size is an error naming
    /// the field `metric`.
    pub fn distances(&self, n: usize) -> Result<Array2<f64>> {
        Ok(match self {
            Metric::Discrete => Array2::from_shape_fn((n, n), |(x, y)| f64::from(x != y)),
            Metric::Line => Array2::from_shape_fn((n, n), |(x, y)| x.abs_diff(y) as f64),
            Metric::Matrix { distances } => {
                if distances.len() != n {
                    return Err(ModelError::invalid(
                        "metric",
                        format!("{0}x{0} matrix", distances.len()),
                        format!("the distance matrix must be N x N = {n}x{n}, one row per input"),
                        "give one row and one column per prior entry",
                    ));
                }
                self.check()?;
                Array2::from_shape_fn((n, n), |(x, y)| distances[x][y])
            }
        })
    }

    /// The shortest-path closure `d*` of d (Floyd-Warshall): the largest metric
    /// below d. d-privacy and d*-privacy are the same constraint set (module docs).
    pub fn shortest_paths(d: &Array2<f64>) -> Array2<f64> {
        let n = d.nrows();
        let mut s = d.clone();
        for z in 0..n {
            for x in 0..n {
                for y in 0..n {
                    let via = s[[x, z]] + s[[z, y]];
                    if via < s[[x, y]] {
                        s[[x, y]] = via;
                    }
                }
            }
        }
        s
    }

    /// The factor `e^(eps d)` of one constraint, with the exponent at most
    /// [`MAX_EXPONENT`].
    pub fn factor(epsilon: f64, distance: f64) -> f64 {
        (epsilon * distance).min(MAX_EXPONENT).exp()
    }

    /// True when the pair (x, x') needs its own constraint: no z with
    /// `d(x, z) + d(z, x') <= d(x, x')` and both terms positive (then
    /// `e^(eps d(x,z)) e^(eps d(z,x'))` implies it, through pairs strictly
    /// closer, so by induction on d through kept pairs; libqif calls the kept
    /// ones the tight constraints). Pairs past [`MAX_EXPONENT`] are always kept.
    pub fn is_tight(d: &Array2<f64>, epsilon: f64, x: usize, x2: usize) -> bool {
        let dxx = d[[x, x2]];
        if epsilon * dxx > MAX_EXPONENT {
            return true;
        }
        let (a, b) = (d.row(x), d.column(x2));
        !(0..d.nrows()).any(|z| a[z] > 0.0 && b[z] > 0.0 && a[z] + b[z] <= dxx)
    }
}
