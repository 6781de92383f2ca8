//! The arguments of `pml assess`, and its formats.

use super::{Input, MetricArgs, ReportArgs, extension, radius_method};
use clap::{Args, ValueEnum};
use pmldesign_model::sample::RadiusMethod;
use std::io::IsTerminal;
use std::path::PathBuf;

/// Arguments of `pml assess`.
#[derive(Debug, Args)]
pub struct AssessArgs {
    /// The mechanism: the JSON written by `pml design --format json`, a JSON array of
    /// rows, or CSV rows (optional header `input,y1,..`; optional leading label
    /// column). One row per input symbol, each summing to 1. `-`: standard input.
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "design",
        conflicts_with = "tradeoff_budget"
    )]
    pub mechanism: Option<PathBuf>,
    /// Verify a design file instead: the JSON written by `pml design --format
    /// json`. Its privacy is re-measured over its whole set, its utility (or
    /// expected loss) on its matrix, and its LP dual re-priced over every ray;
    /// the verdict is printed, and an altered file exits 2 naming the field.
    /// `-`: standard input.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["mechanism", "prior", "counts", "data", "labels", "labels_file", "beta", "delta", "priors"]
    )]
    pub design: Option<PathBuf>,
    /// The prior (or its estimate) the mechanism is assessed under.
    #[command(flatten)]
    pub input: Input,
    /// Also assess over every prior within this l1 distance of the prior:
    /// leakage capacity, sensitivity, and Theorem 4 / Corollary 2 beside them.
    #[arg(long, allow_hyphen_values = true, conflicts_with_all = ["delta", "priors"])]
    pub beta: Option<f64>,
    /// With --counts or --data: assess over the l1 ball that holds the true prior
    /// with probability 1 - delta (radius from the sample size).
    #[arg(long, allow_hyphen_values = true, conflicts_with_all = ["priors", "prior"])]
    pub delta: Option<f64>,
    /// How --delta becomes a radius: `free` is eq. (7), distribution-free; `kappa` is
    /// Theorem 2 with phi(kappa) of the estimate.
    #[arg(
        long,
        value_parser = radius_method("Theorem 2 with phi(kappa) at the estimate"),
        default_value = "free",
        requires = "delta"
    )]
    pub radius: RadiusMethod,
    /// Also assess over the convex hull of these priors: a JSON array of arrays, or
    /// CSV rows, one prior per row.
    #[arg(long, value_name = "FILE")]
    pub priors: Option<PathBuf>,
    /// Also report the smallest eps for which the mechanism is d-private under
    /// this distance (metric privacy, docs/theory.md §9).
    #[command(flatten)]
    pub metric: MetricArgs,
    /// The failure probability of the post-processing-safe guarantee reported beside
    /// eps: bounds on the PML envelope at this delta ([V] Thm 3, Alg. 1).
    #[arg(long, default_value_t = 0.05, allow_hyphen_values = true)]
    pub envelope_delta: f64,
    /// Output format; defaults to table on a terminal, otherwise JSON (or by the
    /// extension of --output: .txt gives a table).
    #[arg(long, value_enum)]
    pub format: Option<AssessFormat>,
    /// Write to this file (a regular file is replaced atomically: a temporary file
    /// renamed into place; `-` is stdout; devices and pipes are written in place).
    #[arg(long)]
    pub output: Option<PathBuf>,
    /// The HTML report (with --design: the design's report, its trade-off curve
    /// under --tradeoff-budget; with --mechanism: the audit).
    #[command(flatten)]
    pub report: ReportArgs,
}

/// Output formats of `pml assess`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AssessFormat {
    /// A report for people.
    Table,
    /// One JSON object with every number.
    Json,
}

impl AssessArgs {
    /// The format asked for: by `--format`, the extension of `--output` (`.txt` is
    /// a table), or table on a terminal and JSON otherwise.
    pub fn format(&self) -> AssessFormat {
        self.format.unwrap_or_else(|| match &self.output {
            Some(p) if extension(p).as_deref() == Some("txt") => AssessFormat::Table,
            Some(_) => AssessFormat::Json,
            None if std::io::stdout().is_terminal() => AssessFormat::Table,
            None => AssessFormat::Json,
        })
    }
}
