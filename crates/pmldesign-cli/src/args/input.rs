//! Where the prior comes from (`--prior`, `--counts`, `--data`) and the estimate it
//! becomes. Reading `--data` is [`crate::io::data::load_estimate`]'s.

use clap::Args;
use pmldesign_model::Prior;
use std::path::PathBuf;

/// Where the prior (or its estimate) comes from: masses, counts, or a CSV column.
#[derive(Debug, Args)]
pub struct Input {
    /// Prior masses, comma-separated, summing to 1 (e.g. 0.4,0.2,0.2,0.2).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true, conflicts_with_all = ["counts", "data"])]
    pub prior: Option<Vec<String>>,
    /// Category counts from m samples, comma-separated; the estimate is
    /// count / m.
    #[arg(
        long,
        value_delimiter = ',',
        allow_hyphen_values = true,
        conflicts_with = "data"
    )]
    pub counts: Option<Vec<String>>,
    /// A CSV file with a header (`-`: standard input); the estimate counts the
    /// values of --column (streamed, never held in memory).
    #[arg(long, requires = "column")]
    pub data: Option<PathBuf>,
    /// The CSV column holding the category.
    #[arg(long, requires = "data")]
    pub column: Option<String>,
    /// Names of the symbols, comma-separated, one per prior entry. With --data
    /// they fix the alphabet and its order.
    #[arg(long, value_delimiter = ',')]
    pub labels: Option<Vec<String>>,
}

/// A prior or an empirical estimate, with its labels and sample size.
#[derive(Debug, Clone)]
pub struct Estimate {
    /// The prior, or the empirical distribution `count / m`.
    pub prior: Prior,
    /// One name per symbol.
    pub labels: Vec<String>,
    /// The sample size m when the prior was estimated from counts or data.
    pub samples: Option<u64>,
    /// What was read and its SHA-256 (hex), for a prior counted from a data file.
    pub digest: Option<(String, String)>,
}
