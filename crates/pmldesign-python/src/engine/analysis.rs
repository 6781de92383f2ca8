//! Applying, assessing, comparing, envelopes and planning bounds.

use super::{Error, Result, guarded, invalid, labels, positive_seconds, utility};
use pmldesign::data::stream::{ColumnStream, StreamKey};
use pmldesign::data::{MechanismSampler, Rows, privatise_mapped};
use pmldesign::prelude::*;
use serde_json::Value;

/// What a result computed from arrays in memory names as its source (`pml`
/// names the file it read).
pub const IN_MEMORY: &str = "<array>";

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

/// What `assess` measures a mechanism against: a prior, or counts (their
/// estimate, the sample size their total); at most one set of priors (an l1
/// ball of radius `beta`, the ball of the sample guarantee at `delta` by the
/// `radius` method, or the hull of `priors`); a metric; the envelope's delta.
pub struct AssessRequest {
    /// The mechanism's rows.
    pub rows: Vec<Vec<f64>>,
    /// The prior, or `None` with counts.
    pub prior: Option<Vec<f64>>,
    /// Whole-number counts, one per input.
    pub counts: Option<Vec<f64>>,
    /// The radius of an l1 ball of priors.
    pub beta: Option<f64>,
    /// With counts: the failure probability of the sample guarantee's ball.
    pub delta: Option<f64>,
    /// `free` or `kappa`.
    pub radius: String,
    /// The vertices of a polytope of priors.
    pub priors: Option<Vec<Vec<f64>>>,
    /// A metric's name, or its matrix.
    pub metric: (Option<String>, Option<Vec<Vec<f64>>>),
    /// The delta of the envelope reported.
    pub envelope_delta: f64,
    /// The input names.
    pub names: Option<Vec<String>>,
}

/// Every leakage figure of a mechanism under a prior and over a set of priors
/// (\[E\] Defs 3-6, Thms 3-4; \[D\]), with the envelope at `envelope_delta`:
/// the answer of `pml assess --mechanism` ([`pmldesign_app::Audit`]).
pub fn assess(req: AssessRequest) -> Result<Value> {
    guarded(|| {
        let w = mechanism(req.rows)?;
        let (prior, samples) = match (req.prior, req.counts) {
            (Some(p), None) => (Prior::new(p)?, None),
            (None, Some(c)) => {
                // A prior, not a ball's centre: every count positive.
                let (prior, total) = super::counts_prior(&c, false)?;
                (prior, Some(total))
            }
            _ => {
                return Err(Error::Invalid(
                    "assess needs exactly one of prior= and counts=".into(),
                ));
            }
        };
        let names = labels(req.names.as_deref(), prior.len())?;
        let (set, radius) = assessed_set(
            &prior,
            samples,
            (req.beta, req.delta),
            &req.radius,
            req.priors,
        )?;
        let metric = match super::metric(req.metric.0.as_deref(), req.metric.1)? {
            Some(m) => Some(pmldesign_app::audit::metric_level(&w, &m)?),
            None => None,
        };
        pmldesign::model::envelope::check_delta(req.envelope_delta)
            .map_err(|e| format!("envelope_delta: {e}"))?;
        let audit = pmldesign_app::Audit::new(&w, &prior, set.as_ref(), req.envelope_delta)?
            .labels(names)
            .source(IN_MEMORY)
            .radius(radius)
            .metric(metric);
        Ok(audit.to_json())
    })
}

/// The set of priors `assess` measures over besides the prior, and how its
/// radius came where it is the sample guarantee's ball.
fn assessed_set(
    prior: &Prior,
    samples: Option<u64>,
    (beta, delta): (Option<f64>, Option<f64>),
    radius: &str,
    priors: Option<Vec<Vec<f64>>>,
) -> Result<(Option<UncertaintySet>, Option<pmldesign_app::RadiusSource>)> {
    Ok(match (beta, delta, priors) {
        (None, None, None) => (None, None),
        (Some(b), None, None) => (Some(UncertaintySet::l1_ball(prior.clone(), b)?), None),
        (None, Some(d), None) => {
            let samples = samples.ok_or_else(|| {
                Error::Invalid("invalid delta without counts: the sample guarantee's radius needs the sample size; pass counts= (or beta= for a given radius)".into())
            })?;
            let method: RadiusMethod = pmldesign_app::names::parse(radius)?;
            let (set, source) =
                pmldesign_app::RadiusSource::sample_ball(prior, samples, d, method)?;
            (Some(set), Some(source))
        }
        (None, None, Some(vertices)) => (Some(UncertaintySet::polytope(vertices)?), None),
        _ => {
            return Err(Error::Invalid(
                "invalid set of priors: give at most one of beta=, delta= and priors=".into(),
            ));
        }
    })
}

/// The default settings with `time_limit` seconds (positive and finite), if
/// given.
fn limited(time_limit: Option<f64>) -> Result<Settings> {
    let mut settings = Settings::default();
    settings.column_generation.time_limit = time_limit.map(positive_seconds).transpose()?;
    Ok(settings)
}

/// `counts` as whole numbers: each in [0, 2^53] and whole, their total at
/// most 2^53 (beyond which it is not exact).
pub(super) fn whole_counts(counts: &[f64]) -> Result<Vec<u64>> {
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
/// (`pmldesign::model::frequency`); `method` is `em` or `inversion`: the answer
/// of `pml estimate` ([`pmldesign_app::EstimateAnswer`]), its inputs named
/// `names` and `note` saying what could not be verified about the mechanism.
pub fn estimate(
    rows: Vec<Vec<f64>>,
    counts: &[f64],
    (method, confidence): (&str, f64),
    bootstrap: Option<(usize, &str, Option<f64>)>,
    (names, note): (Option<Vec<String>>, Option<String>),
) -> Result<Value> {
    use pmldesign::model::frequency::{FrequencyMethod, FrequencySettings};
    guarded(|| {
        // The bootstrap's time limit counts from the call.
        let limit = bootstrap
            .and_then(|b| b.2)
            .map(positive_seconds)
            .transpose()?;
        let until = limit.map(|t| std::time::Instant::now() + t);
        let w = mechanism(rows)?;
        let names = labels(names.as_deref(), w.inputs())?;
        let method: FrequencyMethod = pmldesign_app::names::parse(method)?;
        let settings = FrequencySettings {
            method,
            confidence,
            ..FrequencySettings::default()
        };
        let counts = whole_counts(counts)?;
        let mut answer = pmldesign_app::EstimateAnswer::new(&w, &counts, &settings)?
            .labels(names)
            .source(IN_MEMORY)
            .note(note);
        if let Some((reps, seed, _)) = bootstrap {
            let key = pmldesign::data::stream::StreamKey::parse(seed)
                .map_err(|e| Error::Invalid(format!("seed: {e}")))?;
            answer = answer.bootstrap(reps, &key, until)?;
        }
        Ok(answer.to_json())
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
    (names, time_limit): (Option<Vec<String>>, Option<f64>),
    distance: (Option<&str>, Option<Vec<Vec<f64>>>),
) -> Result<Value> {
    guarded(|| {
        let prior = Prior::new(prior)?;
        let names = labels(names.as_deref(), prior.len())?;
        let settings = limited(time_limit)?;
        let set = match beta {
            None => UncertaintySet::known(prior),
            Some(b) => UncertaintySet::l1_ball(prior, b)?,
        };
        pmldesign::model::notion::check_epsilon(epsilon)?;
        let u = utility(utility_name)?;
        let mut notions = pmldesign::solver::compare::common_level_notions(epsilon, alip);
        if let Some(metric) = super::metric(distance.0, distance.1)? {
            notions.push(Notion::Metric { epsilon, metric });
        }
        let c = pmldesign::solver::compare(&set, epsilon, &notions, u.as_ref(), &settings)?;
        Ok(c.to_json(&names))
    })
}

/// Bounds on the post-processing envelope `eps_c(delta)` at each of `deltas`
/// (the default grid when `None`) and at the headline `delta` (\[V\] Thm 3,
/// Alg. 1), with `lp` the exact envelope by the \[V\] Thm 2 linear program, its
/// bisections stopped after about `time_limit` seconds (a stopped one keeps its
/// certified bracket, marked `stopped`): the answer of `pml envelope`
/// ([`pmldesign_app::EnvelopeAnswer`]).
pub fn envelope(
    rows: Vec<Vec<f64>>,
    prior: Vec<f64>,
    deltas: Option<Vec<f64>>,
    delta: f64,
    lp: bool,
    time_limit: Option<f64>,
    names: Option<Vec<String>>,
) -> Result<Value> {
    guarded(|| {
        let w = mechanism(rows)?;
        let prior = Prior::new(prior)?;
        let names = labels(names.as_deref(), prior.len())?;
        let settings = limited(time_limit)?;
        let deltas = deltas.unwrap_or_else(pmldesign_app::EnvelopeAnswer::default_deltas);
        for (i, &d) in deltas.iter().enumerate() {
            pmldesign::model::envelope::check_delta(d).map_err(|e| format!("deltas[{i}]: {e}"))?;
        }
        pmldesign::model::envelope::check_delta(delta).map_err(|e| format!("delta: {e}"))?;
        let answer = pmldesign_app::EnvelopeAnswer::new(
            &w,
            &prior,
            &deltas,
            delta,
            lp.then_some(&settings),
        )?
        .labels(names)
        .source(IN_MEMORY);
        Ok(answer.to_json())
    })
}

/// The planning questions of `pml bounds` (\[E\] eqs. (7)-(8), Thm 2, Cor. 3).
pub use pmldesign_app::{Question, RadiusFrom};

/// The estimate whose kappa Theorem 2 takes in place of the true prior's, if
/// one is given (`--radius kappa`).
pub fn kappa_of(estimate: Option<Vec<f64>>) -> Result<Option<Prior>> {
    Ok(estimate.map(Prior::new).transpose()?)
}

/// Answers one planning question: the answer of `pml bounds` for the same
/// question ([`pmldesign_app::BoundsAnswer`]).
pub fn bound(q: Question) -> Result<Value> {
    guarded(|| Ok(pmldesign_app::BoundsAnswer::new(&q)?.to_json()))
}
