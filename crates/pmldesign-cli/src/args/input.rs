//! Where the prior comes from (`--prior`, `--counts`, `--data`) and the estimate it
//! becomes. Reading `--data` is [`crate::io::data::load_estimate`]'s.

use crate::error::CliError;
use clap::Args;
use pmldesign_data::Bins;
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
    /// A CSV file with a header (`-`: standard input) or a Parquet file; the
    /// estimate counts the values of --column (streamed, never held in memory).
    #[arg(long, requires = "column")]
    pub data: Option<PathBuf>,
    /// The column holding the category (`pml design`: repeat it for a record of
    /// several columns, released under one guarantee).
    #[arg(long, requires = "data", action = clap::ArgAction::Append)]
    pub column: Vec<String>,
    /// The format of --data [default: parquet for a name ending in .parquet, else csv].
    #[arg(long, value_enum, requires = "data")]
    pub data_format: Option<DataFormat>,
    /// What a missing value of --column (an empty CSV field, a Parquet null) does:
    /// error, drop (left out; `pml apply` then writes it missing, so whether a value
    /// is missing is released as is) or category (counted, and privatised, as one
    /// more category, `<null>`). The choice is recorded in the design [default: error].
    #[arg(long, value_enum, requires = "data")]
    pub nulls: Option<NullsArg>,
    /// Cut a numeric --column at these public edges, comma-separated and increasing
    /// (`-inf` first and `inf` last allowed): each bin `[a, b)` is a category, the
    /// bins in numeric order (the last includes its right edge). Edges must not come
    /// from the data, whose quantiles or range would leak; the edges are recorded in
    /// the design and `pml apply` cuts the column the same way. With several
    /// --column (a record), name the column: --bins COLUMN=E0,E1,..., once per
    /// numeric column.
    #[arg(long, value_name = "[COLUMN=]EDGES", requires = "data", conflicts_with_all = ["labels", "labels_file"], allow_hyphen_values = true, action = clap::ArgAction::Append, value_parser = parse_bins)]
    pub bins: Vec<BinsArg>,
    /// Names of the symbols, comma-separated, one per prior entry, quoted as in
    /// CSV where a name holds a comma (--labels '"a,b",c'). With --data they
    /// fix the alphabet and its order.
    #[arg(long, value_name = "L1,L2,...", value_parser = super::values::parse_labels)]
    pub labels: Option<super::values::Labels>,
    /// --labels read from a file, one label per line (a label may hold commas).
    #[arg(long, value_name = "FILE", conflicts_with = "labels", value_parser = super::values::labels_file)]
    pub labels_file: Option<super::values::Labels>,
}

impl Input {
    /// The labels given by `--labels` or `--labels-file`.
    pub fn labels(&self) -> Option<&[String]> {
        self.labels.as_deref().or(self.labels_file.as_deref())
    }

    /// The `--data` file with its flag, for the check that no output overwrites it.
    pub fn named(&self) -> (&'static str, Option<&std::path::Path>) {
        ("--data", self.data.as_deref())
    }

    /// The one `--column`, if given; several are a record, which only `pml design`
    /// takes.
    pub fn single_column(&self) -> Result<Option<&String>, CliError> {
        match self.column.as_slice() {
            [] => Ok(None),
            [c] => Ok(Some(c)),
            many => Err(CliError::Usage(format!(
                "invalid --column given {} times: only `pml design` takes several columns (a record); give one",
                many.len()
            ))),
        }
    }
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
    /// The counts behind the estimate (empty for `--prior`).
    pub counts: Vec<u64>,
    /// What was read and its SHA-256 (hex), for a prior counted from a data file.
    pub digest: Option<(String, String)>,
    /// Rows of --data with a missing value left out (`--nulls drop`).
    pub dropped: u64,
}

/// What a missing value does (`--nulls`), as `pmldesign_data::Nulls`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum NullsArg {
    /// Refused, naming its line or row.
    Error,
    /// Left out of the counts, written missing when privatised (missingness is
    /// released as is, outside the guarantee).
    Drop,
    /// One more category, `<null>`, protected with the rest.
    Category,
}

impl From<NullsArg> for pmldesign_data::Nulls {
    fn from(n: NullsArg) -> Self {
        let name = clap::ValueEnum::to_possible_value(&n).expect("every variant has a name");
        pmldesign_data::Nulls::parse("nulls", name.get_name())
            .expect("--nulls takes the library's names (tested in args::values)")
    }
}

impl Input {
    /// The `--nulls` choice [default: error].
    pub fn nulls(&self) -> pmldesign_data::Nulls {
        self.nulls.map_or(pmldesign_data::Nulls::Error, Into::into)
    }

    /// How `--data` is counted: `--labels`, `--nulls` and `--bins`.
    pub fn counting(&self) -> Result<pmldesign_data::Counting<'_>, CliError> {
        Ok(pmldesign_data::Counting {
            labels: self.labels(),
            nulls: self.nulls(),
            bins: self.column_bins()?,
        })
    }

    /// The `--bins` of one `--column`: given once, bare or naming that column.
    pub fn column_bins(&self) -> Result<Option<&Bins>, CliError> {
        match self.bins.as_slice() {
            [] => Ok(None),
            [b] => match &b.column {
                Some(c) if !self.column.contains(c) => Err(unknown_column(b, &self.column)),
                _ => Ok(Some(&b.bins)),
            },
            [_, again, ..] => Err(CliError::Usage(format!(
                "invalid --bins {}: --bins is given {} times for one --column; give it once",
                again.text,
                self.bins.len()
            ))),
        }
    }

    /// The `--bins COLUMN=EDGES` of a record, one per `--column` in their order
    /// (`None`: not binned); a bare `--bins EDGES`, an unknown column or one
    /// binned twice is refused.
    pub fn record_bins(&self) -> Result<Vec<Option<Bins>>, CliError> {
        let mut out: Vec<Option<Bins>> = vec![None; self.column.len()];
        for b in &self.bins {
            let Some(c) = &b.column else {
                return Err(CliError::Usage(format!(
                    "invalid --bins {} with several --column: say which column it cuts; write --bins COLUMN={}",
                    b.text, b.text
                )));
            };
            let Some(j) = self.column.iter().position(|k| k == c) else {
                return Err(unknown_column(b, &self.column));
            };
            if out[j].replace(b.bins.clone()).is_some() {
                return Err(CliError::Usage(format!(
                    "invalid --bins {c}={}: the column {c:?} is binned twice; give one --bins per column",
                    b.text
                )));
            }
        }
        Ok(out)
    }
}

/// The error of `--bins COLUMN=...` naming no `--column`.
fn unknown_column(b: &BinsArg, columns: &[String]) -> CliError {
    let c = b.column.as_deref().unwrap_or_default();
    CliError::Usage(format!(
        "invalid --bins {c}={}: {c:?} is not a --column ({}); name one of them",
        b.text,
        columns.join(", ")
    ))
}

/// One `--bins`: the column it cuts (`COLUMN=`, for a record), and its edges.
#[derive(Debug, Clone)]
pub struct BinsArg {
    /// The column named, if any.
    pub column: Option<String>,
    /// The edges, as given.
    pub text: String,
    /// The bins.
    pub bins: Bins,
}

/// `--bins [COLUMN=]EDGES`, the edges read by [`pmldesign_data::Bins::parse`]
/// (edges never hold `=`: the column is what comes before the last one).
fn parse_bins(text: &str) -> Result<BinsArg, String> {
    let (column, edges) = match text.rsplit_once('=') {
        Some((c, e)) if c.trim().is_empty() => {
            return Err(format!(
                "invalid --bins {text:?}: no column before `=`; write --bins COLUMN={e}, or --bins {e} for one column"
            ));
        }
        Some((c, e)) => (Some(c.to_string()), e),
        None => (None, text),
    };
    let field = match &column {
        Some(c) => format!("--bins {c}"),
        None => "--bins".into(),
    };
    let bins = Bins::parse(&field, edges).map_err(|e| e.to_string())?;
    Ok(BinsArg {
        column,
        text: edges.to_string(),
        bins,
    })
}

/// The format of a data file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DataFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// Apache Parquet (read and written one row group at a time).
    Parquet,
}

impl DataFormat {
    /// The format asked for, else the one the file's name says (`.parquet`, in
    /// any case, is Parquet; anything else CSV).
    pub fn of(path: &std::path::Path, asked: Option<DataFormat>) -> DataFormat {
        asked.unwrap_or_else(|| {
            let parquet = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("parquet"));
            if parquet {
                DataFormat::Parquet
            } else {
                DataFormat::Csv
            }
        })
    }
}
