//! The prior of `--prior`, `--counts` or `--data`: the masses or counts parsed, or
//! the CSV column counted as it streams (standard input for `-`).

use crate::args::{DataFormat, Estimate, Input, check_labels, parse_counts, parse_numbers};
use crate::error::CliError;
use pmldesign_model::Prior;
use pmldesign_model::record::RecordSample;

/// Builds the prior, naming the flag and the entry on error.
pub fn load_estimate(input: &Input) -> Result<Estimate, CliError> {
    load_estimate_with(input, false)
}

/// [`load_estimate`], a mass 0 allowed when `zeros` (the estimate is the centre of
/// a ball of priors, which gives an unobserved category mass).
pub fn load_estimate_with(input: &Input, zeros: bool) -> Result<Estimate, CliError> {
    load_estimate_until(input, zeros, &|| false)
}

/// [`load_estimate_with`], asking `stop` now and then while `--data` is read
/// whether to give up (`pml serve`'s time limit and cancel).
pub fn load_estimate_until(
    input: &Input,
    zeros: bool,
    stop: &dyn Fn() -> bool,
) -> Result<Estimate, CliError> {
    if let Some(v) = &input.prior {
        let masses = parse_numbers("--prior", v)?;
        let prior = if zeros {
            Prior::center(masses)?
        } else {
            Prior::new(masses)?
        };
        let labels = check_labels(input.labels(), prior.len())?;
        return Ok(Estimate {
            prior,
            labels,
            samples: None,
            counts: Vec::new(),
            digest: None,
            dropped: 0,
        });
    }
    if let Some(v) = &input.counts {
        let (counts, total) = parse_counts(v)?;
        let weights = counts.iter().map(|&c| c as f64).collect::<Vec<f64>>();
        let prior = if zeros {
            Prior::center_normalised(weights)
        } else {
            Prior::normalised(weights)
        }
        .map_err(|e| {
            CliError::Usage(format!(
                "--counts: {e}{}",
                if zeros {
                    ""
                } else {
                    "; a zero count needs a ball: add --delta or --beta"
                }
            ))
        })?;
        let labels = check_labels(input.labels(), prior.len())?;
        return Ok(Estimate {
            prior,
            labels,
            samples: Some(total),
            counts,
            digest: None,
            dropped: 0,
        });
    }
    let column = input.single_column()?;
    if let (Some(path), Some(column)) = (&input.data, column)
        && DataFormat::of(path, input.data_format) == DataFormat::Parquet
    {
        return parquet_estimate(path, column, input.counting()?, (zeros, stop));
    }
    if let (Some(path), Some(column)) = (&input.data, column) {
        let mut reader = pmldesign_data::digest::Digesting::new(std::io::BufReader::with_capacity(
            1 << 20,
            open_data(path)?,
        ));
        let how = input.counting()?;
        let counts = pmldesign_data::count_column_until(&mut reader, column, how, stop)
            .map_err(|e| CliError::Usage(format!("--data {}: {e}", path.display())))?;
        let prior = if zeros {
            counts.center()
        } else {
            counts.prior()
        }
        .map_err(|e| CliError::Usage(format!("--data {}: {e}", path.display())))?;
        return Ok(Estimate {
            prior,
            labels: counts.labels,
            samples: Some(counts.rows),
            counts: counts.counts,
            digest: Some((format!("data file {}", path.display()), reader.hex())),
            dropped: counts.dropped,
        });
    }
    Err(CliError::Usage(
        "give the prior with --prior, --counts or --data FILE --column NAME".into(),
    ))
}

/// Opens `--data`: the file, or standard input for `-`.
pub fn open_data(path: &std::path::Path) -> Result<Box<dyn std::io::Read>, CliError> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(std::io::stdin().lock()));
    }
    Ok(Box::new(open_file(path)?))
}

/// Opens the `--data` file itself (a Parquet file is read with seeks).
pub fn open_file(path: &std::path::Path) -> Result<std::fs::File, CliError> {
    std::fs::File::open(path)
        .map_err(|e| CliError::Usage(format!("cannot read --data {}: {e}", path.display())))
}

/// The estimate of a Parquet column, with the file's SHA-256 (read a second time,
/// as `sha256sum` reads it).
#[cfg(feature = "parquet")]
fn parquet_estimate(
    path: &std::path::Path,
    column: &str,
    how: pmldesign_data::Counting<'_>,
    (zeros, stop): (bool, &dyn Fn() -> bool),
) -> Result<Estimate, CliError> {
    let shown = path.display();
    let file = open_file(path)?;
    let counts = pmldesign_data::columnar::count_parquet_until(file, column, how, stop)
        .map_err(|e| CliError::Usage(format!("--data {shown}: {e}")))?;
    let mut digest = pmldesign_data::digest::Digesting::new(open_file(path)?);
    std::io::copy(&mut digest, &mut std::io::sink())
        .map_err(|e| CliError::Failure(format!("cannot read --data {shown}: {e}")))?;
    let prior = if zeros {
        counts.center()
    } else {
        counts.prior()
    }
    .map_err(|e| CliError::Usage(format!("--data {shown}: {e}")))?;
    Ok(Estimate {
        prior,
        labels: counts.labels,
        samples: Some(counts.rows),
        counts: counts.counts,
        digest: Some((format!("data file {shown}"), digest.hex())),
        dropped: counts.dropped,
    })
}

/// Without the `parquet` feature a Parquet file is refused, naming the fix.
#[cfg(not(feature = "parquet"))]
fn parquet_estimate(
    path: &std::path::Path,
    _: &str,
    _: pmldesign_data::Counting<'_>,
    _: (bool, &dyn Fn() -> bool),
) -> Result<Estimate, CliError> {
    Err(no_parquet(path))
}

/// The error for a Parquet file given to a build without Parquet.
#[cfg(not(feature = "parquet"))]
pub fn no_parquet(path: &std::path::Path) -> CliError {
    CliError::Usage(format!(
        "invalid --data {}: this pml was built without Parquet support; rebuild it with default features, or give CSV (--data-format csv)",
        path.display()
    ))
}

/// The records of several `--column`s of `--data` (CSV or Parquet), each column
/// of a `--bins COLUMN=EDGES` cut into its bins. (A record design carries no
/// provenance of its own, so the file is not hashed.)
pub fn load_record(input: &Input) -> Result<RecordSample, CliError> {
    let Some(path) = &input.data else {
        return Err(CliError::Usage(
            "a record needs --data FILE with two or more --column".into(),
        ));
    };
    let shown = path.display();
    let bins = input.record_bins()?;
    let how = pmldesign_data::RecordCounting {
        nulls: input.nulls(),
        bins: &bins,
    };
    let usage = |e: pmldesign_model::ModelError| CliError::Usage(format!("--data {shown}: {e}"));
    if DataFormat::of(path, input.data_format) == DataFormat::Parquet {
        return parquet_records(path, &input.column, how)?.map_err(usage);
    }
    let reader = std::io::BufReader::with_capacity(1 << 20, open_data(path)?);
    pmldesign_data::count_records_with(reader, &input.column, how).map_err(usage)
}

/// The released `column` of `--data` (`pml estimate`; CSV or Parquet, as
/// `format` or the file's name says) counted against the mechanism's `outputs`:
/// an output never released counts 0; a missing value follows `nulls`.
pub fn count_released_data(
    path: &std::path::Path,
    format: Option<DataFormat>,
    column: &str,
    outputs: &[String],
    nulls: pmldesign_data::Nulls,
) -> Result<pmldesign_data::CategoryCounts, CliError> {
    let usage =
        |e: pmldesign_model::ModelError| CliError::Usage(format!("--data {}: {e}", path.display()));
    if DataFormat::of(path, format) == DataFormat::Parquet {
        #[cfg(feature = "parquet")]
        return pmldesign_data::columnar::count_released_parquet(
            open_file(path)?,
            column,
            outputs,
            nulls,
        )
        .map_err(usage);
        #[cfg(not(feature = "parquet"))]
        return Err(no_parquet(path));
    }
    pmldesign_data::count_released(open_data(path)?, column, outputs, nulls).map_err(usage)
}

/// The released tuples of a record's `columns` in `--data` (`pml estimate`;
/// CSV or Parquet, as `format` or the file's name says), a missing value
/// following `nulls`.
pub fn released_records(
    path: &std::path::Path,
    format: Option<DataFormat>,
    columns: &[String],
    nulls: pmldesign_data::Nulls,
) -> Result<RecordSample, CliError> {
    let usage =
        |e: pmldesign_model::ModelError| CliError::Usage(format!("--data {}: {e}", path.display()));
    if DataFormat::of(path, format) == DataFormat::Parquet {
        let how = pmldesign_data::RecordCounting { nulls, bins: &[] };
        return parquet_records(path, columns, how)?.map_err(usage);
    }
    pmldesign_data::count_records(open_data(path)?, columns, nulls).map_err(usage)
}

#[cfg(feature = "parquet")]
fn parquet_records(
    path: &std::path::Path,
    columns: &[String],
    how: pmldesign_data::RecordCounting<'_>,
) -> Result<pmldesign_model::Result<RecordSample>, CliError> {
    Ok(pmldesign_data::columnar::count_records_parquet(
        open_file(path)?,
        columns,
        how,
    ))
}

#[cfg(not(feature = "parquet"))]
fn parquet_records(
    path: &std::path::Path,
    _: &[String],
    _: pmldesign_data::RecordCounting<'_>,
) -> Result<pmldesign_model::Result<RecordSample>, CliError> {
    Err(no_parquet(path))
}

/// The column names of a data file (its CSV header or Parquet schema), to offer
/// them to choose from (`pml serve`); a file that is not CSV text or Parquet is
/// refused.
#[cfg(feature = "serve")]
pub fn data_columns(path: &std::path::Path, format: DataFormat) -> Result<Vec<String>, CliError> {
    let file = open_file(path)?;
    let columns = match format {
        DataFormat::Csv => pmldesign_data::csv_columns(file),
        DataFormat::Parquet => parquet_columns(path, file)?,
    };
    columns.map_err(|e| CliError::Usage(format!("--data {}: {e}", path.display())))
}

#[cfg(all(feature = "serve", feature = "parquet"))]
fn parquet_columns(
    _: &std::path::Path,
    file: std::fs::File,
) -> Result<pmldesign_model::Result<Vec<String>>, CliError> {
    Ok(pmldesign_data::columnar::parquet_columns(file))
}

#[cfg(all(feature = "serve", not(feature = "parquet")))]
fn parquet_columns(
    path: &std::path::Path,
    _: std::fs::File,
) -> Result<pmldesign_model::Result<Vec<String>>, CliError> {
    Err(no_parquet(path))
}
