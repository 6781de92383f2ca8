//! Shared CSV plumbing: finding a column in a header, turning `csv` errors into
//! model errors, listing labels in messages.

use pmldesign_model::{ModelError, Result};

/// How many labels an error message lists before eliding the rest.
const LIST_LIMIT: usize = 20;

/// The position of `column` in a CSV header: an error listing the columns if it is
/// missing, or naming the positions if it is not unique.
pub(crate) fn column_index(header: &csv::ByteRecord, column: &str) -> Result<usize> {
    let names: Vec<String> = header
        .iter()
        .map(|h| String::from_utf8_lossy(h).into_owned())
        .collect();
    let matches: Vec<usize> = (0..names.len()).filter(|&i| names[i] == column).collect();
    match matches[..] {
        [i] => Ok(i),
        [] => {
            let listed = if names.iter().all(|n| n.is_empty()) {
                "none (the input has no header row)".to_owned()
            } else {
                names
                    .iter()
                    .map(|n| format!("{n:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            Err(ModelError::invalid(
                "column",
                format!("{column:?}"),
                format!("no such column in the header; the columns are: {listed}"),
                "pass one of the listed column names (names are case-sensitive)",
            ))
        }
        _ => Err(ModelError::invalid(
            "column",
            format!("{column:?}"),
            format!(
                "the header has {} columns of that name (positions {})",
                matches.len(),
                matches
                    .iter()
                    .map(|i| (i + 1).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            "rename the duplicate columns so that the name is unique",
        )),
    }
}

/// `"a", "b", ...` with at most [`LIST_LIMIT`] entries shown.
pub(crate) fn list_labels(labels: &[String]) -> String {
    let mut s = labels
        .iter()
        .take(LIST_LIMIT)
        .map(|l| format!("{l:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    if labels.len() > LIST_LIMIT {
        s.push_str(&format!(", ... ({} more)", labels.len() - LIST_LIMIT));
    }
    s
}

/// A `csv` error as a model error naming the line and the fix.
pub(crate) fn csv_error(e: csv::Error) -> ModelError {
    let place = e
        .position()
        .map_or_else(|| "input".to_owned(), |p| format!("line {}", p.line()));
    let fix = match e.kind() {
        csv::ErrorKind::Io(_) => "check that the file exists and is readable",
        csv::ErrorKind::UnequalLengths { .. } => {
            "give every row as many fields as the header (quote fields that contain commas)"
        }
        _ => "check that the input is comma-separated CSV with a header row",
    };
    ModelError::invalid("csv", place, e.to_string(), fix)
}
