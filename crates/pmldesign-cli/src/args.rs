//! Command-line arguments (clap) and their conversion into model values.

use crate::error::CliError;
use clap::{Args, Parser, Subcommand, ValueEnum};
use pmldesign_model::Prior;
use pmldesign_model::sample::{self, MAX_SAMPLES, RadiusMethod};
use std::io::IsTerminal;
use std::path::PathBuf;

/// The exit statuses, shown after `pml --help`.
const EXIT_STATUS: &str = "Exit status:
  0    success
  1    failure while working, including I/O errors (a file that cannot be read or written)
  2    usage error: bad input, named in a one-line message with the fix
  130  interrupted by SIGINT (Ctrl-C); 143: terminated by SIGTERM
       (temporary files are removed; no partial output is left)";

/// Optimal privacy mechanisms under pointwise maximal leakage (PML).
#[derive(Debug, Parser)]
#[command(name = "pml", version, about, long_about = None, after_help = EXIT_STATUS)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands. (Parsed once per run, so variant sizes do not matter.)
#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// Design the utility-optimal eps-PML mechanism for a prior, for every prior in
    /// an l1 ball around it, or from data with a failure probability delta;
    /// certified, with randomized-response baselines.
    Design(crate::commands::design::DesignArgs),
    /// Planning calculators: radius from samples, eps'(delta), delta_min and their
    /// inverses ([E] eqs. 7-8, Thm 2, Cor 3).
    Bounds(crate::commands::bounds::BoundsArgs),
    /// Audit a mechanism: PML per outcome, eps_min, tail curve, region, leakage
    /// capacity over a set of priors, sensitivity and the LDP parameter.
    Assess(crate::commands::assess::AssessArgs),
    /// Design under every notion (PML, PMC, ALIP, LIP, LDP) at a common level and
    /// print one table: utility, worst-case PML, PMC, LDP parameter, with the
    /// randomized-response rows.
    Compare(crate::commands::compare::CompareArgs),
    /// Post-processing-safe (eps, delta) guarantees of a mechanism: bounds on the PML
    /// envelope over a grid of delta beside the raw tail ([V] Thms 3-5, Alg. 1).
    Envelope(crate::commands::envelope::EnvelopeArgs),
    /// Apply a mechanism to a CSV column: each row's value x gets an output drawn
    /// from P(.|x) (or, for a {-1,1} column, x plus Laplace or Gaussian noise),
    /// added as a new column; streamed, reproducible with --seed.
    Apply(crate::commands::apply::ApplyArgs),
}

/// `--labels` checked by the library ([`pmldesign_solver::check_labels`]), or
/// `x1..xN`; errors name the flag.
pub fn check_labels(labels: Option<&[String]>, n: usize) -> Result<Vec<String>, CliError> {
    pmldesign_solver::check_labels(labels, n).map_err(|e| flag_error("--", e))
}

/// Parses `--radius`: `free` ([`RadiusMethod::DistributionFree`]) or `kappa`, each
/// value documented in `--help`; `kappa_help` says what the kappa method takes.
pub fn radius_method(
    kappa_help: &'static str,
) -> impl clap::builder::TypedValueParser<Value = RadiusMethod> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new([
        PossibleValue::new("free").help("Distribution-free beta*(delta), [E] eq. (7)"),
        PossibleValue::new("kappa").help(kappa_help),
    ])
    .map(|s| match s.as_str() {
        "kappa" => RadiusMethod::Kappa,
        _ => RadiusMethod::DistributionFree,
    })
}

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
}

/// Parses `--counts`: whole numbers (`40` or `4e1`), each at most
/// [`MAX_SAMPLES`]; returns them and the total m ([`sample::sample_size`]).
pub fn parse_counts(items: &[String]) -> Result<(Vec<u64>, u64), CliError> {
    let numbers = parse_numbers("--counts", items)?;
    let mut counts = Vec::with_capacity(numbers.len());
    for (i, &c) in numbers.iter().enumerate() {
        let s = items[i].trim();
        if !(c >= 0.0 && c.fract() == 0.0) {
            return Err(CliError::Usage(format!(
                "invalid --counts[{i}] = {s:?}: counts are whole numbers of samples (>= 0); give e.g. --counts 40,20,20,20"
            )));
        }
        if c > MAX_SAMPLES as f64 {
            return Err(CliError::Usage(format!(
                "invalid --counts[{i}] = {s:?}: above 2^53 = {MAX_SAMPLES}, counts are not exact; give counts (and a total) of at most 2^53"
            )));
        }
        counts.push(c as u64);
    }
    let total = sample::sample_size(&counts).map_err(|e| flag_error("--", e))?;
    Ok((counts, total))
}

/// A model error as a usage error whose field is named as a flag: `prefix` (such
/// as `--`) before the library's field name (`counts[1]` becomes `--counts[1]`).
pub fn flag_error(prefix: &str, e: pmldesign_model::ModelError) -> CliError {
    let pmldesign_model::ModelError::Invalid {
        field,
        value,
        problem,
        fix,
    } = e;
    CliError::Usage(format!(
        "invalid {prefix}{field} = {value}: {problem}; {fix}"
    ))
}

/// Parses comma-separated numbers, naming the flag and position on error.
pub fn parse_numbers(flag: &str, items: &[String]) -> Result<Vec<f64>, CliError> {
    items
        .iter()
        .enumerate()
        .map(|(i, s)| {
            s.trim().parse::<f64>().map_err(|_| {
                CliError::Usage(format!(
                    "invalid {flag}[{i}] = {s:?}: not a number; give comma-separated numbers like 0.4,0.2,0.2,0.2"
                ))
            })
        })
        .collect()
}

/// Parses a whole number >= 0 (`--samples`, `--seed`): the flags take hyphen values
/// so that a negative one is refused with this reason (clap names the flag), not
/// taken for an unknown flag.
pub fn whole_number(s: &str) -> Result<u64, String> {
    let t = s.trim();
    t.parse::<u64>().map_err(|_| {
        let what = if t.starts_with('-') {
            "a negative number"
        } else {
            "not a whole number"
        };
        format!("{what}; give a whole number >= 0 such as 1000")
    })
}

/// [`whole_number`] as a `usize` (`--alphabet`).
pub fn whole_count(s: &str) -> Result<usize, String> {
    let n = whole_number(s)?;
    usize::try_from(n).map_err(|_| format!("{n} is too large for this machine"))
}

/// The privacy level, as eps or as e^eps.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct Level {
    /// Privacy level eps >= 0 (natural log).
    #[arg(long, allow_hyphen_values = true)]
    pub epsilon: Option<f64>,
    /// Privacy level given as e^eps >= 1 (papers write eps = ln(9/8) as 1.125).
    #[arg(long, allow_hyphen_values = true)]
    pub exp_epsilon: Option<f64>,
}

impl Level {
    /// eps, from whichever flag was given.
    pub fn epsilon(&self) -> Result<f64, CliError> {
        match (self.epsilon, self.exp_epsilon) {
            (Some(e), _) => {
                if !e.is_finite() || e < 0.0 {
                    return Err(CliError::Usage(format!(
                        "invalid --epsilon = {e}: the privacy level must be a finite number >= 0; pass e.g. --epsilon 0.5"
                    )));
                }
                Ok(e)
            }
            (_, Some(x)) => {
                if !x.is_finite() || x < 1.0 {
                    return Err(CliError::Usage(format!(
                        "invalid --exp-epsilon = {x}: e^eps must be a finite number >= 1; pass e.g. --exp-epsilon 1.125"
                    )));
                }
                Ok(x.ln())
            }
            _ => Err(CliError::Usage(
                "give the level with --epsilon or --exp-epsilon".into(),
            )),
        }
    }
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A table for people (the default on a terminal).
    Table,
    /// One JSON object (the default otherwise).
    Json,
    /// CSV: the mechanism matrix, one row per input (`pml envelope`: the curve, one
    /// row per delta).
    Csv,
}

/// Where and how to write.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Output format; defaults to table on a terminal, otherwise JSON (or by the
    /// extension of --output).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Write to this file (a regular file is replaced atomically: a temporary file
    /// renamed into place; `-` is stdout; devices and pipes are written in place).
    #[arg(long)]
    pub output: Option<PathBuf>,
}

impl OutputArgs {
    /// The format asked for, or the default.
    pub fn format(&self) -> Format {
        if let Some(f) = self.format {
            return f;
        }
        match &self.output {
            Some(p) => match extension(p).as_deref() {
                Some("csv") => Format::Csv,
                Some("txt") => Format::Table,
                _ => Format::Json,
            },
            None if std::io::stdout().is_terminal() => Format::Table,
            None => Format::Json,
        }
    }
}

/// The extension of `path` in lower case (`a.CSV` is CSV).
pub fn extension(path: &std::path::Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

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

/// Built-in distances (`--metric`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MetricName {
    /// d(x, x') = 1 for x != x' (eps-LDP).
    Discrete,
    /// d(x, x') = |i - j| over the label order.
    Line,
}
