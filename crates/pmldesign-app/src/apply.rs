//! What a release did to a table (`pml apply --summary FILE`): the rows read,
//! privatised, left out, kept with an empty value and written missing, the
//! first value outside the alphabet, and the columns written. The line `pml
//! apply` prints on stderr is read from the same value.

use crate::json::versioned;
/// The counts a summary holds, as the privatiser keeps them.
pub use pmldesign_data::PrivatiseSummary;
use serde_json::{Value, json};

/// How the table was read, which says what a place in it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TableFormat {
    /// CSV with a header: places are lines, the header being line 1.
    Csv,
    /// Parquet: places are rows, the first being row 0.
    Parquet,
    /// An in-memory column or frame (Python's `apply`): places are its rows,
    /// the first being row 0.
    Frame,
}

impl TableFormat {
    /// What a place in the table is: `line` (CSV) or `row` (Parquet).
    pub fn place(self) -> &'static str {
        match self {
            TableFormat::Csv => "line",
            TableFormat::Parquet | TableFormat::Frame => "row",
        }
    }

    /// The format's name in the JSON: `csv`, `parquet` or `frame`.
    pub fn name(self) -> &'static str {
        match self {
            TableFormat::Csv => "csv",
            TableFormat::Parquet => "parquet",
            TableFormat::Frame => "frame",
        }
    }

    /// The format of a name [`TableFormat::name`] gives, `None` for any other.
    pub fn of_name(name: &str) -> Option<Self> {
        [TableFormat::Csv, TableFormat::Parquet, TableFormat::Frame]
            .into_iter()
            .find(|f| f.name() == name)
    }
}

/// A column privatised and the name its private values are written under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenColumn {
    /// The raw column read.
    pub column: String,
    /// The column its private values are written as.
    pub written_as: String,
}

/// The summary of one release, as `pml apply --summary` writes it.
#[derive(Debug, Clone, PartialEq)]
pub struct ApplySummary {
    summary: PrivatiseSummary,
    format: TableFormat,
    columns: Vec<WrittenColumn>,
    raw_kept: bool,
}

impl ApplySummary {
    /// The summary of a release of `columns` read as `format`; `raw_kept` where
    /// the output also holds the raw columns (then it is not a release).
    pub fn new(
        summary: PrivatiseSummary,
        format: TableFormat,
        columns: Vec<WrittenColumn>,
        raw_kept: bool,
    ) -> Self {
        ApplySummary {
            summary,
            format,
            columns,
            raw_kept,
        }
    }

    /// The counts, as the privatiser kept them.
    pub fn counts(&self) -> &PrivatiseSummary {
        &self.summary
    }

    /// How the table was read.
    pub fn format(&self) -> TableFormat {
        self.format
    }

    /// The first value outside the alphabet: its place (a line or a row, as
    /// [`TableFormat`] says) and the value.
    pub fn first_unknown(&self) -> Option<(u64, &str)> {
        let (at, value) = self.summary.first_unknown.as_ref()?;
        Some((*at, value.as_str()))
    }

    /// The answer as JSON, `format_version` first.
    pub fn to_json(&self) -> Value {
        let s = &self.summary;
        let place = self.format.place();
        let first = s.first_unknown.as_ref().map(|(at, value)| {
            let mut m = serde_json::Map::new();
            m.insert(place.into(), json!(at));
            m.insert("value".into(), json!(value));
            Value::Object(m)
        });
        let columns: Vec<Value> = self
            .columns
            .iter()
            .map(|c| json!({"column": c.column, "written_as": c.written_as}))
            .collect();
        versioned(json!({
            "format": self.format.name(),
            "rows": s.rows,
            "privatised": s.privatised,
            "skipped": s.skipped,
            "kept_empty": s.kept,
            "written_missing": s.nulls,
            "first_unknown": first,
            "columns": columns,
            "raw_kept": self.raw_kept,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parquet_place_is_a_row_and_a_csv_place_a_line() {
        let counts = PrivatiseSummary {
            rows: 5,
            privatised: 3,
            skipped: 1,
            kept: 0,
            first_unknown: Some((4, "zz".into())),
            nulls: 1,
        };
        let columns = vec![WrittenColumn {
            column: "city".into(),
            written_as: "city_private".into(),
        }];
        let csv = ApplySummary::new(counts.clone(), TableFormat::Csv, columns.clone(), false);
        let j = csv.to_json();
        assert_eq!(j["first_unknown"], json!({"line": 4, "value": "zz"}));
        assert_eq!(j["written_missing"], 1);
        assert_eq!(
            j.as_object().unwrap().keys().next().unwrap(),
            "format_version"
        );
        let parquet = ApplySummary::new(counts, TableFormat::Parquet, columns, false);
        assert_eq!(
            parquet.to_json()["first_unknown"],
            json!({"row": 4, "value": "zz"})
        );
    }
}
