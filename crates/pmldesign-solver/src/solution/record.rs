//! The serialised form of a [`Design`]: the JSON object of
//! `pml design --format json` (the Python package's `Design.to_dict()` is the
//! same). Reading one back checks the set as its constructors do (as reading
//! it from JSON already did) and re-measures the mechanism under the stated notion over the whole set
//! ([`Certificate::check_notion_feasible`]), so a stored design that was edited
//! into a leaky one is refused, never trusted. `schemas/design.schema.json`
//! describes this layout for other tools; a field added here goes there too
//! (its test validates every route's file against it).

use crate::objective::estimation::{
    ESTIMATION_UTILITY_NAME, baseline_estimation_value, estimation_value,
};
use crate::objective::loss::expected_loss;
use crate::objective::utility::builtin;
use crate::reference::baseline::Baselines;
use crate::reference::baseline::baselines;
use crate::reference::structured::StructuredBaseline;
use crate::solution::certificate::Certificate;
use crate::solution::claims::{Stated, agree, agree_text, check, check_names};
use crate::solution::design::{Design, DesignStatus, LossOutcome};
use crate::solution::design::{envelope_bounds, per_output};
use crate::solution::estimation::Estimation;
use crate::solution::guarantee::Guarantee;
use crate::solution::provenance::Provenance;
use crate::solution::route::Route;
use pmldesign_model::envelope::EnvelopeBounds;
use pmldesign_model::{Mechanism, ModelError, Notion, UncertaintySet};
use serde::{Deserialize, Serialize, Serializer};

/// The version of the design file's layout this library writes. Every later
/// addition to the layout bumps it; files of version 1 (written before the field
/// existed, which then is absent) read through the same checks; a newer one is
/// refused naming its version. Version 4: a loss design under another notion
/// than PML carries its LP's dual (`loss.dual` with `"lp": "notion"`, or column
/// generation's lambda over the notion's slice). Version 5: the structured
/// baselines (`baselines.structured`), re-derived and compared when present.
/// Version 6: a structured baseline's matrix is left out past 65,536 entries
/// (re-derived, as randomized response's always was).
pub const FORMAT_VERSION: u32 = 6;

fn version_one() -> u32 {
    1
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct UtilityRecord {
    name: String,
    value: f64,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BaselinesRecord {
    randomized_response: Baselines,
    /// Left out by files before version 5 (then not compared).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    structured: Vec<StructuredBaseline>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SolverRecord {
    extreme_rays: Option<u64>,
    pricing_passes: usize,
    rays_priced: u64,
    pricing: Route,
}

/// The JSON layout, key by key. A key it does not know is refused by name (a
/// typo or a newer field is never dropped silently).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DesignRecord {
    #[serde(default = "version_one")]
    format_version: u32,
    prior: Vec<f64>,
    labels: Vec<String>,
    notion: Notion,
    epsilon: f64,
    /// `e^eps`, written as null where it overflows (eps > 709): read back as
    /// infinite, as written.
    #[serde(deserialize_with = "pmldesign_model::serde_float::null_is_infinite")]
    exp_epsilon: f64,
    uncertainty: UncertaintySet,
    status: DesignStatus,
    note: Option<String>,
    utility: UtilityRecord,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    loss: Option<LossOutcome>,
    outputs: Vec<String>,
    mechanism: Mechanism,
    output_probabilities: Vec<f64>,
    pml_per_output: Vec<f64>,
    #[serde(deserialize_with = "pmldesign_model::serde_float::null_is_infinite_vec")]
    pmc_per_output: Vec<f64>,
    certificate: Certificate,
    baselines: BaselinesRecord,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    guarantee: Option<Guarantee>,
    solver: SolverRecord,
    /// Where the design came from: informational, kept as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    provenance: Option<Provenance>,
    /// Bounds on the post-processing envelope at one delta, when the design
    /// carries them ([`Design::with_envelope`]): re-derived on reading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    envelope: Option<EnvelopeRecord>,
    /// What an analyst can estimate from released rows, when the design
    /// carries it ([`Design::with_estimation`]): re-derived on reading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    estimation: Option<Estimation>,
}

/// Envelope bounds as written: the bounds, the envelope when they meet, and the
/// statement a data holder publishes.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EnvelopeRecord {
    delta: f64,
    left_quantile: f64,
    right_quantile: f64,
    binary: f64,
    markov: f64,
    lower: f64,
    upper: f64,
    exact: bool,
    envelope: Option<f64>,
    statement: String,
}

impl From<&EnvelopeBounds> for EnvelopeRecord {
    fn from(b: &EnvelopeBounds) -> Self {
        EnvelopeRecord {
            delta: b.delta,
            left_quantile: b.left_quantile,
            right_quantile: b.right_quantile,
            binary: b.binary,
            markov: b.markov,
            lower: b.lower,
            upper: b.upper,
            exact: b.exact,
            envelope: b.envelope(),
            statement: pmldesign_model::statement::envelope(b),
        }
    }
}

impl EnvelopeRecord {
    /// The stated bounds against those re-derived at the stated delta: numbers
    /// within 1e-9 relative, `exact` and the statement as they are.
    fn check(&self, mechanism: &Mechanism, set: &UncertaintySet) -> crate::Result<EnvelopeBounds> {
        let derived = envelope_bounds(mechanism, set, self.delta)?;
        let again = EnvelopeRecord::from(&derived);
        let pairs = [
            ("left_quantile", self.left_quantile, again.left_quantile),
            ("right_quantile", self.right_quantile, again.right_quantile),
            ("binary", self.binary, again.binary),
            ("markov", self.markov, again.markov),
            ("lower", self.lower, again.lower),
            ("upper", self.upper, again.upper),
        ];
        for (name, stated, derived) in pairs {
            agree(&format!("envelope.{name}"), stated, derived)?;
        }
        let words = |x: Option<f64>| x.map_or("null".to_string(), |v| v.to_string());
        agree_text(
            "envelope.exact",
            &self.exact.to_string(),
            &again.exact.to_string(),
        )?;
        agree_text(
            "envelope.envelope",
            &words(self.envelope),
            &words(again.envelope),
        )?;
        agree_text("envelope.statement", &self.statement, &again.statement)?;
        Ok(derived)
    }
}

impl Serialize for Design {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let d = self.clone();
        DesignRecord {
            format_version: FORMAT_VERSION,
            prior: d.uncertainty.reference().to_vec(),
            note: d.note(),
            labels: d.labels,
            notion: d.notion,
            epsilon: d.epsilon,
            exp_epsilon: d.epsilon.exp(),
            uncertainty: d.uncertainty,
            status: d.status,
            utility: UtilityRecord {
                name: d.utility_name,
                value: d.utility_value,
            },
            loss: d.loss,
            outputs: d.outputs,
            mechanism: d.mechanism,
            output_probabilities: d.output_probabilities,
            pml_per_output: d.pml_per_output,
            pmc_per_output: d.pmc_per_output,
            certificate: d.certificate,
            baselines: BaselinesRecord {
                structured: d.baselines.structured.clone(),
                randomized_response: d.baselines,
            },
            guarantee: d.guarantee,
            solver: SolverRecord {
                extreme_rays: d.rays,
                pricing_passes: d.iterations,
                rays_priced: d.rays_priced,
                pricing: d.pricing,
            },
            provenance: d.provenance,
            envelope: d.envelope.as_ref().map(EnvelopeRecord::from),
            estimation: d.estimation.map(|e| e.advised(self)),
        }
        .serialize(s)
    }
}

impl DesignRecord {
    /// The design, with the set rebuilt, the mechanism re-certified and every
    /// stated figure re-derived ([`check`]). Reading a design also verifies it
    /// (`verify/read.rs`, which holds `Design`'s `Deserialize`).
    pub(crate) fn into_design(self) -> crate::Result<Design> {
        if self.format_version > FORMAT_VERSION {
            return Err(ModelError::invalid(
                "format_version",
                self.format_version,
                format!("this version of pml reads design files up to version {FORMAT_VERSION}"),
                "read it with the version of pml that wrote it, or upgrade pml",
            )
            .into());
        }
        self.uncertainty.validate()?;
        let set = self.uncertainty.clone();
        self.check_shape(&set)?;
        let value = self.utility_function(&set)?;
        let mut design = self.measured(set, &*value)?;
        let stated = Stated {
            prior: &self.prior,
            epsilon: self.epsilon,
            exp_epsilon: self.exp_epsilon,
            note: self.note.as_deref(),
            output_probabilities: &self.output_probabilities,
            pml_per_output: &self.pml_per_output,
            pmc_per_output: &self.pmc_per_output,
            certificate: &self.certificate,
            baselines: &self.baselines.randomized_response,
            structured: &self.baselines.structured,
        };
        check(&stated, &design, &*value)?;
        if let Some(e) = &self.envelope {
            design.envelope = Some(e.check(&design.mechanism, &design.uncertainty)?);
        }
        if let Some(e) = &self.estimation {
            design.estimation = Some(e.check(&design)?);
        }
        // The sentence as re-derived (a file may leave it out).
        design.guarantee = design.guarantee.map(|g| g.stated_at(design.epsilon));
        Ok(design)
    }

    /// One row and one label per input of `set`, one name per output, all distinct.
    fn check_shape(&self, set: &UncertaintySet) -> crate::Result<()> {
        let (n, m) = (self.mechanism.inputs(), self.mechanism.outputs());
        if set.len() != n || self.labels.len() != n || self.outputs.len() != m {
            return Err(ModelError::invalid(
                "mechanism",
                format!("{n}x{m}"),
                format!(
                    "the prior has {} entries, with {} labels and {} output names",
                    set.len(),
                    self.labels.len(),
                    self.outputs.len()
                ),
                "store the design as `pml design --format json` wrote it",
            )
            .into());
        }
        if !crate::limits::outputs_fit(n, m) {
            return Err(ModelError::invalid(
                "mechanism",
                format!("{n}x{m}"),
                format!(
                    "more than {} outputs or {} entries, beyond any design pml makes or reads",
                    crate::limits::MAX_OUTPUTS,
                    crate::limits::MAX_ENTRIES
                ),
                "store the design as `pml design --format json` wrote it",
            )
            .into());
        }
        // A loss design's output y is the guess "X = y": one output per input.
        if self.loss.is_some() && m != n {
            return Err(ModelError::invalid(
                "mechanism",
                format!("{n}x{m}"),
                "a loss design has one output per input (output y is the guess X = y)",
                "store the design as `pml design --loss` wrote it",
            )
            .into());
        }
        check_names("labels", &self.labels)?;
        Ok(check_names("outputs", &self.outputs)?)
    }

    /// The design of the file's set, notion, objective and matrix with every figure
    /// measured (the certificate re-checked: privacy over the whole set, the
    /// measured utility within the stated bound, then equal to the stated one).
    fn measured(
        &self,
        set: UncertaintySet,
        value: &(dyn Fn(&Mechanism) -> f64 + Sync),
    ) -> crate::Result<Design> {
        let utility_value = value(&self.mechanism);
        let loss = match &self.loss {
            Some(outcome) => Some(outcome.loss()?.matrix(set.len())?),
            None => None,
        };
        let mut certificate = Certificate::check_notion_feasible(
            &self.mechanism,
            &set,
            &self.notion,
            utility_value,
            self.certificate.upper_bound,
        )?;
        agree("utility.value", self.utility.value, utility_value)?;
        certificate.dual = self.certificate.dual.clone();
        certificate.floor_priors = self.certificate.floor_priors.clone();
        let epsilon = self.notion.epsilon();
        let reference = set.reference();
        let (q, pml, pmc) = per_output(&self.mechanism, reference.view());
        // The baselines the design scored, no others.
        let scored = |m: &Mechanism| baseline_estimation_value(m, reference.view());
        let for_baselines: &(dyn Fn(&Mechanism) -> f64 + Sync) =
            match self.utility.name == ESTIMATION_UTILITY_NAME {
                true => &scored,
                false => value,
            };
        let loss = loss.as_ref().map(|d| d.view());
        Ok(Design {
            status: self.status,
            notion: self.notion.clone(),
            epsilon,
            baselines: baselines(&set, &self.notion, for_baselines, loss)?,
            uncertainty: set,
            labels: self.labels.clone(),
            outputs: self.outputs.clone(),
            utility_name: self.utility.name.clone(),
            utility_value,
            loss: self.loss.clone(),
            mechanism: self.mechanism.clone(),
            output_probabilities: q,
            pml_per_output: pml,
            pmc_per_output: pmc,
            certificate,
            guarantee: self.guarantee.clone(),
            envelope: None,
            estimation: None,
            provenance: self.provenance.clone(),
            rays: self.solver.extreme_rays,
            iterations: self.solver.pricing_passes,
            rays_priced: self.solver.rays_priced,
            pricing: self.solver.pricing,
        })
    }

    /// The objective the design states, as a function of a mechanism: a built-in
    /// utility by name, or minus the expected loss for a loss design; anything
    /// else cannot be re-measured and is refused naming `utility.name`.
    fn utility_function<'a>(&'a self, set: &UncertaintySet) -> crate::Result<Objective<'a>> {
        let reference = set.reference();
        if let Some(outcome) = &self.loss {
            agree_text("utility.name", &self.utility.name, LOSS_UTILITY_NAME)?;
            let d = outcome.loss()?.matrix(set.len())?;
            return Ok(Box::new(move |m: &Mechanism| {
                -expected_loss(m, reference.view(), d.view())
            }));
        }
        if self.utility.name == ESTIMATION_UTILITY_NAME {
            return Ok(Box::new(move |m: &Mechanism| {
                estimation_value(m, reference.view())
            }));
        }
        match builtin(&self.utility.name) {
            Some(u) => Ok(Box::new(move |m: &Mechanism| u.value(m, reference.view()))),
            None => Err(ModelError::invalid(
                "utility.name",
                &self.utility.name,
                "not a built-in utility, so it cannot be re-measured",
                "use mi, tv, chi2, hellinger, map or estimation, or design it again",
            )
            .into()),
        }
    }
}

/// The utility name of a loss design (its value is minus the expected loss).
pub(crate) const LOSS_UTILITY_NAME: &str = "loss";

/// A design's objective as a function of a mechanism.
type Objective<'a> = Box<dyn Fn(&Mechanism) -> f64 + Sync + 'a>;
