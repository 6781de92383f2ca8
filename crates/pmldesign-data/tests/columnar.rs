//! Parquet in and out: counts and privatised columns equal those of the same rows
//! as CSV; nulls and unknown values follow `OnUnknown`; every column is kept.
#![cfg(feature = "parquet")]

use arrow_array::{ArrayRef, Int64Array, RecordBatch, StringArray};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use pmldesign_data::columnar::{count_parquet, privatise_parquet};
use pmldesign_data::stream::StreamKey;
use pmldesign_data::{
    CategoricalPrivatiser, Counting, Handling, NULL_LABEL, Nulls, OnUnknown, Placement,
    PrivatiseError, count_column, count_column_until, privatise_column, privatise_column_by,
};
use pmldesign_model::Mechanism;
use std::sync::Arc;

const LABELS: [&str; 3] = ["a", "b", "c"];

/// `rows` values cycling through a, b, c (with `odd` at row 5 if given), written
/// as Parquet in row groups of 1000 and as CSV.
fn files(
    dir: &std::path::Path,
    rows: usize,
    odd: Option<Option<&str>>,
) -> (std::path::PathBuf, String) {
    let values: Vec<Option<&str>> = (0..rows)
        .map(|i| match odd {
            Some(v) if i == 5 => v,
            _ => Some(LABELS[(i * 7 + i / 3) % 3]),
        })
        .collect();
    let ids: ArrayRef = Arc::new(Int64Array::from_iter_values(0..rows as i64));
    let col: ArrayRef = Arc::new(StringArray::from(values.clone()));
    let batch = RecordBatch::try_from_iter([("id", ids), ("v", col)]).unwrap();
    let path = dir.join("in.parquet");
    let props = parquet::file::properties::WriterProperties::builder()
        .set_max_row_group_row_count(Some(1000))
        .build();
    let mut w = ArrowWriter::try_new(
        std::fs::File::create(&path).unwrap(),
        batch.schema(),
        Some(props),
    )
    .unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    let mut csv = String::from("id,v\n");
    for (i, v) in values.iter().enumerate() {
        csv.push_str(&format!("{i},{}\n", v.unwrap_or("")));
    }
    (path, csv)
}

fn privatiser() -> CategoricalPrivatiser {
    let w = Mechanism::from_rows(vec![
        vec![0.6, 0.3, 0.1],
        vec![0.2, 0.5, 0.3],
        vec![0.1, 0.1, 0.8],
    ])
    .unwrap();
    let names: Vec<String> = LABELS.map(String::from).to_vec();
    let key =
        StreamKey::parse("0xbb67ae8584caa73b3c6ef372fe94f82ba54ff53a5f1d36f1510e527fade682d1")
            .unwrap();
    CategoricalPrivatiser::new(&w, names.clone(), names, (&key, "v")).unwrap()
}

/// The `v_private` column of a Parquet file.
fn private_column(bytes: Vec<u8>) -> Vec<Option<String>> {
    let reader = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::from(bytes))
        .unwrap()
        .build()
        .unwrap();
    let mut out = Vec::new();
    for batch in reader {
        let batch = batch.unwrap();
        assert_eq!(batch.num_columns(), 3, "every column kept and one added");
        let col = batch
            .column(2)
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap()
            .clone();
        out.extend(col.iter().map(|v| v.map(String::from)));
    }
    out
}

#[test]
fn parquet_counts_and_draws_equal_csv() {
    let dir = tempfile::tempdir().unwrap();
    let (path, csv) = files(dir.path(), 5000, None);
    let from_parquet = count_parquet(std::fs::File::open(&path).unwrap(), "v", None).unwrap();
    let from_csv = count_column(csv.as_bytes(), "v", None).unwrap();
    assert_eq!(from_parquet, from_csv);
    let mut out = Vec::new();
    let summary = privatise_parquet(
        std::fs::File::open(&path).unwrap(),
        &mut out,
        "v",
        Placement::Append("v_private"),
        OnUnknown::Error,
        &mut privatiser(),
    )
    .unwrap();
    assert_eq!(summary.privatised, 5000);
    let mut csv_out = Vec::new();
    privatise_column(
        csv.as_bytes(),
        &mut csv_out,
        "v",
        Placement::Append("v_private"),
        OnUnknown::Error,
        &mut privatiser(),
    )
    .unwrap();
    let csv_private: Vec<Option<String>> = String::from_utf8(csv_out)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| Some(l.rsplit(',').next().unwrap().to_string()))
        .collect();
    assert_eq!(private_column(out), csv_private);
}

#[test]
fn nulls_and_unknown_values_follow_on_unknown() {
    let dir = tempfile::tempdir().unwrap();
    for odd in [None, Some("zz")] {
        let (path, _) = files(dir.path(), 50, Some(odd));
        let run = |on: OnUnknown| {
            let mut out = Vec::new();
            privatise_parquet(
                std::fs::File::open(&path).unwrap(),
                &mut out,
                "v",
                Placement::Append("v_private"),
                on,
                &mut privatiser(),
            )
            .map(|s| (s, out))
        };
        match run(OnUnknown::Error) {
            Err(PrivatiseError::Unknown(e)) => assert!(e.to_string().contains("at row 5"), "{e}"),
            other => panic!("{odd:?}: {:?}", other.map(|(s, _)| s)),
        }
        let (kept, bytes) = run(OnUnknown::Keep).unwrap();
        assert_eq!((kept.kept, kept.privatised), (1, 49));
        let col = private_column(bytes);
        assert_eq!(col.len(), 50);
        assert!(col[5].is_none());
        let (skipped, bytes) = run(OnUnknown::Skip).unwrap();
        assert_eq!(skipped.skipped, 1);
        assert_eq!(private_column(bytes).len(), 49);
    }
    let (path, _) = files(dir.path(), 10, Some(None));
    let e = count_parquet(std::fs::File::open(&path).unwrap(), "v", None).unwrap_err();
    assert!(e.to_string().contains("row 5"), "{e}");
    let e = count_parquet(std::fs::File::open(&path).unwrap(), "w", None).unwrap_err();
    assert!(e.to_string().contains("no such column"), "{e}");
}

/// A reading asked to stop gives up, CSV and Parquet alike.
#[test]
fn a_reading_asked_to_stop_gives_up() {
    let dir = tempfile::tempdir().unwrap();
    let (path, csv) = files(dir.path(), 5000, None);
    let file = || std::fs::File::open(&path).unwrap();
    let e =
        pmldesign_data::columnar::count_parquet_until(file(), "v", Counting::default(), &|| true);
    assert!(e.unwrap_err().to_string().contains("reading stopped"));
    let e = pmldesign_data::count_column_until(csv.as_bytes(), "v", Counting::default(), &|| true);
    assert!(e.unwrap_err().to_string().contains("reading stopped"));
    let asked = std::cell::Cell::new(0);
    let counted =
        pmldesign_data::count_column_until(csv.as_bytes(), "v", Counting::default(), &|| {
            asked.set(asked.get() + 1);
            false
        });
    assert_eq!(counted.unwrap().rows, 5000);
    assert_eq!(asked.get(), 5, "once every 1024 rows");
}

/// A null and the text "null" are told apart: the null is a missing value, the
/// text a value outside the alphabet.
#[test]
fn a_null_is_not_the_text_null() {
    let dir = tempfile::tempdir().unwrap();
    let error = |odd: Option<&str>| {
        let (path, _) = files(dir.path(), 10, Some(odd));
        match privatise_parquet(
            std::fs::File::open(&path).unwrap(),
            Vec::new(),
            "v",
            Placement::Append("v_private"),
            OnUnknown::Error,
            &mut privatiser(),
        ) {
            Err(PrivatiseError::Unknown(e)) => e.to_string(),
            other => panic!("{odd:?}: {:?}", other.map(|_| ())),
        }
    };
    let (null, text) = (error(None), error(Some("null")));
    assert_ne!(null, text);
    assert!(null.contains("missing value"), "{null}");
    assert!(
        text.contains("\"null\"") && !text.contains("missing"),
        "{text}"
    );
}

/// The columns of a Parquet file, from its schema; a CSV file is not Parquet.
#[test]
fn parquet_columns_come_from_the_schema() {
    let dir = tempfile::tempdir().unwrap();
    let (path, csv) = files(dir.path(), 10, None);
    let columns = pmldesign_data::columnar::parquet_columns(std::fs::File::open(&path).unwrap());
    assert_eq!(columns.unwrap(), ["id", "v"]);
    let text = dir.path().join("in.csv");
    std::fs::write(&text, csv).unwrap();
    let e = pmldesign_data::columnar::parquet_columns(std::fs::File::open(&text).unwrap());
    assert!(e.unwrap_err().to_string().contains("Parquet"));
}

/// A mechanism over a, b, c and the category of missing values.
fn privatiser_with_nulls() -> CategoricalPrivatiser {
    let w = Mechanism::from_rows(vec![
        vec![0.6, 0.3, 0.1],
        vec![0.2, 0.5, 0.3],
        vec![0.1, 0.1, 0.8],
        vec![0.3, 0.3, 0.4],
    ])
    .unwrap();
    let mut names: Vec<String> = LABELS.map(String::from).to_vec();
    names.push(NULL_LABEL.into());
    let key =
        StreamKey::parse("0xbb67ae8584caa73b3c6ef372fe94f82ba54ff53a5f1d36f1510e527fade682d1")
            .unwrap();
    CategoricalPrivatiser::new(&w, names, LABELS.map(String::from).to_vec(), (&key, "v")).unwrap()
}

/// `--nulls drop` and `--nulls category` count and privatise a Parquet null as
/// they do an empty CSV field: left out (written missing) or one more category.
#[test]
fn nulls_are_dropped_or_counted_alike_in_csv_and_parquet() {
    let dir = tempfile::tempdir().unwrap();
    let (path, csv) = files(dir.path(), 3000, Some(None));
    let file = || std::fs::File::open(&path).unwrap();
    for nulls in [Nulls::Drop, Nulls::Category] {
        let how = Counting {
            nulls,
            ..Counting::default()
        };
        let pq = pmldesign_data::columnar::count_parquet_until(file(), "v", how, &|| false);
        let cs = count_column_until(csv.as_bytes(), "v", how, &|| false).unwrap();
        assert_eq!(pq.unwrap(), cs);
        match nulls {
            Nulls::Drop => assert_eq!((cs.rows, cs.dropped, cs.labels.len()), (2999, 1, 3)),
            _ => {
                assert_eq!((cs.rows, cs.dropped, cs.labels.len()), (3000, 0, 4));
                assert_eq!(
                    cs.counts[cs.labels.iter().position(|l| l == NULL_LABEL).unwrap()],
                    1
                );
            }
        }
    }
    let run = |nulls: Nulls, p: &mut CategoricalPrivatiser| {
        let how = Handling {
            placement: Placement::Append("v_private"),
            nulls,
            ..Handling::default()
        };
        let mut out = Vec::new();
        let summary =
            pmldesign_data::columnar::privatise_parquet_by(file(), &mut out, "v", how, p)?;
        let mut text = Vec::new();
        privatise_column_by(csv.as_bytes(), &mut text, "v", how, p)?;
        let from_csv: Vec<Option<String>> = String::from_utf8(text)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| Some(l.rsplit(',').next().unwrap().trim_matches('"').to_string()))
            .map(|v| v.filter(|v| !v.is_empty()))
            .collect();
        let from_parquet = private_column(out);
        assert_eq!(from_parquet, from_csv);
        Ok::<_, PrivatiseError>((summary, from_parquet))
    };
    let (summary, col) = run(Nulls::Drop, &mut privatiser()).unwrap();
    assert_eq!(
        (summary.nulls, summary.privatised, summary.kept),
        (1, 2999, 0)
    );
    assert!(col[5].is_none() && col.iter().filter(|v| v.is_none()).count() == 1);
    let (summary, col) = run(Nulls::Category, &mut privatiser_with_nulls()).unwrap();
    assert_eq!((summary.nulls, summary.privatised), (0, 3000));
    assert!(col.iter().all(Option::is_some));
    let e = run(Nulls::Category, &mut privatiser())
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("<null>") && e.contains("--nulls category"),
        "{e}"
    );
}

/// A Parquet column of integers is cut into bins as its CSV text is.
#[test]
fn a_parquet_column_of_numbers_bins_as_csv() {
    let dir = tempfile::tempdir().unwrap();
    let values: Vec<Option<i64>> = (0..2500)
        .map(|i| (i % 41 != 0).then_some(i * 37 % 1000))
        .collect();
    let col: ArrayRef = Arc::new(Int64Array::from(values.clone()));
    let batch = RecordBatch::try_from_iter([("n", col)]).unwrap();
    let path = dir.path().join("n.parquet");
    let mut w =
        ArrowWriter::try_new(std::fs::File::create(&path).unwrap(), batch.schema(), None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    // An id column: in a one-column CSV an empty value is a blank line, which CSV skips.
    let csv: String = std::iter::once("id,n\n".to_string())
        .chain(
            values
                .iter()
                .enumerate()
                .map(|(i, v)| format!("{i},{}\n", v.map_or(String::new(), |v| v.to_string()))),
        )
        .collect();
    let bins = pmldesign_data::Bins::parse("bins", "0,250,500,1000").unwrap();
    let how = Counting {
        bins: Some(&bins),
        nulls: Nulls::Drop,
        ..Counting::default()
    };
    let file = std::fs::File::open(&path).unwrap();
    let pq = pmldesign_data::columnar::count_parquet_until(file, "n", how, &|| false).unwrap();
    assert_eq!(
        pq,
        count_column_until(csv.as_bytes(), "n", how, &|| false).unwrap()
    );
    assert_eq!((pq.labels.len(), pq.dropped, pq.rows), (3, 61, 2439));
}

/// The names of a Parquet file's columns.
fn column_names(bytes: &[u8]) -> Vec<String> {
    let b = ParquetRecordBatchReaderBuilder::try_new(bytes::Bytes::copy_from_slice(bytes)).unwrap();
    b.schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect()
}

/// A release leaves the raw column out, in Parquet as in CSV, with the same draws
/// as when the raw column is kept.
#[test]
fn the_private_placement_leaves_the_raw_column_out() {
    let dir = tempfile::tempdir().unwrap();
    let (path, csv) = files(dir.path(), 2500, None);
    let run = |placement| {
        let mut out = Vec::new();
        let f = std::fs::File::open(&path).unwrap();
        privatise_parquet(
            f,
            &mut out,
            "v",
            placement,
            OnUnknown::Error,
            &mut privatiser(),
        )
        .unwrap();
        out
    };
    let (released, kept) = (
        run(Placement::Private("v_private")),
        run(Placement::Append("v_private")),
    );
    assert_eq!(column_names(&released), ["id", "v_private"]);
    assert_eq!(column_names(&kept), ["id", "v", "v_private"]);
    let mut csv_out = Vec::new();
    let p = Placement::Private("v_private");
    privatise_column(
        csv.as_bytes(),
        &mut csv_out,
        "v",
        p,
        OnUnknown::Error,
        &mut privatiser(),
    )
    .unwrap();
    let text = String::from_utf8(csv_out).unwrap();
    assert!(text.starts_with("id,v_private\n0,"), "{}", &text[..40]);
    let csv_private: Vec<Option<String>> = text
        .lines()
        .skip(1)
        .map(|l| Some(l.rsplit(',').next().unwrap().to_string()))
        .collect();
    assert_eq!(private_column(kept), csv_private);
}

/// A key on two rows is refused, naming the key and both places, in CSV and
/// Parquet: the two rows would draw the same noise.
#[test]
fn a_repeated_key_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (path, csv) = files(dir.path(), 30, None);
    let how = Handling {
        placement: Placement::Private("v_private"),
        rows: pmldesign_data::RowPlace::Key("v"),
        ..Handling::default()
    };
    let mut sink = Vec::new();
    let e =
        privatise_column_by(csv.as_bytes(), &mut sink, "v", how, &mut privatiser()).unwrap_err();
    let text = e.to_string();
    // Rows 0..2 hold three distinct values; the first repeat is on line 5, of line 3.
    assert!(
        text.contains("key column \"v\" at line 5") && text.contains("line 3 has this key"),
        "{text}"
    );
    let f = std::fs::File::open(&path).unwrap();
    let e =
        pmldesign_data::columnar::privatise_parquet_by(f, &mut sink, "v", how, &mut privatiser())
            .unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("at row 3") && text.contains("row 1 has this key"),
        "{text}"
    );
    // Distinct keys draw: the id column.
    let how = Handling {
        rows: pmldesign_data::RowPlace::Key("id"),
        ..how
    };
    let mut out = Vec::new();
    let s = privatise_column_by(csv.as_bytes(), &mut out, "v", how, &mut privatiser()).unwrap();
    assert_eq!(s.privatised, 30);
}
