//! `pml publish` of a `compose` or `ldp` record design: one public part per
//! column and the record's guarantee, no prior, counts, sample size or radii;
//! `pml estimate` reads it as it reads the design; `pml apply` refuses it; a
//! tampered file is refused on reading; a `joint` record has no public file.

use crate::common::{json, pml, record_of, s, usage_error, usage_stderr};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const SEED: &str = "0x1234567890abcdef1234567890abcdef";

/// 650 records of A and B, correlated, every combination observed.
fn rows() -> String {
    "A,B\n".to_string()
        + &"a1,b1\n".repeat(300)
        + &"a2,b2\n".repeat(200)
        + &"a1,b2\n".repeat(100)
        + &"a2,b1\n".repeat(50)
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().unwrap().keys().cloned().collect()
}

/// Every key anywhere in `v`.
fn all_keys(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.insert(k.clone());
                all_keys(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| all_keys(x, out)),
        _ => {}
    }
}

fn publish(design: &Path, out: &Path) {
    pml()
        .args(["publish", "--mechanism", s(design), "--output", s(out)])
        .assert()
        .success();
}

/// The estimate of `released` through `mechanism`, without the file's path.
fn estimate(mechanism: &Path, released: &Path) -> Value {
    let mut e = json(&[
        "estimate",
        "--mechanism",
        s(mechanism),
        "--data",
        s(released),
    ]);
    // What describes the input: the file read, and what it could not verify.
    let o = e.as_object_mut().unwrap();
    o.remove("source");
    o.remove("note");
    e
}

/// A record design of `mode` over `rows()`, its public file and a release.
fn published(dir: &Path, mode: &str) -> (PathBuf, PathBuf, PathBuf) {
    let (data, design) = record_of(dir, &rows(), mode);
    let public = dir.join("public.json");
    publish(&design, &public);
    let released = dir.join("released.csv");
    crate::common::apply_record((&design, &data), SEED, &released, &[]);
    (design, public, released)
}

#[test]
fn a_compose_records_public_file_holds_its_parts_and_estimates_as_the_design() {
    for mode in ["compose", "ldp"] {
        let dir = tempfile::tempdir().unwrap();
        let (design, public, released) = published(dir.path(), mode);
        let file: Value = serde_json::from_str(&std::fs::read_to_string(&public).unwrap()).unwrap();
        let top = [
            "columns",
            "epsilon",
            "format",
            "guarantee",
            "mode",
            "parts",
            "version",
        ];
        assert_eq!(
            keys(&file),
            top.iter().map(|k| k.to_string()).collect(),
            "{mode}"
        );
        assert_eq!(file["format"], "pmldesign-public-record");
        assert_eq!(file["mode"], mode);
        assert_eq!(file["columns"], serde_json::json!(["A", "B"]));
        // Each part is what `pml publish` writes for one column's design.
        let part = [
            "checks",
            "format",
            "guarantee",
            "labels",
            "mechanism",
            "notion",
            "outputs",
            "set",
            "settings",
            "version",
        ];
        for p in file["parts"].as_array().unwrap() {
            assert_eq!(
                keys(p),
                part.iter().map(|k| k.to_string()).collect(),
                "{mode}"
            );
            assert_eq!(p["format"], "pmldesign-public");
        }
        let mut every = BTreeSet::new();
        all_keys(&file, &mut every);
        for secret in [
            "prior",
            "counts",
            "m",
            "samples",
            "radii",
            "radius",
            "sample",
            "provenance",
        ] {
            assert!(!every.contains(secret), "{mode}: {secret} in {every:?}");
        }
        let said = file["guarantee"].as_str().unwrap();
        assert!(said.contains("about the whole record (A, B)"), "{said}");
        assert_eq!(
            estimate(&public, &released),
            estimate(&design, &released),
            "{mode}"
        );
    }
}

#[test]
fn a_tampered_public_record_file_is_refused_and_apply_refuses_it() {
    let dir = tempfile::tempdir().unwrap();
    let (_, public, released) = published(dir.path(), "compose");
    let text = std::fs::read_to_string(&public).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    let estimate_of = |path: &Path| {
        ["estimate", "--mechanism", s(path), "--data", s(&released)].map(String::from)
    };
    // A mechanism entry changed: its row no longer sums to 1.
    let mut moved = file.clone();
    let row = moved["parts"][0]["mechanism"][0].as_array_mut().unwrap();
    row[0] = (row[0].as_f64().unwrap() * 0.9).into();
    let bad = dir.path().join("moved.json");
    std::fs::write(&bad, serde_json::to_string(&moved).unwrap()).unwrap();
    let args = estimate_of(&bad);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = usage_stderr(&args);
    assert!(err.contains("parts[0]"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    // A stronger sentence than the levels give.
    let mut said = file.clone();
    said["epsilon"] = 0.5.into();
    let bad = dir.path().join("said.json");
    std::fs::write(&bad, serde_json::to_string(&said).unwrap()).unwrap();
    let args = estimate_of(&bad);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    usage_error(&args, "invalid epsilon = 0.5");
    // A receiver's file is not applied: it carries no certificate.
    let out = dir.path().join("out.csv");
    let data = dir.path().join("rec.csv");
    let args = [
        "apply",
        "--mechanism",
        s(&public),
        "--data",
        s(&data),
        "--output",
        s(&out),
    ];
    usage_error(&[&args[..], &["--seed", SEED]].concat(), "a public file");
}

#[test]
fn a_joint_record_has_no_public_file() {
    let dir = tempfile::tempdir().unwrap();
    let (_, design) = record_of(dir.path(), &rows(), "joint");
    let out = dir.path().join("public.json");
    usage_error(
        &["publish", "--mechanism", s(&design), "--output", s(&out)],
        "a joint record has no public file",
    );
    assert!(!out.exists());
}
