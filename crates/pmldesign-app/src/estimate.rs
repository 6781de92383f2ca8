//! `estimate` from a mechanism's released counts: the input distribution by
//! maximum likelihood (or inversion) per group of inputs released alike, its
//! intervals, the fit of the counts and, where asked, the parametric
//! bootstrap's check of the intervals (docs/theory.md §13).

use crate::json::versioned;
use pmldesign_data::bootstrap::{BootstrapCheck, bootstrap};
use pmldesign_data::stream::StreamKey;
use pmldesign_model::frequency::{
    FitTest, FrequencyEstimate, FrequencySettings, estimate_frequencies, goodness_of_fit,
};
use pmldesign_model::{Mechanism, ModelError};
use pmldesign_solver::labels::numbered;
use serde_json::{Value, json};
use std::time::Instant;

/// The warning that EM stopped at its cap of `iterations` before its
/// likelihood gap certified the maximum (of a column's estimate or a record's).
pub fn em_cap_warning(iterations: usize, gap: Option<f64>) -> String {
    let gap = gap.map_or("unbounded".to_string(), |g| format!("{g:.3e} nats"));
    format!(
        "EM stopped at its cap of {iterations} iterations before certifying the maximum likelihood (gap {gap}): the estimate and its intervals may be off"
    )
}

/// The estimate behind one mechanism's released counts, as `pml estimate` and
/// Python's `estimate` answer it.
#[derive(Debug, Clone)]
pub struct EstimateAnswer {
    source: String,
    inputs: Vec<String>,
    mechanism: Mechanism,
    settings: FrequencySettings,
    estimate: FrequencyEstimate,
    fit: FitTest,
    bootstrap: Option<BootstrapCheck>,
    note: Option<String>,
}

impl EstimateAnswer {
    /// The estimate of the inputs of `mechanism` behind `counts` (one per
    /// output), and the G test of the counts against its fit; inputs named
    /// `x1..xN`.
    pub fn new(
        mechanism: &Mechanism,
        counts: &[u64],
        settings: &FrequencySettings,
    ) -> Result<Self, ModelError> {
        let estimate = estimate_frequencies(mechanism, counts, settings)?;
        let fit = goodness_of_fit(counts, &estimate.fitted, estimate.groups.len());
        Ok(EstimateAnswer {
            source: String::new(),
            inputs: numbered("x", mechanism.inputs()),
            mechanism: mechanism.clone(),
            settings: settings.clone(),
            estimate,
            fit,
            bootstrap: None,
            note: None,
        })
    }

    /// With a parametric bootstrap of `reps` replicates drawn from the stream
    /// of `key` checking the intervals; none starts past `until` (the check is
    /// then of those drawn, and a warning says so).
    pub fn bootstrap(
        mut self,
        reps: usize,
        key: &StreamKey,
        until: Option<Instant>,
    ) -> Result<Self, ModelError> {
        let check = bootstrap(
            &self.mechanism,
            &self.estimate,
            &self.settings,
            (reps, key),
            until,
        )?;
        self.bootstrap = Some(check);
        Ok(self)
    }

    /// Names of the inputs, one per row (the caller has checked them).
    pub fn labels(mut self, labels: Vec<String>) -> Self {
        self.inputs = labels;
        self
    }

    /// What the mechanism was read from (empty for a matrix in memory).
    pub fn source(mut self, source: impl Into<String>) -> Self {
        self.source = source.into();
        self
    }

    /// What could not be verified about the mechanism (a bare matrix, a public
    /// file), if anything.
    pub fn note(mut self, note: Option<String>) -> Self {
        self.note = note;
        self
    }

    /// The estimate.
    pub fn estimate(&self) -> &FrequencyEstimate {
        &self.estimate
    }

    /// The G test of the counts against the fitted output distribution.
    pub fn fit(&self) -> &FitTest {
        &self.fit
    }

    /// The bootstrap's check of the intervals, where asked for.
    pub fn bootstrap_check(&self) -> Option<&BootstrapCheck> {
        self.bootstrap.as_ref()
    }

    /// What could not be verified about the mechanism.
    pub fn unverified(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// `em` or `inversion`.
    pub fn method(&self) -> &'static str {
        self.estimate.method.name()
    }

    /// Group `g`'s label: its input, or `{a, b, c}` for inputs released alike.
    pub fn label(&self, g: usize) -> String {
        let names: Vec<&str> = self.estimate.groups[g]
            .iter()
            .map(|&x| self.inputs[x].as_str())
            .collect();
        match names.as_slice() {
            [one] => (*one).to_string(),
            many => format!("{{{}}}", many.join(", ")),
        }
    }

    /// One sentence per block of inputs whose rows differ but are linearly
    /// dependent: only its total is estimable.
    pub fn block_notes(&self) -> Vec<String> {
        let e = &self.estimate;
        (0..e.groups.len())
            .filter(|&g| e.dependent.get(g).copied().unwrap_or(false))
            .map(|g| {
                format!(
                    "inputs {} are released as one group: only their total is estimable \
                     (their rows of the mechanism are linearly dependent)",
                    self.label(g)
                )
            })
            .collect()
    }

    /// What puts the intervals in doubt: counts unlikely under the mechanism,
    /// bootstrap replicates or the estimate itself stopped at EM's cap.
    pub fn warnings(&self) -> Vec<String> {
        let e = &self.estimate;
        let mut out: Vec<String> = self
            .fit
            .note()
            .filter(|_| self.fit.unlikely())
            .into_iter()
            .collect();
        if let Some(b) = self.bootstrap.as_ref().filter(|b| b.uncertified > 0) {
            out.push(format!(
                "{} of {} bootstrap replicates stopped at EM's cap before certifying the maximum likelihood: the bootstrap interval may be off",
                b.uncertified, b.reps
            ));
        }
        if let Some(b) = self.bootstrap.as_ref().filter(|b| b.stopped()) {
            out.push(format!(
                "the time limit stopped the bootstrap after {} of {} replicates: its interval is from those; give more time, or fewer replicates",
                b.reps, b.asked
            ));
        }
        if !e.converged {
            out.push(em_cap_warning(e.iterations, e.likelihood_gap));
        }
        out
    }

    /// The answer as JSON, `format_version` first.
    pub fn to_json(&self) -> Value {
        let e = &self.estimate;
        versioned(json!({
            "source": self.source,
            "method": self.method(),
            "rows": e.rows,
            "confidence": e.confidence,
            "log_likelihood": e.log_likelihood,
            "fit": json!({
                "statistic": self.fit.statistic,
                "degrees_of_freedom": self.fit.degrees_of_freedom,
                "p_value": self.fit.p_value,
                "note": self.fit.note(),
            }),
            "iterations": e.iterations,
            "converged": e.converged,
            "likelihood_gap": e.likelihood_gap,
            "bootstrap_replicates": self.bootstrap.as_ref().map(|b| b.reps),
            "note": self.note,
            "notes": self.block_notes(),
            "warnings": self.warnings(),
            "estimates": (0..e.groups.len()).map(|g| self.row(g)).collect::<Vec<_>>(),
        }))
    }

    /// Group `g` as one row of a table: ready for a data frame.
    fn row(&self, g: usize) -> Value {
        let e = &self.estimate;
        let mut row = json!({
            "label": self.label(g),
            "inputs": e.groups[g].iter().map(|&x| &self.inputs[x]).collect::<Vec<_>>(),
            "dependent": e.dependent.get(g).copied().unwrap_or(false),
            "estimate": e.estimate[g],
            "lower": e.lower[g],
            "upper": e.upper[g],
            "standard_error": e.standard_error[g],
            "unprojected": e.unprojected.get(g),
        });
        if let Some(b) = &self.bootstrap {
            row["bootstrap_lower"] = json!(b.lower[g]);
            row["bootstrap_upper"] = json!(b.upper[g]);
            row["bootstrap_standard_error"] = json!(b.standard_error[g]);
        }
        row
    }
}
