//! Reading matrix files: a mechanism, a distance or a loss (design JSON, a JSON
//! array of rows, or CSV rows) and the vertices of a polytope of priors. Errors
//! name the flag and the file, and exit 2.

use crate::error::CliError;
use pmldesign_data::matrix::{CsvMatrix, read_csv_matrix};
use pmldesign_model::UncertaintySet;
use pmldesign_solver::labels::numbered;
use pmldesign_solver::sizes::{MAX_ALPHABET, MAX_MATRIX_FILE_BYTES};
use serde_json::Value;
use std::path::Path;

/// A mechanism read from a file, with the row labels and output names it carried
/// (if any).
pub struct MechanismFile {
    /// One row per input symbol.
    pub rows: Vec<Vec<f64>>,
    /// Row labels, unless absent or the default `x1..xN`.
    pub labels: Option<Vec<String>>,
    /// Output names: the "outputs" field of design JSON or the CSV header.
    pub outputs: Option<Vec<String>>,
    /// A design file (a JSON object with a "mechanism" field), whose claims can be
    /// checked; false for a bare matrix.
    pub design: bool,
}

/// The text of the file given with `flag`; a file that cannot be read is a usage
/// error naming the flag and the file.
/// A file larger than a matrix of the largest alphabet takes is refused before it
/// is read ([`MAX_MATRIX_FILE_BYTES`]); a leading byte order mark is dropped.
pub fn read_text(flag: &str, path: &Path) -> Result<String, CliError> {
    if path.as_os_str() == "-" {
        return read_stdin(flag);
    }
    if let Ok(meta) = std::fs::metadata(path)
        && meta.is_file()
        && meta.len() > MAX_MATRIX_FILE_BYTES
    {
        return Err(CliError::Usage(format!(
            "invalid {flag} {}: the file has {} bytes, more than a matrix of N = {MAX_ALPHABET} symbols takes ({MAX_MATRIX_FILE_BYTES}); pml reads alphabets up to {MAX_ALPHABET} symbols, merge categories",
            path.display(),
            meta.len()
        )));
    }
    let mut text = std::fs::read_to_string(path).map_err(|e| {
        CliError::Usage(format!(
            "cannot read {flag} {}: {e}; give the path of a readable UTF-8 file",
            path.display()
        ))
    })?;
    let bom = text.len() - strip_bom(&text).len();
    text.drain(..bom);
    Ok(text)
}

/// `flag -`: the text of standard input, refused past the largest matrix file.
fn read_stdin(flag: &str) -> Result<String, CliError> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_MATRIX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::Usage(format!("cannot read {flag} - (standard input): {e}")))?;
    if bytes.len() as u64 > MAX_MATRIX_FILE_BYTES {
        return Err(CliError::Usage(format!(
            "invalid {flag} -: standard input holds more than {MAX_MATRIX_FILE_BYTES} bytes, more than a matrix of N = {MAX_ALPHABET} symbols takes; pml reads alphabets up to {MAX_ALPHABET} symbols"
        )));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        CliError::Usage(format!(
            "invalid {flag} - (standard input): not UTF-8 text ({e})"
        ))
    })?;
    Ok(strip_bom(&text).to_owned())
}

/// `text` without a leading UTF-8 byte order mark (U+FEFF), which editors on
/// Windows put at the start of files they save: JSON parsers refuse it.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// Reads a matrix given by `flag`: a JSON object with a "mechanism" field, a JSON
/// array of rows, or CSV rows (optionally a header and a label column).
pub fn read_matrix_file(flag: &str, path: &Path) -> Result<MechanismFile, CliError> {
    matrix_from_text(flag, path, &read_text(flag, path)?)
}

/// [`read_matrix_file`] on the file's text, already read.
pub fn matrix_from_text(flag: &str, path: &Path, text: &str) -> Result<MechanismFile, CliError> {
    let shown = path.display();
    let trimmed = strip_bom(text).trim();
    if trimmed.is_empty() {
        return Err(CliError::Usage(format!(
            "invalid {flag} {shown}: the file is empty; give the JSON of `pml design --format json`, a JSON array of rows, or CSV rows"
        )));
    }
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        let v: Value = serde_json::from_str(trimmed).map_err(|e| {
            CliError::Usage(format!(
                "invalid {flag} {shown}: not valid JSON ({e}); give the JSON of `pml design --format json`, a JSON array of rows, or CSV rows"
            ))
        })?;
        let strings = |l: &Value| {
            l.as_array()?
                .iter()
                .map(|s| s.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
        };
        let (matrix, labels, outputs) = match &v {
            Value::Object(o) => {
                let m = o.get("mechanism").ok_or_else(|| {
                    CliError::Usage(format!(
                        "invalid {flag} {shown}: the JSON object has no \"mechanism\" field; give the output of `pml design --format json` or a JSON array of rows"
                    ))
                })?;
                let labels = o.get("labels").and_then(strings);
                let outputs = o.get("outputs").and_then(strings);
                (m, labels, outputs)
            }
            _ => (&v, None, None),
        };
        let rows = json_rows(flag, &shown.to_string(), matrix)?;
        return Ok(MechanismFile {
            rows,
            labels: labels.filter(|l| !is_default_labels(l)),
            outputs,
            design: v.is_object(),
        });
    }
    let CsvMatrix {
        rows,
        labels,
        header,
    } = csv_rows(flag, &shown.to_string(), trimmed)?;
    let outputs = header.map(|h| h[usize::from(labels.is_some())..].to_vec());
    Ok(MechanismFile {
        rows,
        labels: labels.filter(|l| !is_default_labels(l)),
        outputs,
        design: false,
    })
}

/// Labels `x1..xN` are what `pml design` writes when none were given: they carry no
/// information about the row order.
fn is_default_labels(labels: &[String]) -> bool {
    labels == numbered("x", labels.len())
}

/// A JSON array of arrays of numbers, naming the offending row and entry.
fn json_rows(flag: &str, shown: &str, v: &Value) -> Result<Vec<Vec<f64>>, CliError> {
    let shape = || {
        CliError::Usage(format!(
            "invalid {flag} {shown}: expected an array of rows such as [[0.9,0.1],[0.2,0.8]]"
        ))
    };
    let rows = v.as_array().ok_or_else(shape)?;
    if rows.is_empty() {
        return Err(CliError::Usage(format!(
            "invalid {flag} {shown}: the array has no rows; give one row per input symbol"
        )));
    }
    rows.iter()
        .enumerate()
        .map(|(r, row)| {
            let row = row.as_array().ok_or_else(|| {
                CliError::Usage(format!(
                    "invalid {flag} {shown}: row {r} is not an array; give each row as [p1,..,pM]"
                ))
            })?;
            row.iter()
                .enumerate()
                .map(|(c, x)| {
                    x.as_f64().ok_or_else(|| {
                        CliError::Usage(format!(
                            "invalid {flag} {shown}: row {r} entry {c} = {x} is not a number; give probabilities as numbers"
                        ))
                    })
                })
                .collect()
        })
        .collect()
}

/// CSV rows of numbers via [`read_csv_matrix`], the error naming `flag` and the file.
fn csv_rows(flag: &str, shown: &str, text: &str) -> Result<CsvMatrix, CliError> {
    read_csv_matrix(text).map_err(|e| CliError::Usage(format!("invalid {flag} {shown}: {e}")))
}

/// Reads the vertices of a polytope of priors: a JSON array of arrays or CSV rows.
pub fn read_priors(path: &Path, n: usize) -> Result<UncertaintySet, CliError> {
    let flag = "--priors";
    let shown = path.display().to_string();
    let text = read_text(flag, path)?;
    let trimmed = strip_bom(&text).trim();
    let vertices = if trimmed.starts_with('[') {
        let v: Value = serde_json::from_str(trimmed).map_err(|e| {
            CliError::Usage(format!(
                "invalid {flag} {shown}: not valid JSON ({e}); give an array of priors such as [[0.5,0.5],[0.4,0.6]] or CSV rows"
            ))
        })?;
        json_rows(flag, &shown, &v)?
    } else {
        csv_rows(flag, &shown, trimmed)?.rows
    };
    if let Some((k, v)) = vertices.iter().enumerate().find(|(_, v)| v.len() != n) {
        return Err(CliError::Usage(format!(
            "invalid {flag} {shown}: prior {k} has {} entries but the prior has {n}; give {n} masses per row",
            v.len()
        )));
    }
    UncertaintySet::polytope(vertices).map_err(|e| CliError::Usage(format!("{flag} {shown}: {e}")))
}
