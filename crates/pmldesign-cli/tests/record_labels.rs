//! `pml apply --output-labels COLUMN=NAMES` with a record design: one rule for
//! every design (the names replace the values a private column takes, one per
//! value), for compose (that column's outputs) and joint (that column's labels,
//! which its decoded outputs are written as) alike; a wrong count or an unknown
//! column is a usage error naming the flag.

use crate::common::{apply_record, compose_record, pml, record_of, s};
use std::path::Path;

/// 60 records: A in a1..a3, B in b1..b4.
fn rows() -> String {
    let mut text = String::from("A,B\n");
    for i in 0..60 {
        text.push_str(&format!("a{},b{}\n", 1 + i % 3, 1 + (i / 3) % 4));
    }
    text
}

/// The (A_private, B_private) of each row of a release.
fn released(out: &str) -> Vec<(String, String)> {
    out.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            // The private columns are the last two (the raw ones are left out).
            let n = f.len();
            (f[n - 2].to_string(), f[n - 1].to_string())
        })
        .collect()
}

/// The outputs of column j's design in a record design file.
fn outputs(design: &Path, j: usize) -> Vec<String> {
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(design).unwrap()).unwrap();
    v["record"]["designs"][j]["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o.as_str().unwrap().to_string())
        .collect()
}

/// Renamed and default releases of the same draws agree through the renaming.
fn renamed_alike(plain: &str, renamed: &str, from: &[String], to: &[String]) {
    let (plain, renamed) = (released(plain), released(renamed));
    assert_eq!(plain.len(), renamed.len());
    for ((a, b), (ra, rb)) in plain.iter().zip(&renamed) {
        let i = from.iter().position(|f| f == a).unwrap();
        assert_eq!((&to[i], b), (ra, rb));
    }
}

#[test]
fn a_compose_column_is_renamed_one_name_per_output() {
    let dir = tempfile::tempdir().unwrap();
    let (data, design) = compose_record(dir.path(), &rows());
    let from = outputs(&design, 0);
    let to: Vec<String> = (1..=from.len()).map(|i| format!("group{i}")).collect();
    let flag = format!("A={}", to.join(","));
    let seed = "98765432109876543210";
    let plain = apply_record((&design, &data), seed, &dir.path().join("p.csv"), &[]);
    let out = dir.path().join("r.csv");
    let renamed = apply_record((&design, &data), seed, &out, &["--output-labels", &flag]);
    renamed_alike(&plain, &renamed, &from, &to);
}

#[test]
fn a_joint_column_is_renamed_one_name_per_label() {
    let dir = tempfile::tempdir().unwrap();
    let (data, design) = record_of(dir.path(), &rows(), "joint");
    let from: Vec<String> = ["a1", "a2", "a3"].map(String::from).to_vec();
    let to: Vec<String> = ["low", "mid", "high"].map(String::from).to_vec();
    let seed = "1234512345123451234512345";
    let plain = apply_record((&design, &data), seed, &dir.path().join("p.csv"), &[]);
    let out = dir.path().join("r.csv");
    let flag = ["--output-labels", "A=low,mid,high"];
    let renamed = apply_record((&design, &data), seed, &out, &flag);
    renamed_alike(&plain, &renamed, &from, &to);
}

#[test]
fn a_wrong_count_or_an_unknown_column_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let (data, design) = compose_record(dir.path(), &rows());
    let n = outputs(&design, 1).len();
    for (flag, says) in [
        ("C=x,y".to_string(), "COLUMN one of"),
        ("x,y".to_string(), "name the column"),
        (
            format!("B={}", vec!["z"; n + 1].join(",")),
            "column B takes",
        ),
    ] {
        let out = dir.path().join("o.csv");
        let run = pml()
            .args(["apply", "--mechanism", s(&design), "--data", s(&data)])
            .args(["--seed", "1234567890123456789012", "--output", s(&out)])
            .args(["--output-labels", &flag])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{flag}: {err}");
        assert!(
            err.contains("--output-labels") && err.contains(says),
            "{err}"
        );
        assert!(!out.exists(), "nothing partial is written");
    }
}
