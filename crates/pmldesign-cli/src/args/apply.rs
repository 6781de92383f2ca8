//! The arguments of `pml apply`, and the range of its noise scales.

use crate::error::CliError;
use clap::{ArgGroup, Args, ValueEnum};
use std::path::PathBuf;

/// Arguments of `pml apply`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("noise").required(true).args(["mechanism", "laplace_scale", "gaussian_sigma"])))]
pub struct ApplyArgs {
    /// The mechanism: the JSON written by `pml design --format json`, a JSON array of
    /// rows, or CSV rows (as for `pml assess`). Row labels in the file name the
    /// values of the column; outputs are written by their names (`y1..yM`).
    /// A design file is verified before it is used (its privacy re-measured, its
    /// utility and bound re-checked); one that fails is refused.
    #[arg(long, value_name = "FILE")]
    pub mechanism: Option<PathBuf>,
    /// Apply a --mechanism design file without verifying it (a warning on stderr
    /// says that no guarantee holds).
    #[arg(long, requires = "mechanism")]
    pub unverified: bool,
    /// Instead of --mechanism: add Laplace noise of this scale b to a column of -1
    /// and 1 (the binary Laplace mechanism, [E] Sec. VI-A).
    #[arg(long, value_name = "B", allow_hyphen_values = true)]
    pub laplace_scale: Option<f64>,
    /// Instead of --mechanism: add Gaussian noise of this standard deviation to a
    /// column of -1 and 1 (the binary Gaussian mechanism, [E] Sec. VI-B).
    #[arg(long, value_name = "SIGMA", allow_hyphen_values = true)]
    pub gaussian_sigma: Option<f64>,
    /// The CSV file (with a header row; `-` for standard input) or Parquet file to
    /// privatise; streamed, never held in memory.
    #[arg(long, value_name = "IN.csv")]
    pub data: PathBuf,
    /// The format of --data and --output [default: parquet for names ending in
    /// .parquet, else csv]. Parquet is written as Parquet, every column kept.
    #[arg(long, value_enum)]
    pub data_format: Option<super::input::DataFormat>,
    /// The column holding the secret (not with a record design, which names its
    /// columns and privatises each of them).
    #[arg(long, value_name = "NAME")]
    pub column: Option<String>,
    /// A column of user keys: each row draws from the place of the stream its key
    /// gives instead of its position, so reordered or split rows draw the same
    /// (Python's `apply(..., key=)`). A missing key is an error.
    #[arg(long, value_name = "NAME")]
    pub key: Option<String>,
    /// Where to write the CSV with the privatised column (a regular file is
    /// replaced atomically: a temporary file renamed into place; `-` is stdout).
    #[arg(long, value_name = "OUT.csv")]
    pub output: PathBuf,
    /// Name of the added column [default: <column>_private].
    #[arg(long, value_name = "NAME", conflicts_with = "replace")]
    pub output_column: Option<String>,
    /// Overwrite the secret column with the privatised values instead of adding a
    /// column (the output then holds no raw secret).
    #[arg(long)]
    pub replace: bool,
    /// Secret key of the random draws, a whole number below 2^256 (decimal or
    /// 0x-hex): the same key, mechanism, column name and rows give the same output,
    /// however the rows are split. Whoever knows it can undo most of the noise,
    /// and a short one is found by trying them all: use 256 random bits. Without
    /// --seed or --seed-file, a fresh key from the operating system is used.
    #[arg(
        long,
        value_name = "S",
        allow_hyphen_values = true,
        conflicts_with = "seed_file"
    )]
    pub seed: Option<String>,
    /// A file holding the secret key: a whole number as --seed takes it, or 32 raw
    /// bytes (`head -c 32 /dev/urandom > key`).
    #[arg(long, value_name = "FILE")]
    pub seed_file: Option<PathBuf>,
    /// What to do with a row whose value is not one of the mechanism's labels.
    #[arg(long, value_enum, default_value = "error")]
    pub on_unknown: Unknown,
    /// The values of the column for the rows of a bare matrix, in row order,
    /// comma-separated. A design file's rows are certified for its own labels:
    /// with one, --labels must equal them (a design is never re-keyed).
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["laplace_scale", "gaussian_sigma"])]
    pub labels: Option<Vec<String>>,
    /// Names to write for the mechanism's outputs, comma-separated, in column order
    /// (default: the names in the file, else y1..yM).
    #[arg(long, value_delimiter = ',', conflicts_with_all = ["laplace_scale", "gaussian_sigma"])]
    pub output_labels: Option<Vec<String>>,
}

/// Handling of values outside the alphabet.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Unknown {
    /// Stop with an error naming the line (the output is not written).
    Error,
    /// Leave such rows out of the output.
    Skip,
    /// Keep such rows, with an empty privatised value.
    Keep,
}

/// The smallest noise scale: below f64::EPSILON (2.2e-16) the noise is mostly lost
/// when added to -1 or 1, and the secret would be written out unchanged.
pub const MIN_SCALE: f64 = f64::EPSILON;

/// The largest noise scale: beyond it a draw can overflow to infinity.
pub const MAX_SCALE: f64 = 1e300;

/// Checks a noise scale (`--laplace-scale`, `--gaussian-sigma`): a finite number in
/// [`MIN_SCALE`, `MAX_SCALE`].
pub fn check_scale(flag: &str, v: f64) -> Result<(), CliError> {
    if (MIN_SCALE..=MAX_SCALE).contains(&v) {
        return Ok(());
    }
    let why = if !v.is_finite() {
        "not a finite number"
    } else if v <= 0.0 {
        "the scale must be > 0"
    } else if v < MIN_SCALE {
        "below 2.2e-16 (f64 epsilon) the noise is lost when added to -1 or 1, so values would come out unchanged"
    } else {
        "above 1e300 a draw can overflow to infinity"
    };
    Err(CliError::Usage(format!(
        "invalid {flag} = {v:?}: {why}; give a scale between 2.2e-16 and 1e300, such as {flag} 1"
    )))
}
