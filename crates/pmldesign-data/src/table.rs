//! Shared CSV plumbing: bounding the length of a line, finding a column in a
//! header, turning `csv` errors into model errors, listing labels in messages.

use pmldesign_model::{ModelError, Result};
use std::io::Read;

/// The longest CSV line any reader of this crate takes, in bytes (1 MiB): a file
/// without newlines (a binary file, a sparse file) is refused at its first MiB
/// instead of read whole into memory and echoed in the error.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// A line longer than [`MAX_LINE_BYTES`], as the I/O error of [`LineLimit`].
#[derive(Debug)]
struct LineTooLong {
    /// The 1-based line.
    line: u64,
}

impl std::fmt::Display for LineTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {} is longer than {MAX_LINE_BYTES} bytes (1 MiB)",
            self.line
        )
    }
}

impl std::error::Error for LineTooLong {}

/// A reader that fails once a line (the bytes between two `\n`) runs past
/// [`MAX_LINE_BYTES`]: what the `csv` reader buffers stays bounded.
pub(crate) struct LineLimit<R> {
    inner: R,
    line: u64,
    run: usize,
}

/// `reader` with its lines bounded: every CSV reader of this crate reads through it.
pub(crate) fn bounded<R: Read>(reader: R) -> LineLimit<R> {
    LineLimit {
        inner: reader,
        line: 1,
        run: 0,
    }
}

impl<R: Read> Read for LineLimit<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        for (i, segment) in buf[..n].split(|&b| b == b'\n').enumerate() {
            if i > 0 {
                self.line += 1;
                self.run = 0;
            }
            self.run += segment.len();
            if self.run > MAX_LINE_BYTES {
                let line = self.line;
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    LineTooLong { line },
                ));
            }
        }
        Ok(n)
    }
}

/// The text of a data file as every reader of data rows takes it: its lines
/// bounded, and a blank line of a one-column file a missing value
/// ([`crate::blank_rows`]).
pub(crate) fn data_text<R: Read>(reader: R) -> crate::blank_rows::BlankRows<LineLimit<R>> {
    crate::blank_rows::blank_rows(bounded(reader))
}

/// The line of a [`LineLimit`] error, if `e` is one.
fn too_long(e: &std::io::Error) -> Option<u64> {
    e.get_ref()?.downcast_ref::<LineTooLong>().map(|t| t.line)
}

/// The error of a line past [`MAX_LINE_BYTES`], if `e` is one (its text is never
/// echoed).
pub(crate) fn line_error(e: &csv::Error) -> Option<ModelError> {
    let csv::ErrorKind::Io(io) = e.kind() else {
        return None;
    };
    let line = too_long(io)?;
    Some(ModelError::invalid(
        "csv",
        format!("line {line}"),
        format!("the line is longer than {MAX_LINE_BYTES} bytes (1 MiB), the most pml reads"),
        "give CSV text with one record a line (is it a binary file, or a file without newlines?)",
    ))
}

/// How many labels an error message lists before eliding the rest.
const LIST_LIMIT: usize = 20;

/// The position of `column` in a CSV header: an error listing the columns if it is
/// missing, or naming the positions if it is not unique.
pub(crate) fn column_index(header: &csv::ByteRecord, column: &str) -> Result<usize> {
    if header.get(0).is_some_and(|h| h.starts_with(b"PAR1")) {
        return Err(ModelError::invalid(
            "data",
            "a Parquet file",
            "it was read as CSV, but it starts with Parquet's magic bytes PAR1",
            "give it a name ending in .parquet, or pass --data-format parquet",
        ));
    }
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
                list_labels(&names)
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

/// `"a", "b", ...` with at most [`LIST_LIMIT`] entries shown, each elided.
pub(crate) fn list_labels(labels: &[String]) -> String {
    let mut s = labels
        .iter()
        .take(LIST_LIMIT)
        .map(|l| format!("{:?}", pmldesign_model::error::elide(l)))
        .collect::<Vec<_>>()
        .join(", ");
    if labels.len() > LIST_LIMIT {
        s.push_str(&format!(", ... ({} more)", labels.len() - LIST_LIMIT));
    }
    s
}

/// A `csv` error as a model error naming the line and the fix.
pub(crate) fn csv_error(e: csv::Error) -> ModelError {
    if let Some(long) = line_error(&e) {
        return long;
    }
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

/// The fields of one line of CSV text (`"a,b",c` is `a,b` and `c`): a list given
/// on the command line, read with the quoting of a CSV file. Text of no record
/// or of several lines is refused.
pub fn csv_record(text: &str) -> Result<Vec<String>> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut records = rdr.records();
    let one_line = |problem: &str| {
        ModelError::invalid(
            "list",
            format!("{:?}", pmldesign_model::error::elide(text)),
            problem.to_owned(),
            "give one line of comma-separated values, quoting a value that holds a comma (\"a,b\",c)",
        )
    };
    let first = match records.next() {
        Some(r) => r.map_err(csv_error)?,
        None => return Err(one_line("it holds no value")),
    };
    if records.next().is_some() {
        return Err(one_line("it holds more than one line"));
    }
    Ok(first.iter().map(str::to_owned).collect())
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
        .from_reader(bounded(input));
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
    use std::io::Read;

    /// A header, then a line of 64 MiB without a newline.
    fn long_line() -> impl Read {
        b"id,colour\n1,".chain(std::io::repeat(b'x').take(64 << 20))
    }

    /// Every CSV reader refuses a line past 1 MiB, naming the line, echoing none
    /// of it.
    #[test]
    fn a_line_past_the_limit_is_an_error_naming_it() {
        let column = "colour".to_owned();
        let mut sink = Vec::new();
        let mut p = crate::CategoricalPrivatiser::new(
            &pmldesign_model::Mechanism::from_rows(vec![vec![1.0]]).unwrap(),
            vec!["red".into()],
            vec!["red".into()],
            (&crate::stream::StreamKey::from_bytes([7; 32]), "colour"),
        )
        .unwrap();
        let errors = [
            crate::count_column(long_line(), &column, None).unwrap_err(),
            crate::count_records(
                long_line(),
                std::slice::from_ref(&column),
                crate::Nulls::Error,
            )
            .unwrap_err(),
            match crate::privatise_column(
                long_line(),
                &mut sink,
                &column,
                crate::Placement::Replace,
                crate::OnUnknown::Error,
                &mut p,
            ) {
                Err(crate::PrivatiseError::Input(e)) => e,
                other => panic!("{other:?}"),
            },
        ];
        for e in errors {
            let e = e.to_string();
            assert!(e.contains("line 2") && e.contains("1 MiB"), "{e}");
            assert!(e.len() < 400, "{} bytes", e.len());
        }
        let header = csv_columns(std::io::repeat(b'x').take(64 << 20)).unwrap_err();
        assert!(header.to_string().contains("line 1"), "{header}");
    }

    #[test]
    fn a_header_with_a_bom_and_long_names_listed_elided() {
        assert_eq!(
            csv_columns(&b"\xef\xbb\xbfid,colour\n1,red\n"[..]).unwrap(),
            ["id", "colour"]
        );
        let long = format!("{},colour\n", "n".repeat(10_000));
        let e = crate::count_column(long.as_bytes(), "x", None).unwrap_err();
        assert!(e.to_string().len() < 400, "{e}");
    }

    #[test]
    fn a_list_is_read_with_csv_quoting() {
        let r = |t: &str| super::csv_record(t).map_err(|e| e.to_string());
        assert_eq!(r("a,b").unwrap(), ["a", "b"]);
        assert_eq!(r("\"a,b\",c").unwrap(), ["a,b", "c"]);
        assert_eq!(r("\"say \"\"hi\"\"\",x").unwrap(), ["say \"hi\"", "x"]);
        assert_eq!(r("a,,b").unwrap(), ["a", "", "b"]);
        assert!(r("").unwrap_err().contains("no value"));
        assert!(r("a\nb").unwrap_err().contains("more than one line"));
    }

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
