//! The CSV readers under random input. Byte strings built from the
//! characters that matter to CSV (quotes, separators, line ends, a BOM, long
//! runs, invalid UTF-8) are counted, read as records, sniffed for columns and
//! privatised; every reader returns a value or an error, never a panic, and an
//! error message stays bounded (the input is never echoed whole).
//!
//! The suite runs 256 cases; a longer run (the closing note's count) is
//! `PROPTEST_CASES=100000 cargo test --release -p pmldesign-data --test fuzz_csv`.

use pmldesign_data::stream::StreamKey;
use pmldesign_data::{
    CategoricalPrivatiser, Handling, Nulls, OnUnknown, Placement, RowPlace, count_column,
    count_records, csv_columns, privatise_column_by,
};
use pmldesign_model::Mechanism;
use proptest::prelude::*;

/// Pieces of CSV: the characters that change how a line is read.
fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(b"a".to_vec()),
        Just(b"b".to_vec()),
        Just(b",".to_vec()),
        Just(b"\"".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"\r".to_vec()),
        Just("\u{feff}".as_bytes().to_vec()),
        Just(b"secret".to_vec()),
        Just(vec![0xff, 0xfe]),
        Just(vec![0]),
        (1usize..5000).prop_map(|n| vec![b'x'; n]),
        any::<u8>().prop_map(|b| vec![b]),
    ]
}

fn input() -> impl Strategy<Value = Vec<u8>> {
    (any::<bool>(), proptest::collection::vec(piece(), 0..60)).prop_map(|(header, pieces)| {
        let mut v = if header {
            b"secret,other\n".to_vec()
        } else {
            Vec::new()
        };
        v.extend(pieces.concat());
        v
    })
}

/// Errors are one bounded line: a long value is never echoed whole.
fn bounded(e: impl std::fmt::Display) {
    let s = e.to_string();
    assert!(s.len() < 20_000, "an error of {} bytes", s.len());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn csv_readers_never_panic(bytes in input()) {
        if let Err(e) = count_column(&bytes[..], "secret", None) { bounded(e) }
        let labels = ["a".to_string(), "b".to_string()];
        if let Err(e) = count_column(&bytes[..], "secret", Some(&labels)) { bounded(e) }
        let columns = ["secret".to_string(), "other".to_string()];
        if let Err(e) = count_records(&bytes[..], &columns, pmldesign_data::Nulls::Error) { bounded(e) }
        if let Err(e) = csv_columns(&bytes[..]) { bounded(e) }
        let w = Mechanism::from_rows(vec![vec![0.75, 0.25], vec![0.25, 0.75]]).unwrap();
        let key = StreamKey::parse("0x1234567890abcdef1234567890abcdef").unwrap();
        let outputs = vec!["y1".to_string(), "y2".to_string()];
        let mut p = CategoricalPrivatiser::new(&w, labels.to_vec(), outputs, (&key, "secret")).unwrap();
        let mut out = Vec::new();
        let how = Handling { placement: Placement::Append("secret_private"), on_unknown: OnUnknown::Skip, rows: RowPlace::Position, nulls: Nulls::Drop };
        if let Err(e) = privatise_column_by(&bytes[..], &mut out, "secret", how, &mut p) { bounded(e) }
    }
}
