//! The distance of metric privacy: `--metric` or `--metric-matrix`. Reading the
//! matrix file is [`crate::io::load::load_metric`]'s.

use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// The distance of metric (d-) privacy (docs/theory.md §9): a built-in one or a
/// matrix file.
#[derive(Debug, Args)]
pub struct MetricArgs {
    /// The distance d(x, x') for metric privacy, W[x][y] <= e^(eps d(x, x'))
    /// W[x'][y]: discrete (1 between distinct inputs: eps-LDP) or line (|i - j|
    /// over the label order).
    #[arg(long, value_enum, conflicts_with = "metric_matrix")]
    pub metric: Option<MetricName>,
    /// The distance as an N x N matrix file (CSV rows or a JSON array of rows):
    /// finite, >= 0, zero on the diagonal and symmetric.
    #[arg(long, value_name = "FILE")]
    pub metric_matrix: Option<PathBuf>,
}

impl MetricArgs {
    /// The `--metric-matrix` file with its flag, for the check that no output
    /// overwrites it.
    pub fn named(&self) -> (&'static str, Option<&std::path::Path>) {
        ("--metric-matrix", self.metric_matrix.as_deref())
    }
}

/// Built-in distances (`--metric`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MetricName {
    /// d(x, x') = 1 for x != x' (eps-LDP).
    Discrete,
    /// d(x, x') = |i - j| over the label order.
    Line,
}
