//! Counting whole records: the observed value tuples of several columns of a CSV
//! file (Parquet: [`crate::columnar::count_records_parquet`]), as the sample of a
//! record design (`pmldesign_model::record::RecordSample`). A numeric column may
//! be cut at public edges ([`RecordCounting::bins`]), as one column is.

use crate::bins::Bins;
use crate::counts::{Counter, Counting};
use crate::nulls::Nulls;
use crate::table::{column_index, csv_error};
use pmldesign_model::record::RecordSample;
use pmldesign_model::{ModelError, Result};
use std::collections::HashMap;
use std::io::Read;

/// How the columns of a record are counted: what a missing value does, and which
/// columns are numbers cut into bins.
#[derive(Debug, Clone, Copy, Default)]
pub struct RecordCounting<'a> {
    /// What a missing value does ([`Nulls::record_row`]) [default: an error].
    pub nulls: Nulls,
    /// Public edges of each column, in the order of the columns (`None`, or a
    /// list shorter than the columns: its values are labels). A binned column's
    /// labels are its bins in numeric order, then [`crate::NULL_LABEL`] if a
    /// missing value was counted, as [`crate::Counting::bins`] counts one column
    /// [default: no column binned].
    pub bins: &'a [Option<Bins>],
}

/// Counts the tuples of `columns`, each column's labels in first-seen order (a
/// binned column's: its bins).
pub(crate) struct RecordCounter {
    columns: Vec<String>,
    counters: Vec<Counter>,
    binned: Vec<bool>,
    tuples: HashMap<Vec<usize>, u64>,
    tuple: Vec<usize>,
    nulls: Nulls,
    /// Rows left out for a missing value ([`Nulls::Drop`]).
    pub(crate) dropped: u64,
}

impl RecordCounter {
    /// A counter of the named columns (each named once), counted as `how` says.
    pub(crate) fn new(columns: &[String], how: RecordCounting<'_>) -> Result<Self> {
        for (i, c) in columns.iter().enumerate() {
            if columns[..i].contains(c) {
                return Err(ModelError::invalid(
                    "column",
                    format!("{c:?}"),
                    "the column is named twice",
                    "name each column of the record once",
                ));
            }
        }
        if how.bins.len() > columns.len() {
            return Err(ModelError::invalid(
                "bins",
                how.bins.len(),
                format!("more bins than the {} columns", columns.len()),
                "give at most one set of edges per column, in the columns' order",
            ));
        }
        let bins = |j: usize| how.bins.get(j).and_then(Option::as_ref);
        let counters = (0..columns.len())
            .map(|j| match bins(j) {
                Some(b) => Counting {
                    labels: None,
                    nulls: how.nulls,
                    bins: Some(b),
                }
                .counter(),
                None => Counter::new(None),
            })
            .collect::<Result<_>>()?;
        Ok(RecordCounter {
            columns: columns.to_vec(),
            counters,
            binned: (0..columns.len()).map(|j| bins(j).is_some()).collect(),
            tuples: HashMap::new(),
            tuple: vec![0; columns.len()],
            nulls: how.nulls,
            dropped: 0,
        })
    }

    /// Counts one record; `place(j)` names the field of column `j` in an error.
    pub(crate) fn add(&mut self, values: &[&str], place: impl Fn(usize) -> String) -> Result<()> {
        let mut bytes: Vec<&[u8]> = values.iter().map(|v| v.as_bytes()).collect();
        if !self.nulls.record_row(&mut bytes) {
            self.dropped += 1;
            return Ok(());
        }
        for (j, value) in bytes.iter().enumerate() {
            let counted = if self.binned[j] {
                // The raw value: a missing one is the counter's (its bins, then NULL_LABEL).
                let raw = values[j];
                let i = self.counters[j].add_field(Some(raw));
                (
                    i.map(|i| i.expect("a row with a missing value was left out")),
                    raw,
                )
            } else {
                // Fields came in as text; a rule only swaps in the text NULL_LABEL.
                let value = std::str::from_utf8(value).expect("text in, text out");
                (self.counters[j].add(value), value)
            };
            match counted {
                (Ok(i), _) => self.tuple[j] = i,
                (Err(reject), v) => return Err(self.counters[j].reject(reject, v, place(j))),
            }
        }
        *self.tuples.entry(self.tuple.clone()).or_insert(0) += 1;
        Ok(())
    }

    /// The sample counted.
    pub(crate) fn finish(self) -> Result<RecordSample> {
        let labels = self
            .counters
            .into_iter()
            .map(Counter::into_labels)
            .collect();
        RecordSample::new(self.columns, labels, self.tuples.into_iter().collect())
    }
}

/// Counts the records of `columns` in a CSV file with a header. A value missing
/// or empty in any of them is handled as `nulls` says: an error naming its
/// column and line, the row left out, or the category [`crate::NULL_LABEL`].
pub fn count_records<R: Read>(reader: R, columns: &[String], nulls: Nulls) -> Result<RecordSample> {
    let how = RecordCounting { nulls, bins: &[] };
    count_records_with(reader, columns, how)
}

/// [`count_records`] counted as `how` says: a binned column's values are
/// numbers, each counted in its bin (a number outside the edges is an error
/// naming its column and line).
pub fn count_records_with<R: Read>(
    reader: R,
    columns: &[String],
    how: RecordCounting<'_>,
) -> Result<RecordSample> {
    let mut counter = RecordCounter::new(columns, how)?;
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(crate::table::data_text(reader));
    let header = rdr.byte_headers().map_err(csv_error)?;
    let idx = columns
        .iter()
        .map(|c| column_index(header, c))
        .collect::<Result<Vec<_>>>()?;
    let mut record = csv::ByteRecord::new();
    let mut values: Vec<String> = vec![String::new(); columns.len()];
    while rdr.read_byte_record(&mut record).map_err(csv_error)? {
        let line = record.position().map_or(0, |p| p.line());
        for (v, &i) in values.iter_mut().zip(&idx) {
            let field = record.get(i).unwrap_or_default();
            *v = String::from_utf8_lossy(field).into_owned();
        }
        let refs: Vec<&str> = values.iter().map(String::as_str).collect();
        counter.add(&refs, |j| format!("column {:?} at line {line}", columns[j]))?;
    }
    counter.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuples_are_counted_with_first_seen_labels() {
        let csv = "id,city,age\n1,Oslo,young\n2,Lund,old\n3,Oslo,young\n4,Oslo,old\n";
        let s =
            count_records(csv.as_bytes(), &["city".into(), "age".into()], Nulls::Error).unwrap();
        assert_eq!(s.labels(0), ["Oslo", "Lund"]);
        assert_eq!(
            s.tuples(),
            [(vec![0, 0], 2), (vec![0, 1], 1), (vec![1, 1], 1)]
        );
        let e = count_records(
            "city,age\nOslo,\n".as_bytes(),
            &["city".into(), "age".into()],
            Nulls::Error,
        );
        assert!(
            e.unwrap_err()
                .to_string()
                .contains(r#"column "age" at line 2"#)
        );
        let twice = count_records(
            csv.as_bytes(),
            &["city".into(), "city".into()],
            Nulls::Error,
        );
        assert!(twice.unwrap_err().to_string().starts_with("invalid column"));
    }

    #[test]
    fn missing_values_are_dropped_or_counted_as_a_category() {
        let csv = "city,age\nOslo,young\nOslo,\n ,old\nLund,old\n";
        let columns = ["city".to_string(), "age".to_string()];
        let dropped = count_records(csv.as_bytes(), &columns, Nulls::Drop).unwrap();
        assert_eq!(dropped.labels(0), ["Oslo", "Lund"]);
        assert_eq!(dropped.tuples().iter().map(|t| t.1).sum::<u64>(), 2);
        let category = count_records(csv.as_bytes(), &columns, Nulls::Category).unwrap();
        assert_eq!(category.labels(0), ["Oslo", crate::NULL_LABEL, "Lund"]);
        assert_eq!(category.labels(1), ["young", crate::NULL_LABEL, "old"]);
        assert_eq!(category.tuples().iter().map(|t| t.1).sum::<u64>(), 4);
    }

    #[test]
    fn binned_columns_count_their_bins_in_numeric_order() {
        let csv = "mass,city\n12,Oslo\n3,Lund\n,Oslo\n19.5,Lund\n";
        let columns = ["mass".to_string(), "city".to_string()];
        let bins = [Some(Bins::parse("bins", "0,10,20").unwrap())];
        let how = |nulls| RecordCounting { nulls, bins: &bins };
        let s = count_records_with(csv.as_bytes(), &columns, how(Nulls::Category)).unwrap();
        assert_eq!(s.labels(0), ["[0, 10)", "[10, 20]", crate::NULL_LABEL]);
        assert_eq!(s.labels(1), ["Oslo", "Lund"]);
        assert_eq!(
            s.tuples(),
            [
                (vec![0, 1], 1),
                (vec![1, 0], 1),
                (vec![1, 1], 1),
                (vec![2, 0], 1)
            ]
        );
        let dropped = count_records_with(csv.as_bytes(), &columns, how(Nulls::Drop)).unwrap();
        assert_eq!(dropped.labels(0), ["[0, 10)", "[10, 20]"]);
        let e = count_records_with(csv.as_bytes(), &columns, how(Nulls::Error)).unwrap_err();
        assert!(e.to_string().contains(r#"column "mass" at line 4"#), "{e}");
        let outside = "mass,city\n12,Oslo\n30,Lund\n3,Lund\n";
        let e = count_records_with(outside.as_bytes(), &columns, how(Nulls::Error)).unwrap_err();
        assert!(e.to_string().contains("0 to 20"), "{e}");
    }
}
