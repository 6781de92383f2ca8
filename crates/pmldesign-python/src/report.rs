//! HTML reports for Python (`Design.to_html`, `RecordDesign.to_html`): the JSON
//! of a design read back as a stored design is (re-certified, its figures
//! re-derived), then rendered by `pmldesign-report`. Nothing is trusted from the
//! text but the mechanism and what the reading re-checks.

use crate::engine::{Result, guarded, invalid, read_design};
use crate::record::read_record;
use pmldesign::solver::Settings;
use pmldesign_report::ReportOptions;
use std::time::Duration;

/// The trade-off budget: `None` or 0 for no curve; negative or not finite is refused.
fn budget(seconds: Option<f64>) -> Result<Option<Duration>> {
    let Some(s) = seconds else {
        return Ok(None);
    };
    pmldesign_report::tradeoff_budget(s).map_err(|_| {
        invalid(
            "budget",
            s,
            "not a number of seconds >= 0",
            "pass e.g. budget=20 (tradeoff=False leaves the curve out)",
        )
    })
}

/// The report of a design's JSON, with the trade-off curve under `tradeoff_seconds`.
pub fn design_report(
    text: &str,
    tradeoff_seconds: Option<f64>,
    design_file: Option<String>,
) -> Result<String> {
    guarded(|| {
        let budget = budget(tradeoff_seconds)?;
        let d = read_design(text)?;
        let tradeoff = budget.map(|b| pmldesign_report::tradeoff(&d, &Settings::default(), b));
        let options = ReportOptions {
            design_file,
            tradeoff,
            ..ReportOptions::default()
        };
        Ok(pmldesign_report::design(&d, &options))
    })
}

/// The report of a record design's JSON (its file, `{"record": ...}`).
pub fn record_report(text: &str, design_file: Option<String>) -> Result<String> {
    guarded(|| {
        let r = read_record(text)?;
        let options = ReportOptions {
            design_file,
            ..ReportOptions::default()
        };
        Ok(pmldesign_report::record(&r, &options))
    })
}
