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

/// The bytes of a file's start searched for a NUL byte, which no CSV text holds.
const SNIFF_BYTES: usize = 64 * 1024;

/// The column names in the header row of a CSV file (to offer them to choose
/// from). An empty input, a NUL byte in the first 64 KiB or a header that is
/// not UTF-8 is refused: the file is not CSV text.
pub fn csv_columns<R: std::io::Read>(input: R) -> Result<Vec<String>> {
    let mut input = std::io::BufReader::with_capacity(SNIFF_BYTES, input);
    let head = std::io::BufRead::fill_buf(&mut input).map_err(|e| {
        ModelError::invalid(
            "csv",
            "input",
            e.to_string(),
            "check that the file is readable",
        )
    })?;
    let not_text = |why: &str| {
        ModelError::invalid(
            "file",
            "not CSV text",
            why.to_owned(),
            "give a comma-separated text file with a header row (or a .parquet file)",
        )
    };
    if head.is_empty() {
        return Err(not_text("it is empty, with no header row"));
    }
    if head.contains(&0) {
        return Err(not_text("it holds NUL bytes (a binary file?)"));
    }
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(input);
    let header = rdr.byte_headers().map_err(csv_error)?;
    header
        .iter()
        .map(|h| {
            std::str::from_utf8(h)
                .map(str::to_owned)
                .map_err(|_| not_text("its header row is not UTF-8 text (a binary file?)"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::csv_columns;

    #[test]
    fn columns_of_a_header_and_what_is_not_csv() {
        assert_eq!(
            csv_columns(&b"id,colour\n1,red\n"[..]).unwrap(),
            ["id", "colour"]
        );
        let empty = csv_columns(&b""[..]).unwrap_err().to_string();
        assert!(empty.contains("empty"), "{empty}");
        let binary = csv_columns(&b"PK\x03\x04\x00\x00"[..])
            .unwrap_err()
            .to_string();
        assert!(binary.contains("NUL"), "{binary}");
        let latin = csv_columns(&b"caf\xe9,x\n"[..]).unwrap_err().to_string();
        assert!(latin.contains("UTF-8"), "{latin}");
    }
}
