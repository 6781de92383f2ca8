//! Privatising a CSV column as a stream: each value `x` of the column is replaced by
//! (or joined by) an output drawn from the mechanism's row `W[x][.]` (\[E\] Sec. II;
//! `docs/theory.md` §1), one record at a time.
//!
//! ```
//! use pmldesign_data::{CategoricalPrivatiser, OnUnknown, Placement, privatise_column};
//! use pmldesign_data::stream::StreamKey;
//! use pmldesign_model::Mechanism;
//! let w = Mechanism::identity(2);
//! let names = vec!["a".to_string(), "b".to_string()];
//! let key = StreamKey::from_os();
//! let mut p = CategoricalPrivatiser::new(&w, names.clone(), names, (&key, "v"))?;
//! let mut out = Vec::new();
//! let input = "id,v\n1,a\n2,b\n";
//! let summary = privatise_column(input.as_bytes(), &mut out, "v", Placement::Private("v_private"),
//!                                OnUnknown::Error, &mut p)?;
//! assert_eq!(summary.privatised, 2);
//! // The raw column is left out: the output holds no raw value of the secret.
//! assert_eq!(String::from_utf8(out).unwrap(), "id,v_private\n1,a\n2,b\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::nulls::{APPLY_FIX, NULL_LABEL, Nulls, is_missing};
use crate::table::{column_index, csv_error, list_labels};
use pmldesign_model::ModelError;
use serde::{Deserialize, Serialize};
use std::io::Read;

/// Turns one value of a column into its privatised value; implemented by the
/// samplers of [`crate::sampler`].
pub trait ColumnPrivatiser {
    /// Appends the privatised value of `value`, the column's row `row` (0-based,
    /// every data row counted), to `out` and returns true, or returns false
    /// (leaving `out` alone) if `value` is not in the alphabet. Row i draws from
    /// its own place of the column's stream ([`crate::stream`]).
    fn privatise(&mut self, row: u64, value: &[u8], out: &mut Vec<u8>) -> bool;
    /// The values accepted, for error messages.
    fn alphabet(&self) -> &[String];
    /// How many rows of each value of the alphabet were privatised so far, for
    /// a privatiser that keeps a count per label (not the rows themselves).
    fn counts(&self) -> Option<&[u64]> {
        None
    }
}

/// What [`privatise_column`] does with a row whose value is outside the alphabet.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnUnknown {
    /// Stop with an error naming the line and the value.
    #[default]
    Error,
    /// Leave the row out of the output.
    Skip,
    /// Write the row with an empty privatised value.
    Keep,
}

/// Where the privatised values go, and whether the raw column stays.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement<'a> {
    /// A new last column of this name, the raw column left out: the output holds
    /// no raw value of the secret (the default of `pml apply`).
    Private(&'a str),
    /// A new last column of this name beside the raw column, which stays
    /// (`pml apply --keep-raw`: such an output is not a release).
    Append(&'a str),
    /// In place of the original values (the header is unchanged).
    Replace,
}

impl Placement<'_> {
    /// Whether the raw column is written (only [`Placement::Append`] keeps it).
    pub fn keeps_raw(self) -> bool {
        matches!(self, Placement::Append(_))
    }
}

/// What [`privatise_column`] did.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PrivatiseSummary {
    /// Data rows read.
    pub rows: u64,
    /// Rows written with a privatised value.
    pub privatised: u64,
    /// Rows with a value outside the alphabet left out ([`OnUnknown::Skip`]).
    pub skipped: u64,
    /// Rows with a value outside the alphabet written with an empty privatised value
    /// ([`OnUnknown::Keep`]).
    pub kept: u64,
    /// The line (1-based, the header being line 1) and value of the first row outside
    /// the alphabet, if any.
    pub first_unknown: Option<(u64, String)>,
    /// Rows with a missing value written with a missing privatised value
    /// ([`Nulls::Drop`]).
    #[serde(default)]
    pub nulls: u64,
}

/// Why [`privatise_column`] stopped.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum PrivatiseError {
    /// The input is wrong (missing column, malformed CSV).
    #[error(transparent)]
    Input(#[from] ModelError),
    /// A value is outside the alphabet and [`OnUnknown::Error`] was asked for; the
    /// message names the line and the value (a caller may add how to skip or keep).
    #[error(transparent)]
    Unknown(ModelError),
    /// Reading the input failed.
    #[error("{0}")]
    Read(std::io::Error),
    /// Writing the output failed.
    #[error("{0}")]
    Write(std::io::Error),
}

/// Streams CSV with a header from `reader` to `writer`, privatising the values of
/// `column` one record at a time (nothing is held in memory beyond one record):
/// each value `v` becomes `privatiser.privatise(v)`, placed as `placement` says.
///
/// Values are matched exactly, as by [`count_column`](crate::count_column); a value outside the alphabet
/// (including an empty one) is handled as `on_unknown` says, by default an error
/// naming its line and value. Fields are re-quoted where needed and records end in
/// `\n`. The writer is flushed; on error, part of the output may have been written
/// (write to a temporary file and rename it on success).
pub fn privatise_column<R, W, P>(
    reader: R,
    writer: W,
    column: &str,
    placement: Placement<'_>,
    on_unknown: OnUnknown,
    privatiser: &mut P,
) -> std::result::Result<PrivatiseSummary, PrivatiseError>
where
    R: Read,
    W: std::io::Write,
    P: ColumnPrivatiser + ?Sized,
{
    let how = Handling {
        placement,
        on_unknown,
        ..Handling::default()
    };
    privatise_column_by(reader, writer, column, how, privatiser)
}

/// How [`privatise_column_by`] (and the Parquet writer) treat the rows: where the
/// output goes, what a value outside the alphabet and a missing value do, and
/// where each row draws from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Handling<'a> {
    /// Where the privatised values go [default: appended as `private`, the raw
    /// column left out].
    pub placement: Placement<'a>,
    /// A value outside the alphabet [default: an error].
    pub on_unknown: OnUnknown,
    /// Where each row draws from [default: its position].
    pub rows: RowPlace<'a>,
    /// A missing value (empty or blank; a Parquet null) [default: as a value
    /// outside the alphabet]: [`Nulls::Category`] privatises it as [`NULL_LABEL`]
    /// (the mechanism must have that input), [`Nulls::Drop`] writes a missing
    /// privatised value.
    pub nulls: Nulls,
}

impl Default for Handling<'_> {
    fn default() -> Self {
        Handling {
            placement: Placement::Private("private"),
            on_unknown: OnUnknown::Error,
            rows: RowPlace::Position,
            nulls: Nulls::Error,
        }
    }
}

impl Handling<'_> {
    /// Under [`Nulls::Category`], the mechanism must have the input [`NULL_LABEL`].
    pub(crate) fn check(&self, alphabet: &[String]) -> Result<(), ModelError> {
        if self.nulls == Nulls::Category && !alphabet.iter().any(|l| l == NULL_LABEL) {
            return Err(ModelError::invalid(
                "nulls",
                "category",
                format!(
                    "a missing value is privatised as {NULL_LABEL:?}, which is not one of the \
                     mechanism's {} labels",
                    alphabet.len()
                ),
                "design with --nulls category (nulls=\"category\"), or drop or fill the \
                 missing values",
            ));
        }
        Ok(())
    }

    /// The value a field is privatised as: the field, or [`NULL_LABEL`] for a
    /// missing one under [`Nulls::Category`]; `None` for a missing one under
    /// [`Nulls::Drop`].
    #[inline]
    pub(crate) fn value<'v>(&self, field: &'v [u8]) -> Option<&'v [u8]> {
        if self.nulls == Nulls::Error || !is_missing(field) {
            return Some(field);
        }
        (self.nulls == Nulls::Category).then_some(NULL_LABEL.as_bytes())
    }
}

/// Where a row draws from in its column's stream.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RowPlace<'a> {
    /// Its position among the data rows (0-based).
    #[default]
    Position,
    /// The place its user's key, the value of this column, gives
    /// ([`crate::stream::key_position`]): the same key draws the same wherever its
    /// row is. An empty key is an error naming its line.
    Key(&'a str),
}

/// [`privatise_column`] with each row's place in the stream given by `rows`.
pub fn privatise_column_by<R, W, P>(
    reader: R,
    writer: W,
    column: &str,
    how: Handling<'_>,
    privatiser: &mut P,
) -> std::result::Result<PrivatiseSummary, PrivatiseError>
where
    R: Read,
    W: std::io::Write,
    P: ColumnPrivatiser + ?Sized,
{
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .buffer_capacity(1 << 16)
        .from_reader(crate::table::data_text(reader));
    let mut wtr = RecordWriter::new(writer);
    let header = rdr.byte_headers().map_err(read_error)?.clone();
    let idx = column_index(&header, column)?;
    how.check(privatiser.alphabet())?;
    let (placement, on_unknown) = (how.placement, how.on_unknown);
    let key = match how.rows {
        RowPlace::Key(name) => Some((name, column_index(&header, name)?)),
        RowPlace::Position => None,
    };
    write_header(&mut wtr, &header, (idx, placement))?;
    let mut seen = SeenKeys::default();

    let mut summary = PrivatiseSummary::default();
    let mut record = csv::ByteRecord::new();
    let mut out = Vec::with_capacity(64);
    while rdr.read_byte_record(&mut record).map_err(read_error)? {
        summary.rows += 1;
        out.clear();
        // The reader is not flexible: every record has as many fields as the header.
        let field = record.get(idx).unwrap_or_default();
        let row = match key {
            Some(k) => seen.of_record(&record, k)?,
            None => summary.rows - 1,
        };
        let Some(value) = how.value(field) else {
            summary.nulls += 1;
            write_row(&mut wtr, &record, (idx, placement), &out)?;
            continue;
        };
        if privatiser.privatise(row, value, &mut out) {
            summary.privatised += 1;
        } else {
            let line = record.position().map_or(0, |p| p.line());
            let shown = String::from_utf8_lossy(value).into_owned();
            if on_unknown == OnUnknown::Error {
                return Err(unknown_error(column, line, &shown, privatiser.alphabet()));
            }
            summary.first_unknown.get_or_insert((line, shown));
            if on_unknown == OnUnknown::Skip {
                summary.skipped += 1;
                continue;
            }
            summary.kept += 1;
        }
        write_row(&mut wtr, &record, (idx, placement), &out)?;
    }
    wtr.flush()?;
    Ok(summary)
}

/// Writes `record` with the privatised value `out` placed at column `idx` as
/// `placement` says.
#[inline]
fn write_row<W: std::io::Write>(
    wtr: &mut RecordWriter<W>,
    record: &csv::ByteRecord,
    (idx, placement): (usize, Placement<'_>),
    out: &[u8],
) -> std::result::Result<(), PrivatiseError> {
    match placement {
        Placement::Private(_) => wtr.record(
            record
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != idx)
                .map(|(_, f)| f)
                .chain(std::iter::once(out)),
        ),
        Placement::Append(_) => wtr.record(record.iter().chain(std::iter::once(out))),
        Placement::Replace => wtr.record(
            record
                .iter()
                .enumerate()
                .map(|(i, f)| if i == idx { out } else { f }),
        ),
    }
}

/// The user keys of a file's rows, by the stream place each gives: a key on two
/// rows (or two keys sharing a place) would give both rows the same draw, and
/// seeing two different outputs would then prove the person's two values
/// differ; the second such row is refused. Holds one entry per row, about 55
/// bytes at the table's peak: 2 million keyed rows take 116 MB (12 MB unkeyed).
#[derive(Debug, Default)]
pub(crate) struct SeenKeys {
    first: std::collections::HashMap<u64, u64>,
}

impl SeenKeys {
    /// The place of `key` on row `at` (a CSV line, or a Parquet row: `unit`
    /// says which) of key column `name`, refused if empty or seen before.
    pub(crate) fn place(
        &mut self,
        key: &[u8],
        name: &str,
        (unit, at): (&str, u64),
    ) -> std::result::Result<u64, ModelError> {
        let field = || format!("key column {name:?} at {unit} {at}");
        if key.is_empty() {
            return Err(ModelError::invalid(
                field(),
                "\"\"",
                "every row needs its user's key",
                "fill the key column, or draw by position (no --key)",
            ));
        }
        let place = crate::stream::key_position(key);
        if let Some(before) = self.first.insert(place, at) {
            return Err(ModelError::invalid(
                field(),
                format!("{:?}", String::from_utf8_lossy(key)),
                format!(
                    "{unit} {before} has this key too (or one drawing from the same place), and \
                     rows of one key would draw the same noise"
                ),
                "give each row its own key (release one record per user with a record \
                 design), or draw by position (no --key)",
            ));
        }
        Ok(place)
    }

    /// The place of a CSV record's key (column `name` at index `idx`).
    pub(crate) fn of_record(
        &mut self,
        record: &csv::ByteRecord,
        (name, idx): (&str, usize),
    ) -> std::result::Result<u64, PrivatiseError> {
        let line = record.position().map_or(0, |p| p.line());
        let key = record.get(idx).unwrap_or_default();
        Ok(self.place(key, name, ("line", line))?)
    }
}

/// A `csv` reading error: an I/O failure, or malformed input naming its line.
pub(crate) fn read_error(e: csv::Error) -> PrivatiseError {
    if let Some(long) = crate::table::line_error(&e) {
        return PrivatiseError::Input(long);
    }
    if !e.is_io_error() {
        return PrivatiseError::Input(csv_error(e));
    }
    match e.into_kind() {
        csv::ErrorKind::Io(io) => PrivatiseError::Read(io),
        kind => PrivatiseError::Read(std::io::Error::other(format!("{kind:?}"))),
    }
}

/// Writes the header of the output: the input's (without the raw column unless
/// it is kept), with the new column appended unless the values are replaced in
/// place (a name another column has is an error).
fn write_header<W: std::io::Write>(
    wtr: &mut RecordWriter<W>,
    header: &csv::ByteRecord,
    (idx, placement): (usize, Placement<'_>),
) -> std::result::Result<(), PrivatiseError> {
    match placement {
        Placement::Private(name) | Placement::Append(name) => {
            let kept = |&(i, _): &(usize, &[u8])| placement.keeps_raw() || i != idx;
            let mut names = header.iter().enumerate().filter(kept).map(|(_, h)| h);
            if names.any(|h| h == name.as_bytes()) {
                return Err(ModelError::invalid(
                    "output column",
                    format!("{name:?}"),
                    "the input already has a column of that name",
                    "choose another name for the privatised column",
                )
                .into());
            }
            let names = header.iter().enumerate().filter(kept).map(|(_, h)| h);
            wtr.record(names.chain(std::iter::once(name.as_bytes())))
        }
        Placement::Replace => wtr.record(header.iter()),
    }
}

/// The error for a value outside the alphabet, naming its line and the labels.
#[cold]
pub(crate) fn unknown_error(
    column: &str,
    line: u64,
    shown: &str,
    alphabet: &[String],
) -> PrivatiseError {
    unknown_at(
        &format!("column {column:?} at line {line}"),
        shown,
        alphabet,
    )
}

/// [`unknown_error`] at a place named in full (`column "c" at row 7`).
pub(crate) fn unknown_at(place: &str, shown: &str, alphabet: &[String]) -> PrivatiseError {
    if is_missing(shown.as_bytes()) {
        return PrivatiseError::Unknown(ModelError::invalid(
            place,
            format!("{shown:?}"),
            "the value is missing (empty), and has no label of the mechanism",
            APPLY_FIX,
        ));
    }
    PrivatiseError::Unknown(ModelError::invalid(
        place,
        format!("{shown:?}"),
        format!(
            "the value is not one of the {} labels of the mechanism [{}]",
            alphabet.len(),
            list_labels(alphabet)
        ),
        "map the value to one of the labels in the data, or skip or keep such rows",
    ))
}

/// Writes CSV records as the `csv` crate's writer does with its defaults (fields
/// quoted only when they contain a comma, a quote or a line break; a lone empty
/// field quoted; records ending in `\n`), but faster for the one-record-at-a-time
/// stream of [`privatise_column`], with the same bytes out (the side-by-side
/// measurement is in docs/benchmarks.md, "Privatising").
pub(crate) struct RecordWriter<W: std::io::Write> {
    inner: W,
    buf: Vec<u8>,
}

/// Bytes collected before a write to the inner writer.
const RECORD_WRITER_CHUNK: usize = 1 << 16;

impl<W: std::io::Write> RecordWriter<W> {
    pub(crate) fn new(inner: W) -> Self {
        RecordWriter {
            inner,
            buf: Vec::with_capacity(RECORD_WRITER_CHUNK + 1024),
        }
    }

    #[inline]
    pub(crate) fn record<'a>(
        &mut self,
        fields: impl Iterator<Item = &'a [u8]>,
    ) -> std::result::Result<(), PrivatiseError> {
        let start = self.buf.len();
        let mut count = 0;
        for field in fields {
            if count > 0 {
                self.buf.push(b',');
            }
            count += 1;
            if field
                .iter()
                .any(|&b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
            {
                self.buf.push(b'"');
                for &b in field {
                    if b == b'"' {
                        self.buf.push(b'"');
                    }
                    self.buf.push(b);
                }
                self.buf.push(b'"');
            } else {
                self.buf.extend_from_slice(field);
            }
        }
        if count == 1 && self.buf.len() == start {
            // A record of one empty field would read back as a blank line.
            self.buf.extend_from_slice(b"\"\"");
        }
        self.buf.push(b'\n');
        if self.buf.len() >= RECORD_WRITER_CHUNK {
            self.inner
                .write_all(&self.buf)
                .map_err(PrivatiseError::Write)?;
            self.buf.clear();
        }
        Ok(())
    }

    pub(crate) fn flush(&mut self) -> std::result::Result<(), PrivatiseError> {
        self.inner
            .write_all(&self.buf)
            .and_then(|()| self.inner.flush())
            .map_err(PrivatiseError::Write)?;
        self.buf.clear();
        Ok(())
    }
}
