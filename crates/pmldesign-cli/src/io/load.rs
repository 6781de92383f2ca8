//! Model values loaded from files and checked against the command line: the
//! mechanism of `--mechanism` (one row per symbol of the prior), the distance of
//! `--metric-matrix` and the design of `--design`.

use super::matrix::{matrix_from_text, read_matrix_file, read_text, strip_bom};
use crate::args::values::named;
use crate::args::{Estimate, Input, MetricArgs};
use crate::error::CliError;
use pmldesign_app::Reading;
use pmldesign_model::{Mechanism, Metric};
use pmldesign_solver::{Design, RecordDesign};
use std::path::Path;

/// Reads `--mechanism FILE` (design JSON, a JSON array of rows, or CSV) and checks it
/// against the prior: one row per symbol, row labels consistent with the prior's.
/// A design file is read back first, as `--design` is (every figure it states
/// re-derived), so a forged one is refused wherever it enters.
/// Returns the mechanism and the labels of its rows.
pub fn load_mechanism(
    path: &Path,
    input: &Input,
    est: &Estimate,
) -> Result<(Mechanism, Vec<String>), CliError> {
    let text = read_text("--mechanism", path)?;
    let file = matrix_from_text("--mechanism", path, &text)?;
    if file.design {
        design_from_text::<Design>("--mechanism", path, &text)?;
    }
    let shown = path.display();
    let mechanism = Mechanism::from_rows(file.rows)
        .map_err(|e| CliError::Usage(format!("--mechanism {shown}: {e}")))?;
    let n = est.prior.len();
    if mechanism.inputs() != n {
        let hint = if mechanism.outputs() == n {
            format!(" (it has {n} columns: is it transposed?)")
        } else {
            String::new()
        };
        return Err(CliError::Usage(format!(
            "invalid --mechanism {shown}: it has {} rows but the prior has {n} entries{hint}; \
             give one row per input symbol (rows are P(Y|X=x), columns are outputs y)",
            mechanism.inputs()
        )));
    }
    let labels = match file.labels {
        Some(fl) if fl.len() == n => {
            let explicit = input.labels().is_some() || input.data.is_some();
            if explicit && fl != est.labels {
                let mut x = fl.clone();
                let mut y = est.labels.clone();
                x.sort();
                y.sort();
                let fix = if x == y {
                    format!(
                        "pass --labels {} so that prior entries follow the rows",
                        fl.join(",")
                    )
                } else {
                    "relabel the rows or the prior so that they name the same symbols".into()
                };
                return Err(CliError::Usage(format!(
                    "invalid --mechanism {shown}: rows are labelled {} but the prior's symbols are {}; {fix}",
                    fl.join(","),
                    est.labels.join(",")
                )));
            }
            if explicit { est.labels.clone() } else { fl }
        }
        _ => est.labels.clone(),
    };
    Ok((mechanism, labels))
}

/// The metric of `--metric` or `--metric-matrix` on N inputs, if any; usage errors
/// name the flag and, for a matrix, the entry.
pub fn load_metric(args: &MetricArgs, n: usize) -> Result<Option<Metric>, CliError> {
    match (args.metric, &args.metric_matrix) {
        (Some(name), _) => Ok(Some(named::<Metric>(name))),
        (None, None) => Ok(None),
        (None, Some(path)) => {
            let shown = path.display();
            let rows = read_matrix_file("--metric-matrix", path)?.rows;
            let metric = Metric::from_rows(rows)
                .map_err(|e| CliError::Usage(format!("--metric-matrix {shown}: {e}")))?;
            metric
                .distances(n)
                .map_err(|e| CliError::Usage(format!("--metric-matrix {shown}: {e}")))?;
            Ok(Some(metric))
        }
    }
}

/// Reads `--design FILE`, the JSON of `pml design --format json`; reading it back
/// re-measures its privacy over its whole set. Errors name the flag and the file.
/// A record design file's text (`{"record": ...}`), read back with every design
/// re-certified and every figure re-derived; `None` for any other text.
pub fn record_from_text(
    flag: &str,
    path: &Path,
    text: &str,
) -> Result<Option<pmldesign_solver::RecordDesign>, CliError> {
    file_of_kind(
        (flag, path, text),
        |h| h.record.is_some(),
        pmldesign_solver::RecordDesign::from_json,
    )
}

/// The keys that tell a file's kind, read without building the rest (a design of
/// N = 4096 is 500 MB of JSON: only scanned here, never held as a tree).
#[derive(serde::Deserialize)]
struct Head {
    #[serde(default)]
    format: Option<serde_json::Value>,
    #[serde(default)]
    record: Option<serde::de::IgnoredAny>,
}

/// A JSON object whose [`Head`] `is` recognises, read by `read` (which
/// verifies it), or `None` for any other text; a refusal names the flag and the
/// file.
fn file_of_kind<T, E: std::fmt::Display>(
    (flag, path, text): (&str, &Path, &str),
    is: impl Fn(&Head) -> bool,
    read: impl Fn(&str) -> Result<T, E>,
) -> Result<Option<T>, CliError> {
    let text = strip_bom(text);
    let kind = text.trim_start().starts_with('{')
        && serde_json::from_str::<Head>(text).is_ok_and(|h| is(&h));
    if !kind {
        return Ok(None);
    }
    read(text)
        .map(Some)
        .map_err(|e| CliError::Usage(format!("{flag} {}: {e}", path.display())))
}

/// A design file's text, already read from the file given with `flag`, read
/// back with every figure re-derived and verified: a [`Design`], or a
/// [`pmldesign_solver::VerifiedDesign`] to keep the verification.
pub fn design_from_text<T: serde::de::DeserializeOwned>(
    flag: &str,
    path: &Path,
    text: &str,
) -> Result<T, CliError> {
    let shown = path.display();
    let not_a_design = || {
        CliError::Usage(format!(
            "invalid {flag} {shown}: not a design file (no `mechanism` field); {flag} takes the JSON of `pml design --format json`, give a bare matrix with --mechanism instead"
        ))
    };
    let text = strip_bom(text);
    let object = text.trim_start().starts_with('{');
    if !object || !text.contains("\"mechanism\"") {
        return Err(not_a_design());
    }
    serde_json::from_str(text).map_err(|e| CliError::Usage(format!("{flag} {shown}: {e}")))
}

/// How a design file's data were read (`pml design --nulls`, `--bins`), checked
/// against its labels; an error names `--mechanism` and the file.
pub fn recorded(d: &Design, path: &Path) -> Result<Reading, CliError> {
    Reading::of_design(d)
        .map_err(|e| CliError::Usage(format!("--mechanism {}: {e}", path.display())))
}

/// How a record design's data were read, one column at a time.
pub fn recorded_record(r: &RecordDesign) -> Result<Reading, CliError> {
    Reading::of_record(r).map_err(|e| CliError::Usage(e.to_string()))
}

/// How a public file's data were read.
pub fn recorded_public(p: &pmldesign_solver::PublicDesign) -> Result<Reading, CliError> {
    Reading::of_public(p).map_err(|e| CliError::Usage(e.to_string()))
}

/// How a public record file's data were read, one column at a time.
pub fn recorded_public_record(p: &pmldesign_solver::PublicRecord) -> Result<Reading, CliError> {
    Reading::of_public_record(p).map_err(|e| CliError::Usage(e.to_string()))
}

/// A public file (`pml publish`) read from the file given with `flag` and
/// verified, or `None` when the text is not one.
pub fn public_from_text(
    flag: &str,
    path: &Path,
    text: &str,
) -> Result<Option<pmldesign_solver::PublicDesign>, CliError> {
    use pmldesign_solver::PublicDesign;
    file_of_kind(
        (flag, path, text),
        |h| h.format.as_ref().and_then(|f| f.as_str()) == Some(PublicDesign::FORMAT),
        PublicDesign::from_json,
    )
}

/// A public record file (`pml publish` of a `compose` or `ldp` record) read
/// from the file given with `flag` and verified, or `None` when the text is not
/// one.
pub fn public_record_from_text(
    flag: &str,
    path: &Path,
    text: &str,
) -> Result<Option<pmldesign_solver::PublicRecord>, CliError> {
    use pmldesign_solver::PublicRecord;
    file_of_kind(
        (flag, path, text),
        |h| h.format.as_ref().and_then(|f| f.as_str()) == Some(PublicRecord::FORMAT),
        PublicRecord::from_json,
    )
}
