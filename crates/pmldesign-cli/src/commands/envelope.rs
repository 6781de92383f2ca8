//! `pml envelope`: post-processing-safe `(eps, delta)` guarantees of a given mechanism
//! ([V] "Information leakage envelopes", `docs/theory.md` §8). Every number
//! comes from `pmldesign_model::envelope` and, with `--lp`, `pmldesign_solver::envelope`.

use crate::args::envelope::{EnvelopeArgs, parse_deltas};
use crate::error::CliError;
use crate::io::data::load_estimate;
use crate::io::load::load_mechanism;
use crate::io::write::{check_outputs, emit_with_report, write_atomic};
use crate::render::envelope::render;
use pmldesign_app::EnvelopeAnswer;
use pmldesign_model::envelope;

/// Runs `pml envelope`.
pub fn run(a: EnvelopeArgs) -> Result<(), CliError> {
    check_outputs(
        &[("--mechanism", Some(&a.mechanism)), a.input.named()],
        &[
            ("--output", a.output.path()),
            ("--plot", a.plot.as_deref()),
            ("--report", a.report.report.as_deref()),
        ],
    )?;
    let report_path = a.report.report.clone();
    let deltas = parse_deltas(&a.deltas)?;
    let settings = a.settings()?;
    envelope::check_delta(a.delta).map_err(|e| CliError::Usage(format!("--delta: {e}")))?;
    let est = load_estimate(&a.input)?;
    let (mechanism, labels) = load_mechanism(&a.mechanism, &a.input, &est)?;
    let lp = a.lp.then_some(&settings);
    let r = EnvelopeAnswer::new(&mechanism, &est.prior, &deltas, a.delta, lp)?
        .labels(labels)
        .source(a.mechanism.display().to_string());
    let curve = curve_of(&r, a.delta);
    if let Some(path) = &a.plot {
        write_atomic("--plot", path, &pmldesign_report::envelope_svg(&curve))?;
    }
    let page = report_path.map(|p| (p, pmldesign_report::envelope(&curve)));
    emit_with_report(a.output.path(), &render(&r, a.output.format())?, page)
}

/// What the report and the `--plot` of `pml envelope` draw.
fn curve_of(r: &EnvelopeAnswer, delta: f64) -> pmldesign_report::EnvelopeCurve<'_> {
    pmldesign_report::EnvelopeCurve {
        source: r.source_name(),
        mechanism: r.mechanism(),
        prior: r.prior(),
        labels: r.label_names(),
        curve: r.curve(),
        lp: r
            .lp()
            .map(|v| v.iter().map(|x| (x.lower, x.upper)).collect()),
        delta,
        statement: r.statement(),
    }
}
