//! Parquet in and out (the `parquet` feature, on by default): a column counted
//! into category counts, and a mechanism applied to a column with every other
//! column kept, read and written one batch at a time so that memory stays
//! bounded whatever the row count. Row i draws from the same place of the
//! column's keyed stream as in a CSV file ([`crate::stream`]): the same rows give
//! the same outputs in either format.

use crate::counts::{CategoryCounts, Counting};
use crate::nulls::{APPLY_FIX, COUNT_FIX, Nulls};
use crate::privatise::{
    ColumnPrivatiser, Handling, OnUnknown, Placement, PrivatiseError, PrivatiseSummary, RowPlace,
    SeenKeys, unknown_at,
};
use crate::record_privatise::{
    RecordHandling, RecordPrivatiser, Slot, output_slots, private_names,
};
use crate::records::{RecordCounter, RecordCounting};
use arrow_array::builder::StringBuilder;
use arrow_array::{Array, ArrayRef, BooleanArray, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use pmldesign_model::record::RecordSample;
use pmldesign_model::{ModelError, Result};
use std::fs::File;
use std::io::Write;
use std::sync::Arc;

/// Rows per batch read.
const BATCH_ROWS: usize = 65_536;

fn parquet_error(e: impl std::fmt::Display) -> ModelError {
    ModelError::invalid(
        "parquet file",
        "unreadable",
        e.to_string(),
        "give a Parquet file (or a CSV file with --data-format csv)",
    )
}

/// The reader of `file` (only `column` when `only` is set) and the column's index.
fn open(
    file: File,
    column: &str,
    only: bool,
) -> Result<(ParquetRecordBatchReader, usize, SchemaRef)> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(parquet_error)?;
    let schema = builder.schema().clone();
    let idx = column_of(&schema, column)?;
    let builder = if only {
        let mask = ProjectionMask::roots(builder.parquet_schema(), [idx]);
        builder.with_projection(mask)
    } else {
        builder
    };
    let reader = builder
        .with_batch_size(BATCH_ROWS)
        .build()
        .map_err(parquet_error)?;
    Ok((reader, if only { 0 } else { idx }, schema))
}

/// The reader of a whole file, the index of each of `columns` and the schema.
fn open_columns(
    file: File,
    columns: &[String],
) -> Result<(ParquetRecordBatchReader, Vec<usize>, SchemaRef)> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(parquet_error)?;
    let schema = builder.schema().clone();
    let idx = columns
        .iter()
        .map(|c| column_of(&schema, c))
        .collect::<Result<Vec<_>>>()?;
    let reader = builder
        .with_batch_size(BATCH_ROWS)
        .build()
        .map_err(parquet_error)?;
    Ok((reader, idx, schema))
}

/// The values of `columns` (at `idx`) of a batch as text.
fn batch_texts(batch: &RecordBatch, columns: &[String], idx: &[usize]) -> Result<Vec<StringArray>> {
    columns
        .iter()
        .zip(idx)
        .map(|(c, &i)| as_text(batch.column(i), c))
        .collect()
}

/// A column's values as text (numbers and categories cast by Arrow).
fn as_text(values: &ArrayRef, column: &str) -> Result<StringArray> {
    let text = arrow_cast::cast(values, &DataType::Utf8).map_err(|e| {
        ModelError::invalid(
            "column",
            format!("{column:?}"),
            format!("its values cannot be read as categories ({e})"),
            "give a column of strings, categories or whole numbers",
        )
    })?;
    Ok(text
        .as_any()
        .downcast_ref::<StringArray>()
        .cloned()
        .unwrap_or_else(|| StringArray::from(Vec::<Option<&str>>::new())))
}

/// The column names of a Parquet file (to offer them to choose from); a file
/// that is not Parquet is refused.
pub fn parquet_columns(file: File) -> Result<Vec<String>> {
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(parquet_error)?;
    Ok(builder
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect())
}

/// Counts `column` of a Parquet file as [`crate::count_column`] counts a CSV
/// column; a null is refused naming its row (0-based).
pub fn count_parquet(
    file: File,
    column: &str,
    labels: Option<&[String]>,
) -> Result<CategoryCounts> {
    let how = Counting {
        labels,
        ..Counting::default()
    };
    count_parquet_until(file, column, how, &|| false)
}

/// [`count_parquet`] counted as `how` says (a missing value is a null, or empty
/// or blank text; numbers are cast to text and cut into bins), asking `stop`
/// before each batch of rows whether to give up, as
/// [`crate::count_column_until`] does.
pub fn count_parquet_until(
    file: File,
    column: &str,
    how: Counting<'_>,
    stop: &dyn Fn() -> bool,
) -> Result<CategoryCounts> {
    count_parquet_with(how.counter()?, file, column, stop)
}

/// Counts a released Parquet column against the mechanism's `outputs` as
/// [`crate::count_released`] counts a CSV column (`pml estimate`): an output
/// that never occurs counts 0; a null is left out under [`Nulls::Drop`] and
/// refused otherwise.
pub fn count_released_parquet(
    file: File,
    column: &str,
    outputs: &[String],
    nulls: Nulls,
) -> Result<CategoryCounts> {
    let counter = crate::counts::released_counter(outputs, nulls)?;
    count_parquet_with(counter, file, column, &|| false)
}

/// The Parquet loop of [`count_parquet_until`] and [`count_released_parquet`].
fn count_parquet_with(
    mut counter: crate::counts::Counter,
    file: File,
    column: &str,
    stop: &dyn Fn() -> bool,
) -> Result<CategoryCounts> {
    let (reader, idx, _) = open(file, column, true)?;
    let mut row = 0u64;
    for batch in reader {
        if stop() {
            return Err(crate::stopped(row));
        }
        let batch = batch.map_err(parquet_error)?;
        let text = as_text(batch.column(idx), column)?;
        for i in 0..text.len() {
            let place = || format!("column {column:?} at row {}", row + i as u64);
            let value = (!text.is_null(i)).then(|| text.value(i));
            if let Err(reject) = counter.add_field(value) {
                return Err(match value {
                    Some(v) => counter.reject(reject, v, place()),
                    None => ModelError::invalid(
                        place(),
                        NULL,
                        "a missing value cannot be counted",
                        COUNT_FIX,
                    ),
                });
            }
        }
        row += text.len() as u64;
    }
    counter.finish(&format!("column {column:?}"))
}

/// Counts the records of `columns` of a Parquet file as
/// [`crate::records::count_records_with`] counts a CSV file (numbers cast to
/// text, a binned column's cut into its bins); a null is handled as `how.nulls`
/// says (refused naming its column and row, 0-based, under [`Nulls::Error`]).
pub fn count_records_parquet(
    file: File,
    columns: &[String],
    how: RecordCounting<'_>,
) -> Result<RecordSample> {
    let nulls = how.nulls;
    let mut counter = RecordCounter::new(columns, how)?;
    let (reader, idx, _) = open_columns(file, columns)?;
    let mut row = 0u64;
    for batch in reader {
        let batch = batch.map_err(parquet_error)?;
        let texts = batch_texts(&batch, columns, &idx)?;
        let mut values: Vec<&str> = vec![""; columns.len()];
        for r in 0..batch.num_rows() {
            let place = |j: usize| format!("column {:?} at row {}", columns[j], row + r as u64);
            for (j, text) in texts.iter().enumerate() {
                if text.is_null(r) && nulls == Nulls::Error {
                    return Err(ModelError::invalid(
                        place(j),
                        NULL,
                        "a missing value cannot be counted",
                        "pass --nulls drop or --nulls category, or fill the missing values first",
                    ));
                }
                values[j] = if text.is_null(r) { "" } else { text.value(r) };
            }
            counter.add(&values, place)?;
        }
        row += batch.num_rows() as u64;
    }
    counter.finish()
}

/// How an error shows a Parquet null: unquoted, unlike the text `"null"`.
const NULL: &str = "null (a missing value)";

/// The error for a null where a value of the mechanism's alphabet is needed: a
/// missing value, told apart from the text "null" ([`unknown_at`]'s).
fn missing_at(place: &str) -> PrivatiseError {
    PrivatiseError::Unknown(ModelError::invalid(
        place,
        NULL,
        "a missing value has no label of the mechanism",
        APPLY_FIX,
    ))
}

/// The schema written: the input's (without the raw column unless it is kept),
/// with the privatised column appended or in place of the original (text,
/// nullable: a kept unknown value is null).
fn output_schema(schema: &Schema, idx: usize, placement: Placement<'_>) -> Result<SchemaRef> {
    let mut fields: Vec<Field> = schema.fields().iter().map(|f| f.as_ref().clone()).collect();
    match placement {
        Placement::Replace => fields[idx] = Field::new(fields[idx].name(), DataType::Utf8, true),
        Placement::Private(name) | Placement::Append(name) => {
            if !placement.keeps_raw() {
                fields.remove(idx);
            }
            if fields.iter().any(|f| f.name() == name) {
                return Err(ModelError::invalid(
                    "output column",
                    format!("{name:?}"),
                    "the file has a column of that name already",
                    "name the new column otherwise (--output-column)",
                ));
            }
            fields.push(Field::new(name, DataType::Utf8, true));
        }
    }
    Ok(Arc::new(Schema::new_with_metadata(
        fields,
        schema.metadata().clone(),
    )))
}

/// Applies `privatiser` to `column` of a Parquet file, writing Parquet to
/// `output` with every column kept, as [`crate::privatise_column`] does for CSV:
/// row i (0-based over the file) draws from place i of the column's stream; a
/// null counts as a value outside the alphabet.
pub fn privatise_parquet<W, P>(
    input: File,
    output: W,
    column: &str,
    placement: Placement<'_>,
    on_unknown: OnUnknown,
    privatiser: &mut P,
) -> std::result::Result<PrivatiseSummary, PrivatiseError>
where
    W: Write + Send,
    P: ColumnPrivatiser + ?Sized,
{
    let how = Handling {
        placement,
        on_unknown,
        ..Handling::default()
    };
    privatise_parquet_by(input, output, column, how, privatiser)
}

/// [`privatise_parquet`] with each row's place in the stream given by `rows`
/// (a user's key draws the same wherever its row is, as in CSV).
pub fn privatise_parquet_by<W, P>(
    input: File,
    output: W,
    column: &str,
    how: Handling<'_>,
    privatiser: &mut P,
) -> std::result::Result<PrivatiseSummary, PrivatiseError>
where
    W: Write + Send,
    P: ColumnPrivatiser + ?Sized,
{
    let (reader, idx, schema) = open(input, column, false)?;
    how.check(privatiser.alphabet())?;
    let placement = how.placement;
    let key = match how.rows {
        RowPlace::Key(name) => Some((name, column_of(&schema, name)?)),
        RowPlace::Position => None,
    };
    let out_schema = output_schema(&schema, idx, placement)?;
    let mut writer = ArrowWriter::try_new(output, out_schema.clone(), None).map_err(write_error)?;
    let mut summary = PrivatiseSummary::default();
    let mut seen = SeenKeys::default();
    for batch in reader {
        let batch = batch.map_err(parquet_error)?;
        let text = as_text(batch.column(idx), column)?;
        let places = match key {
            Some((name, k)) => Some(key_places(
                batch.column(k),
                (name, summary.rows),
                &mut seen,
            )?),
            None => None,
        };
        let rows = (how, places.as_deref());
        let (private, keep) = privatise_batch(&text, column, rows, privatiser, &mut summary)?;
        let mut columns: Vec<ArrayRef> = batch.columns().to_vec();
        match placement {
            Placement::Replace => columns[idx] = private,
            Placement::Append(_) => columns.push(private),
            Placement::Private(_) => {
                columns.remove(idx);
                columns.push(private);
            }
        }
        write_kept(&mut writer, &out_schema, columns, keep)?;
    }
    writer.close().map_err(write_error)?;
    Ok(summary)
}

/// A Parquet writer's error, as a write error.
fn write_error(e: parquet::errors::ParquetError) -> PrivatiseError {
    PrivatiseError::Write(std::io::Error::other(e.to_string()))
}

/// Writes one output batch, without the rows `keep` leaves out.
fn write_kept<W: Write + Send>(
    writer: &mut ArrowWriter<W>,
    schema: &SchemaRef,
    arrays: Vec<ArrayRef>,
    keep: Option<BooleanArray>,
) -> std::result::Result<(), PrivatiseError> {
    let mut out = RecordBatch::try_new(schema.clone(), arrays).map_err(parquet_error)?;
    if let Some(keep) = keep {
        out = arrow_select::filter::filter_record_batch(&out, &keep).map_err(parquet_error)?;
    }
    writer.write(&out).map_err(write_error)
}

/// The index of column `name` in `schema`, or an error listing its columns.
fn column_of(schema: &Schema, name: &str) -> Result<usize> {
    schema.index_of(name).map_err(|_| {
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        ModelError::invalid(
            "column",
            format!("{name:?}"),
            format!("the file has no such column (it has {names:?})"),
            "give one of its columns",
        )
    })
}

/// The stream places of a batch's keys (rows from `first`); a null, empty or
/// repeated key is refused naming its row ([`SeenKeys`]).
fn key_places(
    keys: &ArrayRef,
    (name, first): (&str, u64),
    seen: &mut SeenKeys,
) -> Result<Vec<u64>> {
    let text = as_text(keys, name)?;
    (0..text.len())
        .map(|i| {
            let row = first + i as u64;
            if text.is_null(i) {
                return Err(ModelError::invalid(
                    format!("key column {name:?} at row {row}"),
                    NULL,
                    "every row needs its user's key",
                    "fill the key column, or draw by position (no --key)",
                ));
            }
            seen.place(text.value(i).as_bytes(), name, ("row", row))
        })
        .collect()
}

/// The privatised values of one batch, and the rows to keep when some are skipped.
fn privatise_batch<P: ColumnPrivatiser + ?Sized>(
    text: &StringArray,
    column: &str,
    (how, places): (Handling<'_>, Option<&[u64]>),
    privatiser: &mut P,
    summary: &mut PrivatiseSummary,
) -> std::result::Result<(ArrayRef, Option<BooleanArray>), PrivatiseError> {
    let on_unknown = how.on_unknown;
    let mut private = StringBuilder::with_capacity(text.len(), text.len() * 4);
    let mut keep = vec![true; text.len()];
    let mut out = Vec::with_capacity(64);
    for (i, kept) in keep.iter_mut().enumerate() {
        let row = summary.rows;
        summary.rows += 1;
        out.clear();
        let mut value = (!text.is_null(i)).then(|| text.value(i).as_bytes());
        if how.nulls != Nulls::Error {
            match how.value(value.unwrap_or_default()) {
                Some(v) => value = Some(v),
                None => {
                    summary.nulls += 1;
                    private.append_null();
                    continue;
                }
            }
        }
        let place = places.map_or(row, |p| p[i]);
        if let Some(v) = value
            && privatiser.privatise(place, v, &mut out)
        {
            private.append_value(String::from_utf8_lossy(&out));
            summary.privatised += 1;
            continue;
        }
        let shown = value.map_or("null".into(), String::from_utf8_lossy);
        if on_unknown == OnUnknown::Error {
            let place = format!("column {column:?} at row {row}");
            return Err(match value {
                Some(_) => unknown_at(&place, &shown, privatiser.alphabet()),
                None => missing_at(&place),
            });
        }
        summary
            .first_unknown
            .get_or_insert((row, shown.to_string()));
        private.append_null();
        if on_unknown == OnUnknown::Skip {
            summary.skipped += 1;
            *kept = false;
        } else {
            summary.kept += 1;
        }
    }
    let skipped = keep.iter().any(|k| !k);
    Ok((
        Arc::new(private.finish()),
        skipped.then(|| BooleanArray::from(keep)),
    ))
}

/// Privatises the columns of a record together in a Parquet file, as
/// [`crate::record_privatise::privatise_record`] does for CSV: the raw columns
/// left out, kept or replaced as `how.raw` says, `{column}_private` for each (text, null where a row was kept with
/// a value outside its column's alphabet), batch by batch.
pub fn privatise_record_parquet<W: Write + Send>(
    input: File,
    output: W,
    columns: &[String],
    how: RecordHandling<'_>,
    privatiser: &mut dyn RecordPrivatiser,
) -> std::result::Result<PrivatiseSummary, PrivatiseError> {
    let (reader, idx, schema) = open_columns(input, columns)?;
    let key = match how.rows {
        RowPlace::Key(name) => Some((name, column_of(&schema, name)?)),
        RowPlace::Position => None,
    };
    let slots = output_slots(schema.fields().len(), &idx, how.raw);
    let out_schema = record_schema(&schema, &slots, &private_names(columns, how.raw))?;
    let mut writer = ArrowWriter::try_new(output, out_schema.clone(), None).map_err(write_error)?;
    let mut summary = PrivatiseSummary::default();
    let mut seen = SeenKeys::default();
    for batch in reader {
        let batch = batch.map_err(parquet_error)?;
        let texts = batch_texts(&batch, columns, &idx)?;
        let places = match key {
            Some((name, k)) => Some(key_places(
                batch.column(k),
                (name, summary.rows),
                &mut seen,
            )?),
            None => None,
        };
        let batch_how = (how.on_unknown, how.nulls, places.as_deref());
        let (private, keep) = record_batch(&texts, columns, batch_how, privatiser, &mut summary)?;
        let arrays: Vec<ArrayRef> = slots
            .iter()
            .map(|s| match *s {
                Slot::Input(i) => batch.column(i).clone(),
                Slot::Private(j) => private[j].clone(),
            })
            .collect();
        write_kept(&mut writer, &out_schema, arrays, keep)?;
    }
    writer.close().map_err(write_error)?;
    Ok(summary)
}

/// The schema of a record's output, laid out by `slots` (private columns as
/// nullable text named `names`); a name written twice is refused.
fn record_schema(schema: &Schema, slots: &[Slot], names: &[String]) -> Result<SchemaRef> {
    let fields: Vec<Field> = slots
        .iter()
        .map(|s| match *s {
            Slot::Input(i) => schema.field(i).clone(),
            Slot::Private(j) => Field::new(&names[j], DataType::Utf8, true),
        })
        .collect();
    let mut seen = std::collections::HashSet::new();
    if let Some(taken) = fields.iter().find(|f| !seen.insert(f.name().clone())) {
        return Err(ModelError::invalid(
            "output column",
            format!("{:?}", taken.name()),
            "the file has a column of that name already",
            "rename that column of the input first",
        ));
    }
    Ok(Arc::new(Schema::new_with_metadata(
        fields,
        schema.metadata().clone(),
    )))
}

/// One batch of a record: the private columns, and the rows kept if some were skipped.
fn record_batch(
    texts: &[StringArray],
    columns: &[String],
    (on_unknown, nulls, places): (OnUnknown, Nulls, Option<&[u64]>),
    privatiser: &mut dyn RecordPrivatiser,
    summary: &mut PrivatiseSummary,
) -> std::result::Result<(Vec<ArrayRef>, Option<BooleanArray>), PrivatiseError> {
    let rows = texts.first().map_or(0, |t| t.len());
    let mut builders: Vec<StringBuilder> = texts
        .iter()
        .map(|_| StringBuilder::with_capacity(rows, rows * 4))
        .collect();
    let mut keep = vec![true; rows];
    let mut outs: Vec<Vec<u8>> = vec![Vec::new(); texts.len()];
    for (r, kept) in keep.iter_mut().enumerate() {
        let row = summary.rows;
        summary.rows += 1;
        // The stream place: the row's position, or its user's key's.
        let place = places.map_or(row, |p| p[r]);
        let mut values: Vec<&[u8]> = texts
            .iter()
            .map(|t| {
                if t.is_null(r) {
                    &[][..]
                } else {
                    t.value(r).as_bytes()
                }
            })
            .collect();
        if !nulls.record_row(&mut values) {
            // Dropped: every private value missing, the missingness as it is.
            builders.iter_mut().for_each(StringBuilder::append_null);
            summary.nulls += 1;
            continue;
        }
        match privatiser.privatise(place, &values, &mut outs) {
            Ok(()) => {
                for (b, o) in builders.iter_mut().zip(&outs) {
                    b.append_value(String::from_utf8_lossy(o));
                }
                summary.privatised += 1;
            }
            Err(j) => {
                let shown = if texts[j].is_null(r) {
                    "null"
                } else {
                    texts[j].value(r)
                };
                if on_unknown == OnUnknown::Error {
                    let place = format!("column {:?} at row {row}", columns[j]);
                    return Err(if texts[j].is_null(r) {
                        missing_at(&place)
                    } else {
                        unknown_at(&place, shown, privatiser.alphabet(j))
                    });
                }
                summary
                    .first_unknown
                    .get_or_insert((row, shown.to_string()));
                builders.iter_mut().for_each(StringBuilder::append_null);
                if on_unknown == OnUnknown::Skip {
                    summary.skipped += 1;
                    *kept = false;
                } else {
                    summary.kept += 1;
                }
            }
        }
    }
    let skipped = keep.iter().any(|k| !k);
    let arrays = builders
        .into_iter()
        .map(|mut b| Arc::new(b.finish()) as ArrayRef)
        .collect();
    Ok((arrays, skipped.then(|| BooleanArray::from(keep))))
}
