//! A certified design as plain data: its status, the mechanism with its
//! per-output levels, the certificate, the baselines and the guarantee.

use crate::objective::loss::Loss;
use crate::reference::baseline::Baselines;
use crate::solution::certificate::Certificate;
use crate::solution::claims::altered;
use crate::solution::route::Route;
use ndarray::Array2;
use ndarray::ArrayView1;
use pmldesign_model::measures::{self as density};
use pmldesign_model::{Mechanism, Notion, UncertaintySet};
use serde::Serialize;

/// How the design was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum DesignStatus {
    /// The LP optimum over the extreme rays, certified by its dual bound.
    Optimal,
    /// The identity meets the notion (for PML: eps is at least its worst-case
    /// PML): every mechanism qualifies and the identity, optimal for every
    /// sub-convex utility, is returned.
    NoPrivacyNeeded,
    /// The time limit stopped column generation: the mechanism is valid and
    /// certified private; the certificate's gap bounds its distance to the optimum.
    TimeLimit,
    /// An interrupt (Ctrl-C, or a cancel) stopped the search: as at a time
    /// limit, the mechanism is the best certified one found, never below the
    /// structured baselines, and its gap bounds its distance to the optimum.
    Interrupted,
    /// Column generation stopped at the requested gap tolerance (larger than the
    /// optimality gap), or numerical precision left a larger gap: valid and
    /// certified private, at most the certificate's gap below the optimum.
    GapLimit,
}

impl DesignStatus {
    /// The status in the words of the design file (`optimal`, `time_limit`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            DesignStatus::Optimal => "optimal",
            DesignStatus::NoPrivacyNeeded => "no_privacy_needed",
            DesignStatus::TimeLimit => "time_limit",
            DesignStatus::Interrupted => "interrupted",
            DesignStatus::GapLimit => "gap_limit",
        }
    }

    /// The status of a mechanism of utility `value` certified within `gap` of the
    /// optimum: [`DesignStatus::Optimal`] only within
    /// `max(1e-9 |value|, 1e-15)` ([`crate::tolerance::OPTIMALITY_GAP`]), else
    /// the time limit (when the search did not converge) or the gap limit.
    pub fn from_gap(gap: f64, value: f64, converged: bool) -> Self {
        let allowed = crate::tolerance::gap_allowance(crate::tolerance::OPTIMALITY_GAP, value);
        if gap <= allowed {
            DesignStatus::Optimal
        } else if converged {
            DesignStatus::GapLimit
        } else {
            DesignStatus::TimeLimit
        }
    }
}

/// A certified mechanism: the result of [`crate::Problem::solve`]. It serialises
/// to the JSON of `pml design --format json` and deserialises back, re-checked
/// (the `record` module).
///
/// Its fields are private: what the certificate vouches for cannot be changed
/// after the check. Neither of these compiles:
///
/// ```compile_fail
/// fn forge(d: &mut pmldesign_solver::Design) {
///     d.certificate = d.certificate().clone();
/// }
/// ```
///
/// ```compile_fail
/// fn forge(d: &mut pmldesign_solver::Design) {
///     d.labels.clear();
/// }
/// ```
#[derive(Debug, Clone)]
pub struct Design {
    /// How it was obtained.
    pub(crate) status: DesignStatus,
    /// The privacy notion and its levels.
    pub(crate) notion: Notion,
    /// The target level eps (the notion's headline level, eps_u for ALIP).
    pub(crate) epsilon: f64,
    /// The priors it protects.
    pub(crate) uncertainty: UncertaintySet,
    /// The names of the inputs, one per row (`x1..xN` unless given).
    pub(crate) labels: Vec<String>,
    /// The names of the outputs, one per column (`y1..yM`; a loss design's
    /// output y is the guess "X = `labels[y]`", so it carries that label).
    pub(crate) outputs: Vec<String>,
    /// Name of the utility maximised (`-loss` for a loss design).
    pub(crate) utility_name: String,
    /// Utility under the reference prior (minus the expected loss for a loss
    /// design).
    pub(crate) utility_value: f64,
    /// What a loss design minimised, when it is one.
    pub(crate) loss: Option<LossOutcome>,
    /// The mechanism: one row per input; for a utility only the outputs used (at
    /// most N).
    pub(crate) mechanism: Mechanism,
    /// Output probabilities `q_y` under the reference prior.
    pub(crate) output_probabilities: Vec<f64>,
    /// PML of each output under the reference prior (\[E\] Thm 1); 0 for an
    /// output of probability 0.
    pub(crate) pml_per_output: Vec<f64>,
    /// PMC of each output under the reference prior (\[D\] Thm 1); infinite for a
    /// column with a zero.
    pub(crate) pmc_per_output: Vec<f64>,
    /// Verification of the mechanism.
    pub(crate) certificate: Certificate,
    /// Randomized response at the same LDP level and calibrated to eps.
    pub(crate) baselines: Baselines,
    /// The (eps, delta) guarantee of a design from a sample (\[E\] Sec. III).
    pub(crate) guarantee: Option<crate::solution::guarantee::Guarantee>,
    /// Bounds on the post-processing envelope at one delta (\[V\] Thm 3) under
    /// the reference prior: filled by a solve at its `envelope_delta` (0.05
    /// unless set), `None` from a bare one ([`Design::with_envelope`] adds them).
    pub(crate) envelope: Option<pmldesign_model::envelope::EnvelopeBounds>,
    /// What an analyst can estimate from released rows of the design and of its
    /// baselines, up to 1,024 inputs: filled by a solve, `None` from a bare one
    /// ([`Design::with_estimation`] adds them).
    pub(crate) estimation: Option<crate::solution::estimation::Estimation>,
    /// Where the design came from (program, settings, input digest):
    /// informational, not a claim; kept as written when a design is read.
    pub(crate) provenance: Option<crate::solution::provenance::Provenance>,
    /// Extreme rays of the cone when they were counted (enumeration, or branch
    /// and bound up to N = 20); 0 when no LP was needed.
    pub(crate) rays: Option<u64>,
    /// Pricing passes of the column generation.
    pub(crate) iterations: usize,
    /// Rays priced over all passes (enumeration), or search nodes visited
    /// (branch and bound).
    pub(crate) rays_priced: u64,
    /// The route that reached the mechanism (every value in [`Route`]).
    pub(crate) pricing: Route,
}

/// Read access. A design is what its run, or a file's re-derivation, made it:
/// no field can be changed from outside, so the certificate always vouches for
/// the mechanism, level and set it is read beside. Only the provenance, which
/// claims nothing, can be edited ([`Design::provenance_mut`]).
impl Design {
    /// How it was obtained.
    pub fn status(&self) -> DesignStatus {
        self.status
    }

    /// The privacy notion and its levels.
    pub fn notion(&self) -> &Notion {
        &self.notion
    }

    /// The target level eps (the notion's headline level, eps_u for ALIP).
    pub fn epsilon(&self) -> f64 {
        self.epsilon
    }

    /// The priors it protects.
    pub fn uncertainty(&self) -> &UncertaintySet {
        &self.uncertainty
    }

    /// The names of the inputs, one per row (`x1..xN` unless given).
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// The names of the outputs, one per column (`y1..yM`; a loss design's
    /// output y is the guess "X = `labels[y]`", so it carries that label).
    pub fn outputs(&self) -> &[String] {
        &self.outputs
    }

    /// Name of the utility maximised (`-loss` for a loss design).
    pub fn utility_name(&self) -> &str {
        &self.utility_name
    }

    /// Utility under the reference prior (minus the expected loss for a loss
    /// design).
    pub fn utility_value(&self) -> f64 {
        self.utility_value
    }

    /// What a loss design minimised, when it is one.
    pub fn loss(&self) -> Option<&LossOutcome> {
        self.loss.as_ref()
    }

    /// The mechanism: one row per input; for a utility only the outputs used (at
    /// most N).
    pub fn mechanism(&self) -> &Mechanism {
        &self.mechanism
    }

    /// Output probabilities `q_y` under the reference prior.
    pub fn output_probabilities(&self) -> &[f64] {
        &self.output_probabilities
    }

    /// PML of each output under the reference prior (\[E\] Thm 1); 0 for an
    /// output of probability 0.
    pub fn pml_per_output(&self) -> &[f64] {
        &self.pml_per_output
    }

    /// PMC of each output under the reference prior (\[D\] Thm 1); infinite for a
    /// column with a zero.
    pub fn pmc_per_output(&self) -> &[f64] {
        &self.pmc_per_output
    }

    /// Verification of the mechanism.
    pub fn certificate(&self) -> &Certificate {
        &self.certificate
    }

    /// Randomized response at the same LDP level and calibrated to eps.
    pub fn baselines(&self) -> &Baselines {
        &self.baselines
    }

    /// The (eps, delta) guarantee of a design from a sample (\[E\] Sec. III).
    pub fn guarantee(&self) -> Option<&crate::solution::guarantee::Guarantee> {
        self.guarantee.as_ref()
    }

    /// Bounds on the post-processing envelope at one delta (\[V\] Thm 3) under
    /// the reference prior: filled by a solve at its `envelope_delta` (0.05
    /// unless set), `None` from a bare one ([`Design::with_envelope`] adds them).
    pub fn envelope(&self) -> Option<&pmldesign_model::envelope::EnvelopeBounds> {
        self.envelope.as_ref()
    }

    /// What an analyst can estimate from released rows of the design and of its
    /// baselines, up to 1,024 inputs: filled by a solve, `None` from a bare one
    /// ([`Design::with_estimation`] adds them).
    pub fn estimation(&self) -> Option<&crate::solution::estimation::Estimation> {
        self.estimation.as_ref()
    }

    /// Where the design came from (program, settings, input digest):
    /// informational, not a claim; kept as written when a design is read.
    pub fn provenance(&self) -> Option<&crate::solution::provenance::Provenance> {
        self.provenance.as_ref()
    }

    /// Extreme rays of the cone when they were counted (enumeration, or branch
    /// and bound up to N = 20); 0 when no LP was needed.
    pub fn rays(&self) -> Option<u64> {
        self.rays
    }

    /// Pricing passes of the column generation.
    pub fn iterations(&self) -> usize {
        self.iterations
    }

    /// Rays priced over all passes (enumeration), or search nodes visited
    /// (branch and bound).
    pub fn rays_priced(&self) -> u64 {
        self.rays_priced
    }

    /// The route that reached the mechanism (every value in [`Route`]).
    pub fn route(&self) -> Route {
        self.pricing
    }

    /// The provenance to edit (a tool's name, an upload's digest): informational,
    /// outside every claim the certificate makes.
    pub fn provenance_mut(&mut self) -> Option<&mut crate::solution::provenance::Provenance> {
        self.provenance.as_mut()
    }
}

/// How the solver reached a design (the file's `solver`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Run {
    /// Extreme rays of the cone, when counted.
    pub(crate) rays: Option<u64>,
    /// The route that reached the mechanism.
    pub(crate) pricing: Route,
    /// Pricing passes (or LPs).
    pub(crate) iterations: usize,
    /// Rays priced over all passes.
    pub(crate) rays_priced: u64,
}

impl Design {
    /// Whether `m` meets this design's notion at its level over its set, within
    /// the certificate's tolerance: the test every mechanism recommended beside
    /// the design passes (a baseline that fails it is marked, never advised).
    pub fn admits(&self, m: &Mechanism) -> bool {
        let levels = pmldesign_model::measures::NotionLevels::measure_notion(
            m,
            &self.uncertainty,
            &self.notion,
        );
        levels.excess(&self.notion) <= self.certificate.tolerance
    }

    /// A baseline's label in a table beside this design, marked `(fails NOTION)`
    /// when it does not meet the design's notion at its level ([`Design::admits`];
    /// a matrix a file left out is not measured).
    pub fn baseline_label(&self, r: &crate::reference::baseline::BaselineRow<'_>) -> String {
        let unread = r.mechanism.inputs() != self.labels.len();
        if unread || self.admits(r.mechanism) {
            return r.label.clone();
        }
        format!("{} {}", r.label, self.fails_mark())
    }

    /// The mark of a table row whose mechanism does not meet this design's
    /// notion at its level: `(fails NOTION)`.
    pub(crate) fn fails_mark(&self) -> String {
        format!("(fails {})", self.notion.label())
    }

    /// A design of `mechanism` over `set` under its certificate's notion, with
    /// its status and baselines: the per-output figures measured under the
    /// reference prior, inputs named `x1..xN` and outputs `y1..yM` (a route
    /// renames them), nothing attached yet (guarantee, envelope, estimation,
    /// provenance). The one constructor of every design route.
    pub(crate) fn assembled(
        set: &UncertaintySet,
        mechanism: Mechanism,
        (utility_name, utility_value): (String, f64),
        (status, certificate): (DesignStatus, Certificate),
        baselines: Baselines,
        run: Run,
    ) -> Design {
        let (q, pml_per_output, pmc_per_output) = per_output(&mechanism, set.reference().view());
        Design {
            status,
            notion: certificate.notion.clone(),
            epsilon: certificate.notion.epsilon(),
            uncertainty: set.clone(),
            labels: numbered("x", set.len()),
            outputs: numbered("y", mechanism.outputs()),
            utility_name,
            utility_value,
            loss: None,
            output_probabilities: q,
            pml_per_output,
            pmc_per_output,
            certificate,
            baselines,
            mechanism,
            guarantee: None,
            envelope: None,
            estimation: None,
            provenance: None,
            rays: run.rays,
            pricing: run.pricing,
            iterations: run.iterations,
            rays_priced: run.rays_priced,
        }
    }

    /// The design with what an analyst can estimate from its released rows and
    /// from its baselines' (docs/theory.md §13), under the reference prior;
    /// unchanged past 1,024 inputs (each figure costs a pseudo-inverse).
    pub fn with_estimation(mut self) -> crate::Result<Self> {
        self.estimation = crate::solution::estimation::Estimation::of(&self)?;
        Ok(self)
    }

    /// The design with its envelope bounds at `delta` under the reference prior;
    /// unchanged (no envelope) when the reference has a mass 0 (a ball around an
    /// estimate with an unobserved category): the envelope is of a prior with full
    /// support (\[V\]). `delta` is checked either way.
    pub fn with_envelope(mut self, delta: f64) -> crate::Result<Self> {
        pmldesign_model::envelope::check_delta(delta)?;
        if self.uncertainty.reference().iter().any(|&p| p <= 0.0) {
            return Ok(self);
        }
        self.envelope = Some(envelope_bounds(&self.mechanism, &self.uncertainty, delta)?);
        Ok(self)
    }

    /// The design's title line as `pml design` prints it: "Optimal eps-PML
    /// mechanism  (eps = ..., e^eps = ...; known prior)", or the notion's label;
    /// "Near-optimal" when stopped at its gap, "Best-found" when stopped by the
    /// clock or Ctrl-C (the note says how far from optimal).
    pub fn title(&self) -> String {
        let set = pmldesign_model::statement::describe_set(&self.uncertainty);
        let verdict = match self.status {
            DesignStatus::Optimal | DesignStatus::NoPrivacyNeeded => "Optimal",
            DesignStatus::GapLimit => "Near-optimal",
            DesignStatus::TimeLimit | DesignStatus::Interrupted => "Best-found",
        };
        match &self.notion {
            Notion::Pml { .. } => format!(
                "{verdict} eps-PML mechanism  (eps = {:.6}, e^eps = {:.6}; {set})",
                self.epsilon,
                self.epsilon.exp(),
            ),
            n => format!("{verdict} {} mechanism  ({set})", n.label()),
        }
    }

    /// A measured level as the certificate prints it: rounded up, or one of the
    /// notion's levels where it is above that level by no more than the
    /// certified tolerance ([`pmldesign_model::printed::certified`]).
    fn printed_level(&self, x: f64) -> String {
        let c = &self.certificate;
        let targets = match self.notion {
            Notion::Alip {
                epsilon_lower,
                epsilon_upper,
            } => [epsilon_lower, epsilon_upper],
            ref n => [n.epsilon(); 2],
        };
        match targets.into_iter().find(|&t| (x - t).abs() <= c.tolerance) {
            Some(t) => pmldesign_model::printed::certified(x, t, c.tolerance),
            None => pmldesign_model::printed::level(x),
        }
    }

    /// The certificate's privacy clause as `pml design` and `pml assess` print
    /// it: the worst-case PML against eps, or the measured levels against the
    /// notion (re-measured numbers, never the target alone).
    pub fn privacy_clause(&self) -> String {
        let c = &self.certificate;
        match self.notion {
            Notion::Pml { .. } => pmldesign_model::statement::pml_clause(
                c.worst_case_pml,
                c.target_epsilon,
                crate::tolerance::PML_TOLERANCE,
            ),
            ref n @ Notion::Metric { .. } => format!(
                "measured metric level {} meets {}",
                self.printed_level(c.levels.metric.unwrap_or(f64::INFINITY)),
                n.label()
            ),
            ref n => format!(
                "measured PML {}, PMC {}, LDP {} meet {}",
                self.printed_level(c.levels.pml),
                self.printed_level(c.levels.pmc),
                self.printed_level(c.levels.ldp),
                n.label()
            ),
        }
    }

    /// What the status means for this design, in a sentence (`None` when it is
    /// optimal).
    pub fn note(&self) -> Option<String> {
        let relative =
            self.certificate.gap / self.certificate.upper_bound.abs().max(f64::MIN_POSITIVE);
        let stopped = |how: &str| {
            let far = match self.certificate.gap {
                gap if gap.is_finite() => format!(
                    "at most {gap:.3e} ({:.3}%) below the optimal utility",
                    100.0 * relative
                ),
                _ => "no upper bound on the optimal utility was proven yet".into(),
            };
            Some(format!(
                "{how} after {} pricing passes: the mechanism is {}valid and certified private, and {far}",
                self.iterations,
                if self.status == DesignStatus::Interrupted {
                    "the best found, "
                } else {
                    ""
                },
            ))
        };
        match self.status {
            DesignStatus::NoPrivacyNeeded => Some(format!(
                "eps = {} is at least the identity's worst-case PML ({}): every mechanism qualifies, so the identity (optimal for every utility) is returned",
                self.epsilon,
                pmldesign_model::printed::level(
                    self.uncertainty
                        .worst_case_pml(&Mechanism::identity(self.uncertainty.len()))
                )
            )),
            DesignStatus::TimeLimit
                if self.iterations == 0
                    && matches!(self.pricing, Route::Baseline | Route::BuiltStart) =>
            {
                stopped(&self.why_no_lp())
            }
            DesignStatus::TimeLimit => stopped("the time limit stopped the search"),
            DesignStatus::Interrupted => stopped("interrupted"),
            DesignStatus::GapLimit => Some(format!(
                "stopped at a certified gap of {:.3e} ({:.2e} relative) after {} pricing passes: the mechanism is valid and certified private, and at most that far below the optimal utility",
                self.certificate.gap, relative, self.iterations,
            )),
            DesignStatus::Optimal => None,
        }
    }
}

impl Design {
    /// Why a design for estimation stopped at the point it started from (the
    /// best baseline, or the start built past enumeration):
    /// no LP of its linearisation is priced for its set past enumeration (a
    /// ball beyond Proposition 2, a polytope, metric privacy), or none fitted
    /// the time limit.
    fn why_no_lp(&self) -> String {
        let estimation = self.utility_name == crate::objective::estimation::ESTIMATION_UTILITY_NAME;
        let start = match self.pricing {
            Route::BuiltStart => "the start built for estimation (docs/theory.md §13)",
            _ => "the best baseline",
        };
        if estimation && !crate::limits::estimation_designable(&self.notion, &self.uncertainty) {
            return format!(
                "no design for estimation is priced for this set under {} past {} inputs, so the search stopped at {start}",
                self.notion.label(),
                crate::limits::enumeration_limit(&self.notion)
            );
        }
        format!(
            "no LP fitted the time limit (a longer limit lets the design improve on it), so the search stopped at {start}"
        )
    }
}

/// What a loss design minimised ([`crate::Problem::loss`]; docs/theory.md §4).
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LossOutcome {
    /// The loss ([`crate::Loss::name`]).
    pub name: String,
    /// Expected loss under the reference prior, measured on the matrix.
    pub expected_loss: f64,
    /// A lower bound on the expected loss of every feasible mechanism (LP duality).
    pub lower_bound: f64,
    /// Which LP solved it.
    pub method: crate::settings::LossMethod,
    /// The LP's dual behind `lower_bound`, when an LP proved it.
    #[serde(default)]
    pub dual: Option<crate::solution::loss::LossDual>,
    /// A user loss matrix `d[x][y]` (rows are secrets), so that the design can be
    /// re-checked; `None` for the named losses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matrix: Option<Vec<Vec<f64>>>,
}

/// The names `prefix1..prefixN`.
pub fn numbered(prefix: &str, n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("{prefix}{i}")).collect()
}

/// Output probabilities, PML and PMC of each column under the reference prior.
pub(crate) fn per_output(
    mechanism: &Mechanism,
    reference: ArrayView1<f64>,
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let q = reference.dot(&mechanism.matrix());
    let pml = mechanism
        .columns()
        .zip(q.iter())
        .map(|(c, &qy)| {
            let max = c.iter().copied().fold(0.0, f64::max);
            if qy > 0.0 {
                (max / qy).ln().max(0.0)
            } else {
                0.0
            }
        })
        .collect();
    let pmc = mechanism
        .columns()
        .map(|c| density::column_pmc(c, reference).unwrap_or(0.0))
        .collect();
    (q.to_vec(), pml, pmc)
}

impl LossOutcome {
    /// The loss this outcome minimised, by name (a user matrix travels with it);
    /// an unknown name or a ragged matrix is refused naming the field.
    pub fn loss(&self) -> crate::Result<Loss> {
        Ok(match (self.name.as_str(), &self.matrix) {
            ("hamming", _) => Loss::Hamming,
            ("absolute", _) => Loss::Absolute,
            ("squared", _) => Loss::Squared,
            ("matrix", Some(rows)) => {
                let n = rows.len();
                let flat: Vec<f64> = rows.iter().flatten().copied().collect();
                let m = Array2::from_shape_vec((n, flat.len() / n.max(1)), flat)
                    .map_err(|_| altered("loss.matrix", n, "the rows differ in length"))?;
                Loss::Matrix(m)
            }
            (name, _) => {
                return Err(altered(
                    "loss.name",
                    name,
                    "not hamming, absolute or squared, nor a matrix stored with the design",
                ));
            }
        })
    }
}

/// Bounds on the envelope of `mechanism` at `delta` under the reference prior of `set`.
pub(crate) fn envelope_bounds(
    mechanism: &Mechanism,
    set: &UncertaintySet,
    delta: f64,
) -> crate::Result<pmldesign_model::envelope::EnvelopeBounds> {
    use pmldesign_model::envelope::{Envelope, check_delta};
    check_delta(delta)?;
    let prior = pmldesign_model::Prior::new(set.reference().to_vec())?;
    Ok(Envelope::new(mechanism, &prior)?.bounds(delta)?)
}

/// `d` with its mechanism, set and per-output leakage replaced, inputs and
/// outputs renumbered and no envelope, without solving or certifying again:
/// for tests of how a document lays out a large design only (every other
/// figure stays the original design's). Not part of the public API.
pub fn unchecked_with_mechanism(
    mut d: Design,
    mechanism: Mechanism,
    set: UncertaintySet,
    worst_case_pml_per_output: Vec<f64>,
) -> Design {
    d.labels = numbered("x", mechanism.inputs());
    d.outputs = numbered("y", mechanism.outputs());
    d.mechanism = mechanism;
    d.uncertainty = set;
    d.certificate.worst_case_pml_per_output = worst_case_pml_per_output;
    d.envelope = None;
    d
}
