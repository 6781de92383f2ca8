//! What a release gives away: no raw column by default, no sample in the public
//! file, no two rows of one key drawn alike, no advice that breaks the notion.

use crate::common::{apply_design, compose_record, output_file, pml, s, write};

use serde_json::Value;
use std::path::{Path, PathBuf};

const SEED: &str = "0x6a09e667f3bcc908b2fb1366ea957d3e3adec17512775099da2f590f0667322a";

/// A table `id,colour,note` of `rows` rows cycling through four colours.
fn table(dir: &Path, rows: usize) -> PathBuf {
    let colours = ["red", "green", "blue", "red", "red", "green"];
    let mut text = String::from("id,colour,note\n");
    for i in 0..rows {
        text.push_str(&format!("{i},{},n{i}\n", colours[i % colours.len()]));
    }
    write(dir, "people.csv", &text)
}

/// `pml design --data TABLE --column colour --epsilon 1 --delta 1e-6` as JSON.
fn design_from(dir: &Path, data: &Path) -> PathBuf {
    let args = ["design", "--data", s(data), "--column", "colour"];
    let more = ["--epsilon", "1", "--delta", "1e-6", "--format", "json"];
    output_file(dir, "design.json", &[&args[..], &more].concat())
}

/// `pml publish --mechanism DESIGN --output dir/public.json`.
fn publish(dir: &Path, design: &Path) -> PathBuf {
    output_file(dir, "public.json", &["publish", "--mechanism", s(design)])
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn the_release_holds_no_raw_column_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let data = table(dir.path(), 60);
    let design = design_from(dir.path(), &data);
    let out = dir.path().join("released.csv");
    let run = apply_design((&design, &data, "colour"), &out, &["--seed", SEED]);
    assert!(run.status.success(), "{}", stderr(&run));
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().next(), Some("id,note,colour_private"));
    assert_eq!(text.lines().count(), 61);
    assert!(!stderr(&run).contains("--keep-raw"));
    // --keep-raw keeps it beside, with a warning that -q does not hide.
    let kept = dir.path().join("kept.csv");
    let run = apply_design(
        (&design, &data, "colour"),
        &kept,
        &["--seed", SEED, "--keep-raw", "-q"],
    );
    assert!(run.status.success(), "{}", stderr(&run));
    let text = std::fs::read_to_string(&kept).unwrap();
    assert_eq!(text.lines().next(), Some("id,colour,note,colour_private"));
    assert!(
        stderr(&run).contains("warning: --keep-raw"),
        "{}",
        stderr(&run)
    );
    // The same draws either way: only the raw column differs.
    let private = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| l.rsplit(',').next().unwrap().to_string())
            .collect()
    };
    let released = std::fs::read_to_string(&out).unwrap();
    assert_eq!(private(&released), private(&text));
}

#[test]
fn a_record_release_holds_none_of_the_record_columns() {
    let dir = tempfile::tempdir().unwrap();
    let mut rows = String::from("id,A,B,C\n");
    for i in 0..40 {
        rows.push_str(&format!("{i},a{},b{},c{i}\n", i % 2, i % 3));
    }
    let (data, design) = compose_record(dir.path(), &rows);
    let out = dir.path().join("private.csv");
    let run = crate::common::apply_record((&design, &data), SEED, &out, &[]);
    assert_eq!(run.lines().next(), Some("id,C,A_private,B_private"));
    let replaced = dir.path().join("replaced.csv");
    let run = crate::common::apply_record((&design, &data), SEED, &replaced, &["--replace"]);
    assert_eq!(run.lines().next(), Some("id,A,B,C"));
}

#[test]
fn a_key_on_two_rows_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(
        dir.path(),
        "keyed.csv",
        "user,colour\nu1,red\nu2,green\nu1,blue\n",
    );
    let matrix = write(
        dir.path(),
        "w.csv",
        "0.5,0.25,0.25\n0.25,0.5,0.25\n0.25,0.25,0.5\n",
    );
    let out = dir.path().join("out.csv");
    let run = pml()
        .args([
            "apply",
            "--mechanism",
            s(&matrix),
            "--labels",
            "red,green,blue",
        ])
        .args(["--data", s(&data), "--column", "colour", "--key", "user"])
        .args(["--seed", SEED, "--output", s(&out)])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let err = stderr(&run);
    assert!(
        err.contains("\"u1\"") && err.contains("line 4") && err.contains("line 2"),
        "{err}"
    );
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert!(!out.exists());
}

#[test]
fn the_public_file_holds_no_sample_and_estimate_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = table(dir.path(), 600);
    let design = design_from(dir.path(), &data);
    let public = publish(dir.path(), &design);
    let text = std::fs::read_to_string(&public).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    let expected = [
        "checks",
        "delta",
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
    assert_eq!(keys, expected, "{text}");
    for absent in ["sha256", "people.csv", "samples", "beta"] {
        assert!(!text.contains(absent), "{absent} in {text}");
    }
    assert_eq!(v["format"], "pmldesign-public");
    assert_eq!(v["labels"], serde_json::json!(["red", "green", "blue"]));
    // The receiver's estimate from it equals the one from the design file.
    let released = dir.path().join("released.csv");
    let run = apply_design((&design, &data, "colour"), &released, &["--seed", SEED]);
    assert!(run.status.success());
    let estimate = |mechanism: &Path| {
        let out = pml()
            .args([
                "estimate",
                "--mechanism",
                s(mechanism),
                "--data",
                s(&released),
            ])
            .args(["--column", "colour_private", "--format", "json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let (from_public, from_design) = (estimate(&public), estimate(&design));
    assert_eq!(from_public["estimate"], from_design["estimate"]);
    let note = from_public["note"].as_str().unwrap_or_default();
    assert!(note.contains("PML(1) guarantee"), "{from_public}");
}

#[test]
fn an_altered_public_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let data = table(dir.path(), 600);
    let design = design_from(dir.path(), &data);
    let public = publish(dir.path(), &design);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&public).unwrap()).unwrap();
    // Some outputs exclude some inputs: no finite LDP level (null).
    assert!(v["checks"]["ldp_epsilon"].is_null(), "{v}");
    let cases: [(&str, Value); 3] = [
        ("checks.ldp_epsilon", serde_json::json!(1.0)),
        (
            "guarantee",
            serde_json::json!("each released value is perfectly private"),
        ),
        ("prior", serde_json::json!([0.5, 0.3, 0.2])),
    ];
    for (field, value) in cases {
        let mut altered = v.clone();
        match field.split_once('.') {
            Some((a, b)) => altered[a][b] = value,
            None => altered[field] = value,
        }
        let f = write(dir.path(), "altered.json", &altered.to_string());
        let out = pml()
            .args(["estimate", "--mechanism", s(&f), "--counts", "10,20,30"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{field}: {}", stderr(&out));
        let name = field.rsplit('.').next().unwrap();
        assert!(stderr(&out).contains(name), "{field}: {}", stderr(&out));
    }
    // A public file is not applied: it carries no certificate.
    let out = pml()
        .args(["apply", "--mechanism", s(&public), "--data", s(&data)])
        .args([
            "--column",
            "colour",
            "--output",
            s(&dir.path().join("o.csv")),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("a public file"), "{}", stderr(&out));
}

#[test]
fn ldp_advice_names_no_mechanism_above_the_level() {
    // Uniform over 32 symbols at eps 4: randomized response at the same PML is
    // the identity, whose LDP level is infinite.
    let prior = vec!["1"; 32].join(",");
    let out = pml()
        .args([
            "design",
            "--counts",
            &prior,
            "--notion",
            "ldp",
            "--epsilon",
            "4",
        ])
        .args(["--time-limit", "5", "--format", "table"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    for line in text.lines().filter(|l| l.starts_with("note:")) {
        assert!(!line.contains("same PML"), "{line}");
    }
    let marked = text
        .lines()
        .filter(|l| l.starts_with("randomized response, same PML"))
        .all(|l| l.contains("(fails LDP(4))"));
    assert!(marked, "{text}");
    // The report's tables mark it too, and its advice does not name it.
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("r.html");
    let out = pml()
        .args([
            "design",
            "--counts",
            &prior,
            "--notion",
            "ldp",
            "--epsilon",
            "4",
        ])
        .args(["--time-limit", "5", "--format", "json", "--output"])
        .arg(dir.path().join("d.json"))
        .arg("--report")
        .arg(&page)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("same PML (fails LDP(4))"),
        "the report marks it"
    );
    assert!(
        !html.contains("same PML is"),
        "the report's advice never names it"
    );
}
