//! The single entry point: a [`Problem`] is built in one chain (the set of
//! priors or a sample, the privacy notion, the objective, settings, a progress
//! callback) and [`Problem::solve`] returns a certified [`Design`].
//!
//! ```
//! use pmldesign_model::{Prior, UncertaintySet};
//! use pmldesign_solver::{FInformation, Problem};
//!
//! // [E] Example 1: p = (0.4, 0.2, 0.2, 0.2), e^eps = 9/8.
//! let set = UncertaintySet::known(Prior::new(vec![0.4, 0.2, 0.2, 0.2])?);
//! let d = Problem::new(set)
//!     .epsilon((9.0f64 / 8.0).ln())
//!     .utility(FInformation::mutual_information())
//!     .solve()?;
//! assert!(d.certificate().worst_case_pml() <= (9.0f64 / 8.0).ln() + 1e-10);
//! # Ok::<(), pmldesign_solver::SolverError>(())
//! ```

use crate::colgen::engine::Progress;
use crate::design::sample::simpler_route;
use crate::error::Result;
use crate::objective::loss::Loss;
use crate::objective::utility::{FInformation, Utility};
use crate::reference::baseline::baselines;
use crate::reference::structured::beating;
use crate::settings::Settings;
use crate::solution::certificate::Certificate;
use crate::solution::claims::check_names;
use crate::solution::design::{Design, DesignStatus, LossOutcome, Run, numbered};
use crate::solution::guarantee::Guarantee;
use crate::solution::loss::LossDesign;
use crate::solution::provenance::Provenance;
use crate::solution::record::LOSS_UTILITY_NAME;
use pmldesign_model::sample::RadiusMethod;
use pmldesign_model::{ModelError, Notion, Prior, UncertaintySet};

/// An estimate from m samples and the failure probability delta of its
/// guarantee (\[E\] Sec. III): [`Problem::from_sample`] designs over the l1 ball
/// whose radius they give. The numbers are named fields, so delta and epsilon
/// cannot be swapped.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The empirical prior p^.
    pub estimate: Prior,
    /// The number of samples m behind it.
    pub samples: u64,
    /// The failure probability delta of the guarantee, in (0, 1).
    pub delta: f64,
    /// How the radius follows from (m, delta). Default: distribution-free.
    pub radius: RadiusMethod,
    /// The level eps_D of the discrete Laplace noise the counts were given (the
    /// estimate is then the noisy counts over their total, and `samples` that
    /// total): the radius is widened for the noise (`docs/theory.md` §6, "A
    /// private prior"). `None`: the counts are exact.
    pub private_prior: Option<f64>,
}

impl Sample {
    /// The sample of category counts (the estimate is `counts / m`), with the
    /// distribution-free radius.
    pub fn from_counts(counts: &[u64], delta: f64) -> Result<Self> {
        let samples = pmldesign_model::sample::sample_size(counts)?;
        let masses: Vec<f64> = counts.iter().map(|&c| c as f64).collect();
        Ok(Sample {
            // A category never observed has mass 0; the ball gives it mass.
            estimate: Prior::center_normalised(masses)?,
            samples,
            delta,
            radius: RadiusMethod::DistributionFree,
            private_prior: None,
        })
    }

    /// The sample of counts given discrete Laplace noise at level `epsilon_d`
    /// (`pmldesign_data::private_counts`): its guarantee's radius is widened for
    /// the noise, and its statement says the mechanism is eps_D-DP.
    pub fn from_noisy_counts(noisy: &[u64], delta: f64, epsilon_d: f64) -> Result<Self> {
        let mut sample = Sample::from_counts(noisy, delta)?;
        sample.private_prior = Some(epsilon_d);
        Ok(sample)
    }

    /// The same sample with another radius method.
    pub fn radius(mut self, method: RadiusMethod) -> Self {
        self.radius = method;
        self
    }
}

/// What a design optimises.
enum Objective<'a> {
    Utility(Box<dyn Utility + 'a>),
    Loss(Loss),
    /// The least asymptotic error of the estimated input distribution
    /// (docs/theory.md §13).
    Estimation,
}

/// Where the priors come from.
enum Priors {
    Set(UncertaintySet),
    Sample(Sample),
}

/// A design problem, built in one chain and solved once (module docs).
pub struct Problem<'a> {
    priors: Priors,
    notion: Option<Notion>,
    objective: Objective<'a>,
    labels: Option<Vec<String>>,
    settings: Settings,
    progress: Option<Box<dyn FnMut(Progress) + 'a>>,
    /// The delta of the envelope bounds a design states; `None` for the bare
    /// designs a record assembles (it states its own).
    describe: Option<f64>,
}

/// The delta of the envelope bounds a design states by default (`pml design
/// --envelope-delta`, Python's `envelope_delta=`).
const DEFAULT_ENVELOPE_DELTA: f64 = 0.05;

impl<'a> Problem<'a> {
    /// A problem over the priors of `set`: mutual information and default
    /// settings until told otherwise; the level is required
    /// ([`Problem::epsilon`] or [`Problem::notion`]).
    pub fn new(set: UncertaintySet) -> Self {
        Problem::with(Priors::Set(set))
    }

    /// A problem over the ball that a sample's guarantee gives (\[E\] eq. (7) or
    /// Theorem 2); the design carries the guarantee ([`Design::guarantee`]).
    pub fn from_sample(sample: Sample) -> Self {
        Problem::with(Priors::Sample(sample))
    }

    fn with(priors: Priors) -> Self {
        Problem {
            priors,
            notion: None,
            objective: Objective::Utility(Box::new(FInformation::mutual_information())),
            labels: None,
            settings: Settings::default(),
            describe: Some(DEFAULT_ENVELOPE_DELTA),
            progress: None,
        }
    }

    /// eps-PML for every prior of the set (docs/theory.md §3).
    pub fn epsilon(self, epsilon: f64) -> Self {
        self.notion(Notion::Pml { epsilon })
    }

    /// Any notion: PML, PMC, ALIP, LIP or LDP (docs/theory.md §3).
    pub fn notion(mut self, notion: Notion) -> Self {
        self.notion = Some(notion);
        self
    }

    /// Maximise a sub-convex utility (docs/theory.md §4). Default: mutual
    /// information.
    pub fn utility(mut self, utility: impl Utility + 'a) -> Self {
        self.objective = Objective::Utility(Box::new(utility));
        self
    }

    /// Maximise a utility chosen at run time (e.g. [`crate::objective::utility::builtin`]).
    pub fn boxed_utility(mut self, utility: Box<dyn Utility + 'a>) -> Self {
        self.objective = Objective::Utility(utility);
        self
    }

    /// Design for estimation instead: the least asymptotic error per released
    /// row of the maximum-likelihood estimate of the input distribution,
    /// `tr(J^-1) - ||p||^2` at the reference prior (A-optimal; docs/theory.md
    /// §13), by Frank-Wolfe over the design LP, with a certified lower bound.
    pub fn estimation(mut self) -> Self {
        self.objective = Objective::Estimation;
        self
    }

    /// Minimise an expected label-dependent loss instead, under any notion (the
    /// outputs are guesses of the input, docs/theory.md §4 and §4c).
    pub fn loss(mut self, loss: Loss) -> Self {
        self.objective = Objective::Loss(loss);
        self
    }

    /// Names of the inputs, one per prior entry (default `x1..xN`).
    pub fn labels(mut self, labels: Vec<String>) -> Self {
        self.labels = Some(labels);
        self
    }

    /// Settings of the solve ([`Settings`], checked by [`Settings::validate`]).
    pub fn settings(mut self, settings: Settings) -> Self {
        self.settings = settings;
        self
    }

    /// The delta of the envelope bounds the design states ([`Design::envelope`];
    /// default 0.05).
    pub fn envelope_delta(mut self, delta: f64) -> Self {
        self.describe = Some(delta);
        self
    }

    /// A design without the envelope and estimation figures, for designs
    /// only compared by their utility (a trade-off curve) or described by
    /// what holds them (a record's columns).
    pub fn bare(mut self) -> Self {
        self.describe = None;
        self
    }

    /// Called after every pricing pass with the incumbent and the bound.
    pub fn on_progress(mut self, progress: impl FnMut(Progress) + 'a) -> Self {
        self.progress = Some(Box::new(progress));
        self
    }

    /// Solves the problem and certifies the result: the mechanism is re-measured
    /// over the whole set, and a failed check is an error.
    pub fn solve(self) -> Result<Design> {
        self.settings.validate()?;
        let describe = self.describe;
        if let Some(delta) = describe {
            pmldesign_model::envelope::check_delta(delta).map_err(|e| {
                pmldesign_model::ModelError::invalid(
                    "envelope_delta",
                    delta,
                    e.to_string(),
                    "give a delta in (0, 1), e.g. 0.05",
                )
            })?;
        }
        let n = match &self.priors {
            Priors::Set(set) => {
                set.validate()?;
                set.len()
            }
            Priors::Sample(sample) => sample.estimate.len(),
        };
        crate::limits::check_alphabet(n)?;
        let Some(notion) = self.notion.clone() else {
            return Err(missing_level());
        };
        let (set, guarantee) = match &self.priors {
            Priors::Set(set) => (set.clone(), None),
            Priors::Sample(sample) => sample_ball(sample, &notion)?,
        };
        let utility = matches!(self.objective, Objective::Utility(_));
        let fixed = crate::limits::fixed_per_entry(&set, utility);
        crate::limits::check_time_limit(self.settings.column_generation.time_limit, n, fixed)?;
        check_support(&set)?;
        let labels = check_labels(self.labels.as_deref(), set.len())?;
        let provenance = Provenance::of_problem(&self.settings, &self.described(&labels));
        let mut progress = self.progress;
        let mut report = |p: Progress| {
            if let Some(f) = progress.as_mut() {
                f(p)
            }
        };
        let settings = &self.settings;
        let loss = matches!(self.objective, Objective::Loss(_));
        let cg = &settings.column_generation;
        let deadline = cg.deadline_from(std::time::Instant::now(), set.len());
        let explain = |e| {
            let out_of_time = cg.interrupt.or_past(deadline);
            crate::limits::explain(e, &set, &notion, loss, out_of_time)
        };
        let mut d = match self.objective {
            Objective::Utility(u) => {
                let main = match guarantee {
                    Some(_) => settings.with_time_share(1.0 - SIMPLER_ROUTE_SHARE),
                    None => settings.clone(),
                };
                let mut d = crate::design::utility::design_notion_with_progress(
                    &set,
                    &notion,
                    u.as_ref(),
                    &main,
                    &mut report,
                )
                .map_err(explain)?;
                d.guarantee = match guarantee {
                    Some(mut g) => {
                        let s = &settings.with_time_share(SIMPLER_ROUTE_SHARE);
                        g.simpler_route =
                            simpler_route(&set, g.beta, notion.epsilon(), u.as_ref(), s)
                                .map_err(explain)?;
                        Some(g)
                    }
                    None => None,
                };
                d.outputs = numbered("y", d.mechanism.outputs());
                d
            }
            Objective::Estimation => {
                let mut d = crate::design::estimation::design_for_estimation(
                    &set,
                    &notion,
                    settings,
                    &mut report,
                )
                .map_err(explain)?;
                // The simpler route compares utilities of the rays' LP; the
                // guarantee itself stands as for any design over the ball.
                d.guarantee = guarantee;
                d
            }
            Objective::Loss(l) => {
                let ld = crate::design::notion_loss::minimise_notion_loss(
                    &set,
                    &notion,
                    &l,
                    settings,
                    &mut report,
                )
                .map_err(explain)?;
                let mut d = loss_design(ld, &set, &l).map_err(explain)?;
                d.guarantee = guarantee;
                d.outputs = labels.clone();
                d
            }
        };
        d.labels = labels;
        if d.status == DesignStatus::TimeLimit && settings.column_generation.interrupt.is_set() {
            d.status = DesignStatus::Interrupted;
        }
        d.guarantee = d.guarantee.map(|g| g.stated_at(d.epsilon));
        d.provenance = Some(provenance);
        // What `pml design` shows beside the design: the envelope and what an
        // analyst can estimate from the released rows.
        match describe {
            Some(delta) => d.with_envelope(delta)?.with_estimation(),
            None => Ok(d),
        }
    }

    /// The problem as the library received it, in canonical JSON: what the
    /// provenance's digest covers.
    fn described(&self, labels: &[String]) -> String {
        let priors = match &self.priors {
            Priors::Set(set) => serde_json::json!({ "set": set }),
            Priors::Sample(s) => {
                let mut sample = serde_json::json!({
                    "estimate": s.estimate.masses(),
                    "samples": s.samples,
                    "delta": s.delta,
                    "radius": s.radius,
                });
                if let Some(eps_d) = s.private_prior {
                    sample["private_prior"] = eps_d.into();
                }
                serde_json::json!({ "sample": sample })
            }
        };
        let objective = match &self.objective {
            Objective::Utility(u) => u.name(),
            Objective::Loss(l) => format!("{l:?}"),
            Objective::Estimation => crate::objective::estimation::ESTIMATION_UTILITY_NAME.into(),
        };
        serde_json::json!({
            "priors": priors,
            "notion": self.notion,
            "objective": objective,
            "labels": labels,
        })
        .to_string()
    }
}

/// A known prior needs every mass `> 0`: an input of mass 0 would leave its row
/// unconstrained. Sets of priors around an estimate with a zero are fine.
fn check_support(set: &UncertaintySet) -> Result<()> {
    if let UncertaintySet::Known { prior, .. } = set
        && let Some(x) = prior.masses().iter().position(|&p| p <= 0.0)
    {
        return Err(ModelError::invalid(
            format!("prior[{x}]"),
            0,
            "a known prior needs every mass > 0 (the row of an input of mass 0 would be unconstrained)",
            "protect a ball around the estimate instead (a radius, or a failure probability over the sample)",
        )
        .into());
    }
    Ok(())
}

/// The share of a time limit that the simpler route of a sample design gets.
const SIMPLER_ROUTE_SHARE: f64 = 0.2;

/// The error for a problem without a privacy level.
fn missing_level() -> crate::SolverError {
    ModelError::invalid(
        "notion",
        "none",
        "a design needs a privacy level",
        "call .epsilon(eps) or .notion(..) before .solve()",
    )
    .into()
}

/// The ball of a sample's guarantee (PML only).
fn sample_ball(sample: &Sample, notion: &Notion) -> Result<(UncertaintySet, Option<Guarantee>)> {
    if !matches!(notion, Notion::Pml { .. }) {
        return Err(ModelError::invalid(
            "notion",
            notion.name(),
            "guarantees from samples are for PML",
            "use PML, or design over an l1 ball of a chosen radius (beta) for other notions",
        )
        .into());
    }
    let (p, m, delta, method) = (
        &sample.estimate,
        sample.samples,
        sample.delta,
        sample.radius,
    );
    let g = match sample.private_prior {
        None => Guarantee::new(p, m, delta, method)?,
        Some(eps_d) => Guarantee::private(p, m, delta, method, eps_d)?,
    };
    let set = UncertaintySet::l1_ball(sample.estimate.clone(), g.beta)?;
    Ok((set, Some(g)))
}

/// The names of `n` inputs: `labels` checked (one per input, none blank, no two
/// equal), or `x1..xN` when none are given. The one check of the library, the
/// CLI and the Python package; errors name the field `labels`.
pub fn check_labels(labels: Option<&[String]>, n: usize) -> pmldesign_model::Result<Vec<String>> {
    let Some(labels) = labels else {
        return Ok(numbered("x", n));
    };
    if labels.len() != n {
        return Err(ModelError::invalid(
            "labels",
            labels.join(","),
            format!("{} labels for {n} symbols", labels.len()),
            "give exactly one label per prior entry",
        ));
    }
    check_names("labels", labels)?;
    Ok(labels.to_vec())
}

/// A loss design as a [`Design`]: the utility is minus the expected loss, and
/// the baselines are measured by the same loss.
fn loss_design(mut ld: LossDesign, set: &UncertaintySet, l: &Loss) -> Result<Design> {
    let reference = set.reference();
    let d = l.matrix(set.len())?;
    let value = |m: &pmldesign_model::Mechanism| {
        -crate::objective::loss::expected_loss(m, reference.view(), d.view())
    };
    let notion = ld.certificate.notion.clone();
    let baselines = baselines(set, &notion, &value, Some(d.view()))?;
    if let Some(b) = beating(&baselines.structured, -ld.expected_loss, true) {
        // Never below a structured mechanism: the LP stopped before it.
        let bound = ld.certificate.upper_bound;
        let released = b.released().ok_or_else(|| {
            crate::SolverError::Certificate(format!("baseline {} has no release", b.label()))
        })?;
        ld.certificate =
            Certificate::check_notion_feasible(&released, set, &notion, b.utility, bound)?;
        ld.mechanism = released;
        ld.expected_loss = -b.utility;
        let converged = ld.status != crate::DesignStatus::TimeLimit;
        ld.status = crate::DesignStatus::from_gap(ld.certificate.gap, b.utility, converged);
    }
    let run = Run {
        rays: None,
        pricing: ld.route,
        iterations: ld.iterations,
        rays_priced: 0,
    };
    let utility = (LOSS_UTILITY_NAME.to_string(), -ld.expected_loss);
    let mut design = Design::assembled(
        set,
        ld.mechanism,
        utility,
        (ld.status, ld.certificate),
        baselines,
        run,
    );
    design.loss = Some(LossOutcome {
        name: ld.loss_name,
        expected_loss: ld.expected_loss,
        lower_bound: ld.lower_bound,
        method: ld.method,
        dual: ld.dual,
        matrix: match l {
            Loss::Matrix(m) => Some(m.outer_iter().map(|r| r.to_vec()).collect()),
            _ => None,
        },
    });
    Ok(design)
}
