//! Matrices read from CSV rows: headers, label columns, quoting, and errors that
//! name the line and the field.

use pmldesign_data::matrix::{MatrixError, read_csv_matrix};

#[test]
fn bare_rows() {
    let m = read_csv_matrix("0.9,0.1\n\n0.2, 0.8\n").unwrap();
    assert_eq!(m.rows, [[0.9, 0.1], [0.2, 0.8]]);
    assert_eq!((m.labels, m.header), (None, None));
}

#[test]
fn header_and_labels() {
    let m = read_csv_matrix("input,y1,\"y,2\"\r\n\"a, b\",0.5,0.5\r\nc,1,0\r\n").unwrap();
    assert_eq!(m.rows, [[0.5, 0.5], [1.0, 0.0]]);
    assert_eq!(m.labels.unwrap(), ["a, b", "c"]);
    assert_eq!(m.header.unwrap(), ["input", "y1", "y,2"]);
    // A lone non-numeric field is a header too.
    let m = read_csv_matrix("p\n0.5\n0.5\n").unwrap();
    assert_eq!(m.rows, [[0.5], [0.5]]);
}

#[test]
fn errors_name_the_line_and_field() {
    assert_eq!(read_csv_matrix("y1,y2\n"), Err(MatrixError::NoRows));
    assert_eq!(
        read_csv_matrix("x,y1,y2\n\na,0.5\n"),
        Err(MatrixError::HeaderLength {
            header: 3,
            line: 3,
            found: 2
        })
    );
    let e = read_csv_matrix("0.5,0.5\n0.5,half\n").unwrap_err();
    assert_eq!(
        e,
        MatrixError::NotNumber {
            line: 2,
            field: 2,
            value: "half".into(),
            labelled: false
        }
    );
    let msg = e.to_string();
    assert!(
        msg.contains("line 2 field 2") && msg.contains("label column"),
        "{msg}"
    );
    assert!(!msg.contains("--"), "{msg}");
}

/// The rules of the former line-by-line reader, for inputs without quotes: blank
/// lines skipped, fields split at commas and trimmed, lines counted physically.
fn by_lines(text: &str) -> Vec<(u64, Vec<String>)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            (
                i as u64 + 1,
                l.split(',').map(|f| f.trim().into()).collect(),
            )
        })
        .collect()
}

proptest::proptest! {
    #[test]
    fn lines_and_fields_as_read_line_by_line(
        rows in proptest::collection::vec(
            proptest::collection::vec(proptest::sample::select(vec!["0.5", " 1 ", "x", "", "2e-3"]), 1..4),
            1..6,
        ),
        blank in proptest::collection::vec(proptest::bool::ANY, 6),
    ) {
        let mut text = String::new();
        for (i, r) in rows.iter().enumerate() {
            if blank[i] {
                text.push('\n');
            }
            text.push_str(&r.join(","));
            text.push('\n');
        }
        let expected = by_lines(&text);
        match read_csv_matrix(&text) {
            Ok(m) => {
                // Every data row came from a line with the same numbers.
                let data = &expected[expected.len() - m.rows.len()..];
                for (row, (_, fields)) in m.rows.iter().zip(data) {
                    let skip = usize::from(m.labels.is_some());
                    let want: Vec<f64> =
                        fields[skip..].iter().map(|f| f.parse().unwrap()).collect();
                    proptest::prop_assert_eq!(row, &want);
                }
            }
            Err(MatrixError::NotNumber { line, field, .. }) => {
                let (_, fields) = expected.iter().find(|(l, _)| *l == line).unwrap();
                proptest::prop_assert!(fields[field - 1].parse::<f64>().is_err());
            }
            Err(MatrixError::HeaderLength { line, found, .. }) => {
                let (_, fields) = expected.iter().find(|(l, _)| *l == line).unwrap();
                proptest::prop_assert_eq!(fields.len(), found);
            }
            Err(e) => proptest::prop_assert!(matches!(e, MatrixError::NoRows), "{e}"),
        }
    }
}
