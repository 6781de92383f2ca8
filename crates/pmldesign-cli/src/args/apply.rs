//! The arguments of `pml apply`, and the range of its noise scales.

use clap::{ArgGroup, Args, ValueEnum};
use std::path::PathBuf;

/// Arguments of `pml apply`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("noise").required(true).args(["mechanism", "laplace_scale", "laplace_epsilon", "gaussian_sigma"])))]
#[command(group(ArgGroup::new("additive").args(["laplace_scale", "laplace_epsilon", "gaussian_sigma"])))]
pub struct ApplyArgs {
    /// The mechanism: the JSON written by `pml design --format json`, a JSON array of
    /// rows, or CSV rows (as for `pml assess`). Row labels in the file name the
    /// values of the column; outputs are written by their names (`y1..yM`).
    /// A design file is verified before it is used (its privacy re-measured, its
    /// utility and bound re-checked); one that fails is refused. `-` reads it from
    /// standard input (then --data is a file).
    #[arg(long, value_name = "FILE")]
    pub mechanism: Option<PathBuf>,
    /// Apply a --mechanism design file without verifying it (a warning on stderr
    /// says that no guarantee holds).
    #[arg(long, requires = "mechanism")]
    pub unverified: bool,
    /// Instead of --mechanism: add discrete Laplace noise of scale b to a column of
    /// -1 and 1 (the binary Laplace mechanism, [E] Sec. VI-A, released on a grid:
    /// see --grid and --range). The guarantee measured on the released matrix is
    /// printed on stderr.
    #[arg(long, value_name = "B", allow_hyphen_values = true)]
    pub laplace_scale: Option<f64>,
    /// Instead of --laplace-scale: the discrete Laplace scale calibrated so that the
    /// released matrix, as measured, is EPS-LDP (EPS-PML for --prior); the scale
    /// found is printed on stderr.
    #[arg(long, value_name = "EPS", allow_hyphen_values = true)]
    pub laplace_epsilon: Option<f64>,
    /// Instead of --mechanism: add discrete Gaussian noise of this sigma to a
    /// column of -1 and 1 (the binary Gaussian mechanism, [E] Sec. VI-B, released
    /// on a grid; sigma² in grid steps is rounded to a multiple of 1/1024).
    #[arg(long, value_name = "SIGMA", allow_hyphen_values = true)]
    pub gaussian_sigma: Option<f64>,
    /// The step of the grid the noisy values are released on, 1/n for a whole n
    /// [default: the largest 1/n <= the scale (or sigma) / 8].
    #[arg(
        long,
        value_name = "G",
        allow_hyphen_values = true,
        requires = "additive"
    )]
    pub grid: Option<f64>,
    /// Release values in [-R, R], the tails clamped onto its ends; R >= 1, a
    /// multiple of the grid step [default: the smallest R beyond which each tail
    /// has mass <= --tail-delta under either secret].
    #[arg(
        long,
        value_name = "R",
        allow_hyphen_values = true,
        requires = "additive",
        conflicts_with = "tail_delta"
    )]
    pub range: Option<f64>,
    /// The tail mass that picks the default --range.
    #[arg(
        long,
        value_name = "DELTA",
        allow_hyphen_values = true,
        requires = "additive"
    )]
    pub tail_delta: Option<f64>,
    /// With additive noise: also state the PML of the release for this prior of
    /// the secret, P(-1),P(1) (the LDP level stated bounds PML for every prior).
    #[arg(
        long,
        value_delimiter = ',',
        allow_hyphen_values = true,
        requires = "additive"
    )]
    pub prior: Option<Vec<f64>>,
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
    /// (Python's `apply(..., key=)`). A missing key is an error, and so is a key
    /// on two rows (their draws would be the same: release one record per user
    /// with a record design instead). The keys seen are held in memory, about
    /// 55 bytes a row at peak.
    #[arg(long, value_name = "NAME")]
    pub key: Option<String>,
    /// Where to write the release: the table's other columns as they are and the
    /// privatised column appended (`<column>_private`), the raw column left out
    /// (see --keep-raw, --replace). A regular file is replaced atomically (a
    /// temporary file renamed into place); `-` is stdout.
    #[arg(long, value_name = "OUT.csv")]
    pub output: PathBuf,
    /// Also write what was done as JSON (`schemas/apply.schema.json`): the rows
    /// read, privatised, left out (--on-unknown skip), kept with an empty value
    /// (keep) and written missing (--nulls drop), the first value outside the
    /// alphabet and the columns written. `-` is stdout (not with `--output -`).
    #[arg(long, value_name = "FILE.json")]
    pub summary: Option<PathBuf>,
    /// Name of the added column [default: <column>_private].
    #[arg(long, value_name = "NAME", conflicts_with = "replace")]
    pub output_column: Option<String>,
    /// Write the privatised values in the secret column's place, under its name,
    /// instead of appending `<column>_private` (record designs: every column of
    /// the record).
    #[arg(long)]
    pub replace: bool,
    /// Keep the raw secret column (record designs: every raw column of the
    /// record) beside the privatised one. The output is then not a release: it
    /// holds the very values the guarantee protects; a warning says so.
    #[arg(long, conflicts_with = "replace")]
    pub keep_raw: bool,
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
    /// What a missing value (an empty CSV field, a Parquet null) does: error (as a
    /// value outside the alphabet: see --on-unknown), drop (written missing; whether
    /// a value is missing is released as is) or category (privatised as the
    /// design's `<null>` input) [default: what the design recorded, else error].
    #[arg(long, value_enum, conflicts_with_all = ["laplace_scale", "laplace_epsilon", "gaussian_sigma"])]
    pub nulls: Option<super::NullsArg>,
    /// The values of the column for the rows of a bare matrix, in row order,
    /// comma-separated, quoted as in CSV where a value holds a comma
    /// (--labels '"a,b",c'). A design file's rows are certified for its own
    /// labels: with one, --labels must equal them (a design is never re-keyed).
    #[arg(long, value_name = "L1,L2,...", value_parser = super::values::parse_labels, conflicts_with_all = ["laplace_scale", "laplace_epsilon", "gaussian_sigma"])]
    pub labels: Option<super::values::Labels>,
    /// --labels read from a file, one value per line (a value may hold commas).
    #[arg(long, value_name = "FILE", value_parser = super::values::labels_file, conflicts_with_all = ["labels", "laplace_scale", "laplace_epsilon", "gaussian_sigma"])]
    pub labels_file: Option<super::values::Labels>,
    /// Names to write for the mechanism's outputs, comma-separated, in column order
    /// (default: the names in the file, else y1..yM). With a record design, name
    /// the column, once per column to rename: --output-labels COLUMN=N1,N2,...,
    /// one name per value its private column takes (compose and ldp: that
    /// column's outputs; joint: that column's labels, which the decoded outputs
    /// are written as).
    #[arg(long, value_name = "[COLUMN=]NAMES", action = clap::ArgAction::Append, conflicts_with_all = ["laplace_scale", "laplace_epsilon", "gaussian_sigma"])]
    pub output_labels: Vec<String>,
}

impl ApplyArgs {
    /// The labels given by `--labels` or `--labels-file`.
    pub fn labels(&self) -> Option<&[String]> {
        self.labels.as_deref().or(self.labels_file.as_deref())
    }
}

/// The names of one `--output-labels [COLUMN=]NAMES`: after `COLUMN=` when the
/// text starts with the name of `column` and `=`, else the whole text (so a
/// single mechanism's names may hold `=`).
pub fn output_names_for(text: &str, column: &str) -> Vec<String> {
    let names = match text.split_once('=') {
        Some((c, rest)) if c == column => rest,
        _ => text,
    };
    names.split(',').map(str::to_string).collect()
}

/// The column a record's `--output-labels COLUMN=NAMES` names, with its names.
pub fn record_output_names(text: &str) -> Option<(&str, Vec<String>)> {
    let (c, rest) = text.split_once('=')?;
    Some((c, rest.split(',').map(str::to_string).collect()))
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
