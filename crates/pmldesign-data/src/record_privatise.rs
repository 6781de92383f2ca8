//! Privatising whole records (docs/theory.md §12): the columns of a record design
//! together, each column on its own keyed stream (`compose`, `ldp`), or one draw
//! per row over the combinations of the columns' labels (`joint`), written back as
//! one `{column}_private` per column.

use crate::bins::Bins;
use crate::nulls::Nulls;
use crate::privatise::{
    ColumnPrivatiser, OnUnknown, PrivatiseError, PrivatiseSummary, RecordWriter, RowPlace,
    SeenKeys, read_error, unknown_error,
};
use crate::sampler::{LabelIndex, MechanismSampler};
use crate::stream::{ColumnStream, StreamKey};
use crate::table::column_index;
use pmldesign_model::{Mechanism, ModelError, Result};
use std::io::Read;

/// Privatises the values of the columns of one record.
pub trait RecordPrivatiser {
    /// The number of columns.
    fn width(&self) -> usize;
    /// Writes the privatised value of each column of row `row` (0-based, every
    /// data row counted) to `outs[j]`, or returns the first column whose value is
    /// outside its alphabet (`outs` is then unspecified).
    fn privatise(
        &mut self,
        row: u64,
        values: &[&[u8]],
        outs: &mut [Vec<u8>],
    ) -> std::result::Result<(), usize>;
    /// The values column `j` accepts, for error messages.
    fn alphabet(&self, j: usize) -> &[String];
}

/// One privatiser per column, each drawing from its own column's stream.
pub struct ColumnByColumn(pub Vec<Box<dyn ColumnPrivatiser>>);

impl RecordPrivatiser for ColumnByColumn {
    fn width(&self) -> usize {
        self.0.len()
    }

    fn privatise(
        &mut self,
        row: u64,
        values: &[&[u8]],
        outs: &mut [Vec<u8>],
    ) -> std::result::Result<(), usize> {
        for (j, (p, (v, out))) in self
            .0
            .iter_mut()
            .zip(values.iter().zip(outs.iter_mut()))
            .enumerate()
        {
            out.clear();
            if !p.privatise(row, v, out) {
                return Err(j);
            }
        }
        Ok(())
    }

    fn alphabet(&self, j: usize) -> &[String] {
        self.0[j].alphabet()
    }
}

/// A record's privatiser whose numeric columns are cut at public edges first:
/// each number within the edges of its column's [`Bins`] is handed to `inner` as
/// the label of its bin (anything else as it is, so a bin's own label or
/// [`crate::NULL_LABEL`] is still accepted), as [`crate::Binned`] does for one
/// column.
pub struct BinnedRecord {
    bins: Vec<Option<Bins>>,
    inner: Box<dyn RecordPrivatiser>,
}

impl BinnedRecord {
    /// `inner` fed the label of each binned value's bin; `bins` in the order of
    /// the columns (`None`: the column's values are labels).
    pub fn new(bins: Vec<Option<Bins>>, inner: Box<dyn RecordPrivatiser>) -> Self {
        BinnedRecord { bins, inner }
    }
}

impl RecordPrivatiser for BinnedRecord {
    fn width(&self) -> usize {
        self.inner.width()
    }

    fn privatise(
        &mut self,
        row: u64,
        values: &[&[u8]],
        outs: &mut [Vec<u8>],
    ) -> std::result::Result<(), usize> {
        let cut: Vec<&[u8]> = values
            .iter()
            .enumerate()
            .map(|(j, &v)| match self.bins.get(j).and_then(Option::as_ref) {
                Some(b) => b.cut(v),
                None => v,
            })
            .collect();
        self.inner.privatise(row, &cut, outs)
    }

    fn alphabet(&self, j: usize) -> &[String] {
        self.inner.alphabet(j)
    }
}

/// The stream of a joint design: its columns' names joined by `|`.
pub fn joint_stream_name(columns: &[String]) -> String {
    columns.join("|")
}

/// One draw per row over the combinations of the columns' labels (row-major),
/// from the stream [`joint_stream_name`]; output y is written as `decoded[y]`,
/// one value per column.
pub struct JointPrivatiser {
    labels: Vec<Vec<String>>,
    index: Vec<LabelIndex>,
    sampler: MechanismSampler,
    stream: ColumnStream,
    decoded: Vec<Vec<String>>,
}

impl JointPrivatiser {
    /// The privatiser of `mechanism` (one row per combination of `labels`, one
    /// column per entry of `decoded`).
    pub fn new(
        mechanism: &Mechanism,
        labels: Vec<Vec<String>>,
        decoded: Vec<Vec<String>>,
        (key, columns): (&StreamKey, &[String]),
    ) -> Result<Self> {
        let cells = labels
            .iter()
            .try_fold(1usize, |a, l| a.checked_mul(l.len()));
        let fits = cells == Some(mechanism.inputs()) && decoded.len() == mechanism.outputs();
        if !fits || decoded.iter().any(|t| t.len() != labels.len()) || columns.len() != labels.len()
        {
            return Err(ModelError::invalid(
                "joint mechanism",
                format!("{} x {}", mechanism.inputs(), mechanism.outputs()),
                "one row per combination of the columns' labels and one decoded combination per output",
                "give the joint design of a record design file",
            ));
        }
        Ok(JointPrivatiser {
            index: labels.iter().map(|l| LabelIndex::new(l)).collect(),
            labels,
            sampler: MechanismSampler::new(mechanism)?,
            stream: ColumnStream::new(key, &joint_stream_name(columns), 1),
            decoded,
        })
    }
}

impl RecordPrivatiser for JointPrivatiser {
    fn width(&self) -> usize {
        self.labels.len()
    }

    fn privatise(
        &mut self,
        row: u64,
        values: &[&[u8]],
        outs: &mut [Vec<u8>],
    ) -> std::result::Result<(), usize> {
        let mut cell = 0;
        for (j, (index, v)) in self.index.iter().zip(values).enumerate() {
            let x = index.get(v).ok_or(j)?;
            cell = cell * self.labels[j].len() + x;
        }
        let y = self.sampler.sample(cell, self.stream.at(row));
        for (out, value) in outs.iter_mut().zip(&self.decoded[y]) {
            out.clear();
            out.extend_from_slice(value.as_bytes());
        }
        Ok(())
    }

    fn alphabet(&self, j: usize) -> &[String] {
        &self.labels[j]
    }
}

/// How the rows of a record are privatised: a value outside its column's
/// alphabet (`on_unknown`), a missing one (`nulls`, [`Nulls::record_row`]), where
/// each row draws from (`rows`: its position, or its user's key as for one
/// column) and what becomes of the raw columns (`raw`).
#[derive(Debug, Clone, Copy, Default)]
pub struct RecordHandling<'a> {
    /// A row with a value outside its column's alphabet.
    pub on_unknown: OnUnknown,
    /// The raw columns of the record: left out (the default), kept beside the
    /// private ones, or replaced by them in place.
    pub raw: RawColumns,
    /// A missing value.
    pub nulls: Nulls,
    /// The place of the streams each row draws from.
    pub rows: RowPlace<'a>,
}

/// What becomes of a record's raw columns in the output.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RawColumns {
    /// Left out, `{column}_private` appended for each: the output holds no raw
    /// value of the record (the default).
    #[default]
    Dropped,
    /// Kept, `{column}_private` appended beside them (`pml apply --keep-raw`:
    /// such an output is not a release).
    Kept,
    /// The private values written in the raw columns' places, under their names.
    Replaced,
}

/// Where one output column comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    /// Input column `i`, as it is.
    Input(usize),
    /// The private values of the record's column `j`.
    Private(usize),
}

/// The output's columns, in order, for an input of `width` columns whose
/// record columns are at `idx`: the CSV and the Parquet writers' one layout.
pub(crate) fn output_slots(width: usize, idx: &[usize], raw: RawColumns) -> Vec<Slot> {
    let private = |i: usize| idx.iter().position(|&k| k == i);
    let mut slots: Vec<Slot> = (0..width)
        .filter_map(|i| match (private(i), raw) {
            (Some(j), RawColumns::Replaced) => Some(Slot::Private(j)),
            (Some(_), RawColumns::Dropped) => None,
            _ => Some(Slot::Input(i)),
        })
        .collect();
    if raw != RawColumns::Replaced {
        slots.extend((0..idx.len()).map(Slot::Private));
    }
    slots
}

/// Streams CSV from `reader` to `writer` with `{column}_private` for each of
/// `columns`, the raw columns left out, kept or replaced as `how.raw` says,
/// privatised together by `privatiser`. A row with a value outside its
/// column's alphabet is handled as `how.on_unknown` says (kept with every private
/// value empty); a missing value as `how.nulls` says (the label
/// [`crate::NULL_LABEL`], or the row written with every private value missing).
/// Every row keeps its place in the streams: its position, or its key's.
pub fn privatise_record<R: Read, W: std::io::Write>(
    reader: R,
    writer: W,
    columns: &[String],
    how: RecordHandling<'_>,
    privatiser: &mut dyn RecordPrivatiser,
) -> std::result::Result<PrivatiseSummary, PrivatiseError> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .buffer_capacity(1 << 16)
        .from_reader(crate::table::data_text(reader));
    let mut wtr = RecordWriter::new(writer);
    let header = rdr.byte_headers().map_err(read_error)?.clone();
    let idx = columns
        .iter()
        .map(|c| column_index(&header, c))
        .collect::<Result<Vec<_>>>()?;
    let key = match how.rows {
        RowPlace::Key(name) => Some((name, column_index(&header, name)?)),
        RowPlace::Position => None,
    };
    let slots = output_slots(header.len(), &idx, how.raw);
    write_record_header(&mut wtr, &header, (columns, how.raw), &slots)?;
    let mut seen = SeenKeys::default();
    let mut summary = PrivatiseSummary::default();
    let mut record = csv::ByteRecord::new();
    let mut outs: Vec<Vec<u8>> = vec![Vec::new(); columns.len()];
    while rdr.read_byte_record(&mut record).map_err(read_error)? {
        summary.rows += 1;
        let place = match key {
            Some(k) => seen.of_record(&record, k)?,
            None => summary.rows - 1,
        };
        let mut values: Vec<&[u8]> = idx
            .iter()
            .map(|&i| record.get(i).unwrap_or_default())
            .collect();
        if !how.nulls.record_row(&mut values) {
            summary.nulls += 1;
            outs.iter_mut().for_each(Vec::clear);
        } else if let Err(j) = privatiser.privatise(place, &values, &mut outs) {
            let line = record.position().map_or(0, |p| p.line());
            let shown = String::from_utf8_lossy(values[j]).into_owned();
            if how.on_unknown == OnUnknown::Error {
                return Err(unknown_error(
                    &columns[j],
                    line,
                    &shown,
                    privatiser.alphabet(j),
                ));
            }
            summary.first_unknown.get_or_insert((line, shown));
            if how.on_unknown == OnUnknown::Skip {
                summary.skipped += 1;
                continue;
            }
            summary.kept += 1;
            outs.iter_mut().for_each(Vec::clear);
        } else {
            summary.privatised += 1;
        }
        write_record_row(&mut wtr, &record, &outs, &slots)?;
    }
    wtr.flush()?;
    Ok(summary)
}

/// The header, laid out by `slots`: an input column's name, or a private
/// column's (`{column}_private`, or the raw name when it replaces it). A name
/// written twice is refused.
fn write_record_header<W: std::io::Write>(
    wtr: &mut RecordWriter<W>,
    header: &csv::ByteRecord,
    (columns, raw): (&[String], RawColumns),
    slots: &[Slot],
) -> std::result::Result<(), PrivatiseError> {
    let names = private_names(columns, raw);
    let field = |s: &Slot| match *s {
        Slot::Input(i) => header.get(i).unwrap_or_default(),
        Slot::Private(j) => names[j].as_bytes(),
    };
    let mut seen = std::collections::HashSet::new();
    if let Some(taken) = slots.iter().map(field).find(|n| !seen.insert(*n)) {
        return Err(ModelError::invalid(
            "output column",
            format!("{:?}", String::from_utf8_lossy(taken)),
            "the input already has a column of that name",
            "rename that column of the input first",
        )
        .into());
    }
    wtr.record(slots.iter().map(field))
}

/// The names of the private columns: the raw names where they replace the raw
/// columns, else `{column}_private`.
pub fn private_names(columns: &[String], raw: RawColumns) -> Vec<String> {
    columns
        .iter()
        .map(|c| match raw {
            RawColumns::Replaced => c.clone(),
            _ => format!("{c}_private"),
        })
        .collect()
}

/// One output row, laid out by `slots`.
fn write_record_row<W: std::io::Write>(
    wtr: &mut RecordWriter<W>,
    record: &csv::ByteRecord,
    outs: &[Vec<u8>],
    slots: &[Slot],
) -> std::result::Result<(), PrivatiseError> {
    wtr.record(slots.iter().map(|s| match *s {
        Slot::Input(i) => record.get(i).unwrap_or_default(),
        Slot::Private(j) => outs[j].as_slice(),
    }))
}
