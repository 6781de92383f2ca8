//! `--report FILE.html` and the budget of its trade-off curve: the HTML report
//! written beside the command's usual output (by [`crate::io::write`]).

use crate::error::CliError;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// The trade-off curve's budget without `--tradeoff-budget` or `--time-limit`.
pub const DEFAULT_TRADEOFF_SECONDS: f64 = 20.0;

/// The HTML report of a design.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Also write a self-contained HTML report of the design to this file (inline
    /// SVG and CSS, nothing loaded from outside; replaced atomically).
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
    /// With --report: the seconds shared by the trade-off curve's designs (12
    /// levels of eps from eps/8 to 4 eps, each certified); 0 leaves the curve out
    /// [default: 20, or --time-limit when smaller].
    #[arg(
        long,
        value_name = "SECONDS",
        requires = "report",
        allow_hyphen_values = true
    )]
    pub tradeoff_budget: Option<f64>,
}

/// The HTML report of a command without a trade-off curve (`pml compare`,
/// `pml envelope`).
#[derive(Debug, Args)]
pub struct ReportFileArgs {
    /// Also write a self-contained HTML report to this file (inline SVG and CSS,
    /// nothing loaded from outside; replaced atomically).
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
}

impl ReportArgs {
    /// The trade-off budget: `--tradeoff-budget`, else the default capped by
    /// `time_limit`; `None` for no curve (0). A negative or non-finite number is
    /// a usage error naming the flag.
    pub fn tradeoff_budget(&self, time_limit: Option<f64>) -> Result<Option<Duration>, CliError> {
        let seconds = match self.tradeoff_budget {
            Some(t) => t,
            None => time_limit.map_or(DEFAULT_TRADEOFF_SECONDS, |l| {
                l.min(DEFAULT_TRADEOFF_SECONDS)
            }),
        };
        pmldesign_report::tradeoff_budget(seconds).map_err(|_| {
            CliError::Usage(format!(
                "invalid --tradeoff-budget = {seconds:?}: give a number of seconds >= 0, e.g. --tradeoff-budget 20 (0 leaves the trade-off curve out)"
            ))
        })
    }
}
