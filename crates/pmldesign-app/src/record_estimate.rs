//! `estimate` from a record design's released tuples: each column's marginal
//! and the joint distribution over the record's cells, a mass the released
//! data do not determine shown without an interval (docs/theory.md §12).

use crate::estimate::em_cap_warning;
use crate::json::versioned;
use pmldesign_model::frequency::FunctionalValue;
use pmldesign_solver::RecordEstimate;
use serde_json::{Value, json};

/// The estimate behind a record design's released tuples, as `pml estimate`
/// and Python's `estimate` answer it.
#[derive(Debug, Clone)]
pub struct RecordEstimateAnswer {
    source: String,
    estimate: RecordEstimate,
    note: Option<String>,
}

impl RecordEstimateAnswer {
    /// The answer of `estimate`.
    pub fn new(estimate: RecordEstimate) -> Self {
        RecordEstimateAnswer {
            source: String::new(),
            estimate,
            note: None,
        }
    }

    /// What the design was read from (empty for one in memory).
    pub fn source(mut self, source: impl Into<String>) -> Self {
        self.source = source.into();
        self
    }

    /// What could not be verified about the design (a public record file).
    pub fn note(mut self, note: Option<String>) -> Self {
        self.note = note;
        self
    }

    /// The estimate.
    pub fn estimate(&self) -> &RecordEstimate {
        &self.estimate
    }

    /// What puts the intervals in doubt: EM stopped at its cap.
    pub fn warnings(&self) -> Vec<String> {
        let e = &self.estimate;
        if e.converged {
            return Vec::new();
        }
        vec![em_cap_warning(e.iterations, e.likelihood_gap)]
    }

    /// The answer as JSON, `format_version` first: one row per mass (a
    /// marginal's column and value, a cell's values), ready for a data frame.
    pub fn to_json(&self) -> Value {
        let e = &self.estimate;
        let marginals: Vec<Value> = e
            .marginals
            .iter()
            .zip(&e.columns)
            .flat_map(|(m, c)| {
                m.iter()
                    .map(move |(v, f)| mass(json!({"column": c, "value": v}), f))
            })
            .collect();
        let joint: Vec<Value> = e
            .joint
            .iter()
            .map(|(cell, f)| mass(json!({ "cell": cell }), f))
            .collect();
        versioned(json!({
            "source": self.source,
            "record": e.columns,
            "method": "em",
            "rows": e.rows,
            "confidence": e.confidence,
            "log_likelihood": e.log_likelihood,
            "iterations": e.iterations,
            "converged": e.converged,
            "likelihood_gap": e.likelihood_gap,
            "note": self.note,
            "warnings": self.warnings(),
            "marginals": marginals,
            "joint": joint,
        }))
    }
}

/// `at` (what the mass is of) with the mass, its interval and whether the
/// released data determine it.
fn mass(mut at: Value, f: &FunctionalValue) -> Value {
    at["estimate"] = json!(f.estimate);
    at["lower"] = json!(f.lower);
    at["upper"] = json!(f.upper);
    at["standard_error"] = json!(f.standard_error);
    at["identifiable"] = json!(f.identifiable);
    at
}
