//! The analyst's half of a release: the input distribution estimated from the
//! counts of released outputs (docs/theory.md §13).
//!
//! A mechanism W (N inputs, M outputs) turns the input distribution p into
//! the output distribution `q = W^T p`; the counts of m released rows are a
//! multinomial draw from q. Inputs whose rows of W are equal are released
//! alike: only their total is identifiable, so estimates are made per group of
//! equal rows ([`FrequencyEstimate::groups`]). When the groups' rows are
//! linearly independent every group's mass is identifiable:
//!
//! - **inversion** (least squares `p^ = (W W^T)^-1 W q^`, unbiased), with its
//!   Euclidean projection onto the simplex;
//! - **EM** (the iterative Bayesian update of Agrawal and Aggarwal 2001 and
//!   ElSalamouny and Palamidessi 2020): the maximum-likelihood estimate.
//!
//! Intervals are by the delta method: `p^ = A q^` with `A = (W W^T)^-1 W`
//! and `Cov(q^) = (diag q - q q^T) / m`, so `Cov(p^) = A Cov(q^) A^T` (for
//! EM, the inverse Fisher information, evaluated at the estimate).
//!
//! ```
//! use pmldesign_model::Mechanism;
//! use pmldesign_model::frequency::{FrequencySettings, estimate_frequencies};
//! use ndarray::array;
//! // Binary randomized response, 3/4 truthful; 1000 rows, 600 released as 0.
//! let w = Mechanism::new(array![[0.75, 0.25], [0.25, 0.75]])?;
//! let e = estimate_frequencies(&w, &[600, 400], &FrequencySettings::default())?;
//! // EM, the default, meets inversion's (0.6 - 0.25) / 0.5 here.
//! assert!((e.estimate[0] - 0.7).abs() < 1e-9);
//! assert!(e.lower[0] < 0.7 && 0.7 < e.upper[0]);
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

mod em;
mod fisher;
mod functionals;
mod groups;
mod inversion;

use crate::error::{ModelError, Result};
use crate::mechanism::Mechanism;
use ndarray::{Array1, Array2};
use serde::{Deserialize, Serialize};

pub use fisher::{asymptotic_error, fisher_information, inverse_fisher};
pub use functionals::{FunctionalEstimate, FunctionalValue, estimate_functionals};
pub use groups::equal_rows;

/// How the input distribution is estimated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FrequencyMethod {
    /// Least squares on the output frequencies, projected onto the simplex.
    Inversion,
    /// Maximum likelihood by expectation-maximisation.
    Em,
}

/// Settings of [`estimate_frequencies`], with documented defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct FrequencySettings {
    /// Default [`FrequencyMethod::Em`]: never negative, and the
    /// maximum-likelihood estimate.
    pub method: FrequencyMethod,
    /// Two-sided confidence of the intervals, in (0, 1). Default 0.95.
    pub confidence: f64,
    /// EM stops when its estimated distance to the maximum-likelihood
    /// estimate (largest entry, from the geometric rate of its last two
    /// steps) is at most this. Default 1e-10.
    pub tolerance: f64,
    /// EM's iteration cap. Default 100,000.
    pub max_iterations: usize,
}

impl Default for FrequencySettings {
    fn default() -> Self {
        FrequencySettings {
            method: FrequencyMethod::Em,
            confidence: 0.95,
            tolerance: 1e-10,
            max_iterations: 100_000,
        }
    }
}

impl FrequencySettings {
    /// Checks every field; an error names the field, its value and the fix.
    pub fn validate(&self) -> Result<()> {
        if !(self.confidence > 0.0 && self.confidence < 1.0) {
            return Err(ModelError::invalid(
                "confidence",
                self.confidence,
                "a confidence level lies strictly between 0 and 1",
                "use 0.95 or 0.99",
            ));
        }
        if !(self.tolerance > 0.0 && self.tolerance.is_finite()) {
            return Err(ModelError::invalid(
                "tolerance",
                self.tolerance,
                "EM's tolerance must be positive and finite",
                "use the default 1e-10",
            ));
        }
        if self.max_iterations == 0 {
            return Err(ModelError::invalid(
                "max_iterations",
                0,
                "EM needs at least one iteration",
                "use the default 100000",
            ));
        }
        Ok(())
    }
}

/// The estimated input distribution, per group of inputs released alike.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrequencyEstimate {
    /// The method used.
    pub method: FrequencyMethod,
    /// Groups of inputs (indices into the mechanism's rows) whose rows are
    /// equal: the data determine only each group's total. Singletons where
    /// an input is identifiable on its own.
    pub groups: Vec<Vec<usize>>,
    /// The estimated mass of each group (they sum to 1).
    pub estimate: Vec<f64>,
    /// For inversion, the least-squares estimate before its projection onto
    /// the simplex (unbiased; may be negative). Empty for EM.
    pub unprojected: Vec<f64>,
    /// Standard error of each group's estimate (delta method).
    pub standard_error: Vec<f64>,
    /// The interval's lower ends at [`FrequencySettings::confidence`],
    /// clamped to [0, 1].
    pub lower: Vec<f64>,
    /// The interval's upper ends.
    pub upper: Vec<f64>,
    /// The confidence of the intervals.
    pub confidence: f64,
    /// `sum_y n_y ln q_y` at the estimate.
    pub log_likelihood: f64,
    /// Released rows counted (m).
    pub rows: u64,
    /// EM's iterations (0 for inversion).
    pub iterations: usize,
    /// Whether EM met its tolerance within its cap (always for inversion).
    pub converged: bool,
}

/// Estimates the input distribution behind `counts` (one per output of
/// `mechanism`, the numbers of released rows) by `settings.method`, per group
/// of inputs released alike. An error, naming the field, when the counts do
/// not fit the mechanism, when nothing was counted, or when the groups' rows
/// are linearly dependent (then no group's mass is determined on its own).
pub fn estimate_frequencies(
    mechanism: &Mechanism,
    counts: &[u64],
    settings: &FrequencySettings,
) -> Result<FrequencyEstimate> {
    settings.validate()?;
    check_counts(mechanism, counts)?;
    let groups = equal_rows(mechanism);
    let w = merged(mechanism, &groups);
    let rows: u64 = counts.iter().sum();
    let n = Array1::from_iter(counts.iter().map(|&c| c as f64));
    let q_hat = &n / rows as f64;
    let lsq = inversion::Inversion::new(&w).ok_or_else(|| dependent(&groups))?;
    let raw = lsq.estimate(&q_hat);
    let (estimate, q, unprojected, iterations, converged) = match settings.method {
        FrequencyMethod::Inversion => {
            let p = inversion::project_to_simplex(&raw);
            (p, q_hat.clone(), raw.to_vec(), 0, true)
        }
        FrequencyMethod::Em => {
            let fit = em::maximum_likelihood(&w, &n, settings);
            let q = w.t().dot(&fit.estimate);
            (fit.estimate, q, Vec::new(), fit.iterations, fit.converged)
        }
    };
    let se = lsq.standard_errors(&q, rows);
    let z = std::f64::consts::SQRT_2 * statrs::function::erf::erfc_inv(1.0 - settings.confidence);
    let log_likelihood = em::log_likelihood(&w, &n, &estimate);
    Ok(FrequencyEstimate {
        method: settings.method,
        groups,
        lower: estimate
            .iter()
            .zip(&se)
            .map(|(p, s)| (p - z * s).clamp(0.0, 1.0))
            .collect(),
        upper: estimate
            .iter()
            .zip(&se)
            .map(|(p, s)| (p + z * s).clamp(0.0, 1.0))
            .collect(),
        estimate: estimate.to_vec(),
        unprojected,
        standard_error: se.to_vec(),
        confidence: settings.confidence,
        log_likelihood,
        rows,
        iterations,
        converged,
    })
}

/// What a release through a mechanism lets an analyst estimate (docs/theory.md
/// §13): the groups of inputs released alike, and the expected squared l2
/// error of the maximum-likelihood (EM) estimate of the groups' masses from m
/// rows, times m, as m grows (docs/theory.md §13).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Estimability {
    /// Groups of inputs with equal rows (singletons where identifiable alone).
    pub groups: Vec<Vec<usize>>,
    /// `m E||p^ - p||^2 -> tr(J^-1) - ||p||^2` for the EM estimate (`J = W
    /// diag(1/q) W^T`, the Cramér-Rao bound on the simplex; equal to the
    /// unbiased inversion's error when W is square, smaller otherwise); `None`
    /// when the groups' rows are linearly dependent (no group is estimable).
    pub error_per_row: Option<f64>,
}

/// [`Estimability`] of `mechanism` under the input distribution `prior` (one
/// mass per input).
pub fn estimability(mechanism: &Mechanism, prior: &[f64]) -> Result<Estimability> {
    if prior.len() != mechanism.inputs() {
        return Err(ModelError::invalid(
            "prior",
            format!("{} masses", prior.len()),
            format!("the mechanism has {} inputs", mechanism.inputs()),
            "give one mass per input",
        ));
    }
    let groups = equal_rows(mechanism);
    let w = merged(mechanism, &groups);
    let p = Array1::from_iter(
        groups
            .iter()
            .map(|g| g.iter().map(|&x| prior[x]).sum::<f64>()),
    );
    let error_per_row = fisher::asymptotic_error_of(w.view(), p.view());
    Ok(Estimability {
        groups,
        error_per_row,
    })
}

/// One count per output and at least one released row.
pub(crate) fn check_counts(mechanism: &Mechanism, counts: &[u64]) -> Result<()> {
    if counts.len() != mechanism.outputs() {
        return Err(ModelError::invalid(
            "counts",
            format!("{} counts", counts.len()),
            format!(
                "the mechanism has {} outputs: one count per output is needed",
                mechanism.outputs()
            ),
            "count the released column against the mechanism's output labels",
        ));
    }
    if counts.iter().all(|&c| c == 0) {
        return Err(ModelError::invalid(
            "counts",
            "all zero",
            "no released row was counted",
            "count a released column with at least one row",
        ));
    }
    Ok(())
}

/// The mechanism with one row per group (the group's common row).
fn merged(mechanism: &Mechanism, groups: &[Vec<usize>]) -> Array2<f64> {
    let w = mechanism.matrix();
    Array2::from_shape_fn((groups.len(), w.ncols()), |(g, y)| w[[groups[g][0], y]])
}

/// The error for groups whose rows are linearly dependent.
fn dependent(groups: &[Vec<usize>]) -> ModelError {
    ModelError::invalid(
        "mechanism",
        format!("{} groups of equal rows", groups.len()),
        "the rows of different groups are linearly dependent, so no group's mass is \
         determined by the released data on its own",
        "estimate with a mechanism whose distinct rows are linearly independent (for \
         example randomized response, or a design with fewer merged outputs)",
    )
}
