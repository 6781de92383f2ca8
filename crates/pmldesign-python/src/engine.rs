//! Every call into the Rust library, in one place: the Python bindings
//! ([`crate::api`]) reach `pml` only through this module, so that a change of the
//! library's entry points is an edit here alone. Nothing here knows about Python:
//! inputs are plain Rust values, results are `serde_json` values (the JSON of the
//! `pml` CLI) or vectors.

use pmldesign::data::stream::{ColumnStream, StreamKey};
use pmldesign::data::{MechanismSampler, Rows, privatise_mapped};
use pmldesign::model::envelope::{Envelope, EnvelopeBounds};
use pmldesign::model::{measures::Assessment, sample};
use pmldesign::prelude::*;
use pmldesign::solver::builtin;
use pmldesign::solver::{Interrupt, MAX_ALPHABET, MAX_MATRIX_FILE_BYTES, PricingMethod};
use serde_json::{Value, json};
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Progress of a design, reported after every pricing pass (the library's type).
pub use pmldesign::solver::Progress;

/// Why an engine call returned no result.
#[derive(Debug)]
pub enum Error {
    /// Bad input or a failed computation: the library's one-line message.
    Invalid(String),
    /// The progress observer asked to stop (Ctrl-C, or an exception in a callback).
    Stopped,
}

impl<E: std::fmt::Display> From<E> for Error {
    fn from(e: E) -> Self {
        Error::Invalid(e.to_string())
    }
}

/// Result of an engine call.
pub type Result<T> = std::result::Result<T, Error>;

/// Called after every pricing pass; returns false to stop the run.
pub type Observer<'a> = &'a mut dyn FnMut(&Progress) -> bool;

/// Runs `f`, turning any panic into [`Error::Invalid`]: no panic ever leaves this
/// module (a last line of defence; the library reports errors as values).
pub(crate) fn guarded<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            Err(Error::Invalid(format!(
                "internal error in the pml library: {what}; please report it with the input"
            )))
        }
    }
}

/// The certificate's tolerance on the worst-case PML (`<= eps + tolerance`).
pub const PML_TOLERANCE: f64 = pmldesign::solver::tolerance::PML_TOLERANCE;
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

/// A one-line error naming the argument, the value and the fix.
pub(crate) fn invalid(field: &str, value: impl std::fmt::Debug, problem: &str, fix: &str) -> Error {
    Error::Invalid(format!("invalid {field} = {value:?}: {problem}; {fix}"))
}

/// The distance of metric privacy: a built-in name or a checked matrix.
pub fn metric(name: Option<&str>, matrix: Option<Vec<Vec<f64>>>) -> Result<Option<Metric>> {
    Ok(match (name, matrix) {
        (None, None) => None,
        (Some("discrete"), None) => Some(Metric::Discrete),
        (Some("line"), None) => Some(Metric::Line),
        (Some(other), None) => {
            return Err(invalid(
                "metric",
                other,
                "unknown distance",
                "use \"discrete\", \"line\" or an N x N matrix",
            ));
        }
        (_, Some(rows)) => Some(Metric::from_rows(rows)?),
    })
}

/// The notion named `name` at its levels, checked.
pub fn notion(
    name: &str,
    epsilon: f64,
    epsilon_lower: Option<f64>,
    metric: Option<Metric>,
) -> Result<Notion> {
    if metric.is_some() != (name == "metric") {
        return Err(invalid(
            "metric",
            metric.as_ref().map(Metric::name),
            "a distance goes with notion=\"metric\" and only with it",
            "pass notion=\"metric\" with metric=\"discrete\", \"line\" or an N x N matrix",
        ));
    }
    if epsilon_lower.is_some() && name != "alip" {
        return Err(invalid(
            "epsilon_lower",
            epsilon_lower,
            "it sets an ALIP level",
            "pass notion=\"alip\", or leave epsilon_lower out",
        ));
    }
    let n = match name {
        "pml" => Notion::Pml { epsilon },
        "pmc" => Notion::Pmc { epsilon },
        "lip" => Notion::Lip { epsilon },
        "ldp" => Notion::Ldp { epsilon },
        "metric" => Notion::Metric {
            epsilon,
            metric: metric.expect("checked above"),
        },
        "alip" => Notion::Alip {
            epsilon_lower: epsilon_lower.ok_or_else(|| {
                Error::Invalid("notion=\"alip\" needs epsilon_lower (the PMC side, i >= -eps_l); pass e.g. epsilon_lower=0.5".into())
            })?,
            epsilon_upper: epsilon,
        },
        other => {
            return Err(invalid(
                "notion",
                other,
                "unknown notion",
                "use one of pml, pmc, alip, lip, ldp, metric",
            ));
        }
    };
    n.check()?;
    Ok(n)
}

/// The built-in utility named `name`.
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

/// The loss of a loss objective (`None` for a utility).
fn loss(objective: &Objective) -> Result<Option<Loss>> {
    Ok(match objective {
        Objective::Utility(_) => None,
        Objective::NamedLoss(name) => Some(match name.as_str() {
            "hamming" => Loss::Hamming,
            "absolute" => Loss::Absolute,
            "squared" => Loss::Squared,
            other => {
                return Err(invalid(
                    "loss",
                    other,
                    "unknown loss",
                    "use hamming, absolute, squared or an N x N matrix",
                ));
            }
        }),
        Objective::LossMatrix(rows) => {
            let n = rows.len();
            if rows.iter().any(|r| r.len() != n) {
                return Err(Error::Invalid(format!(
                    "invalid loss: {n} rows but a row of another length; give a square N x N matrix, one row per secret x and one column per guess y"
                )));
            }
            let flat: Vec<f64> = rows.iter().flatten().copied().collect();
            let m = numpy::ndarray::Array2::from_shape_vec((n, n), flat)
                .map_err(|e| Error::Invalid(format!("invalid loss: {e}")))?;
            Some(Loss::Matrix(m))
        }
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
    s.pricing = match o.pricing.as_str() {
        "auto" => PricingMethod::Auto,
        "enumerate" => PricingMethod::Enumerate,
        other => {
            return Err(invalid(
                "pricing",
                other,
                "unknown pricing",
                "use auto or enumerate",
            ));
        }
    };
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
    Ok(pmldesign::solver::check_labels(labels, n)?)
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
        solve(Problem::new(set), notion, &req.options, (None, observer))
    })
}

/// Designs from counts over the ball of the sample guarantee (\[E\] eq. (7) or
/// Theorem 2, docs/theory.md §6) and returns the CLI's JSON with `guarantee`.
pub fn design_from_counts(req: &CountsRequest, observer: Observer<'_>) -> Result<Value> {
    guarded(|| {
        let (estimate, samples) = match &req.private_prior {
            None => counts_prior(&req.counts)?,
            Some((epsilon_d, seed)) => noisy_prior(&req.counts, *epsilon_d, seed)?,
        };
        let radius = match req.radius.as_str() {
            "free" => RadiusMethod::DistributionFree,
            "kappa" => RadiusMethod::Kappa,
            other => {
                return Err(invalid(
                    "radius",
                    other,
                    "unknown radius method",
                    "use free ([E] eq. (7)) or kappa (Theorem 2)",
                ));
            }
        };
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
            Problem::from_sample(sample),
            notion,
            &req.options,
            (rows, observer),
        )
    })
}

/// Solves `problem` under `notion` with the options; a false from `observer` sets
/// the run's interrupt (the library then stops after the pass) and the result is
/// [`Error::Stopped`]. With the data's `rows`, the estimation advice compares
/// the mechanisms at that size by the data crate's seeded simulation.
fn solve(
    problem: Problem<'_>,
    notion: Notion,
    o: &Options,
    (rows, observer): (Option<u64>, Observer<'_>),
) -> Result<Value> {
    // Checked before solving, not after: a bad delta costs no design.
    pmldesign::model::envelope::check_delta(o.envelope_delta)
        .map_err(|e| format!("envelope_delta: {e}"))?;
    let interrupt = Interrupt::new();
    let settings = settings(o, interrupt.clone())?;
    let problem = match loss(&o.objective)? {
        Some(l) => problem.loss(l),
        None => match &o.objective {
            Objective::Utility(name) if name == "estimation" => problem.estimation(),
            Objective::Utility(name) => problem.boxed_utility(utility(name)?),
            _ => unreachable!("loss objectives are handled above"),
        },
    };
    let problem = match &o.labels {
        Some(l) => problem.labels(l.clone()),
        None => problem,
    };
    let stopped = Cell::new(false);
    let d = problem
        .notion(notion)
        .settings(settings)
        .on_progress(|p| {
            if !stopped.get() && !observer(&p) {
                stopped.set(true);
                interrupt.set();
            }
        })
        .solve();
    if stopped.get() {
        return Err(Error::Stopped);
    }
    let mut d = d?.with_envelope(o.envelope_delta)?.with_estimation()?;
    if let Some(rows) = rows {
        d = d.with_simulated_advice(rows, |mechanism, prior, draws| {
            let sim = pmldesign::data::simulate::Simulation {
                rows: draws.rows,
                replicates: draws.replicates,
                seed: draws.seed,
                stream: draws.stream,
            };
            pmldesign::data::simulate::simulated_error(mechanism, prior, &sim)
        })?;
    }
    let tool = format!("pmldesign (Python) {}", env!("CARGO_PKG_VERSION"));
    d.provenance = d.provenance.map(|p| p.with_tool(tool));
    Ok(serde_json::to_value(d)?)
}

/// The empirical prior of whole-number counts and their total m.
fn counts_prior(counts: &[f64]) -> Result<(Prior, u64)> {
    let total = whole_counts(counts)?.iter().sum();
    // The centre of the sample guarantee's ball: a category never observed has
    // mass 0, which the ball covers.
    let prior = Prior::center_normalised(counts.to_vec()).map_err(|e| format!("counts: {e}"))?;
    Ok((prior, total))
}

/// The centre of the ball from counts given discrete Laplace noise of level
/// `epsilon_d` drawn from the key `seed` (`pml design --private-prior`), and the
/// noisy total: the true counts are used for nothing else.
fn noisy_prior(counts: &[f64], epsilon_d: f64, seed: &str) -> Result<(Prior, u64)> {
    let key = pmldesign::data::stream::StreamKey::parse(seed)
        .map_err(|e| Error::Invalid(format!("seed: {e}")))?;
    let counts = whole_counts(counts)?;
    let noisy =
        pmldesign::data::private_counts::noisy_estimate("private_prior", &counts, epsilon_d, &key)?;
    Ok((noisy.prior, noisy.total))
}

/// Checks the JSON of a design (a utility's or a loss's) as the library reads it
/// back: the set rebuilt through its checked constructors and the mechanism
/// re-measured under the stated notion over the whole set, so an edited, leaky
/// design is refused.
/// Returns the design as read back: every figure re-derived (the envelope and
/// the guarantee's statement included), the file parsed once.
pub fn check_design(text: &str) -> Result<Value> {
    guarded(|| Ok(serde_json::to_value(read_design(text)?)?))
}

/// The public file of a design's JSON (`pml publish`): the design read back
/// (verified) first, then cut to what receivers get.
pub fn public_design(text: &str) -> Result<String> {
    guarded(|| Ok(pmldesign::solver::PublicDesign::of(&read_design(text)?).to_json()))
}

/// A public file read back, its checks and sentence re-derived; the file as
/// read, and what a receiver cannot re-verify from it.
pub fn check_public(text: &str) -> Result<Value> {
    guarded(|| {
        let p = pmldesign::solver::PublicDesign::from_json(design_text(text)?)
            .map_err(|e| format!("public file: {e}"))?;
        let mut v = serde_json::to_value(&p)?;
        v["unverified"] = json!(p.unverified());
        Ok(v)
    })
}

/// A design read back from its JSON (verified as it is read), refused past the
/// largest file a matrix of [`MAX_ALPHABET`] symbols takes (before it is parsed).
pub(crate) fn read_design(text: &str) -> Result<Design> {
    Ok(serde_json::from_str::<Design>(design_text(text)?)
        .map_err(|e| format!("design JSON: {e}"))?)
}

/// A design's JSON within the size a design takes, less a byte-order mark (a
/// file saved with one is the same design).
fn design_text(text: &str) -> Result<&str> {
    if text.len() as u64 > MAX_MATRIX_FILE_BYTES {
        return Err(Error::Invalid(format!(
            "design JSON: {} bytes, more than a design of N = {MAX_ALPHABET} symbols takes ({MAX_MATRIX_FILE_BYTES})",
            text.len()
        )));
    }
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}

/// Verifies the JSON of a design as `pml assess --design` does
/// ([`Design::verify`]): read back (privacy re-measured), the utility or loss
/// re-measured, the stored dual re-priced; the verification as JSON.
pub fn verify_design(text: &str) -> Result<Value> {
    guarded(|| {
        // Reading verifies it: the verification is the one reading ran.
        let read = serde_json::from_str::<pmldesign::solver::VerifiedDesign>(design_text(text)?)
            .map_err(|e| format!("design JSON: {e}"))?;
        let v = read.verification;
        Ok(serde_json::to_value(v).map_err(|e| format!("verification: {e}"))?)
    })
}

/// Envelope bounds at one delta, with the envelope (when exact) and the statement.
fn bounds_json(b: &EnvelopeBounds) -> Value {
    let mut v = json!(b);
    v["envelope"] = json!(b.envelope());
    v["statement"] = json!(pmldesign::model::statement::envelope(b));
    v
}

// ---------------------------------------------------------------------------
// Applying, assessing, comparing, envelopes and planning bounds.

/// A mechanism from rows (rows are inputs), validated by the library.
fn mechanism(rows: Vec<Vec<f64>>) -> Result<Mechanism> {
    Mechanism::from_rows(rows).map_err(|e| Error::Invalid(format!("mechanism: {e}")))
}

/// Runs the mechanism on input codes (row indices): `out[k]` is the output code
/// of `codes[k]`, row `offset + k` (or `positions[k]`) drawing from its place of
/// the keyed stream of `column`, as `pml apply --column COLUMN --seed SEED` draws
/// the same rows. Without a seed the key comes from the operating system.
pub fn apply_codes(
    rows: Vec<Vec<f64>>,
    codes: &[u32],
    column: &str,
    (offset, positions): (u64, Option<&[u64]>),
    seed: Option<String>,
    out: &mut [u32],
) -> Result<()> {
    apply_mapped(
        rows,
        (codes, |&x: &u32| Some(x as usize)),
        column,
        (offset, positions),
        seed,
        out,
    )
}

/// [`apply_codes`] for codes of any integer type, each made a row of the
/// mechanism by `row_of` (a DataFrame's category codes through the table of its
/// categories), into output codes of any integer type wide enough for them.
pub fn apply_mapped<C, O>(
    rows: Vec<Vec<f64>>,
    (codes, row_of): (&[C], impl Fn(&C) -> Option<usize> + Sync),
    column: &str,
    (offset, positions): (u64, Option<&[u64]>),
    seed: Option<String>,
    out: &mut [O],
) -> Result<()>
where
    C: Sync + std::fmt::Display,
    O: Send + TryFrom<usize>,
{
    guarded(|| {
        let w = mechanism(rows)?;
        let key = match seed {
            Some(s) => StreamKey::parse(&s)?,
            None => StreamKey::from_os(),
        };
        let sampler = MechanismSampler::new(&w)?;
        let stream = ColumnStream::new(&key, column, 1);
        let at = match positions {
            Some(p) => Rows::At(p),
            None => Rows::From(offset),
        };
        privatise_mapped(&sampler, codes, &stream, at, out, row_of)?;
        Ok(())
    })
}

/// Every leakage figure of a mechanism under a prior and, with `beta`, over the
/// ball (\[E\] Defs 3-6, Thms 3-4; \[D\]).
pub fn assess(rows: Vec<Vec<f64>>, prior: Vec<f64>, beta: Option<f64>) -> Result<Value> {
    guarded(|| {
        let w = mechanism(rows)?;
        let prior = Prior::new(prior)?;
        let set = beta
            .map(|b| UncertaintySet::l1_ball(prior.clone(), b))
            .transpose()?;
        Ok(json!(Assessment::new(&w, &prior, set.as_ref())?))
    })
}

/// `counts` as whole numbers: each in [0, 2^53] and whole, their total at
/// most 2^53 (beyond which it is not exact).
fn whole_counts(counts: &[f64]) -> Result<Vec<u64>> {
    let mut total: u64 = 0;
    for (i, &c) in counts.iter().enumerate() {
        if !(c >= 0.0 && c.fract() == 0.0 && c <= 2f64.powi(53)) {
            return Err(invalid(
                &format!("counts[{i}]"),
                c,
                "counts are whole numbers of samples between 0 and 2^53",
                "give e.g. counts=[40, 20, 20, 20]",
            ));
        }
        total = total.saturating_add(c as u64);
    }
    if total > 1u64 << 53 {
        return Err(invalid(
            "counts",
            total,
            "the total m exceeds 2^53, beyond which it is not exact",
            "give counts totalling at most 2^53",
        ));
    }
    Ok(counts.iter().map(|&c| c as u64).collect())
}

/// The input distribution behind `counts` of released outputs
/// (`pmldesign::model::frequency`); `method` is `em` or `inversion`.
pub fn estimate(
    rows: Vec<Vec<f64>>,
    counts: &[f64],
    (method, confidence): (&str, f64),
    bootstrap: Option<(usize, &str)>,
) -> Result<Value> {
    use pmldesign::model::frequency::{FrequencyMethod, FrequencySettings, estimate_frequencies};
    guarded(|| {
        let w = mechanism(rows)?;
        let method = match method {
            "em" => FrequencyMethod::Em,
            "inversion" => FrequencyMethod::Inversion,
            other => {
                return Err(invalid(
                    "method",
                    other,
                    "not an estimation method",
                    "pass method=\"em\" or method=\"inversion\"",
                ));
            }
        };
        let settings = FrequencySettings {
            method,
            confidence,
            ..FrequencySettings::default()
        };
        let counts = whole_counts(counts)?;
        let estimate = estimate_frequencies(&w, &counts, &settings)?;
        let mut out = json!(estimate);
        let fit = pmldesign::model::frequency::goodness_of_fit(
            &counts,
            &estimate.fitted,
            estimate.groups.len(),
        );
        out["fit"] = json!(fit);
        out["fit"]["note"] = json!(fit.note());
        if let Some((reps, seed)) = bootstrap {
            let key = pmldesign::data::stream::StreamKey::parse(seed)
                .map_err(|e| Error::Invalid(format!("seed: {e}")))?;
            let check =
                pmldesign::data::bootstrap::bootstrap(&w, &estimate, &settings, (reps, &key))?;
            out["bootstrap"] = json!(check);
        }
        Ok(out)
    })
}

/// Designs under PML, PMC, ALIP, LIP and LDP at a common level beside randomized
/// response (\[D\]); the JSON of `pml compare --format json`.
pub fn compare(
    prior: Vec<f64>,
    epsilon: f64,
    beta: Option<f64>,
    utility_name: &str,
    alip: Option<(f64, f64)>,
    names: Option<Vec<String>>,
) -> Result<Value> {
    guarded(|| {
        let prior = Prior::new(prior)?;
        let names = labels(names.as_deref(), prior.len())?;
        let set = match beta {
            None => UncertaintySet::known(prior),
            Some(b) => UncertaintySet::l1_ball(prior, b)?,
        };
        pmldesign::model::notion::check_epsilon(epsilon)?;
        let u = utility(utility_name)?;
        let notions = pmldesign::solver::common_level_notions(epsilon, alip);
        let c =
            pmldesign::solver::compare(&set, epsilon, &notions, u.as_ref(), &Settings::default())?;
        Ok(c.to_json(&names))
    })
}

/// Bounds on the post-processing envelope `eps_c(delta)` at each delta (\[V\] Thm 3,
/// Alg. 1), with `lp` the exact envelope by the \[V\] Thm 2 linear program, its
/// bisections stopped after about `time_limit` seconds (a stopped one keeps its
/// certified bracket, marked `stopped`).
pub fn envelope(
    rows: Vec<Vec<f64>>,
    prior: Vec<f64>,
    deltas: &[f64],
    lp: bool,
    time_limit: Option<f64>,
) -> Result<Value> {
    guarded(|| {
        let w = mechanism(rows)?;
        let prior = Prior::new(prior)?;
        let env = Envelope::new(&w, &prior)?;
        let mut settings = Settings::default();
        if let Some(t) = time_limit {
            settings.column_generation.time_limit = Some(positive_seconds(t)?);
        }
        let mut curve = Vec::with_capacity(deltas.len());
        for (i, &delta) in deltas.iter().enumerate() {
            pmldesign::model::envelope::check_delta(delta)
                .map_err(|e| format!("deltas[{i}]: {e}"))?;
            curve.push(bounds_json(&env.bounds(delta)?));
        }
        if lp {
            let values =
                pmldesign::solver::envelope::envelope_curve_with(&w, &prior, deltas, &settings)?;
            for ((v, value), &delta) in curve.iter_mut().zip(values).zip(deltas) {
                // The LP's envelope is published where it beats Theorem 3.
                let b = env.bounds(delta)?;
                v["statement"] = json!(pmldesign::model::statement::envelope_at(
                    &b,
                    value.published(&b)
                ));
                v["lp"] = json!(value);
            }
        }
        Ok(json!({
            "maximal_leakage": env.maximal_leakage(),
            "max_pml": env.max_pml(),
            "curve": curve,
        }))
    })
}

/// The planning calculators of `pml bounds` (\[E\] eqs. (7)-(8), Thm 2, Cor. 3).
#[derive(Debug, Clone, Copy)]
pub enum Bound<'a> {
    /// `beta*(delta)` of eq. (7), or Theorem 2 at the estimate when given.
    Radius {
        samples: u64,
        delta: f64,
        alphabet: usize,
        estimate: Option<&'a [f64]>,
    },
    /// Theorem 2: `P(||p - p^||_1 >= beta)`.
    FailureProbability {
        samples: u64,
        beta: f64,
        alphabet: usize,
        estimate: Option<&'a [f64]>,
    },
    /// eq. (8): the leakage for every prior within `beta` of the estimate.
    EpsilonPrime { epsilon: f64, beta: f64 },
    /// Corollary 3: the failure probability of an eps'-PML guarantee.
    DeltaMin {
        epsilon: f64,
        epsilon_prime: f64,
        samples: u64,
        alphabet: usize,
    },
    /// Corollary 3 solved for m.
    Samples {
        epsilon: f64,
        epsilon_prime: f64,
        delta: f64,
        alphabet: usize,
    },
    /// eqs. (7), (8) inverted: the largest design eps.
    MaxEpsilon {
        epsilon_prime: f64,
        samples: u64,
        delta: f64,
        alphabet: usize,
    },
}

/// Answers one planning question: the answer and the figures beside it.
pub fn bound(b: Bound<'_>) -> Result<Value> {
    guarded(|| match b {
        Bound::Radius {
            samples,
            delta,
            alphabet,
            estimate,
        } => radius(samples, delta, alphabet, estimate),
        Bound::FailureProbability {
            samples,
            beta,
            alphabet,
            estimate,
        } => {
            let kappa = estimate
                .map(|e| Prior::new(e.to_vec()))
                .transpose()?
                .map(|p| sample::kappa(&p));
            // kappa = 1/2 is the distribution-free choice: phi(1/2) = 2 is phi's minimum.
            let phi = sample::phi(kappa.unwrap_or(0.5))?;
            let delta = sample::failure_probability(samples, beta, alphabet, phi)?;
            Ok(json!({ "delta": delta, "kappa": kappa, "phi": phi, "formula": "[E] Theorem 2" }))
        }
        Bound::EpsilonPrime { epsilon, beta } => Ok(json!({
            "epsilon_prime": sample::epsilon_prime(epsilon, beta)?,
            "formula": "[E] eq. (8)",
        })),
        Bound::DeltaMin {
            epsilon,
            epsilon_prime,
            samples,
            alphabet,
        } => Ok(json!({
            "delta_min": sample::delta_min(epsilon, epsilon_prime, samples, alphabet)?,
            "formula": "[E] Corollary 3",
        })),
        Bound::Samples {
            epsilon,
            epsilon_prime,
            delta,
            alphabet,
        } => min_samples(epsilon, epsilon_prime, delta, alphabet),
        Bound::MaxEpsilon {
            epsilon_prime,
            samples,
            delta,
            alphabet,
        } => {
            let g = sample::SampleGuarantee::for_target(epsilon_prime, samples, delta, alphabet)?;
            Ok(json!({
                "epsilon": g.epsilon,
                "beta": g.beta,
                "epsilon_prime_at_answer": sample::epsilon_prime(g.epsilon, g.beta)?,
                "formula": "[E] eqs. (7), (8) inverted",
            }))
        }
    })
}

/// The radius of eq. (7), or Theorem 2's at the estimate beside it.
fn radius(samples: u64, delta: f64, alphabet: usize, estimate: Option<&[f64]>) -> Result<Value> {
    let free = sample::radius_free(samples, delta, alphabet)?;
    let Some(e) = estimate else {
        return Ok(json!({ "beta": free, "formula": "[E] eq. (7)" }));
    };
    let p = Prior::new(e.to_vec())?;
    let kappa = sample::kappa(&p);
    Ok(json!({
        "beta": sample::radius_kappa(samples, delta, &p)?,
        "kappa": kappa,
        "phi": sample::phi(kappa)?,
        "beta_distribution_free": free,
        "formula": "[E] Theorem 2",
    }))
}

/// The smallest sample size for (eps', delta), with the figures it reaches.
fn min_samples(epsilon: f64, epsilon_prime: f64, delta: f64, alphabet: usize) -> Result<Value> {
    let m = sample::min_samples(epsilon, epsilon_prime, delta, alphabet)?;
    let beta = sample::radius_free(m, delta, alphabet)?;
    Ok(json!({
        "samples": m,
        "delta_min_at_m": sample::delta_min(epsilon, epsilon_prime, m, alphabet)?,
        "beta_at_m": beta,
        "epsilon_prime_at_m": sample::epsilon_prime(epsilon, beta)?,
        "formula": "[E] Corollary 3 (eqs. (7), (8)) solved for m",
    }))
}
