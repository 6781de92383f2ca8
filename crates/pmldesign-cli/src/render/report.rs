//! `--report FILE.html`: the HTML report of a design, a record design, an audit,
//! a comparison or an envelope (`pmldesign-report`), a design's with its
//! trade-off curve solved under the budget of `--tradeoff-budget`. Returns the
//! page and its path; writing it is [`crate::io::write`]'s.

use crate::args::{Format, OutputArgs, ReportArgs};
use crate::error::CliError;
use crate::io::write::check_outputs;
use pmldesign_report::ReportOptions;
use pmldesign_solver::{Design, RecordDesign, Settings};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A page and the file it goes to.
pub type Report = Option<(PathBuf, String)>;

/// The design file `pml assess --design` can re-check: `--output` when it is JSON.
pub fn written_design(output: &OutputArgs) -> Option<String> {
    let path = output.path()?;
    (output.format() == Format::Json && path.as_os_str() != "-").then(|| path.display().to_string())
}

/// Refuses a `--report` that is the `--output` file.
pub fn checked_path(
    report: Option<&PathBuf>,
    output: Option<&Path>,
) -> Result<Option<PathBuf>, CliError> {
    check_outputs(
        &[],
        &[
            ("--output", output),
            ("--report", report.map(PathBuf::as_path)),
        ],
    )?;
    Ok(report.cloned())
}

/// Checks `--report` and `--tradeoff-budget` before any work is done.
pub fn check(
    r: &ReportArgs,
    output: Option<&Path>,
    time_limit: Option<f64>,
) -> Result<(), CliError> {
    checked_path(r.report.as_ref(), output)?;
    if r.report.is_some() {
        r.tradeoff_budget(time_limit)?;
    }
    Ok(())
}

/// The report of a single design, with its trade-off curve unless the budget is
/// 0; `design_file` is the file `pml assess --design` can re-check.
pub fn design_report(
    d: &Design,
    r: &ReportArgs,
    output: Option<&Path>,
    design_file: Option<String>,
    (settings, time_limit): (&Settings, Option<f64>),
) -> Result<Report, CliError> {
    let Some(path) = checked_path(r.report.as_ref(), output)? else {
        return Ok(None);
    };
    let budget = r.tradeoff_budget(time_limit)?;
    Ok(Some((path, design_page(d, settings, budget, design_file))))
}

/// The page of a single design: its trade-off curve solved under `budget`
/// (none without one), and `design_file` named in the re-check command.
pub fn design_page(
    d: &Design,
    settings: &Settings,
    budget: Option<Duration>,
    design_file: Option<String>,
) -> String {
    let options = ReportOptions {
        design_file,
        tradeoff: budget.map(|budget| pmldesign_report::tradeoff(d, settings, budget)),
        ..ReportOptions::default()
    };
    pmldesign_report::design(d, &options)
}

/// The report of a record design (no trade-off curve: `--tradeoff-budget` is for
/// single designs).
pub fn record_report(
    rec: &RecordDesign,
    r: &ReportArgs,
    output: Option<&Path>,
    design_file: Option<String>,
) -> Result<Report, CliError> {
    let Some(path) = checked_path(r.report.as_ref(), output)? else {
        return Ok(None);
    };
    let options = ReportOptions {
        design_file,
        ..ReportOptions::default()
    };
    Ok(Some((path, pmldesign_report::record(rec, &options))))
}
