//! A blank line between the rows of a one-column CSV file is a missing value
//! (polars writes a null that way): counted, refused or privatised as `Nulls`
//! says, never skipped, and every row keeps its place in the stream.

use pmldesign_data::sampler::CategoricalPrivatiser;
use pmldesign_data::stream::StreamKey;
use pmldesign_data::{
    Counting, Handling, NULL_LABEL, Nulls, OnUnknown, Placement, PrivatiseError, RowPlace,
    count_column_until, count_records, count_released, privatise_column_by,
};
use pmldesign_model::Mechanism;

/// Eight rows, two of them blank (lines 4 and 8).
const BLANKS: &str = "c\na\nb\n\na\nb\na\n\nb\n";

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

fn count(text: &str, nulls: Nulls) -> Result<pmldesign_data::CategoryCounts, String> {
    let how = Counting {
        nulls,
        ..Counting::default()
    };
    count_column_until(text.as_bytes(), "c", how, &|| false).map_err(|e| e.to_string())
}

#[test]
fn a_blank_line_is_counted_as_a_null() {
    let e = count(BLANKS, Nulls::Error).unwrap_err();
    assert!(e.contains("line 4") && e.contains("missing"), "{e}");
    let dropped = count(BLANKS, Nulls::Drop).unwrap();
    assert_eq!((dropped.counts.clone(), dropped.dropped), (vec![3, 3], 2));
    let category = count(BLANKS, Nulls::Category).unwrap();
    assert_eq!(category.labels, strings(&["a", "b", NULL_LABEL]));
    assert_eq!(category.counts, [3, 3, 2]);
    // The final newline is no row; CRLF lines the same.
    assert_eq!(count("c\na\nb\n", Nulls::Error).unwrap().rows, 2);
    let crlf = count("c\r\na\r\n\r\nb\r\n", Nulls::Category).unwrap();
    assert_eq!(crlf.counts, [1, 1, 1]);
}

#[test]
fn released_data_with_a_blank_line_is_not_counted_short() {
    let outputs = strings(&["a", "b"]);
    let e = count_released(BLANKS.as_bytes(), "c", &outputs, Nulls::Error).unwrap_err();
    assert!(e.to_string().contains("line 4"), "{e}");
    let d = count_released(BLANKS.as_bytes(), "c", &outputs, Nulls::Drop).unwrap();
    assert_eq!((d.counts, d.dropped), (vec![3, 3], 2));
}

#[test]
fn a_blank_line_in_a_file_of_several_columns_is_left_as_it_was() {
    let text = "c,d\na,x\n\nb,y\n";
    let s = count_records(text.as_bytes(), &strings(&["c", "d"]), Nulls::Error).unwrap();
    assert_eq!(s.tuples().iter().map(|t| t.1).sum::<u64>(), 2);
}

/// The private column of `text` under `nulls`, the mechanism's inputs a, b and
/// `<null>`, each row to its own output.
fn private(text: &str, nulls: Nulls) -> Result<Vec<String>, PrivatiseError> {
    let w = Mechanism::from_rows(vec![
        vec![0.4, 0.3, 0.3],
        vec![0.3, 0.4, 0.3],
        vec![0.3, 0.3, 0.4],
    ])
    .unwrap();
    let key = StreamKey::from_bytes([9; 32]);
    let labels = strings(&["a", "b", NULL_LABEL]);
    let outputs = strings(&["y1", "y2", "y3"]);
    let mut p = CategoricalPrivatiser::new(&w, labels, outputs, (&key, "c")).unwrap();
    let how = Handling {
        placement: Placement::Append("p"),
        on_unknown: OnUnknown::Error,
        rows: RowPlace::Position,
        nulls,
    };
    let mut out = Vec::new();
    privatise_column_by(text.as_bytes(), &mut out, "c", how, &mut p)?;
    let text = String::from_utf8(out).unwrap();
    Ok(text
        .lines()
        .skip(1)
        .map(|l| l.rsplit(',').next().unwrap().to_owned())
        .collect())
}

#[test]
fn privatised_rows_keep_their_places() {
    let Err(PrivatiseError::Unknown(e)) = private(BLANKS, Nulls::Error) else {
        panic!("a blank line under --nulls error is refused");
    };
    assert!(e.to_string().contains("line 4"), "{e}");
    // Every row draws from its place, the blank rows counted: the same draws
    // as the file with the null written out.
    let written = BLANKS.replace("\n\n", "\n<null>\n");
    let blank = private(BLANKS, Nulls::Category).unwrap();
    assert_eq!(blank.len(), 8);
    assert_eq!(blank, private(&written, Nulls::Category).unwrap());
    let dropped = private(BLANKS, Nulls::Drop).unwrap();
    assert_eq!(dropped.len(), 8);
    for i in [2, 6] {
        assert_eq!(dropped[i], "", "row {i} is written missing");
    }
    for i in [0, 1, 3, 4, 5, 7] {
        assert_eq!(dropped[i], blank[i], "row {i} keeps its draw");
    }
}
