//! The arguments of `pml estimate`.

use super::OutputArgs;
use clap::{ArgGroup, Args, ValueEnum};
use std::path::PathBuf;

/// Arguments of `pml estimate`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("released").required(true).args(["data", "counts"])))]
pub struct EstimateArgs {
    /// The mechanism the data were released through: the JSON written by `pml
    /// design --format json` (verified before it is used), a JSON array of rows,
    /// or CSV rows. Its output names (`y1..yM` unless the file names them) are the
    /// released values. `-` reads it from standard input (then --data is a file).
    #[arg(long, value_name = "FILE")]
    pub mechanism: PathBuf,
    /// A CSV (`-` for stdin) or Parquet file of released data; with --column,
    /// or, for a record design, its released columns `{column}_private` (the
    /// joint distribution and each column's marginal are estimated).
    #[arg(long, value_name = "FILE")]
    pub data: Option<PathBuf>,
    /// The format of --data [default: parquet for names ending in .parquet,
    /// else csv].
    #[arg(long, value_enum, requires = "data")]
    pub data_format: Option<super::input::DataFormat>,
    /// The released column of --data (for example `state_private`).
    #[arg(long, value_name = "NAME", requires = "data")]
    pub column: Option<String>,
    /// A missing released value (written by `pml apply` for a row left out with
    /// `--nulls drop`): error, or drop (left out of the estimate; `category` is
    /// an input label, never a released value, so it is taken as error)
    /// [default: the rule the design recorded; error for a bare matrix].
    #[arg(long, value_enum, requires = "data")]
    pub nulls: Option<super::NullsArg>,
    /// Instead of --data: the counts of released values, one per output in order
    /// (`120,80,40`) or by name (`y1=120,y2=80,y3=40`; outputs not named count 0).
    #[arg(long, value_name = "COUNTS", conflicts_with = "data")]
    pub counts: Option<String>,
    /// `em` (the default): the maximum-likelihood estimate (never negative);
    /// `inversion`: the unbiased least-squares estimate, projected onto the
    /// simplex. Not for a record design, whose cells are estimated unbiasedly
    /// where the released tuples determine them and by EM elsewhere.
    #[arg(long, value_enum)]
    pub method: Option<MethodArg>,
    /// Two-sided confidence of the intervals (delta method), in (0, 1).
    #[arg(long, default_value_t = 0.95, allow_hyphen_values = true)]
    pub confidence: f64,
    /// Check the intervals by a parametric bootstrap of this many replicates (2 to
    /// 100,000): released counts drawn again from the fitted model, each estimated
    /// as the data were; shown beside the delta method's figures.
    #[arg(long, value_name = "REPS")]
    pub bootstrap: Option<usize>,
    /// The key of the bootstrap's draws (a whole number below 2^256) [default: 0,
    /// so that a check is reproducible].
    #[arg(long, value_name = "S", requires = "bootstrap")]
    pub seed: Option<String>,
    /// Start no bootstrap replicate after this many seconds: the check is then
    /// of the replicates drawn (at least 2), and a warning says how many.
    #[arg(
        long,
        value_name = "SECONDS",
        requires = "bootstrap",
        allow_hyphen_values = true
    )]
    pub time_limit: Option<f64>,
    /// Output options: table, JSON, or CSV (one row per group of inputs).
    #[command(flatten)]
    pub output: OutputArgs,
}

/// `--method`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MethodArg {
    /// Maximum likelihood by expectation-maximisation.
    Em,
    /// Least squares, projected onto the simplex.
    Inversion,
}
