//! `assess` of a mechanism: every leakage figure under a prior and over a set
//! of priors, the post-processing envelope at one delta, and the description
//! of the input (docs/theory.md §2, §8).

use crate::envelope::bounds_json;
use crate::json::{finite_or_null, versioned};
use pmldesign_model::envelope::{Envelope, EnvelopeBounds};
use pmldesign_model::measures::Assessment;
use pmldesign_model::sample::RadiusMethod;
use pmldesign_model::{Mechanism, Metric, ModelError, Prior, UncertaintySet};
use pmldesign_solver::labels::numbered;
use serde::Serialize;
use serde_json::{Value, json};

/// How the l1 radius of the set came from a failure probability and a sample
/// size (\[E\] eq. (7) or Theorem 2).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RadiusSource {
    /// The failure probability.
    pub delta: f64,
    /// The sample size the prior was estimated from.
    pub samples: u64,
    /// Which bound gave the radius.
    pub method: &'static str,
    /// The radius.
    pub beta: f64,
}

impl RadiusSource {
    /// The ball of the sample guarantee around `estimate`, counted from
    /// `samples` rows, at failure probability `delta` by `method` (\[E\] eq. (7),
    /// or Theorem 2 with `phi(kappa)` of the estimate), with how its radius came.
    pub fn sample_ball(
        estimate: &Prior,
        samples: u64,
        delta: f64,
        method: RadiusMethod,
    ) -> Result<(UncertaintySet, RadiusSource), ModelError> {
        let beta = method.radius(samples, delta, estimate)?;
        let method_name = match method {
            RadiusMethod::Kappa => "Theorem 2 with phi(kappa) of the estimate",
            other => other.describe(),
        };
        let radius = RadiusSource {
            delta,
            samples,
            method: method_name,
            beta,
        };
        Ok((UncertaintySet::l1_ball(estimate.clone(), beta)?, radius))
    }
}

/// The name of `metric` and the smallest eps of metric privacy `mechanism`
/// has under it (docs/theory.md §9).
pub fn metric_level(
    mechanism: &Mechanism,
    metric: &Metric,
) -> Result<(&'static str, f64), ModelError> {
    let d = metric.distances(mechanism.inputs())?;
    let level = pmldesign_model::measures::metric_level(mechanism, d.view());
    Ok((metric.name(), level))
}

/// The audit of one mechanism, as `pml assess --mechanism` and Python's
/// `assess` answer it.
#[derive(Debug, Clone)]
pub struct Audit {
    assessment: Assessment,
    envelope: EnvelopeBounds,
    labels: Vec<String>,
    source: String,
    radius: Option<RadiusSource>,
    metric: Option<(&'static str, f64)>,
}

/// The notes of the JSON, on what a `null` and the tail curve mean.
const NOTES: [&str; 2] = [
    "null numbers are infinite (ldp_parameter, pmc, lip_parameter, worst-case PML, capacity, sensitivity) or undefined (PML or PMC of an output of probability 0)",
    "tail_curve: delta(eps) = P(l(Y) > eps) is constant from one point's epsilon to the next; it is 1 below the first point",
];

impl Audit {
    /// The figures of `mechanism` under `prior` (and over `set` when given),
    /// with the envelope at `envelope_delta`; inputs named `x1..xN`.
    pub fn new(
        mechanism: &Mechanism,
        prior: &Prior,
        set: Option<&UncertaintySet>,
        envelope_delta: f64,
    ) -> Result<Self, ModelError> {
        let assessment = Assessment::new(mechanism, prior, set)?;
        let envelope = Envelope::new(mechanism, prior)?.bounds(envelope_delta)?;
        Ok(Audit {
            assessment,
            envelope,
            labels: numbered("x", prior.len()),
            source: String::new(),
            radius: None,
            metric: None,
        })
    }

    /// Names of the inputs, one per row (the caller has checked them).
    pub fn labels(mut self, labels: Vec<String>) -> Self {
        self.labels = labels;
        self
    }

    /// What the mechanism was read from (a file's name; empty for a matrix
    /// handed over in memory).
    pub fn source(mut self, source: impl Into<String>) -> Self {
        self.source = source.into();
        self
    }

    /// Where the set's radius came from.
    pub fn radius(mut self, radius: Option<RadiusSource>) -> Self {
        self.radius = radius;
        self
    }

    /// A metric's name and the smallest eps of metric privacy under it.
    pub fn metric(mut self, metric: Option<(&'static str, f64)>) -> Self {
        self.metric = metric;
        self
    }

    /// The figures.
    pub fn assessment(&self) -> &Assessment {
        &self.assessment
    }

    /// The envelope bounds at the delta asked for.
    pub fn envelope(&self) -> &EnvelopeBounds {
        &self.envelope
    }

    /// The names of the inputs.
    pub fn label_names(&self) -> &[String] {
        &self.labels
    }

    /// What the mechanism was read from.
    pub fn source_name(&self) -> &str {
        &self.source
    }

    /// Where the set's radius came from, if from a failure probability.
    pub fn radius_source(&self) -> Option<&RadiusSource> {
        self.radius.as_ref()
    }

    /// The metric and its smallest eps, if asked for.
    pub fn metric_level(&self) -> Option<(&'static str, f64)> {
        self.metric
    }

    /// The answer as JSON, `format_version` first.
    pub fn to_json(&self) -> Value {
        let a = &self.assessment;
        let mut v = serde_json::to_value(a).unwrap_or(Value::Null);
        // serde_json writes non-finite numbers as null; say so where they can occur.
        v["ldp_parameter"] = finite_or_null(a.ldp_parameter);
        v["pmc"] = finite_or_null(a.pmc);
        v["lip_parameter"] = finite_or_null(a.lip_parameter);
        v["envelope"] = bounds_json(&self.envelope);
        v["source"] = json!(self.source);
        v["labels"] = json!(self.labels);
        v["outputs"] = json!(numbered("y", a.mechanism.outputs()));
        v["notes"] = json!(NOTES);
        if let Some(radius) = &self.radius {
            v["radius"] = json!(radius);
        }
        if let Some((name, level)) = self.metric {
            v["metric"] = json!({ "metric": name, "smallest_epsilon": finite_or_null(level) });
        }
        versioned(v)
    }
}
