//! Randomized-response baselines: at the same LDP parameter as the design's eps, and
//! calibrated so that its worst-case PML over the uncertainty set equals eps.

use crate::reference::closed_form::{
    calibrated_randomized_response, randomized_response, randomized_response_pml,
};
use ndarray::Array1;
use pmldesign_model::{Mechanism, Result, UncertaintySet};
use serde::Serialize;

/// One randomized-response mechanism with its leakage and utility.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomizedResponse {
    /// Its LDP parameter `e_r` (infinite, serialised as `null`, for the identity).
    #[serde(deserialize_with = "pmldesign_model::serde_float::null_is_infinite")]
    pub ldp_epsilon: f64,
    /// The matrix.
    pub mechanism: Mechanism,
    /// Worst-case PML over the uncertainty set.
    pub worst_case_pml: f64,
    /// Utility under the reference prior.
    pub utility: f64,
}

/// The two randomized-response comparators of a design at level eps.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baselines {
    /// eps-LDP randomized response (`e_r = eps`): what LDP would release.
    pub same_ldp: RandomizedResponse,
    /// Randomized response with worst-case PML exactly eps over the set.
    pub pml_calibrated: RandomizedResponse,
}

/// The smallest mass any prior of the set gives one symbol,
/// `m = min_x min_{Q in S} Q_x`; randomized response leaks `-ln(m + e^-e_r (1 - m))`.
pub fn min_symbol_mass(set: &UncertaintySet) -> f64 {
    let n = set.len();
    (0..n)
        .map(|x| {
            let mut e = Array1::zeros(n);
            e[x] = 1.0;
            set.min_output_probability(e.view())
        })
        .fold(f64::INFINITY, f64::min)
}

/// Builds both baselines for a design at level eps over `set`; `value` is the
/// design's objective (a utility, or minus an expected loss).
pub fn randomized_response_baselines(
    set: &UncertaintySet,
    epsilon: f64,
    value: &dyn Fn(&Mechanism) -> f64,
) -> Result<Baselines> {
    let make = |ldp_epsilon: f64| -> Result<RandomizedResponse> {
        let mechanism = randomized_response(set.len(), ldp_epsilon)?;
        Ok(RandomizedResponse {
            ldp_epsilon,
            worst_case_pml: set.worst_case_pml(&mechanism),
            utility: value(&mechanism),
            mechanism,
        })
    };
    let m = min_symbol_mass(set);
    Ok(Baselines {
        same_ldp: make(epsilon)?,
        pml_calibrated: make(calibrated_randomized_response(m, epsilon))?,
    })
}

/// Worst-case PML of randomized response over the set, by the closed form.
pub fn randomized_response_worst_case_pml(set: &UncertaintySet, ldp_epsilon: f64) -> f64 {
    randomized_response_pml(min_symbol_mass(set), ldp_epsilon)
}
