//! `pml assess`: audit a given mechanism under a prior and, optionally, a set of
//! priors, or verify a design file. Every number comes from
//! `pmldesign_model::measures::assessment` and [`Design::verify`].

use crate::args::assess::AssessArgs;
use crate::args::{Estimate, MetricArgs};
use crate::error::CliError;
use crate::io::data::load_estimate;
use crate::io::load::{design_from_text, load_mechanism, load_metric, record_from_text};
use crate::io::matrix::read_priors;
use crate::io::matrix::read_text;
use crate::io::write::{check_outputs, emit_with_report};
use crate::render::assess::{
    Audit, RadiusSource, render_assessment, render_record_verdict, render_verdict,
};
use crate::render::report;
use pmldesign_model::{Mechanism, UncertaintySet};
use pmldesign_solver::{Settings, VerifiedDesign};
use std::path::Path;

/// Runs `pml assess`.
pub fn run(a: AssessArgs) -> Result<(), CliError> {
    check_outputs(
        &[
            ("--mechanism", a.mechanism.as_deref()),
            ("--design", a.design.as_deref()),
            ("--priors", a.priors.as_deref()),
            a.input.named(),
            a.metric.named(),
        ],
        &[
            ("--output", a.output.as_deref()),
            ("--report", a.report.report.as_deref()),
        ],
    )?;
    report::check(&a.report, a.output.as_deref(), None)?;
    if let Some(path) = &a.design {
        return verify_design(path, &a);
    }
    let path = a
        .mechanism
        .as_deref()
        .expect("clap requires --mechanism without --design");
    let est = load_estimate(&a.input)?;
    let (mechanism, labels) = load_mechanism(path, &a.input, &est)?;
    let (set, radius) = uncertainty_set(&a, &est)?;
    let metric = metric_level(&a.metric, &mechanism)?;
    pmldesign_model::envelope::check_delta(a.envelope_delta)
        .map_err(|e| CliError::Usage(format!("--envelope-delta: {e}")))?;
    let report = Audit::new(&mechanism, &est.prior, set.as_ref(), a.envelope_delta)?
        .labels(labels)
        .source(path.display().to_string())
        .radius(radius)
        .metric(metric);
    let page = audit_report(&a, &report)?;
    emit_with_report(
        a.output.as_deref(),
        &render_assessment(&report, a.format())?,
        page,
    )
}

/// The audit's HTML report, when `--report` asks for one (clap refuses
/// `--tradeoff-budget`, for designs only, with `--mechanism`).
fn audit_report(a: &AssessArgs, r: &Audit) -> Result<report::Report, CliError> {
    let Some(path) = report::checked_path(a.report.report.as_ref(), a.output.as_deref())? else {
        return Ok(None);
    };
    let audit = pmldesign_report::Audit {
        assessment: r.assessment(),
        envelope: r.envelope(),
        labels: r.label_names(),
        source: r.source_name(),
    };
    Ok(Some((path, pmldesign_report::audit(&audit))))
}

/// The set of priors asked for (`--beta`, `--delta` or `--priors`), if any, and
/// where the radius of `--delta` came from.
fn uncertainty_set(
    a: &AssessArgs,
    est: &Estimate,
) -> Result<(Option<UncertaintySet>, Option<RadiusSource>), CliError> {
    if let Some(beta) = a.beta {
        let set = UncertaintySet::l1_ball(est.prior.clone(), beta)
            .map_err(|e| CliError::Usage(format!("--beta: {e}")))?;
        return Ok((Some(set), None));
    }
    if let Some(delta) = a.delta {
        let samples = est
            .samples
            .expect("clap refuses --delta with --prior, the one input without a sample size");
        let (set, radius) = RadiusSource::sample_ball(&est.prior, samples, delta, a.radius)?;
        return Ok((Some(set), Some(radius)));
    }
    match &a.priors {
        Some(path) => Ok((Some(read_priors(path, est.prior.len())?), None)),
        None => Ok((None, None)),
    }
}

/// `pml assess --design FILE`: the design read back (which re-measures its
/// privacy over the whole set), verified ([`Design::verify`]), and the verdict.
fn verify_design(path: &Path, a: &AssessArgs) -> Result<(), CliError> {
    let shown = path.display().to_string();
    let text = read_text("--design", path)?;
    if let Some(r) = record_from_text("--design", path, &text)? {
        let verified = r
            .designs()
            .iter()
            .map(|d| d.verify())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| CliError::Usage(format!("--design {shown}: {e}")))?;
        let text = render_record_verdict(&r, &verified, &shown, a.format())?;
        let page = report::record_report(&r, &a.report, a.output.as_deref(), Some(shown))?;
        return emit_with_report(a.output.as_deref(), &text, page);
    }
    // Reading verifies it: the verification is the one reading ran.
    let VerifiedDesign {
        design: d,
        verification: v,
    } = design_from_text("--design", path, &text)?;
    let text = render_verdict(&d, &v, &shown, a.format())?;
    let page = report::design_report(
        &d,
        &a.report,
        a.output.as_deref(),
        Some(shown),
        (&Settings::default(), None),
    )?;
    emit_with_report(a.output.as_deref(), &text, page)
}

/// The metric of `--metric`/`--metric-matrix` and the smallest eps for which
/// the mechanism is d-private under it (`measures::metric_level`).
fn metric_level(
    args: &MetricArgs,
    mechanism: &Mechanism,
) -> Result<Option<(&'static str, f64)>, CliError> {
    let Some(metric) = load_metric(args, mechanism.inputs())? else {
        return Ok(None);
    };
    Ok(Some(pmldesign_app::audit::metric_level(
        mechanism, &metric,
    )?))
}
