//! Randomized-response baselines: at the same LDP parameter as the design's eps, and
//! calibrated so that its worst-case PML over the uncertainty set equals eps.

use crate::objective::loss::Shape;
use crate::reference::closed_form::{
    calibrated_randomized_response, randomized_response, randomized_response_pml,
};
use crate::reference::guesses::{Guesser, LossScore, weighted_loss};
use crate::reference::structured::{Scorer, StructuredBaseline, structured_baselines};
use ndarray::{Array1, ArrayView2};
use pmldesign_model::{Mechanism, Notion, Result, UncertaintySet};
use serde::Serialize;

/// One randomized-response mechanism with its leakage and utility.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomizedResponse {
    /// Its LDP parameter `e_r` (infinite, serialised as `null`, for the identity).
    #[serde(deserialize_with = "pmldesign_model::serde_float::null_is_infinite")]
    pub ldp_epsilon: f64,
    /// The matrix, k-ary randomized response at `ldp_epsilon`. Not written to a
    /// design file (its N^2 numbers are determined by `ldp_epsilon` and N: 320 MB
    /// of JSON for the two at N = 2048); a reader re-derives it, and a file that
    /// still carries it has it compared with the re-derivation. After
    /// deserialising one without it, [`RandomizedResponse::UNREAD`].
    #[serde(
        skip_serializing,
        default = "crate::reference::structured::unread_matrix"
    )]
    pub mechanism: Mechanism,
    /// Worst-case PML over the uncertainty set.
    pub worst_case_pml: f64,
    /// Utility under the reference prior.
    pub utility: f64,
}

impl RandomizedResponse {
    /// The inputs of the placeholder matrix a deserialised baseline holds when
    /// its file left the matrix out (a 1 x 1 identity: no design has one input).
    pub const UNREAD: usize = crate::reference::structured::UNREAD_INPUTS;

    /// Whether the matrix was read (or built), not the placeholder.
    pub fn has_matrix(&self) -> bool {
        !crate::reference::structured::is_unread(&self.mechanism)
    }
}

/// The two randomized-response comparators of a design at level eps.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baselines {
    /// eps-LDP randomized response (`e_r = eps`): what LDP would release.
    pub same_ldp: RandomizedResponse,
    /// Randomized response with worst-case PML exactly eps over the set.
    pub pml_calibrated: RandomizedResponse,
    /// The best structured mechanism of each family for the design's notion
    /// (partitions, covers, closed forms; `structured_baselines`), written
    /// beside randomized response as `baselines.structured`.
    #[serde(skip)]
    pub structured: Vec<StructuredBaseline>,
}

/// One baseline as a row of a comparison table.
#[derive(Debug, Clone)]
pub struct BaselineRow<'a> {
    /// What it is, with its parameters.
    pub label: String,
    /// Its LDP parameter where it is randomized response (infinite for the identity).
    pub ldp_epsilon: Option<f64>,
    /// Worst-case PML over the set.
    pub worst_case_pml: f64,
    /// Its objective (a utility, or minus an expected loss).
    pub utility: f64,
    /// The matrix.
    pub mechanism: &'a Mechanism,
}

impl Baselines {
    /// Every baseline as a table row: randomized response at the same LDP
    /// level and at the same PML, then the structured mechanisms.
    pub fn rows(&self) -> Vec<BaselineRow<'_>> {
        let rr = [
            ("randomized response, same LDP eps", &self.same_ldp),
            ("randomized response, same PML", &self.pml_calibrated),
        ];
        let rr = rr.into_iter().map(|(label, r)| BaselineRow {
            label: label.to_string(),
            ldp_epsilon: Some(r.ldp_epsilon),
            worst_case_pml: r.worst_case_pml,
            utility: r.utility,
            mechanism: &r.mechanism,
        });
        let structured = self.structured.iter().map(|b| BaselineRow {
            label: b.label(),
            ldp_epsilon: None,
            worst_case_pml: b.worst_case_pml,
            utility: b.utility,
            mechanism: &b.mechanism,
        });
        rr.chain(structured).collect()
    }
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
    value: &(dyn Fn(&Mechanism) -> f64 + Sync),
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
    let (same_ldp, pml_calibrated) = rayon::join(
        || make(epsilon),
        || make(calibrated_randomized_response(m, epsilon)),
    );
    Ok(Baselines {
        same_ldp: same_ldp?,
        pml_calibrated: pml_calibrated?,
        structured: Vec::new(),
    })
}

/// Every baseline of a design of `notion` over `set`: randomized response and
/// the structured mechanisms. `value` is the design's objective; for a loss
/// design `loss` is its matrix, and structured mechanisms release their
/// outputs' best guesses (`guesses`, docs/theory.md §4c).
pub fn baselines(
    set: &UncertaintySet,
    notion: &Notion,
    value: &(dyn Fn(&Mechanism) -> f64 + Sync),
    loss: Option<ArrayView2<f64>>,
) -> Result<Baselines> {
    let mut b = randomized_response_baselines(set, notion.epsilon(), value)?;
    let reference = set.reference();
    let weighted = loss.map(|d| weighted_loss(reference.view(), d));
    let shape = weighted.as_ref().map(Shape::of);
    let score = match (&weighted, &shape, loss) {
        (Some(c), Some(shape), Some(d)) => Some(LossScore {
            c,
            shape,
            r: reference.view(),
            d,
        }),
        _ => None,
    };
    let guessed = |m: &Mechanism| score.as_ref().and_then(|s| s.guessed(m));
    let scorer = Scorer {
        value,
        loss: score.as_ref().map(|_| &guessed as &Guesser<'_>),
    };
    b.structured = structured_baselines(set, notion, &scorer);
    // A baseline the objective cannot score is no comparison: a partition's
    // merged inputs cannot be estimated apart (the estimation objective's -inf).
    b.structured.retain(|s| s.utility.is_finite());
    Ok(b)
}

/// Worst-case PML of randomized response over the set, by the closed form.
pub fn randomized_response_worst_case_pml(set: &UncertaintySet, ldp_epsilon: f64) -> f64 {
    randomized_response_pml(min_symbol_mass(set), ldp_epsilon)
}
