//! The arguments of `pml compare`.

use super::utility::ComparedUtility;
use super::{Input, Level, MetricArgs, OutputArgs, ReportFileArgs};
use clap::Args;

/// Arguments of `pml compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Where the prior or its estimate comes from.
    #[command(flatten)]
    pub input: Input,
    /// The common level eps: PML(eps), PMC(eps), ALIP(eps, eps), LIP(eps), LDP(eps).
    #[command(flatten)]
    pub level: Level,
    /// The ALIP row's lower level eps_l (default eps).
    #[arg(long, allow_hyphen_values = true)]
    pub epsilon_lower: Option<f64>,
    /// The ALIP row's upper level eps_u (default eps).
    #[arg(long, allow_hyphen_values = true)]
    pub epsilon_upper: Option<f64>,
    /// Protect every prior within this l1 distance of the given one (vertex form;
    /// small alphabets).
    #[arg(long, allow_hyphen_values = true)]
    pub beta: Option<f64>,
    /// Add the row of metric privacy at eps for this distance (docs/theory.md §9).
    #[command(flatten)]
    pub metric: MetricArgs,
    /// The utility to maximise.
    #[arg(long, value_enum, default_value = "mi")]
    pub utility: ComparedUtility,
    /// Stop after this many seconds, shared by the notions' designs: each
    /// returns the best certified mechanism and bound found in its share, and
    /// its row's status says whether it is optimal.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true)]
    pub time_limit: Option<f64>,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
    /// The HTML report.
    #[command(flatten)]
    pub report: ReportFileArgs,
}
