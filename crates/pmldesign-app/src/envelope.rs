//! `envelope` of a mechanism: its leakage distribution, the bounds on the
//! post-processing envelope over a grid of delta (\[V\] Thm 3, Alg. 1), the
//! envelope itself by linear program where asked (\[V\] Thm 2), and the
//! statement a data holder can publish at one delta (docs/theory.md §8).

use crate::json::versioned;
use pmldesign_model::envelope::{Envelope, EnvelopeBounds, log_grid};
use pmldesign_model::statement::{envelope as statement, envelope_at};
use pmldesign_model::{Mechanism, Prior};
use pmldesign_solver::envelope::{EnvelopeValue, envelope_curve_with};
use pmldesign_solver::labels::numbered;
use pmldesign_solver::{Settings, SolverError};
use serde_json::{Value, json};

/// The default grid of delta: 50 values log-spaced from 0.001 to 0.5 (`A:B:N`).
pub const DEFAULT_DELTAS: (f64, f64, usize) = (0.001, 0.5, 50);

/// The notes of the JSON, on what each figure means.
const NOTES: [&str; 6] = [
    "left_quantile is the raw eps_Y(delta): the smallest eps with P(l(Y) > eps) <= delta; post-processing can raise it",
    "upper ([V] Thm 3) is post-processing safe: for every post-processing Z, P(l(X -> Z) > upper) <= delta",
    "lower = max(right_quantile, binary) ([V] Alg. 1); where lower = upper the envelope is exact",
    "lp (with --lp): the envelope itself by linear program, [lower, upper] to 1e-9; lower is certified by statement.lp.witness, a post-processing P(Z|Y) (rows are outputs y)",
    "statement: what a data holder can publish at that delta: the Theorem 3 upper bound, or with --lp the LP's envelope where it is tighter",
    "tail_curve: P(l(Y) > eps) is constant from one point's epsilon to the next; it is 1 below the first point",
];

/// The envelope bounds at one delta as JSON, with the statement a data holder
/// can publish and `envelope` (null unless the bounds meet).
pub fn bounds_json(b: &EnvelopeBounds) -> Value {
    let mut v = serde_json::to_value(b).unwrap_or(Value::Null);
    v["envelope"] = json!(b.envelope());
    v["statement"] = json!(statement(b));
    v
}

/// The envelope of one mechanism, as `pml envelope` and Python's `envelope`
/// answer it.
#[derive(Debug, Clone)]
pub struct EnvelopeAnswer {
    source: String,
    prior: Prior,
    labels: Vec<String>,
    mechanism: Mechanism,
    env: Envelope,
    curve: Vec<EnvelopeBounds>,
    lp: Option<Vec<EnvelopeValue>>,
    headline: EnvelopeBounds,
    headline_lp: Option<EnvelopeValue>,
    statement: String,
}

impl EnvelopeAnswer {
    /// The bounds of `mechanism` under `prior` at each of `deltas` and at the
    /// headline `delta`; with `lp`, the envelope by linear program too, under
    /// its settings' time limit (the headline first, so that a limit stops the
    /// grid rather than it). Inputs named `x1..xN`.
    pub fn new(
        mechanism: &Mechanism,
        prior: &Prior,
        deltas: &[f64],
        delta: f64,
        lp: Option<&Settings>,
    ) -> Result<Self, SolverError> {
        let env = Envelope::new(mechanism, prior)?;
        let curve = env.curve(deltas)?;
        let headline = env.bounds(delta)?;
        let (lp, headline_lp) = match lp {
            Some(settings) => {
                let grid: Vec<f64> = std::iter::once(delta)
                    .chain(deltas.iter().copied())
                    .collect();
                let mut values = envelope_curve_with(mechanism, prior, &grid, settings)?;
                let first = values.remove(0);
                (Some(values), Some(first))
            }
            None => (None, None),
        };
        Ok(EnvelopeAnswer {
            source: String::new(),
            prior: prior.clone(),
            labels: numbered("x", prior.len()),
            statement: published(&headline, headline_lp.as_ref()),
            mechanism: mechanism.clone(),
            env,
            curve,
            lp,
            headline,
            headline_lp,
        })
    }

    /// The default grid of delta ([`DEFAULT_DELTAS`]).
    pub fn default_deltas() -> Vec<f64> {
        let (a, b, n) = DEFAULT_DELTAS;
        log_grid(a, b, n).unwrap_or_default()
    }

    /// Names of the inputs, one per row (the caller has checked them).
    pub fn labels(mut self, labels: Vec<String>) -> Self {
        self.labels = labels;
        self
    }

    /// What the mechanism was read from (empty for a matrix in memory).
    pub fn source(mut self, source: impl Into<String>) -> Self {
        self.source = source.into();
        self
    }

    /// What the mechanism was read from.
    pub fn source_name(&self) -> &str {
        &self.source
    }

    /// The prior.
    pub fn prior(&self) -> &Prior {
        &self.prior
    }

    /// The names of the inputs.
    pub fn label_names(&self) -> &[String] {
        &self.labels
    }

    /// The mechanism.
    pub fn mechanism(&self) -> &Mechanism {
        &self.mechanism
    }

    /// Its leakage distribution under the prior.
    pub fn env(&self) -> &Envelope {
        &self.env
    }

    /// The bounds at each delta of the grid.
    pub fn curve(&self) -> &[EnvelopeBounds] {
        &self.curve
    }

    /// The LP's envelope at each delta of the grid, where asked for.
    pub fn lp(&self) -> Option<&[EnvelopeValue]> {
        self.lp.as_deref()
    }

    /// The bounds at the headline delta.
    pub fn headline(&self) -> &EnvelopeBounds {
        &self.headline
    }

    /// The LP's envelope at the headline delta, where asked for.
    pub fn headline_lp(&self) -> Option<&EnvelopeValue> {
        self.headline_lp.as_ref()
    }

    /// The statement published at the headline delta.
    pub fn statement(&self) -> &str {
        &self.statement
    }

    /// The answer as JSON, `format_version` first.
    pub fn to_json(&self) -> Value {
        let env = &self.env;
        let tail = pmldesign_model::measures::tail_curve(&self.mechanism, &self.prior);
        let lp = |i: usize| self.lp.as_ref().map(|lp| &lp[i]);
        let mut headline = bounds_with_lp(&self.headline, self.headline_lp.as_ref());
        if let Some(o) = headline.as_object_mut() {
            o.shift_remove("lp");
        }
        versioned(json!({
            "source": self.source,
            "prior": self.prior.masses().to_vec(),
            "labels": self.labels,
            "mechanism": self.mechanism.to_rows(),
            "maximal_leakage": env.maximal_leakage(),
            "max_pml": env.max_pml(),
            "leakage_distribution": env.distribution().atoms.iter().map(|t| json!({
                "pml": t.pml,
                "probability": t.probability,
                "outputs": t.outputs.iter().map(|y| format!("y{}", y + 1)).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "tail_curve": tail.iter().map(|(e, d)| json!({"epsilon": e, "delta": d})).collect::<Vec<_>>(),
            "statement": {
                "text": self.statement,
                "bounds": headline,
                "lp": self.headline_lp,
            },
            "curve": self.curve.iter().enumerate().map(|(i, b)| bounds_with_lp(b, lp(i))).collect::<Vec<_>>(),
            "notes": NOTES,
        }))
    }
}

/// The statement to publish at the delta of `b`: the LP's envelope where it is
/// below the Theorem 3 bound ([`EnvelopeValue::published`]), else the bounds'.
fn published(b: &EnvelopeBounds, lp: Option<&EnvelopeValue>) -> String {
    match lp {
        Some(v) => envelope_at(b, v.published(b)),
        None => statement(b),
    }
}

/// [`bounds_json`] with the LP's bracket and the statement it publishes when
/// there is one.
fn bounds_with_lp(b: &EnvelopeBounds, lp: Option<&EnvelopeValue>) -> Value {
    let mut v = bounds_json(b);
    if let Some(lp) = lp {
        v["lp"] = json!({
            "lower": lp.lower,
            "upper": lp.upper,
            "converged": lp.converged,
            "linear_programs": lp.linear_programs,
        });
        if lp.stopped {
            v["lp"]["stopped"] = json!(true);
        }
        v["statement"] = json!(published(b, Some(lp)));
    }
    v
}
