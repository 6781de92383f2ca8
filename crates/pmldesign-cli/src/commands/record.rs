//! `pml design` with two or more `--column`: a whole record released under one
//! guarantee (docs/theory.md §12), by `pmldesign_solver::RecordProblem`.

use crate::args::design::{DesignArgs, NotionName, RecordModeName};
use crate::args::{UtilityName, parse_numbers};
use crate::error::CliError;
use crate::io::data::load_record;
use crate::io::write::{check_outputs, emit_with_report};
use crate::render::record::render_record;
use crate::render::report;
use pmldesign_app::Reading;
use pmldesign_solver::{RecordMode, RecordProblem};

/// Runs `pml design --data F --column A --column B ...`.
pub fn run(a: DesignArgs) -> Result<(), CliError> {
    refuse_single_column_flags(&a)?;
    let (inputs, outputs) = a.files();
    check_outputs(&inputs, &outputs)?;
    let epsilon = a.level.epsilon()?;
    let settings = a.settings()?;
    report::check(&a.report, a.output.path(), a.time_limit)?;
    let sample = load_record(&a.input)?;
    let mut problem = RecordProblem::new(sample, epsilon)
        .mode(mode(a.record))
        .max_cells(a.max_cells)
        .settings(settings);
    if let Some(d) = a.delta {
        problem = problem.delta(d);
    }
    if let Some(split) = &a.split {
        if !matches!(a.record, RecordModeName::Compose | RecordModeName::Auto) {
            return Err(CliError::Usage(
                "invalid --split with --record joint|ldp: a split is the levels of compose; add --record compose".into(),
            ));
        }
        problem = problem
            .mode(RecordMode::Compose)
            .split(parse_numbers("--split", split)?);
    }
    let mut r = problem.solve().map_err(|e| match e.is_input_error() {
        true => CliError::Usage(flag_named(&e.to_string())),
        false => CliError::from(e),
    })?;
    // How the rows were read, kept so that `pml apply` reads them alike.
    Reading::new(a.input.nulls(), a.input.record_bins()?).keep_in_record(&mut r);
    let text = render_record(&r, a.output.format())?;
    let page = report::record_report(
        &r,
        &a.report,
        a.output.path(),
        report::written_design(&a.output),
    )?;
    emit_with_report(a.output.path(), &text, page)
}

fn mode(name: RecordModeName) -> RecordMode {
    crate::args::values::named(name)
}

/// The solver's field names as the flags that set them.
fn flag_named(message: &str) -> String {
    message
        .replacen("invalid split", "invalid --split", 1)
        .replacen("invalid max_cells", "invalid --max-cells", 1)
        .replacen("invalid record", "invalid --record", 1)
        .replacen("invalid epsilon", "invalid --epsilon", 1)
        .replacen("invalid delta", "invalid --delta", 1)
}

/// Flags of a single column's design that a record does not take (yet).
fn refuse_single_column_flags(a: &DesignArgs) -> Result<(), CliError> {
    let given = [
        (
            a.notion != NotionName::Pml,
            "--notion (records are released under PML)",
        ),
        (
            !matches!(a.utility, UtilityName::Mi),
            "--utility (records maximise mutual information)",
        ),
        (
            a.beta.is_some(),
            "--beta (a record's balls come from its conditionals; use --delta)",
        ),
        (
            a.input.labels().is_some(),
            "--labels (a record's labels come from its data)",
        ),
        (
            a.epsilon_lower.is_some() || a.epsilon_upper.is_some(),
            "--epsilon-lower/--epsilon-upper",
        ),
        (
            a.report.tradeoff_budget.is_some(),
            "--tradeoff-budget (a record's report has no trade-off curve)",
        ),
        (
            a.private_prior.is_some(),
            "--private-prior (noisy counts are for one column)",
        ),
    ];
    match given.iter().find(|(on, _)| *on) {
        Some((_, flag)) => Err(CliError::Usage(format!(
            "invalid {flag} with several --column: a record design does not take it; drop it"
        ))),
        None => Ok(()),
    }
}
