//! The sample of a record: the observed value tuples and their counts.

use crate::error::{ModelError, Result};
use crate::sample::MAX_SAMPLES;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};

/// The observed records of a table: column names, each column's labels, and every
/// observed tuple of label indices (one per column) with its count, sorted and
/// distinct. Every label of every column occurs (a column's marginal estimate
/// has full support).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RecordSample {
    columns: Vec<String>,
    labels: Vec<Vec<String>>,
    tuples: Vec<(Vec<usize>, u64)>,
}

#[derive(Deserialize)]
struct Raw {
    columns: Vec<String>,
    labels: Vec<Vec<String>>,
    tuples: Vec<(Vec<usize>, u64)>,
}

impl<'de> Deserialize<'de> for RecordSample {
    /// Read back through [`RecordSample::new`]: a stored sample is checked as a new one.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let raw = Raw::deserialize(d)?;
        RecordSample::new(raw.columns, raw.labels, raw.tuples).map_err(serde::de::Error::custom)
    }
}

impl RecordSample {
    /// Checks and normalises a sample: at least two columns with distinct non-empty
    /// names, at least two distinct labels each, tuples of one index per column
    /// inside the labels, counts `> 0` (repeated tuples are added up), and every
    /// label observed.
    pub fn new(
        columns: Vec<String>,
        labels: Vec<Vec<String>>,
        tuples: Vec<(Vec<usize>, u64)>,
    ) -> Result<Self> {
        check_columns(&columns, &labels)?;
        let mut merged: BTreeMap<Vec<usize>, u64> = BTreeMap::new();
        for (i, (tuple, count)) in tuples.into_iter().enumerate() {
            check_tuple(i, &tuple, count, &labels)?;
            let total = merged.entry(tuple).or_insert(0);
            *total = total.saturating_add(count);
        }
        let s = RecordSample {
            columns,
            labels,
            tuples: merged.into_iter().collect(),
        };
        if s.rows() > MAX_SAMPLES {
            return Err(ModelError::invalid(
                "tuples",
                s.rows(),
                format!("more than 2^53 = {MAX_SAMPLES} records"),
                "count a sample of the table",
            ));
        }
        for j in 0..s.columns.len() {
            if let Some(x) = s.marginal(j).iter().position(|&c| c == 0) {
                return Err(ModelError::invalid(
                    format!("labels of column {:?}", s.columns[j]),
                    &s.labels[j][x],
                    "this label never occurs in the sample (a column's estimate needs every label)",
                    "drop the label, or merge it into another",
                ));
            }
        }
        Ok(s)
    }

    /// The column names.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// The labels of column `j`.
    pub fn labels(&self, j: usize) -> &[String] {
        &self.labels[j]
    }

    /// The observed tuples and counts, sorted.
    pub fn tuples(&self) -> &[(Vec<usize>, u64)] {
        &self.tuples
    }

    /// The number of records m.
    pub fn rows(&self) -> u64 {
        self.tuples.iter().map(|(_, c)| c).sum()
    }

    /// The counts of column `j`'s labels.
    pub fn marginal(&self, j: usize) -> Vec<u64> {
        let mut counts = vec![0u64; self.labels[j].len()];
        for (t, c) in &self.tuples {
            counts[t[j]] += c;
        }
        counts
    }

    /// The number of combinations of all labels (the joint alphabet), if it fits.
    pub fn cells(&self) -> Option<usize> {
        self.prefix_cells(self.columns.len())
    }

    /// The number of combinations of the labels of the first `j` columns.
    pub fn prefix_cells(&self, j: usize) -> Option<usize> {
        self.labels[..j]
            .iter()
            .try_fold(1usize, |acc, l| acc.checked_mul(l.len()))
    }

    /// The row-major index of a tuple among [`RecordSample::cells`].
    pub fn cell_index(&self, tuple: &[usize]) -> usize {
        tuple
            .iter()
            .zip(&self.labels)
            .fold(0, |acc, (&x, l)| acc * l.len() + x)
    }

    /// For each observed combination `a` of the first `j` columns, the counts of
    /// column `j`'s labels among the records that start with `a` (sorted by `a`).
    pub fn conditionals(&self, j: usize) -> Vec<Vec<u64>> {
        let n = self.labels[j].len();
        let mut out: Vec<Vec<u64>> = Vec::new();
        let mut last: Option<&[usize]> = None;
        for (t, c) in &self.tuples {
            if last != Some(&t[..j]) {
                out.push(vec![0; n]);
                last = Some(&t[..j]);
            }
            if let Some(row) = out.last_mut() {
                row[t[j]] += c;
            }
        }
        out
    }
}

fn check_columns(columns: &[String], labels: &[Vec<String>]) -> Result<()> {
    if columns.len() < 2 || columns.len() != labels.len() {
        return Err(ModelError::invalid(
            "columns",
            columns.join(","),
            format!(
                "a record needs at least two columns, each with its labels ({} columns, {} label lists)",
                columns.len(),
                labels.len()
            ),
            "name two or more columns",
        ));
    }
    let mut seen = HashSet::new();
    for (name, l) in columns.iter().zip(labels) {
        if name.is_empty() || !seen.insert(name) {
            return Err(ModelError::invalid(
                "columns",
                format!("{name:?}"),
                "a column is named twice, or has no name",
                "name each column once",
            ));
        }
        let distinct: HashSet<&String> = l.iter().collect();
        if l.len() < 2 || distinct.len() != l.len() {
            return Err(ModelError::invalid(
                format!("labels of column {name:?}"),
                l.join(","),
                "a column needs at least two distinct labels",
                "give each label once; a column with one value reveals nothing",
            ));
        }
    }
    Ok(())
}

fn check_tuple(i: usize, tuple: &[usize], count: u64, labels: &[Vec<String>]) -> Result<()> {
    let inside = tuple.len() == labels.len() && tuple.iter().zip(labels).all(|(&x, l)| x < l.len());
    if !inside || count == 0 {
        return Err(ModelError::invalid(
            format!("tuples[{i}]"),
            format!("{tuple:?} x {count}"),
            "each tuple has one label index per column, inside its labels, and a count > 0",
            "count each observed combination of labels",
        ));
    }
    Ok(())
}
