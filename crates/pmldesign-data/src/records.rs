//! Counting whole records: the observed value tuples of several columns of a CSV
//! file (Parquet: [`crate::columnar::count_records_parquet`]), as the sample of a
//! record design (`pmldesign_model::record::RecordSample`).

use crate::counts::Counter;
use crate::nulls::Nulls;
use crate::table::{column_index, csv_error};
use pmldesign_model::record::RecordSample;
use pmldesign_model::{ModelError, Result};
use std::collections::HashMap;
use std::io::Read;

/// Counts the tuples of `columns`, each column's labels in first-seen order.
pub(crate) struct RecordCounter {
    columns: Vec<String>,
    counters: Vec<Counter>,
    tuples: HashMap<Vec<usize>, u64>,
    tuple: Vec<usize>,
    nulls: Nulls,
    /// Rows left out for a missing value ([`Nulls::Drop`]).
    pub(crate) dropped: u64,
}

impl RecordCounter {
    /// A counter of the named columns (each named once), missing values handled
    /// as `nulls` says ([`Nulls::record_row`]).
    pub(crate) fn new(columns: &[String], nulls: Nulls) -> Result<Self> {
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
        Ok(RecordCounter {
            columns: columns.to_vec(),
            counters: (0..columns.len())
                .map(|_| Counter::new(None))
                .collect::<Result<_>>()?,
            tuples: HashMap::new(),
            tuple: vec![0; columns.len()],
            nulls,
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
            // Fields came in as text; a rule only swaps in the text NULL_LABEL.
            let value = std::str::from_utf8(value).expect("text in, text out");
            match self.counters[j].add(value) {
                Ok(i) => self.tuple[j] = i,
                Err(reject) => return Err(self.counters[j].reject(reject, value, place(j))),
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
    let mut counter = RecordCounter::new(columns, nulls)?;
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(crate::table::bounded(reader));
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
}
