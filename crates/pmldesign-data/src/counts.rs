//! Category counts from data: the empirical prior `p^_x = count_x / m` of \[E\] eq. (3)
//! (`docs/theory.md` §6), streamed from CSV one record at a time.
//!
//! ```
//! use pmldesign_data::count_column;
//! let csv = "id,colour\n1,red\n2,blue\n3,\"red\"\n4,red\n";
//! let counts = count_column(csv.as_bytes(), "colour", None)?;
//! assert_eq!(counts.labels, ["red", "blue"]);
//! assert_eq!(counts.counts, [3, 1]);
//! assert_eq!(counts.prior()?.masses().to_vec(), [0.75, 0.25]);
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

use crate::bins::Bins;
use crate::nulls::{COUNT_FIX, NULL_LABEL, Nulls, is_missing};
use crate::table::{column_index, csv_error, list_labels};
use pmldesign_model::{ModelError, Prior, Result};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::Read;

/// Counts of each category of a secret, in a fixed label order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CategoryCounts {
    /// The categories, in first-seen order or the order of the given labels.
    pub labels: Vec<String>,
    /// `counts[i]` is the number of rows with value `labels[i]`.
    pub counts: Vec<u64>,
    /// Number of data rows counted: the sample size m (the sum of `counts`).
    pub rows: u64,
    /// Rows with a missing value left out of the count ([`Nulls::Drop`]).
    #[serde(default)]
    pub dropped: u64,
}

impl CategoryCounts {
    /// The empirical prior `p^_x = count_x / m` (\[E\] eq. (3)), via [`Prior::normalised`].
    ///
    /// A zero count is an error naming its label: PML and the l1-ball design
    /// (\[E\] Sec. III) need a full-support estimate, every `p^_x > 0`.
    pub fn prior(&self) -> Result<Prior> {
        if self.labels.len() != self.counts.len() {
            return Err(ModelError::invalid(
                "counts",
                self.counts.len(),
                format!(
                    "there are {} counts but {} labels",
                    self.counts.len(),
                    self.labels.len()
                ),
                "give one count per label",
            ));
        }
        if self.counts.len() < 2 {
            return Err(ModelError::invalid(
                "labels",
                list_labels(&self.labels),
                format!(
                    "{} categor{} found; a secret needs at least 2",
                    self.counts.len(),
                    if self.counts.len() == 1 { "y" } else { "ies" }
                ),
                "count a column with at least two distinct values, or give the full label set",
            ));
        }
        if let Some(i) = self.counts.iter().position(|&c| c == 0) {
            return Err(ModelError::invalid(
                format!("counts[{i}]"),
                format!("0 (label {:?})", self.labels[i]),
                "the category never occurs, so the estimate p^ has a zero mass; a known \
                 prior needs every p^_x > 0",
                "protect a ball around the estimate (a radius, or a failure probability), \
                 drop the label, or use more data",
            ));
        }
        Prior::normalised(self.counts.iter().map(|&c| c as f64).collect::<Vec<_>>())
    }

    /// The estimate at the centre of a ball: as [`CategoryCounts::prior`], but a
    /// category that never occurs has mass 0 (the ball gives it mass).
    pub fn center(&self) -> Result<Prior> {
        if !self.counts.contains(&0) {
            return self.prior();
        }
        let positive = CategoryCounts {
            labels: self.labels.clone(),
            counts: self.counts.iter().map(|&c| c.max(1)).collect(),
            rows: self.rows,
            dropped: self.dropped,
        };
        positive.prior()?; // the checks of shape, not of support
        Prior::center_normalised(self.counts.iter().map(|&c| c as f64).collect::<Vec<_>>())
    }
}

/// Counts the values of `column` in CSV data with a header row, reading one record
/// at a time (the input is never held in memory).
///
/// Categories are the distinct values in first-seen order, unless `labels` is given:
/// it then fixes the order and the alphabet, a value outside it is an error naming the
/// line (1-based, the header being line 1) and the value, and a label that never
/// occurs is an error. Values are compared exactly (no trimming); an empty or blank
/// value is an error naming its line. A missing column is an error listing the
/// columns. Quoted fields (with commas, quotes or newlines inside) and CRLF line
/// endings are handled by the `csv` crate; every record must have as many fields as
/// the header.
pub fn count_column<R: Read>(
    reader: R,
    column: &str,
    labels: Option<&[String]>,
) -> Result<CategoryCounts> {
    let how = Counting {
        labels,
        ..Counting::default()
    };
    count_column_until(reader, column, how, &|| false)
}

/// How a column is counted: its alphabet, what a missing value does, and whether
/// numbers are cut into bins.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counting<'a> {
    /// The labels, fixing the alphabet and its order [default: the values found,
    /// in first-seen order].
    pub labels: Option<&'a [String]>,
    /// What a missing value does [default: an error].
    pub nulls: Nulls,
    /// Public edges: each value is a number counted in its bin, labelled by its
    /// interval, the bins in numeric order [default: values are labels].
    pub bins: Option<&'a Bins>,
}

impl Counting<'_> {
    /// The counter these settings make.
    pub(crate) fn counter(&self) -> Result<Counter> {
        let mut counter = match (self.labels, self.bins) {
            (Some(_), Some(_)) => {
                return Err(ModelError::invalid(
                    "labels",
                    "given with bins",
                    "the bins name the categories (their intervals)",
                    "give either the labels or the bins",
                ));
            }
            (labels, None) => Counter::new(labels)?,
            (None, Some(b)) => Counter::new(Some(b.labels()))?,
        };
        counter.bins = self.bins.cloned();
        Ok(counter.with_nulls(self.nulls))
    }
}

/// [`count_column`] counted as `how` says, asking `stop` every [`STOP_EVERY`]
/// rows whether to give up (a deadline passed, a job was cancelled): it then
/// returns [`stopped`]'s error.
pub fn count_column_until<R: Read>(
    reader: R,
    column: &str,
    how: Counting<'_>,
    stop: &dyn Fn() -> bool,
) -> Result<CategoryCounts> {
    count_with(how.counter()?, reader, column, stop)
}

/// Counts a released column against the mechanism's `outputs` for estimation
/// (`pml estimate`): as [`count_column`] with the labels given, except that
/// an output that never occurs counts 0 (released data need not show every
/// output). With [`Nulls::Drop`] a missing released value (a row whose input was
/// missing) is left out; otherwise it is an error.
pub fn count_released<R: Read>(
    reader: R,
    column: &str,
    outputs: &[String],
    nulls: Nulls,
) -> Result<CategoryCounts> {
    count_with(released_counter(outputs, nulls)?, reader, column, &|| false)
}

/// The counter of [`count_released`] (and of its Parquet twin): the outputs as
/// labels, each allowed to count 0, a missing value left out under
/// [`Nulls::Drop`] and refused otherwise.
pub(crate) fn released_counter(outputs: &[String], nulls: Nulls) -> Result<Counter> {
    let nulls = if nulls == Nulls::Drop {
        nulls
    } else {
        Nulls::Error
    };
    let mut counter = Counter::new(Some(outputs))?.with_nulls(nulls);
    counter.zeros = true;
    Ok(counter)
}

/// The CSV loop of [`count_column_until`] and [`count_released`].
fn count_with<R: Read>(
    mut counter: Counter,
    reader: R,
    column: &str,
    stop: &dyn Fn() -> bool,
) -> Result<CategoryCounts> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(crate::table::data_text(reader));
    let header = rdr.byte_headers().map_err(csv_error)?;
    let idx = column_index(header, column)?;

    let mut record = csv::ByteRecord::new();
    while rdr.read_byte_record(&mut record).map_err(csv_error)? {
        if counter.rows.is_multiple_of(STOP_EVERY) && stop() {
            return Err(stopped(counter.rows));
        }
        let line = || record.position().map_or(0, |p| p.line());
        // The reader is not flexible: every record has as many fields as the header.
        let field = record.get(idx).unwrap_or_default();
        let value = std::str::from_utf8(field).map_err(|e| {
            ModelError::invalid(
                format!("column {column:?} at line {}", line()),
                String::from_utf8_lossy(field),
                format!("the value is not valid UTF-8 ({e})"),
                "convert the file to UTF-8",
            )
        })?;
        if let Err(reject) = counter.add_field(Some(value)) {
            return Err(counter.reject(
                reject,
                value,
                format!("column {column:?} at line {}", line()),
            ));
        }
    }
    counter.finish(&format!("column {column:?}"))
}

/// How many rows a reader counts between two questions to its `stop`.
pub const STOP_EVERY: u64 = 1024;

/// The error of a reading stopped by its caller after `rows` rows.
pub fn stopped(rows: u64) -> ModelError {
    ModelError::invalid(
        "data",
        format!("row {rows}"),
        "reading stopped before the end of the data (a time limit or a cancel)",
        "read it with more time, or a smaller file",
    )
}

/// Counts in-memory values with the same rules as [`count_column`]; errors name the
/// offending value by its 0-based index (`values[i]`).
pub fn count_values<I, S>(values: I, labels: Option<&[String]>) -> Result<CategoryCounts>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut counter = Counter::new(labels)?;
    for (i, v) in values.into_iter().enumerate() {
        let value = v.as_ref();
        if let Err(reject) = counter.add(value) {
            return Err(counter.reject(reject, value, format!("values[{i}]")));
        }
    }
    counter.finish("the values")
}

/// The most distinct categories [`count_column`] and [`count_values`] collect without
/// given labels: counting stops at the next new value, so a column of identifiers
/// (a million distinct values) is refused early instead of counted in full. Far
/// beyond any alphabet a mechanism can be designed for.
pub const MAX_CATEGORIES: usize = 100_000;

/// Why a value was not counted.
pub(crate) enum Reject {
    Empty,
    Unknown,
    /// A new category beyond [`MAX_CATEGORIES`].
    TooMany,
    /// Not a number within the edges of [`Counting::bins`].
    OutsideBins,
}

/// The counting core shared by [`count_column`] and [`count_values`].
pub(crate) struct Counter {
    index: HashMap<String, usize>,
    labels: Vec<String>,
    counts: Vec<u64>,
    fixed: bool,
    rows: u64,
    /// Whether a given label may count 0 ([`count_released`]).
    pub(crate) zeros: bool,
    /// What [`Counter::add_field`] does with a missing value.
    nulls: Nulls,
    /// Missing values left out ([`Nulls::Drop`]).
    dropped: u64,
    /// Numbers cut at these edges ([`Counting::bins`]).
    bins: Option<Bins>,
}

impl Counter {
    pub(crate) fn new(labels: Option<&[String]>) -> Result<Self> {
        let mut counter = Counter {
            index: HashMap::new(),
            labels: Vec::new(),
            counts: Vec::new(),
            fixed: labels.is_some(),
            rows: 0,
            zeros: false,
            nulls: Nulls::Error,
            dropped: 0,
            bins: None,
        };
        if let Some(labels) = labels {
            if labels.is_empty() {
                return Err(ModelError::invalid(
                    "labels",
                    "[]",
                    "the label list is empty",
                    "list every category, or omit the labels to take them from the data",
                ));
            }
            for (i, label) in labels.iter().enumerate() {
                if label.trim().is_empty() {
                    return Err(ModelError::invalid(
                        format!("labels[{i}]"),
                        format!("{label:?}"),
                        "a label must not be empty or blank",
                        "remove the empty label",
                    ));
                }
                if let Some(&j) = counter.index.get(label.as_str()) {
                    return Err(ModelError::invalid(
                        format!("labels[{i}]"),
                        format!("{label:?}"),
                        format!("the label repeats labels[{j}]"),
                        "list each label once",
                    ));
                }
                counter.index.insert(label.clone(), i);
            }
            counter.labels = labels.to_vec();
            counter.counts = vec![0; labels.len()];
        }
        Ok(counter)
    }

    /// The counter with missing values handled as `nulls` says.
    pub(crate) fn with_nulls(mut self, nulls: Nulls) -> Self {
        self.nulls = nulls;
        self
    }

    /// Counts one field of a column, `None` for a null: a missing value (a null,
    /// an empty or blank field) is refused, left out or counted as
    /// [`NULL_LABEL`], as the counter's [`Nulls`] says. Returns the index of the
    /// label counted (`None`: left out).
    #[inline]
    pub(crate) fn add_field(
        &mut self,
        value: Option<&str>,
    ) -> std::result::Result<Option<usize>, Reject> {
        match (value, &self.bins) {
            (Some(v), None) if !is_missing(v.as_bytes()) => self.add(v).map(Some),
            (Some(v), Some(bins)) if !is_missing(v.as_bytes()) => {
                let i = bins.index_of(v).ok_or(Reject::OutsideBins)?;
                self.counts[i] += 1;
                self.rows += 1;
                Ok(Some(i))
            }
            _ => match self.nulls {
                Nulls::Error => Err(Reject::Empty),
                Nulls::Drop => {
                    self.dropped += 1;
                    Ok(None)
                }
                Nulls::Category => {
                    if self.bins.is_some() && !self.index.contains_key(NULL_LABEL) {
                        self.index.insert(NULL_LABEL.into(), self.labels.len());
                        self.labels.push(NULL_LABEL.into());
                        self.counts.push(0);
                    }
                    self.add(NULL_LABEL).map(Some)
                }
            },
        }
    }

    /// Counts one value and returns its label's index; allocates only for a new
    /// category.
    #[inline]
    pub(crate) fn add(&mut self, value: &str) -> std::result::Result<usize, Reject> {
        let i = if let Some(&i) = self.index.get(value) {
            self.counts[i] += 1;
            i
        } else if value.trim().is_empty() {
            return Err(Reject::Empty);
        } else if self.fixed {
            return Err(Reject::Unknown);
        } else if self.labels.len() >= MAX_CATEGORIES {
            return Err(Reject::TooMany);
        } else {
            self.index.insert(value.to_owned(), self.labels.len());
            self.labels.push(value.to_owned());
            self.counts.push(1);
            self.labels.len() - 1
        };
        self.rows += 1;
        Ok(i)
    }

    /// The labels, in first-seen order (or as given).
    pub(crate) fn into_labels(self) -> Vec<String> {
        self.labels
    }

    /// The error for a rejected `value` at `place`.
    pub(crate) fn reject(&self, reject: Reject, value: &str, place: String) -> ModelError {
        match reject {
            Reject::Empty => ModelError::invalid(
                place,
                format!("{value:?}"),
                "the value is missing (empty)",
                COUNT_FIX,
            ),
            Reject::Unknown => ModelError::invalid(
                place,
                format!("{value:?}"),
                format!(
                    "the value is not one of the {} labels [{}]",
                    self.labels.len(),
                    list_labels(&self.labels)
                ),
                "add it to the labels (or map it to one of them in the data)",
            ),
            Reject::OutsideBins => {
                let edges = self.bins.as_ref().map_or(&[][..], Bins::edges);
                let (lo, hi) = (edges.first(), edges.last());
                ModelError::invalid(
                    place,
                    format!("{value:?}"),
                    format!(
                        "the value is not a number within the edges of the bins, {} to {}",
                        lo.copied().unwrap_or(f64::NAN),
                        hi.copied().unwrap_or(f64::NAN)
                    ),
                    "widen the edges (-inf may be the first and inf the last), or fix the value",
                )
            }
            Reject::TooMany => ModelError::invalid(
                place,
                format!("{value:?}"),
                format!(
                    "a new category after {MAX_CATEGORIES} distinct categories in the first {} \
                     rows; counting stopped, as no mechanism is designed for an alphabet \
                     that large (at most {MAX_CATEGORIES} categories are counted)",
                    self.rows
                ),
                "count a column of categories rather than identifiers, or group the values \
                 into fewer categories first",
            ),
        }
    }

    pub(crate) fn finish(self, source: &str) -> Result<CategoryCounts> {
        if self.rows == 0 && !self.fixed {
            let why = match self.dropped {
                0 => "there are no data rows to count".to_owned(),
                n => format!("there are no data rows to count ({n} missing values left out)"),
            };
            return Err(ModelError::invalid(
                "data",
                source,
                why,
                "pass data with at least one row per category",
            ));
        }
        let absent: Vec<String> = self
            .labels
            .iter()
            .zip(&self.counts)
            .filter(|&(_, &c)| c == 0)
            .map(|(l, _)| l.clone())
            .collect();
        if !absent.is_empty() && !self.zeros {
            return Err(ModelError::invalid(
                "labels",
                list_labels(&absent),
                format!(
                    "{} of the labels never occur in {source} ({} rows); a zero count gives \
                     an estimate without full support, which the l1-ball design cannot use",
                    absent.len(),
                    self.rows
                ),
                "drop these labels or merge them with others, or use more data",
            ));
        }
        Ok(CategoryCounts {
            labels: self.labels,
            counts: self.counts,
            rows: self.rows,
            dropped: self.dropped,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn err(r: Result<CategoryCounts>) -> String {
        r.unwrap_err().to_string()
    }

    #[test]
    fn too_many_categories_stop_the_count() {
        let mut csv = String::from("id\n");
        for i in 0..MAX_CATEGORIES + 10 {
            csv.push_str(&format!("v{i}\n"));
        }
        let e = count_column(csv.as_bytes(), "id", None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("100000 distinct categories"), "{e}");
        assert!(e.contains(&format!("line {}", MAX_CATEGORIES + 2)), "{e}");
        assert!(e.contains("\"v100000\""), "{e}");
        let values: Vec<String> = (0..MAX_CATEGORIES + 1).map(|i| i.to_string()).collect();
        assert!(count_values(&values, None).is_err());
        assert!(count_values(&values[..MAX_CATEGORIES], None).is_ok());
    }

    #[test]
    fn quoted_fields_and_crlf() {
        let csv = "name,city\r\n\"Smith, J\",\"Paris, FR\"\r\nDoe,Berlin\r\n\"a \"\"b\"\"\",\"Paris, FR\"\r\n";
        let c = count_column(csv.as_bytes(), "city", None).unwrap();
        assert_eq!(c.labels, strings(&["Paris, FR", "Berlin"]));
        assert_eq!(c.counts, [2, 1]);
        assert_eq!(c.rows, 3);
        let c = count_column(csv.as_bytes(), "name", None).unwrap();
        assert_eq!(c.labels, strings(&["Smith, J", "Doe", "a \"b\""]));
        // A UTF-8 byte order mark does not stick to the first column name.
        let bom = "\u{feff}x,y\n1,a\n2,b\n";
        assert_eq!(
            count_column(bom.as_bytes(), "x", None).unwrap().counts,
            [1, 1]
        );
    }

    #[test]
    fn empty_value_names_line() {
        let csv = "a,b\n1,x\n2,\n3,y\n";
        let msg = err(count_column(csv.as_bytes(), "b", None));
        assert!(msg.contains("line 3") && msg.contains("empty"), "{msg}");
        // A quoted field with a newline shifts the physical line numbers.
        let csv = "a,b\n\"multi\nline\",x\n2,\"\"\n";
        let msg = err(count_column(csv.as_bytes(), "b", None));
        assert!(msg.contains("line 4"), "{msg}");
        let msg = err(count_values(["a", " ", "b"], None));
        assert!(msg.contains("values[1]") && msg.contains("empty"), "{msg}");
    }

    #[test]
    fn missing_column_lists_columns() {
        let msg = err(count_column("id,colour\n1,red\n".as_bytes(), "color", None));
        assert!(
            msg.contains("\"color\"") && msg.contains("\"id\", \"colour\""),
            "{msg}"
        );
        let msg = err(count_column("".as_bytes(), "x", None));
        assert!(msg.contains("no header"), "{msg}");
        let msg = err(count_column("x,x\n1,2\n".as_bytes(), "x", None));
        assert!(msg.contains("2 columns of that name"), "{msg}");
    }

    #[test]
    fn labels_fix_order() {
        let csv = "v\nb\na\nb\nc\n";
        let labels = strings(&["c", "b", "a"]);
        let c = count_column(csv.as_bytes(), "v", Some(&labels)).unwrap();
        assert_eq!(c.labels, labels);
        assert_eq!(c.counts, [1, 2, 1]);
        let c = count_column(csv.as_bytes(), "v", None).unwrap();
        assert_eq!(c.labels, strings(&["b", "a", "c"]));
        assert_eq!(c.counts, [2, 1, 1]);
    }

    #[test]
    fn unknown_value_with_labels() {
        let csv = "v\na\nb\nz\na\n";
        let labels = strings(&["a", "b"]);
        let msg = err(count_column(csv.as_bytes(), "v", Some(&labels)));
        assert!(
            msg.contains("line 4") && msg.contains("\"z\"") && msg.contains("not one of"),
            "{msg}"
        );
        let msg = err(count_values(["a", "z"], Some(&labels)));
        assert!(msg.contains("values[1]") && msg.contains("\"z\""), "{msg}");
    }

    #[test]
    fn label_absent_from_data() {
        let labels = strings(&["a", "b", "c"]);
        let msg = err(count_column("v\na\nb\na\n".as_bytes(), "v", Some(&labels)));
        assert!(
            msg.contains("\"c\"") && msg.contains("never occur"),
            "{msg}"
        );
        let msg = err(count_column("v\n".as_bytes(), "v", Some(&labels)));
        assert!(msg.contains("3 of the labels"), "{msg}");
        assert!(count_values(["a", "b"], Some(&strings(&["a", "a"]))).is_err());
        assert!(count_values(["a"], Some(&[])).is_err());
        assert!(count_values(Vec::<String>::new(), None).is_err());
    }

    #[test]
    fn matches_counting_by_hand() {
        let mut csv = String::from("k,v\n");
        let mut values = Vec::new();
        let mut hand: Vec<(String, u64)> = Vec::new();
        let mut x: u64 = 12345;
        for i in 0..5000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let v = format!("cat{}", (x >> 33) % 7);
            csv.push_str(&format!("{i},{v}\n"));
            match hand.iter_mut().find(|(l, _)| *l == v) {
                Some((_, c)) => *c += 1,
                None => hand.push((v.clone(), 1)),
            }
            values.push(v);
        }
        let c = count_column(csv.as_bytes(), "v", None).unwrap();
        let (labels, counts): (Vec<String>, Vec<u64>) = hand.into_iter().unzip();
        assert_eq!(c.labels, labels);
        assert_eq!(c.counts, counts);
        assert_eq!(c.rows, 5000);
        assert_eq!(count_values(&values, None).unwrap(), c);
        let p = c.prior().unwrap();
        for (i, &n) in counts.iter().enumerate() {
            assert!((p.masses()[i] - n as f64 / 5000.0).abs() < 1e-15);
        }
    }

    #[test]
    fn prior_refuses_zero_and_single() {
        let c = CategoryCounts {
            labels: strings(&["a", "b", "c"]),
            counts: vec![3, 0, 1],
            rows: 4,
            dropped: 0,
        };
        let msg = c.prior().unwrap_err().to_string();
        assert!(msg.contains("\"b\"") && msg.contains("ball"), "{msg}");
        // At the centre of a ball the zero is a mass 0.
        assert_eq!(c.center().unwrap().masses().to_vec(), vec![0.75, 0.0, 0.25]);
        let one = count_values(["a", "a"], None).unwrap();
        assert!(one.prior().is_err() && one.center().is_err());
    }

    #[test]
    fn ragged_rows_are_errors() {
        let msg = err(count_column("a,b\n1,x\n2\n".as_bytes(), "b", None));
        assert!(
            msg.contains("invalid csv") && msg.contains("line 3"),
            "{msg}"
        );
    }
}
