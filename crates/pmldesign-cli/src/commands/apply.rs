//! `pml apply`: run a mechanism on a CSV column, one record at a time. Parsing and
//! reporting only: the sampling is `pmldesign_data::sampler`, the streaming
//! `pmldesign_data::privatise_column`.

use crate::args::check_labels;
use crate::error::CliError;
use crate::io::data::open_data;
use crate::io::matrix::read_mechanism;
use crate::io::write::{write_atomic_with, write_error};
use clap::{ArgGroup, Args, ValueEnum};
use pmldesign_data::{
    AdditiveNoise, BinaryAdditivePrivatiser, CategoricalPrivatiser, ColumnPrivatiser, OnUnknown,
    Placement, PrivatiseError, PrivatiseSummary, SamplerRng, entropy_rng, privatise_column,
    seeded_rng,
};
use pmldesign_model::Mechanism;
use pmldesign_solver::numbered;
use std::path::PathBuf;

/// Arguments of `pml apply`.
#[derive(Debug, Args)]
#[command(group(ArgGroup::new("noise").required(true).args(["mechanism", "laplace_scale", "gaussian_sigma"])))]
pub struct ApplyArgs {
    /// The mechanism: the JSON written by `pml design --format json`, a JSON array of
    /// rows, or CSV rows (as for `pml assess`). Row labels in the file name the
    /// values of the column; outputs are written by their names (`y1..yM`).
    #[arg(long, value_name = "FILE")]
    pub mechanism: Option<PathBuf>,
    /// Instead of --mechanism: add Laplace noise of this scale b to a column of -1
    /// and 1 (the binary Laplace mechanism, [E] Sec. VI-A).
    #[arg(long, value_name = "B", allow_hyphen_values = true)]
    pub laplace_scale: Option<f64>,
    /// Instead of --mechanism: add Gaussian noise of this standard deviation to a
    /// column of -1 and 1 (the binary Gaussian mechanism, [E] Sec. VI-B).
    #[arg(long, value_name = "SIGMA", allow_hyphen_values = true)]
    pub gaussian_sigma: Option<f64>,
    /// The CSV file (with a header row) to privatise, `-` for standard input;
    /// streamed, never held in memory.
    #[arg(long, value_name = "IN.csv")]
    pub data: PathBuf,
    /// The column holding the secret.
    #[arg(long, value_name = "NAME")]
    pub column: String,
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
    /// Seed of the random draws: the same seed, mechanism and input give the same
    /// output. Anyone who knows the seed can replay the draws, so keep it secret;
    /// without --seed, fresh randomness from the operating system is used.
    #[arg(long, value_name = "S", allow_hyphen_values = true, value_parser = crate::args::whole_number)]
    pub seed: Option<u64>,
    /// What to do with a row whose value is not one of the mechanism's labels.
    #[arg(long, value_enum, default_value = "error")]
    pub on_unknown: Unknown,
    /// The values of the column for the mechanism's rows, in row order,
    /// comma-separated (overrides the labels stored in the mechanism file).
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

/// Runs `pml apply`.
pub fn run(a: ApplyArgs) -> Result<(), CliError> {
    let rng = a.seed.map_or_else(entropy_rng, seeded_rng);
    let mut privatiser = privatiser(&a, rng)?;
    let on_unknown = match a.on_unknown {
        Unknown::Error => OnUnknown::Error,
        Unknown::Skip => OnUnknown::Skip,
        Unknown::Keep => OnUnknown::Keep,
    };
    let default_name = format!("{}_private", a.column);
    let placement = if a.replace {
        Placement::Replace
    } else {
        Placement::Append(a.output_column.as_deref().unwrap_or(&default_name))
    };
    let data = a.data.display();
    let file = open_data(&a.data)?;
    let summary = write_atomic_with("--output", &a.output, |w| {
        privatise_column(
            file,
            w,
            &a.column,
            placement,
            on_unknown,
            privatiser.as_mut(),
        )
        .map_err(|e| match e {
            PrivatiseError::Input(e) => CliError::Usage(format!("--data {data}: {e}")),
            PrivatiseError::Unknown(e) => CliError::Usage(format!(
                "--data {data}: {e} (`--on-unknown skip|keep` in the CLI)"
            )),
            PrivatiseError::Read(e) => CliError::Failure(format!("cannot read --data {data}: {e}")),
            PrivatiseError::Write(e) => write_error("--output", &a.output, &e),
        })
    })?;
    eprintln!("{}", describe(&summary, &a));
    Ok(())
}

/// The smallest noise scale: below f64::EPSILON (2.2e-16) the noise is mostly lost
/// when added to -1 or 1, and the secret would be written out unchanged.
pub const MIN_SCALE: f64 = f64::EPSILON;
/// The largest noise scale: beyond it a draw can overflow to infinity.
pub const MAX_SCALE: f64 = 1e300;

/// Checks a noise scale (`--laplace-scale`, `--gaussian-sigma`): a finite number in
/// [`MIN_SCALE`, `MAX_SCALE`].
fn check_scale(flag: &str, v: f64) -> Result<(), CliError> {
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

/// The sampler asked for: a mechanism with its labels, or additive noise.
fn privatiser(a: &ApplyArgs, rng: SamplerRng) -> Result<Box<dyn ColumnPrivatiser>, CliError> {
    if let Some(b) = a.laplace_scale {
        check_scale("--laplace-scale", b)?;
        let noise = AdditiveNoise::laplace(b)
            .map_err(|e| CliError::Usage(format!("--laplace-scale: {e}")))?;
        return Ok(Box::new(BinaryAdditivePrivatiser::new(noise, rng)));
    }
    if let Some(s) = a.gaussian_sigma {
        check_scale("--gaussian-sigma", s)?;
        let noise = AdditiveNoise::gaussian(s)
            .map_err(|e| CliError::Usage(format!("--gaussian-sigma: {e}")))?;
        return Ok(Box::new(BinaryAdditivePrivatiser::new(noise, rng)));
    }
    let path = a
        .mechanism
        .as_ref()
        .expect("clap requires one of the three");
    let shown = path.display();
    let file = read_mechanism(path)?;
    let mechanism = Mechanism::from_rows(file.rows)
        .map_err(|e| CliError::Usage(format!("--mechanism {shown}: {e}")))?;
    let labels = match &a.labels {
        Some(l) => check_labels(Some(l), mechanism.inputs())?,
        None => pmldesign_solver::check_labels(file.labels.as_deref(), mechanism.inputs())
            .map_err(|e| CliError::Usage(format!("--mechanism {shown}: the row labels: {e}")))?,
    };
    let outputs = match a.output_labels.as_ref().or(file.outputs.as_ref()) {
        Some(o) => o.clone(),
        None => numbered("y", mechanism.outputs()),
    };
    // Written as cells of the output CSV: guarded against formula injection.
    let outputs: Vec<String> = outputs
        .iter()
        .map(|o| crate::render::csv::defuse(o).into_owned())
        .collect();
    let p = CategoricalPrivatiser::new(&mechanism, labels, outputs, rng).map_err(|e| {
        CliError::Usage(format!(
            "--mechanism {shown}: {e} (use --labels / --output-labels to name them)"
        ))
    })?;
    Ok(Box::new(p))
}

/// One line for stderr: what was read and written, and the rows outside the alphabet.
fn describe(s: &PrivatiseSummary, a: &ApplyArgs) -> String {
    let mut line = format!(
        "pml apply: read {} of {}, wrote {} with {} privatised",
        rows(s.rows),
        a.data.display(),
        a.output.display(),
        s.privatised
    );
    if s.skipped > 0 {
        line.push_str(&format!(
            "; {} with a value outside the alphabet skipped",
            rows(s.skipped)
        ));
    }
    if s.kept > 0 {
        line.push_str(&format!(
            "; {} with a value outside the alphabet kept with an empty privatised value",
            rows(s.kept)
        ));
    }
    if let Some((line_no, value)) = &s.first_unknown {
        line.push_str(&format!(" (the first at line {line_no}: {value:?})"));
    }
    line
}

fn rows(n: u64) -> String {
    format!("{n} row{}", if n == 1 { "" } else { "s" })
}
