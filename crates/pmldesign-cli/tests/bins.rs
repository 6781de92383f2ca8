//! End-to-end tests of `--bins` (docs/theory.md §6): a numeric column cut at
//! public edges is designed over its bins in numeric order, the edges are
//! recorded, `pml apply` cuts the column the same way, and an altered record is
//! refused.

use crate::common::{apply_design, output_file, pml, s, usage_error, words, write};
use std::path::Path;

/// 300 masses in grams, cycling through 31 distinct values.
fn data(dir: &Path) -> std::path::PathBuf {
    let mut text = String::from("id,mass\n");
    for i in 0..300 {
        text.push_str(&format!("{i},{}\n", 3000 + 100 * (i * 7 % 31)));
    }
    write(dir, "in.csv", &text)
}

/// `pml design` of the column `mass` of `data` at e^eps = 2, then `extra`.
fn design_args<'a>(data: &'a str, extra: &str) -> Vec<&'a str> {
    let rest = format!("--column mass --exp-epsilon 2 {extra}");
    let rest: Vec<&'a str> = words(rest.leak()); // a few bytes a test
    [&["design", "--data", data][..], &rest].concat()
}

#[test]
fn a_binned_design_records_its_edges_and_apply_cuts_alike() {
    let dir = tempfile::tempdir().unwrap();
    let data = data(dir.path());
    let args = design_args(s(&data), "--bins -inf,3500,4500,5000,inf --format json");
    let d = output_file(dir.path(), "design.json", &args);
    let text = std::fs::read_to_string(&d).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let labels = [
        "(-inf, 3500)",
        "[3500, 4500)",
        "[4500, 5000)",
        "[5000, inf)",
    ];
    assert_eq!(json["labels"], serde_json::json!(labels));
    assert_eq!(
        json["provenance"]["settings"]["bins"],
        "-inf,3500,4500,5000,inf"
    );
    // 300 rows, masses 3000..6000 by 100: 5, 10, 5 and 11 of the 31 values.
    let prior: Vec<f64> = serde_json::from_value(json["prior"].clone()).unwrap();
    let expected = [5.0, 10.0, 5.0, 11.0].map(|c: f64| c / 31.0);
    assert!(
        prior
            .iter()
            .zip(expected)
            .all(|(p, e)| (p - e).abs() < 0.01),
        "{prior:?}"
    );
    let out = dir.path().join("out.csv");
    assert!(
        apply_design((&d, &data, "mass"), &out, &[])
            .status
            .success()
    );
    // Edges recorded otherwise than the design's labels: refused as altered.
    let altered = text.replace("-inf,3500,4500,5000,inf", "-inf,3500,4600,5000,inf");
    let bad = write(dir.path(), "altered.json", &altered);
    let refused = apply_design((&bad, &data, "mass"), &out, &[]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{err}");
    assert!(err.contains("provenance.settings.bins"), "{err}");
}

#[test]
fn a_numeric_column_taken_as_labels_gets_a_note_and_bad_edges_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let data = data(dir.path());
    let args = design_args(s(&data), "");
    let done = pml().args(&args).output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr);
    assert!(
        done.status.success() && err.contains("31 distinct numbers") && err.contains("--bins"),
        "{err}"
    );
    usage_error(
        &[&args[..], &["--bins", "5000,4000"]].concat(),
        "not strictly increasing",
    );
    usage_error(
        &[&args[..], &["--bins", "4000,5000"]].concat(),
        "4000 to 5000",
    );
    usage_error(
        &[&args[..], &["--bins", "0,inf", "--labels", "a"]].concat(),
        "--labels",
    );
}
