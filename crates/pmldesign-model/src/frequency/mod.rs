//! The analyst's half of a release: the input distribution estimated from the
//! counts of released outputs (docs/theory.md §13).
//!
//! A mechanism W (N inputs, M outputs) turns the input distribution p into
//! the output distribution `q = W^T p`; the counts of m released rows are a
//! multinomial draw from q. Inputs whose rows of W are equal are released
//! alike: only their total is identifiable, so estimates are made per group of
//! equal rows ([`FrequencyEstimate::groups`]). When the groups' rows are
//! linearly dependent, groups are joined further into blocks whose totals the
//! data determine ([`identifiable_groups`]), and each block's total is
//! estimated. Every group's mass is estimated by
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

mod cyclic_subsets;
mod em;
pub(crate) mod fisher;
pub(crate) mod fit;
mod functionals;
mod groups;
mod hadamard;
mod identifiable;
mod inversion;
mod newton;
pub(crate) mod quadrature;
pub(crate) mod subset;
mod unary;

use crate::error::{ModelError, Result};
use crate::mechanism::Mechanism;
use ndarray::{Array1, Array2};
use serde::{Deserialize, Serialize};

pub use cyclic_subsets::{
    balanced_base_blocks, cyclic_subsets, difference_counts, weighted_cyclic_subsets,
};
pub use fisher::{
    asymptotic_error, fisher_information, has_closed_form_error, has_quick_error, inverse_fisher,
    is_randomized_response, trace_of_inverse,
};
pub use fit::{FitTest, UNLIKELY_FIT, goodness_of_fit};
pub use functionals::{FunctionalEstimate, FunctionalValue, estimate_functionals};
pub use groups::equal_rows;
pub use hadamard::{
    HADAMARD_INPUTS_UP_TO, hadamard_error_uniform, hadamard_fisher, hadamard_least_mass,
    hadamard_mass_range, hadamard_outputs, hadamard_response,
};
pub use subset::{best_subset_size_uniform, subset_error, subset_error_uniform, subset_fisher};
pub use unary::{unary_error, unary_fisher};

/// How the input distribution is estimated.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FrequencyMethod {
    /// Least squares on the output frequencies, projected onto the simplex.
    Inversion,
    /// Maximum likelihood by expectation-maximisation.
    Em,
}

impl FrequencyMethod {
    /// Its name in files and on the command line: `em` or `inversion`.
    pub fn name(self) -> &'static str {
        match self {
            FrequencyMethod::Em => "em",
            FrequencyMethod::Inversion => "inversion",
        }
    }
}

/// Settings of [`estimate_frequencies`], with documented defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct FrequencySettings {
    /// Default [`FrequencyMethod::Em`]: never negative, and the
    /// maximum-likelihood estimate.
    pub method: FrequencyMethod,
    /// Two-sided confidence of the intervals, in (0, 1). Default 0.95.
    pub confidence: f64,
    /// EM's cap: iterations and Newton steps together. Default 100,000; where
    /// it is reached the estimate is not certified (`converged` false).
    pub max_iterations: usize,
}

impl Default for FrequencySettings {
    fn default() -> Self {
        FrequencySettings {
            method: FrequencyMethod::Em,
            confidence: 0.95,
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
    /// equal, or where the distinct rows are linearly dependent, blocks of
    /// them ([`identifiable_groups`]): the data determine only each group's
    /// total. Singletons where an input is identifiable on its own.
    pub groups: Vec<Vec<usize>>,
    /// Per group: whether it is a block of inputs whose rows differ but are
    /// linearly dependent (its total is `g . q^` for weights g on the
    /// outputs), not a group of equal rows or a single input.
    #[serde(default)]
    pub dependent: Vec<bool>,
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
    /// The output distribution of the fitted model, `W^T p^` (one per
    /// output; at a maximiser for EM, at the projected least-squares solution
    /// for inversion), from which the bootstrap draws.
    #[serde(default)]
    pub fitted: Vec<f64>,
    /// The confidence of the intervals.
    pub confidence: f64,
    /// `sum_y n_y ln q_y` at the estimate.
    pub log_likelihood: f64,
    /// Released rows counted (m).
    pub rows: u64,
    /// EM's iterations and Newton steps (0 for inversion).
    pub iterations: usize,
    /// For EM, whether the likelihood gap certifies the maximum: at most
    /// `max(1e-6, 1e-12 m)` nats (always true for inversion, which claims no
    /// maximum).
    pub converged: bool,
    /// `max_g G_g - m` with `G = W (n / q^)` (docs/theory.md §13): the maximum
    /// log-likelihood exceeds [`FrequencyEstimate::log_likelihood`] by at most
    /// this many nats (0 at the maximum-likelihood estimate). `None` where
    /// infinite (inversion's estimate gives a released output probability 0).
    #[serde(default)]
    pub likelihood_gap: Option<f64>,
}

/// Estimates the input distribution behind `counts` (one per output of
/// `mechanism`, the numbers of released rows) by `settings.method`, per group
/// of inputs whose total the data determine: inputs with equal rows, and where
/// the distinct rows are linearly dependent, the blocks of [`identifiable_groups`]
/// (never a figure per input that the data cannot determine). An error, naming
/// the field, when the counts do not fit the mechanism or nothing was counted.
pub fn estimate_frequencies(
    mechanism: &Mechanism,
    counts: &[u64],
    settings: &FrequencySettings,
) -> Result<FrequencyEstimate> {
    settings.validate()?;
    check_counts(mechanism, counts)?;
    let groups = equal_rows(mechanism);
    let w = merged(mechanism, &groups);
    let n = Array1::from_iter(counts.iter().map(|&c| c as f64));
    let rows: u64 = counts.iter().sum();
    let (groups, dependent, parts) = match inversion::Inversion::new(&w) {
        Some(lsq) => {
            let alone = vec![false; groups.len()];
            (groups, alone, by_group(&w, &lsq, (&n, rows), settings))
        }
        None => {
            let blocks = identifiable::Blocks::new(&w)?;
            let parts = identifiable::estimate(&w, &blocks, (&n, rows), settings);
            let (joined, dependent) = joined(&groups, &blocks.members);
            (joined, dependent, parts)
        }
    };
    let z = std::f64::consts::SQRT_2 * statrs::function::erf::erfc_inv(1.0 - settings.confidence);
    // Centred on the unprojected estimate for inversion (whose standard error
    // it is), and always holding the reported point.
    let interval = |sign: f64| -> Vec<f64> {
        let ends = (parts.centre.iter().zip(&parts.standard_error)).zip(&parts.estimate);
        ends.map(|((c, s), &p)| {
            let end = c + sign * z * s;
            (if sign < 0.0 { end.min(p) } else { end.max(p) }).clamp(0.0, 1.0)
        })
        .collect()
    };
    Ok(FrequencyEstimate {
        method: settings.method,
        groups,
        dependent,
        lower: interval(-1.0),
        upper: interval(1.0),
        estimate: parts.estimate.to_vec(),
        unprojected: parts.unprojected,
        standard_error: parts.standard_error.to_vec(),
        fitted: parts.fitted,
        confidence: settings.confidence,
        log_likelihood: parts.log_likelihood,
        rows,
        iterations: parts.iterations,
        converged: parts.converged,
        likelihood_gap: parts
            .likelihood_gap
            .is_finite()
            .then_some(parts.likelihood_gap),
    })
}

/// One estimate's figures per group, before its intervals.
pub(crate) struct Parts {
    pub(crate) estimate: Array1<f64>,
    /// Where the interval is centred: the estimate, or for inversion the
    /// unprojected least-squares estimate its standard error belongs to.
    pub(crate) centre: Array1<f64>,
    pub(crate) unprojected: Vec<f64>,
    pub(crate) standard_error: Array1<f64>,
    pub(crate) log_likelihood: f64,
    pub(crate) fitted: Vec<f64>,
    pub(crate) iterations: usize,
    pub(crate) converged: bool,
    pub(crate) likelihood_gap: f64,
}

/// The estimate per group of `w` (one row per group of equal rows, linearly
/// independent), with `lsq` its least squares, from the counts `n` of `rows`
/// released rows.
fn by_group(
    w: &Array2<f64>,
    lsq: &inversion::Inversion,
    (n, rows): (&Array1<f64>, u64),
    settings: &FrequencySettings,
) -> Parts {
    let q_hat = n / rows as f64;
    let raw = lsq.estimate(&q_hat);
    match settings.method {
        FrequencyMethod::Inversion => {
            let estimate = inversion::project_to_simplex(&raw);
            let (log_likelihood, likelihood_gap) = em::measured(w, n, &estimate);
            Parts {
                standard_error: lsq.standard_errors(&q_hat, rows),
                log_likelihood,
                likelihood_gap,
                fitted: fitted_outputs(w, &estimate),
                unprojected: raw.to_vec(),
                centre: raw,
                estimate,
                iterations: 0,
                converged: true,
            }
        }
        FrequencyMethod::Em => {
            let fit = em::maximum_likelihood(w, n, settings, Some(&raw));
            let q = w.t().dot(&fit.estimate);
            // Square: `A (diag q - q q^T) A^T = J^-1 - p p^T`, the inverse
            // Fisher information on the simplex; wide: that, where J is regular.
            let fisher = (w.ncols() > w.nrows())
                .then(|| fisher::simplex_standard_errors(w.view(), fit.estimate.view(), rows))
                .flatten();
            Parts {
                standard_error: fisher.unwrap_or_else(|| lsq.standard_errors(&q, rows)),
                log_likelihood: fit.log_likelihood,
                likelihood_gap: fit.gap,
                fitted: fitted_outputs(w, &fit.estimate),
                centre: fit.estimate.clone(),
                estimate: fit.estimate,
                unprojected: Vec::new(),
                iterations: fit.iterations,
                converged: fit.converged,
            }
        }
    }
}

/// The output distribution `q_y = sum_g p_g w[g][y]` (at least 0) of the model
/// `p` over the rows of `w`.
pub(crate) fn fitted_outputs(w: &Array2<f64>, p: &Array1<f64>) -> Vec<f64> {
    (0..w.ncols())
        .map(|y| {
            let terms = p.iter().enumerate().map(|(g, &p)| p * w[[g, y]]);
            terms.sum::<f64>().max(0.0)
        })
        .collect()
}

/// The groups of equal rows joined by `blocks` (of group indices): the inputs
/// of each block in increasing order, and whether it joins distinct rows.
fn joined(groups: &[Vec<usize>], blocks: &[Vec<usize>]) -> (Vec<Vec<usize>>, Vec<bool>) {
    blocks
        .iter()
        .map(|b| {
            let mut inputs: Vec<usize> = b.iter().flat_map(|&g| groups[g].clone()).collect();
            inputs.sort_unstable();
            (inputs, b.len() > 1)
        })
        .unzip()
}

/// The inputs grouped by what the released data determine (docs/theory.md
/// §13): only each group's total is identifiable, and every group's is. Groups
/// of equal rows ([`equal_rows`]); where the distinct rows are linearly
/// dependent, those joined into blocks, the finest partition that a reduced
/// basis of `null(W^T)` shows (not necessarily the finest possible). Each
/// group in increasing order, the groups by their first input.
pub fn identifiable_groups(mechanism: &Mechanism) -> Result<Vec<Vec<usize>>> {
    let groups = equal_rows(mechanism);
    let w = merged(mechanism, &groups);
    identifiable(groups, &w)
}

/// The groups of equal rows `groups` with their merged rows `w`, joined into
/// blocks where those rows are linearly dependent (a rank test of `w`).
fn identifiable(groups: Vec<Vec<usize>>, w: &Array2<f64>) -> Result<Vec<Vec<usize>>> {
    if inversion::Inversion::new(w).is_some() {
        return Ok(groups);
    }
    let blocks = identifiable::Blocks::new(w)?;
    Ok(joined(&groups, &blocks.members).0)
}

/// What a release through a mechanism lets an analyst estimate (docs/theory.md
/// §13): the groups of inputs released alike, and the expected squared l2
/// error of the maximum-likelihood (EM) estimate of the groups' masses from m
/// rows, times m, as m grows (docs/theory.md §13).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Estimability {
    /// The groups of [`identifiable_groups`]: inputs with equal rows, or where
    /// the distinct rows are linearly dependent the blocks whose totals alone
    /// the data determine (singletons where identifiable alone), so that a
    /// design's table and file say before release what an analyst can estimate.
    pub groups: Vec<Vec<usize>>,
    /// `m E||p^ - p||^2 -> tr(J^-1) - ||p||^2` for the EM estimate (`J = W
    /// diag(1/q) W^T`, the Cramér-Rao bound on the simplex; equal to the
    /// unbiased inversion's error when W is square, smaller otherwise); `None`
    /// when the distinct rows are linearly dependent: some input's mass is then
    /// not determined, and `groups` holds the blocks whose totals are.
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
    // A positive definite J of the merged rows proves them linearly independent
    // (J = W diag(1/q) W^T): the error then needs no rank test of W, whose QR
    // costs N^2 K on one thread (minutes at N = 4,096 with 2N outputs). Where J
    // is singular no error is defined, and the rank test gives the groups.
    let groups = equal_rows(mechanism);
    let apart = groups.len() == mechanism.inputs();
    let w = (!apart).then(|| merged(mechanism, &groups));
    let rows = w.as_ref().map_or(mechanism.matrix(), |w| w.view());
    let p = Array1::from_iter(
        groups
            .iter()
            .map(|g| g.iter().map(|&x| prior[x]).sum::<f64>()),
    );
    if let Some(error) = fisher::asymptotic_error_of(rows, p.view()) {
        return Ok(Estimability {
            groups,
            error_per_row: Some(error),
        });
    }
    let w = w.unwrap_or_else(|| mechanism.matrix().to_owned());
    Ok(Estimability {
        groups: identifiable(groups, &w)?,
        error_per_row: None,
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
    let w = mechanism.matrix();
    let never = (0..counts.len()).find(|&y| counts[y] > 0 && w.column(y).iter().all(|&v| v == 0.0));
    if let Some(y) = never {
        return Err(ModelError::invalid(
            format!("counts[{y}]"),
            counts[y],
            "the mechanism never releases this output (every input's probability of it is 0)",
            "count the column the mechanism released, against its output labels",
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
