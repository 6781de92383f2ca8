//! Matrices of numbers written as CSV rows: a mechanism `W` (one row per input x,
//! `docs/theory.md` §1) or a list of priors, with an optional header and an
//! optional leading label column.
//!
//! ```
//! use pmldesign_data::matrix::read_csv_matrix;
//! let m = read_csv_matrix("input,y1,y2\na,0.9,0.1\nb,0.2,0.8\n")?;
//! assert_eq!(m.rows, [[0.9, 0.1], [0.2, 0.8]]);
//! assert_eq!(m.labels.as_deref(), Some(&["a".to_string(), "b".to_string()][..]));
//! assert_eq!(m.header.unwrap()[1], "y1");
//! # Ok::<(), pmldesign_data::matrix::MatrixError>(())
//! ```

/// Rows of numbers read from CSV, with what surrounded them.
#[derive(Debug, Clone, PartialEq)]
pub struct CsvMatrix {
    /// The rows of numbers.
    pub rows: Vec<Vec<f64>>,
    /// The leading label column, if the rows had one.
    pub labels: Option<Vec<String>>,
    /// The header row, if there was one (its first field names the label column
    /// when the rows are labelled).
    pub header: Option<Vec<String>>,
}

/// Why CSV rows are not a matrix of numbers; each message names the line and the fix.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MatrixError {
    /// The text is not CSV the reader accepts.
    #[error("not valid CSV ({0}); give comma-separated rows of numbers")]
    Csv(String),
    /// A header and no data rows.
    #[error("the CSV has a header but no rows; give one row per input symbol")]
    NoRows,
    /// The first data row does not have as many fields as the header.
    #[error(
        "the header has {header} fields but line {line} has {found}; give every row the same columns as the header"
    )]
    HeaderLength {
        /// Fields of the header.
        header: usize,
        /// The 1-based line of the first data row.
        line: u64,
        /// Fields of that row.
        found: usize,
    },
    /// A field that should be a number is not.
    #[error(
        "line {line} field {field} = {value:?} is not a number; give probabilities as numbers{}",
        if *labelled { "" } else { " (a label column must come first in every row)" }
    )]
    NotNumber {
        /// The 1-based line.
        line: u64,
        /// The 1-based field.
        field: usize,
        /// The field as written (a long one elided in the middle).
        value: String,
        /// Whether the rows have a label column.
        labelled: bool,
    },
}

fn is_number(s: &str) -> bool {
    s.parse::<f64>().is_ok()
}

/// The non-blank records of `text` with their 1-based lines, fields trimmed.
fn records(text: &str) -> Result<Vec<(u64, Vec<String>)>, MatrixError> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(crate::table::bounded(text.as_bytes()));
    let mut out = Vec::new();
    // The physical line of a record, from its byte offset (the reader's own line
    // count skips blank lines): counted incrementally.
    let (mut seen, mut line) = (0usize, 1u64);
    for record in rdr.records() {
        let record = record.map_err(|e| MatrixError::Csv(e.to_string()))?;
        let mut start = record.position().map_or(seen, |p| p.byte() as usize);
        // The position is where the reader was: before any blank lines it skipped.
        while matches!(text.as_bytes().get(start), Some(b'\n' | b'\r')) {
            start += 1;
        }
        line += text.as_bytes()[seen..start.max(seen)]
            .iter()
            .filter(|&&b| b == b'\n')
            .count() as u64;
        seen = start.max(seen);
        if record.len() == 1 && record[0].is_empty() {
            continue;
        }
        out.push((line, record.iter().map(str::to_owned).collect()));
    }
    Ok(out)
}

/// Reads CSV rows of numbers: a header is recognised by a non-numeric field after
/// the first (or a lone non-numeric field), a label column by a non-numeric first
/// field of the first data row. Fields are trimmed; blank lines are skipped.
pub fn read_csv_matrix(text: &str) -> Result<CsvMatrix, MatrixError> {
    let lines = records(text)?;
    let header = lines.first().is_some_and(|(_, f)| {
        f.iter().skip(1).any(|x| !is_number(x)) || (f.len() == 1 && !is_number(&f[0]))
    });
    let data = &lines[usize::from(header)..];
    let Some((first_line, first)) = data.first() else {
        return Err(MatrixError::NoRows);
    };
    let labelled = !is_number(&first[0]);
    if header && lines[0].1.len() != first.len() {
        return Err(MatrixError::HeaderLength {
            header: lines[0].1.len(),
            line: *first_line,
            found: first.len(),
        });
    }
    let mut rows = Vec::with_capacity(data.len());
    let mut labels = Vec::new();
    for (line, fields) in data {
        let values = if labelled {
            labels.push(fields[0].clone());
            &fields[1..]
        } else {
            &fields[..]
        };
        let row = values
            .iter()
            .enumerate()
            .map(|(c, s)| {
                s.parse::<f64>().map_err(|_| MatrixError::NotNumber {
                    line: *line,
                    field: c + 1 + usize::from(labelled),
                    value: pmldesign_model::error::elide(s).into_owned(),
                    labelled,
                })
            })
            .collect::<Result<Vec<f64>, _>>()?;
        rows.push(row);
    }
    Ok(CsvMatrix {
        rows,
        labels: labelled.then_some(labels),
        header: header.then(|| lines[0].1.clone()),
    })
}
