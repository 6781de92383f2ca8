//! Linear functionals of the input distribution (docs/theory.md §13), whether
//! or not every input is identifiable. `a . p` is determined by the released
//! data exactly when `a` lies in the span of W's columns (`a = W b`). Every
//! functional is estimated at the maximum-likelihood estimate `p^` (EM), so that
//! estimates of masses form a distribution and sums of them are the sums of
//! their estimates; where identifiable, with the standard error of the inverse
//! Fisher information on the simplex, `sqrt((a^T J^+ a - (a . p^)^2) / m)` (delta
//! method; docs/theory.md §13). Otherwise the data do not determine it: its
//! value at that estimate (one of many maximisers) is given, with no interval.
//! The marginals of a record's columns are such functionals of the joint
//! distribution.

use super::{FrequencySettings, check_counts, em};
use crate::error::{ModelError, Result};
use crate::mechanism::Mechanism;
use ndarray::{Array1, Array2};
use serde::{Deserialize, Serialize};

/// One functional's estimate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionalValue {
    /// `a . p^` at the maximum-likelihood estimate.
    pub estimate: f64,
    /// Whether the data determine `a . p` (`a` in the span of W's columns).
    pub identifiable: bool,
    /// Its standard error (delta method), where identifiable.
    pub standard_error: Option<f64>,
    /// The interval's ends at the settings' confidence, clamped to the
    /// functional's range over the simplex, where identifiable.
    pub lower: Option<f64>,
    /// The upper end.
    pub upper: Option<f64>,
}

/// EM's estimate of the whole distribution and of each functional.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionalEstimate {
    /// EM's estimate over every input (a maximum-likelihood estimate; where
    /// inputs are not identifiable it is one of many).
    pub distribution: Vec<f64>,
    /// One value per functional, in order.
    pub values: Vec<FunctionalValue>,
    /// `sum_y n_y ln q_y` at the estimate.
    pub log_likelihood: f64,
    /// Released rows counted (m).
    pub rows: u64,
    /// EM's iterations.
    pub iterations: usize,
    /// Whether the likelihood gap certifies the maximum (at most `max(1e-6,
    /// 1e-12 m)` nats) within the cap.
    pub converged: bool,
    /// The maximum log-likelihood exceeds the estimate's by at most this many
    /// nats ([`super::FrequencyEstimate::likelihood_gap`]).
    #[serde(default)]
    pub likelihood_gap: Option<f64>,
    /// The confidence of the intervals.
    pub confidence: f64,
}

/// A functional is in the span of W's columns when `W b` meets it to this,
/// relative to its largest entry.
const IN_SPAN: f64 = 1e-9;

/// Estimates each functional `a . p` (one weight per input) from `counts` of
/// released outputs of `mechanism`, by EM (`settings.method` is not used: the
/// inversion estimate needs every input identifiable).
pub fn estimate_functionals(
    mechanism: &Mechanism,
    counts: &[u64],
    functionals: &[Vec<f64>],
    settings: &FrequencySettings,
) -> Result<FunctionalEstimate> {
    settings.validate()?;
    check_counts(mechanism, counts)?;
    let w = mechanism.matrix().to_owned();
    let n_inputs = w.nrows();
    if let Some(k) = functionals.iter().position(|a| a.len() != n_inputs) {
        return Err(ModelError::invalid(
            format!("functionals[{k}]"),
            format!("{} weights", functionals[k].len()),
            format!("the mechanism has {n_inputs} inputs"),
            "give one weight per input",
        ));
    }
    let rows: u64 = counts.iter().sum();
    let n = Array1::from_iter(counts.iter().map(|&c| c as f64));
    let fit = em::maximum_likelihood(&w, &n, settings, None);
    let spans = span_weights(&w, functionals)?;
    let fisher = super::fisher::SimplexFisher::new(w.view(), fit.estimate.view());
    let z = std::f64::consts::SQRT_2 * statrs::function::erf::erfc_inv(1.0 - settings.confidence);
    let values = functionals
        .iter()
        .zip(spans)
        .map(|(a, b)| value(a, b, (&fit.estimate, &fisher, rows), z))
        .collect();
    Ok(FunctionalEstimate {
        log_likelihood: fit.log_likelihood,
        distribution: fit.estimate.to_vec(),
        values,
        rows,
        iterations: fit.iterations,
        converged: fit.converged,
        likelihood_gap: fit.gap.is_finite().then_some(fit.gap),
        confidence: settings.confidence,
    })
}

/// For each functional `a`, the weights `b` on the outputs with `W b = a`, or
/// `None` when `a` is not in the span of W's columns (by W's pseudo-inverse).
fn span_weights(w: &Array2<f64>, functionals: &[Vec<f64>]) -> Result<Vec<Option<Array1<f64>>>> {
    let (n, m) = w.dim();
    // Outputs no input reaches carry weight 0 and are left out of the SVD (as in
    // `identifiable`: faer's did not converge on a matrix keeping them).
    let used = super::identifiable::used_columns(w);
    let mat = faer::Mat::<f64>::from_fn(n, used.len(), |i, j| w[[i, used[j]]]);
    let svd = mat
        .thin_svd()
        .map_err(|_| super::identifiable::not_converged(w))?;
    let pinv = svd.pseudoinverse();
    // One product for every functional: B = W^+ A, and W B to check each fits.
    let k = functionals.len();
    let a = faer::Mat::<f64>::from_fn(n, k, |x, j| functionals[j][x]);
    let b = &pinv * &a;
    let back = &mat * &b;
    Ok((0..k)
        .map(|j| {
            let scale = functionals[j].iter().fold(1.0f64, |s, v| s.max(v.abs()));
            let fits = (0..n).all(|x| (back[(x, j)] - a[(x, j)]).abs() <= IN_SPAN * scale);
            fits.then(|| {
                let mut weights = Array1::zeros(m);
                for (i, &y) in used.iter().enumerate() {
                    weights[y] = b[(i, j)];
                }
                weights
            })
        })
        .collect())
}

/// The estimate of `a . p` at the maximum-likelihood estimate `p`: where `a` is
/// identifiable (weights `b` on the outputs, `a = W b`), with its interval from
/// the inverse Fisher information, or where that cannot be evaluated (J's range
/// misses `a` at a boundary estimate) from the variance of the unbiased `b . q^`
/// at the fitted q (larger).
fn value(
    a: &[f64],
    b: Option<Array1<f64>>,
    (p, fisher, rows): (&Array1<f64>, &super::fisher::SimplexFisher, u64),
    z: f64,
) -> FunctionalValue {
    let estimate: f64 = a.iter().zip(p).map(|(a, p)| a * p).sum();
    let Some(b) = b else {
        return FunctionalValue {
            estimate,
            identifiable: false,
            standard_error: None,
            lower: None,
            upper: None,
        };
    };
    let variance = fisher.variance(a, estimate).unwrap_or_else(|| {
        let q = fisher.fitted();
        let bq: f64 = b.iter().zip(q).map(|(b, q)| b * q).sum();
        let second: f64 = b.iter().zip(q).map(|(b, q)| b * b * q).sum();
        (second - bq * bq).max(0.0)
    });
    let se = (variance / rows as f64).sqrt();
    let lo = a.iter().copied().fold(f64::INFINITY, f64::min).min(0.0);
    let hi = a.iter().copied().fold(f64::NEG_INFINITY, f64::max).max(0.0);
    FunctionalValue {
        estimate,
        identifiable: true,
        standard_error: Some(se),
        lower: Some((estimate - z * se).clamp(lo, hi)),
        upper: Some((estimate + z * se).clamp(lo, hi)),
    }
}
