//! Every call into the Rust library, in one place: the Python bindings
//! ([`crate::api`]) reach `pml` only through this module, so that a change of the
//! library's entry points is an edit here alone. Nothing here knows about Python:
//! inputs are plain Rust values, results are `serde_json` values (the JSON of the
//! `pml` CLI) or vectors.

use pmldesign::prelude::*;
use pmldesign::solver::Interrupt;
use pmldesign::solver::builtin;
use pmldesign_app::design;
use pmldesign_app::names::NotionKind;
use serde_json::Value;
use std::cell::Cell;

mod analysis;
mod error;
mod files;
mod noise;

pub use analysis::*;
pub use error::*;
pub use files::*;
pub use noise::*;

/// Progress of a design, reported after every pricing pass (the library's type).
pub use pmldesign::solver::Progress;

/// Called after every pricing pass; returns false to stop the run.
pub type Observer<'a> = &'a mut dyn FnMut(&Progress) -> bool;

/// The certificate's tolerance on the worst-case PML (`<= eps + tolerance`).
pub const PML_TOLERANCE: f64 = pmldesign::solver::tolerance::PML_TOLERANCE;
/// The most categories a counted column may have (`pml design --data` and
/// Python's `count`; a design takes at most 4096 inputs).
pub const MAX_CATEGORIES: usize = pmldesign::data::MAX_CATEGORIES;
/// The version of the layout of `pml`'s JSON outputs (`format_version`).
pub const OUTPUT_FORMAT_VERSION: u32 = pmldesign::solver::OUTPUT_FORMAT_VERSION;
/// The certificate's tolerance on the row sums of a designed mechanism.
pub const ROW_SUM_TOLERANCE: f64 = pmldesign::model::mechanism::CERTIFIED_ROW_SUM_TOLERANCE;

/// What to optimise: a built-in utility by name, or an expected loss.
#[derive(Debug, Clone)]
pub enum Objective {
    /// `mi`, `tv`, `chi2`, `hellinger` or `map`.
    Utility(String),
    /// `hamming`, `absolute` or `squared`.
    NamedLoss(String),
    /// A user loss matrix d(x, y), N x N rows.
    LossMatrix(Vec<Vec<f64>>),
}

/// Options shared by every design.
#[derive(Debug, Clone)]
pub struct Options {
    /// What to optimise.
    pub objective: Objective,
    /// Names of the inputs (default `x1..xN`).
    pub labels: Option<Vec<String>>,
    /// Seconds before the best certified mechanism so far is returned.
    pub time_limit: Option<f64>,
    /// Relative gap at which column generation stops.
    pub gap: f64,
    /// `auto` or `enumerate`.
    pub pricing: String,
    /// `auto`, `direct` or `column-generation`: how a loss is minimised.
    pub loss_method: String,
    /// The delta of the envelope bounds reported with the design (\[V\]).
    pub envelope_delta: f64,
}

/// A design for a prior, or for every prior within `beta` of it.
#[derive(Debug, Clone)]
pub struct DesignRequest {
    /// The prior (or estimate), summing to 1.
    pub prior: Vec<f64>,
    /// The level eps (eps_u for ALIP).
    pub epsilon: f64,
    /// ALIP's lower level eps_l.
    pub epsilon_lower: Option<f64>,
    /// The l1 radius of the ball of priors.
    pub beta: Option<f64>,
    /// `pml`, `pmc`, `alip`, `lip`, `ldp` or `metric`.
    pub notion: String,
    /// With `metric`: `discrete` or `line`.
    pub metric: Option<String>,
    /// With `metric`: a distance matrix, N x N rows.
    pub metric_matrix: Option<Vec<Vec<f64>>>,
    /// Everything else.
    pub options: Options,
}

/// A design from category counts with a failure probability (\[E\] Sec. III).
#[derive(Debug, Clone)]
pub struct CountsRequest {
    /// Whole-number counts, one per category.
    pub counts: Vec<f64>,
    /// The level eps.
    pub epsilon: f64,
    /// The failure probability over the sample.
    pub delta: f64,
    /// `free` (\[E\] eq. (7)) or `kappa` (Theorem 2 at the estimate).
    pub radius: String,
    /// `private_prior=`: the level eps_D of the discrete Laplace noise on the
    /// counts and the secret key of its draws (`pml design --private-prior`).
    pub private_prior: Option<(f64, String)>,
    /// Everything else.
    pub options: Options,
}

/// The distance of metric privacy: a built-in name or a checked matrix.
pub fn metric(name: Option<&str>, matrix: Option<Vec<Vec<f64>>>) -> Result<Option<Metric>> {
    Ok(match (name, matrix) {
        (None, None) => None,
        (Some(name), None) => Some(pmldesign_app::names::parse::<Metric>(name)?),
        (_, Some(rows)) => Some(Metric::from_rows(rows)?),
    })
}

/// The notion named `name` at its levels, checked by the rule every front end
/// shares (`pmldesign_app::notion`), its errors naming the keywords.
pub fn notion(
    name: &str,
    epsilon: f64,
    epsilon_lower: Option<f64>,
    metric: Option<Metric>,
) -> Result<Notion> {
    use pmldesign_app::notion::Levels;
    let levels = Levels {
        epsilon: Some(epsilon),
        epsilon_lower,
        epsilon_upper: None,
    };
    let kind = pmldesign_app::names::parse::<NotionKind>(name)?;
    Ok(pmldesign_app::notion::notion(
        kind, levels, metric, &Keywords,
    )?)
}

/// The notion's fields as Python's keywords (`epsilon` is ALIP's upper level).
struct Keywords;

impl pmldesign_app::notion::Spelling for Keywords {
    fn field(&self, f: pmldesign_app::notion::Field) -> &'static str {
        use pmldesign_app::notion::Field;
        match f {
            Field::Notion => "notion",
            Field::Epsilon | Field::EpsilonUpper => "epsilon",
            Field::EpsilonLower => "epsilon_lower",
            Field::Metric => "metric",
        }
    }

    fn set(&self, f: pmldesign_app::notion::Field, value: &str) -> String {
        use pmldesign_app::notion::Field;
        match f {
            Field::Notion | Field::Metric => format!("{}=\"{value}\"", self.field(f)),
            _ => format!("{}={value}", self.field(f)),
        }
    }
}

/// Whether `names` name `m` values: as many, each non-blank and distinct.
pub fn names_fit(names: &[String], m: usize) -> bool {
    pmldesign::model::names::check_names_for("names", names, m).is_ok()
}

/// The built-in utility named `name` (`pml compare`'s).
fn utility(name: &str) -> Result<Box<dyn Utility>> {
    builtin(name).ok_or_else(|| {
        invalid(
            "utility",
            name,
            "unknown utility",
            "use one of mi, tv, chi2, hellinger, map, estimation (or pass loss=...)",
        )
    })
}

/// The library's objective of `objective`: a built-in utility or the
/// estimation error by name, or a loss.
fn objective(objective: &Objective) -> Result<design::Objective> {
    Ok(match objective {
        Objective::Utility(name) => design::Objective::utility(name)?,
        Objective::NamedLoss(name) => design::Objective::Loss(pmldesign_app::names::parse(name)?),
        Objective::LossMatrix(rows) => design::Objective::Loss(
            design::loss_matrix("loss", rows.clone()).map_err(Error::Invalid)?,
        ),
    })
}

/// The library's settings from the options (time limit, gap, pricing), with
/// `interrupt` to stop the run from the progress callback.
pub(crate) fn settings(o: &Options, interrupt: Interrupt) -> Result<Settings> {
    let mut s = Settings::default();
    s.column_generation.interrupt = interrupt;
    if !(o.gap.is_finite() && o.gap > 0.0 && o.gap < 1.0) {
        return Err(invalid(
            "gap",
            o.gap,
            "the relative gap must lie in (0, 1)",
            "pass e.g. gap=1e-6",
        ));
    }
    s.column_generation.gap_tolerance = o.gap;
    s.pricing = pmldesign_app::names::parse(&o.pricing)?;
    s.loss_method = pmldesign_app::names::parse(&o.loss_method)?;
    if let Some(t) = o.time_limit {
        s.column_generation.time_limit = Some(positive_seconds(t)?);
    }
    Ok(s)
}

/// `time_limit` as a duration: positive and finite, else an error naming it.
fn positive_seconds(t: f64) -> Result<std::time::Duration> {
    std::time::Duration::try_from_secs_f64(t)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            invalid(
                "time_limit",
                t,
                "not a positive, finite number of seconds",
                "pass e.g. time_limit=60",
            )
        })
}

/// The input names: `labels` checked by the library, or `x1..xN`.
pub fn labels(labels: Option<&[String]>, n: usize) -> Result<Vec<String>> {
    Ok(pmldesign::solver::labels::check_labels(labels, n)?)
}

/// Designs for a prior or a ball (\[E\] Prop 2, docs/theory.md §4) and returns the
/// JSON of `pml design --format json` for the same input.
pub fn design(req: &DesignRequest, observer: Observer<'_>) -> Result<Value> {
    guarded(|| {
        // With a radius the prior is a ball's centre, where a mass may be 0.
        let prior = match req.beta {
            Some(_) => Prior::center(req.prior.clone())?,
            None => Prior::new(req.prior.clone())?,
        };
        let metric = metric(req.metric.as_deref(), req.metric_matrix.clone())?;
        let notion = notion(&req.notion, req.epsilon, req.epsilon_lower, metric)?;
        let set = match req.beta {
            None => UncertaintySet::known(prior),
            Some(beta) => UncertaintySet::l1_ball(prior, beta)?,
        };
        solve(
            design::Priors::Set(set),
            notion,
            &req.options,
            (None, observer),
        )
    })
}

/// Designs from counts over the ball of the sample guarantee (\[E\] eq. (7) or
/// Theorem 2, docs/theory.md §6) and returns the CLI's JSON with `guarantee`.
pub fn design_from_counts(req: &CountsRequest, observer: Observer<'_>) -> Result<Value> {
    guarded(|| {
        let (estimate, samples) = match &req.private_prior {
            // The centre of the sample guarantee's ball.
            None => counts_prior(&req.counts, true)?,
            Some((epsilon_d, seed)) => noisy_prior(&req.counts, *epsilon_d, seed)?,
        };
        let radius: RadiusMethod = pmldesign_app::names::parse(&req.radius)?;
        let sample = Sample {
            estimate,
            samples,
            delta: req.delta,
            radius,
            private_prior: req.private_prior.as_ref().map(|p| p.0),
        };
        let notion = Notion::Pml {
            epsilon: req.epsilon,
        };
        let rows = Some(samples);
        solve(
            design::Priors::Sample(sample),
            notion,
            &req.options,
            (rows, observer),
        )
    })
}

/// Solves for `priors` under `notion` with the options (the request the CLI
/// solves too, [`design::DesignRequest`]); a false from `observer` sets the
/// run's interrupt (the library then stops after the pass) and the result is
/// [`Error::Stopped`]. With the data's `rows`, the estimation advice compares
/// the mechanisms at that size by the data crate's seeded simulation.
fn solve(
    priors: design::Priors,
    notion: Notion,
    o: &Options,
    (rows, observer): (Option<u64>, Observer<'_>),
) -> Result<Value> {
    // Checked before solving, not after: a bad delta costs no design.
    pmldesign::model::envelope::check_delta(o.envelope_delta)
        .map_err(|e| format!("envelope_delta: {e}"))?;
    let interrupt = Interrupt::new();
    let settings = settings(o, interrupt.clone())?;
    let mut problem = design::problem(priors, objective(&o.objective)?)?;
    if let Some(l) = &o.labels {
        problem = problem.labels(l.clone());
    }
    let stopped = Cell::new(false);
    let problem = problem
        .notion(notion)
        .settings(settings)
        .envelope_delta(o.envelope_delta)
        .on_progress(|p| {
            if !stopped.get() && !observer(&p) {
                stopped.set(true);
                interrupt.set();
            }
        });
    let tool = format!("pmldesign (Python) {}", env!("CARGO_PKG_VERSION"));
    let d = design::DesignRequest::new(problem, &tool)
        .rows(rows)
        .solve();
    if stopped.get() {
        return Err(Error::Stopped);
    }
    Ok(serde_json::to_value(d?)?)
}

/// The empirical prior of whole-number counts and their total m; with
/// `centre`, the centre of a ball, where a category never observed has mass
/// 0 (the ball covers it), else a prior whose masses are all positive.
fn counts_prior(counts: &[f64], centre: bool) -> Result<(Prior, u64)> {
    let total = analysis::whole_counts(counts)?.iter().sum();
    let prior = match centre {
        true => Prior::center_normalised(counts.to_vec()),
        false => Prior::normalised(counts.to_vec()),
    }
    .map_err(|e| format!("counts: {e}"))?;
    Ok((prior, total))
}

/// The centre of the ball from counts given discrete Laplace noise of level
/// `epsilon_d` drawn from the key `seed` (`pml design --private-prior`), and the
/// noisy total: the true counts are used for nothing else.
fn noisy_prior(counts: &[f64], epsilon_d: f64, seed: &str) -> Result<(Prior, u64)> {
    let key = pmldesign::data::stream::StreamKey::parse(seed)
        .map_err(|e| Error::Invalid(format!("seed: {e}")))?;
    let counts = analysis::whole_counts(counts)?;
    let noisy =
        pmldesign::data::private_counts::noisy_estimate("private_prior", &counts, epsilon_d, &key)?;
    Ok((noisy.prior, noisy.total))
}
