//! The estimation errors the advice compares at the data's size m
//! (docs/concepts/estimation.md): m E||p^ - p||^2 of the EM estimate from m
//! released rows, simulated when the design was made (the caller draws: the
//! solver has no randomness). The figures in the m -> infinity limit
//! ([`super::estimation::EstimationRow::error_per_row`]) can reverse the
//! comparison at real sizes. Simulated figures are advice, not claims: a design
//! file's copy is checked for shape only, never re-simulated, and is labelled
//! not re-checked wherever it is shown.

use crate::solution::claims::altered;
use crate::solution::design::Design;
use crate::solution::estimation::Estimation;
use pmldesign_model::Mechanism;
use serde::{Deserialize, Serialize};

/// Replicates each simulated figure averages.
pub const ADVICE_REPLICATES: usize = 200;

/// The public seed of the simulation's draws (advice, not a secret).
pub const ADVICE_SEED: u64 = 1;

/// Inputs past which the advice is not simulated (it keeps the figures in the
/// m -> infinity limit and says so).
pub const ADVICE_INPUTS_UP_TO: usize = 64;

/// The most cells `replicates x N x M`, summed over the mechanisms simulated,
/// that one simulation draws and estimates (the design and two randomized
/// responses at 32 inputs: 614,400; each EM fit also costs a few N^3 for its
/// intervals); past it the advice keeps the limit and says so.
pub const ADVICE_WORK_UP_TO: u64 = 1_000_000;

/// The most replicates a stored simulation may state.
const MAX_STATED_REPLICATES: usize = 100_000;

/// The advice's simulation: what was drawn and the figure of each mechanism.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimulatedErrors {
    /// Released rows m in each replicate: the data's (rows counted, or the
    /// noisy total of a private prior).
    pub rows: u64,
    /// Replicates drawn for each mechanism.
    pub replicates: usize,
    /// The public seed of the draws.
    pub seed: u64,
    /// One per row of [`Estimation::rows`]: m E||p^ - p||^2 of EM from `rows`
    /// released rows at the reference prior, the mean over the replicates;
    /// `None` for a mechanism not compared (one that merges inputs, or a
    /// baseline that fails the design's notion).
    pub error_per_row: Vec<Option<f64>>,
    /// Whether the figures were simulated in this run; false for a copy read
    /// from a design file, which is not re-checked.
    #[serde(skip)]
    pub simulated_here: bool,
}

/// What the caller draws for one mechanism: `replicates` sets of `rows` rows
/// from the stream of `seed` named `stream`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AdviceDraws<'a> {
    /// Released rows m per replicate.
    pub rows: u64,
    /// Replicates.
    pub replicates: usize,
    /// The public seed.
    pub seed: u64,
    /// The stream's name: the mechanism's label, so that each draws its own.
    pub stream: &'a str,
}

impl Design {
    /// The design with its estimation advice compared at `rows` released rows:
    /// `simulate(mechanism, prior, draws)` gives m E||p^ - p||^2 of EM for the
    /// design and each baseline the advice may name (every input estimable
    /// alone; the baselines meeting the notion), at the reference prior.
    /// Unchanged without estimation figures, past [`ADVICE_INPUTS_UP_TO`]
    /// inputs or [`ADVICE_WORK_UP_TO`] cells, or for `rows` 0.
    pub fn with_simulated_advice<E>(
        mut self,
        rows: u64,
        mut simulate: impl FnMut(&Mechanism, &[f64], AdviceDraws<'_>) -> Result<Option<f64>, E>,
    ) -> Result<Self, E> {
        let Some(estimation) = &self.estimation else {
            return Ok(self);
        };
        let compared = compared(estimation, &self);
        let cells: u64 = compared
            .iter()
            .flatten()
            .map(|m| (ADVICE_REPLICATES * m.inputs() * m.outputs()) as u64)
            .sum();
        if rows == 0 || self.labels.len() > ADVICE_INPUTS_UP_TO || cells > ADVICE_WORK_UP_TO {
            return Ok(self);
        }
        let prior = self.uncertainty.reference().to_vec();
        let mut error_per_row = Vec::with_capacity(compared.len());
        for (row, mechanism) in estimation.rows.iter().zip(&compared) {
            let draws = AdviceDraws {
                rows,
                replicates: ADVICE_REPLICATES,
                seed: ADVICE_SEED,
                stream: &row.mechanism,
            };
            error_per_row.push(match mechanism {
                Some(m) => simulate(m, &prior, draws)?,
                None => None,
            });
        }
        let simulated = SimulatedErrors {
            rows,
            replicates: ADVICE_REPLICATES,
            seed: ADVICE_SEED,
            error_per_row,
            simulated_here: true,
        };
        if let Some(e) = self.estimation.as_mut() {
            e.simulated = Some(simulated);
        }
        Ok(self)
    }
}

/// Per row of `e`, the mechanism the advice may compare: the design, and each
/// baseline that meets `d`'s notion, where every input is estimable alone.
fn compared<'d>(e: &Estimation, d: &'d Design) -> Vec<Option<&'d Mechanism>> {
    let inputs = d.labels.len();
    let baselines = crate::solution::estimation::measured_baselines(d);
    let mechanisms = std::iter::once(Some(&d.mechanism)).chain(
        baselines
            .iter()
            .map(|b| d.admits(b.mechanism).then_some(b.mechanism)),
    );
    e.rows
        .iter()
        .zip(mechanisms.chain(std::iter::repeat(None)))
        .map(|(row, m)| m.filter(|_| row.groups == inputs))
        .collect()
}

impl SimulatedErrors {
    /// How the figures were made, as the advice states it: the seed and the
    /// replicates, and "not re-checked" for a copy read from a design file.
    pub fn basis(&self) -> String {
        let (seed, reps) = (self.seed, self.replicates);
        match self.simulated_here {
            true => format!("simulated: {reps} replicates, seed {seed}"),
            false => {
                format!("simulated when designed (seed {seed}, {reps} replicates), not re-checked")
            }
        }
    }

    /// A stored copy's shape against the figures re-derived for `d`: one figure
    /// per row, only where every input is estimable alone, each finite and
    /// non-negative. The figures themselves are not re-simulated.
    pub(crate) fn check(&self, e: &Estimation, inputs: usize) -> crate::Result<Self> {
        let field = "estimation.simulated";
        if self.error_per_row.len() != e.rows.len() {
            let problem = "it needs one figure (or null) per row of estimation.rows";
            return Err(altered(
                &format!("{field}.error_per_row"),
                self.error_per_row.len(),
                problem,
            ));
        }
        if self.rows == 0 || !(1..=MAX_STATED_REPLICATES).contains(&self.replicates) {
            let value = format!("{} rows, {} replicates", self.rows, self.replicates);
            let problem = "a simulation draws at least one row and 1 to 100000 replicates";
            return Err(altered(field, value, problem));
        }
        for (k, (v, row)) in self.error_per_row.iter().zip(&e.rows).enumerate() {
            let bad = v.is_some_and(|v| !(v.is_finite() && v >= 0.0) || row.groups != inputs);
            if bad {
                let shown = v.map_or("null".to_string(), |v| v.to_string());
                let problem = "a simulated figure is finite, >= 0, and only for a mechanism that estimates every input alone";
                return Err(altered(
                    &format!("{field}.error_per_row[{k}]"),
                    shown,
                    problem,
                ));
            }
        }
        Ok(SimulatedErrors {
            simulated_here: false,
            ..self.clone()
        })
    }
}
