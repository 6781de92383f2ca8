//! Stored designs are untrusted input on every route. A design's rows
//! stay bound to its labels, a record file is verified by `pml apply` as by
//! `pml assess`, a loss design of the wrong shape is refused without a panic, and
//! an alphabet past the limit is refused before anything of its size is built.

use crate::common::{EXAMPLE1, output_file, pml, s, usage_stderr, write};

use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// A 256-bit key: a short seed would add a warning to stderr.
const KEY: &str = "0x510e527fade682d19b05688c2b3e6c1f1f83d9abfb41bd6b5be0cd19137e2179";

fn golden(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/golden/inputs")
        .join(name)
}

fn read_json(p: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// `pml apply` of `mechanism` on a CSV of labels a..d, with `extra`.
fn apply_args(dir: &Path, mechanism: &Path, extra: &[&str]) -> Vec<String> {
    let data = write(dir, "in.csv", "secret\na\nb\nc\nd\n");
    let out = dir.join("out.csv");
    let mut v: Vec<String> = ["apply", "--mechanism", s(mechanism), "--data", s(&data)]
        .iter()
        .map(|x| x.to_string())
        .collect();
    v.extend(["--column", "secret", "--output", s(&out), "--seed", KEY].map(String::from));
    v.extend(extra.iter().map(|x| x.to_string()));
    v
}

fn refused(args: &[String], needle: &str) -> String {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = usage_stderr(&a);
    assert!(err.contains(needle), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// `--labels` cannot re-key a verified design (it swapped rows: the
/// effective channel leaked more than certified); repeating its labels is fine.
#[test]
fn labels_cannot_rekey_a_design() {
    let dir = tempfile::tempdir().unwrap();
    let args = [&EXAMPLE1[..], &["--labels", "a,b,c,d", "--format", "json"]].concat();
    let design = output_file(dir.path(), "d.json", &args);
    refused(
        &apply_args(dir.path(), &design, &["--labels", "b,a,c,d"]),
        "re-keyed",
    );
    let same = apply_args(dir.path(), &design, &["--labels", "a,b,c,d"]);
    pml().args(&same).assert().success();
    // A bare matrix has no labels of its own: --labels names its rows.
    let bare = write(dir.path(), "m.csv", "0.5,0.5\n0.25,0.75\n");
    let data = write(dir.path(), "two.csv", "secret\nu\nv\n");
    let out = dir.path().join("two-out.csv");
    pml()
        .args([
            "apply",
            "--mechanism",
            s(&bare),
            "--data",
            s(&data),
            "--column",
            "secret",
        ])
        .args(["--output", s(&out), "--seed", KEY, "--labels", "u,v"])
        .assert()
        .success();
}

/// A record file whose sub-design's dual is zeroed is refused by
/// `pml apply`, as by `pml assess --design` (every mode).
#[test]
fn apply_verifies_record_files() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["record-joint.json", "record-compose.json"] {
        let mut v = read_json(&golden(name));
        let dual = &mut v["record"]["designs"][0]["certificate"]["dual"];
        let n = dual["lambda"].as_array().unwrap().len();
        dual["lambda"] = json!(vec![0.0; n]);
        dual["max_reduced_cost"] = json!(0.0);
        dual["bound"] = json!(0.0);
        let forged = write(dir.path(), name, &serde_json::to_string(&v).unwrap());
        let data = golden("record.csv");
        let out = dir.path().join("private.csv");
        let args: Vec<String> = ["apply", "--mechanism", s(&forged), "--data", s(&data)]
            .iter()
            .chain(&["--output", s(&out), "--seed", KEY])
            .map(|x| x.to_string())
            .collect();
        refused(&args, "certificate.dual");
        assert!(!out.exists(), "nothing written");
        let assess = ["assess", "--design", s(&forged)].map(String::from);
        refused(&assess, "certificate.dual");
    }
}

/// A loss design with an output added or dropped is refused by every
/// command that reads it (it panicked in expected_loss's length assertion).
#[test]
fn a_loss_design_of_the_wrong_shape_is_refused_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let good = read_json(&golden("design_loss.json"));
    let mut v = good.clone();
    for row in v["mechanism"].as_array_mut().unwrap() {
        row.as_array_mut().unwrap().push(json!(0.0));
    }
    v["outputs"].as_array_mut().unwrap().push(json!("extra"));
    let forged = write(dir.path(), "loss.json", &serde_json::to_string(&v).unwrap());
    let f = s(&forged).to_string();
    let n = good["prior"].as_array().unwrap().len();
    let prior = vec!["0.25"; n].join(",");
    let cases: Vec<Vec<String>> = vec![
        vec!["assess".into(), "--design".into(), f.clone()],
        vec![
            "assess".into(),
            "--mechanism".into(),
            f.clone(),
            "--prior".into(),
            prior.clone(),
        ],
        vec![
            "envelope".into(),
            "--mechanism".into(),
            f.clone(),
            "--prior".into(),
            prior,
        ],
    ];
    for args in cases {
        refused(&args, "mechanism");
    }
}

/// 100,000 categories abort no process: the design is refused naming
/// the limit (it tried to allocate 80 GB).
#[test]
fn an_alphabet_past_the_limit_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("c\n");
    for i in 0..100_000 {
        csv.push_str(&format!("v{i}\n"));
    }
    let data = write(dir.path(), "wide.csv", &csv);
    let args = [
        "design",
        "--data",
        s(&data),
        "--column",
        "c",
        "--epsilon",
        "1",
    ]
    .map(String::from);
    refused(&args, "4096");
}

/// A design file with 100,000 outputs added is refused naming the
/// limit, after a read linear in its size (the duplicate-name scan was quadratic:
/// 7.9 s here, and 400,000 outputs did not finish in 120 s).
#[test]
fn a_design_with_too_many_outputs_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let args = [&EXAMPLE1[..], &["--format", "json"]].concat();
    let design = output_file(dir.path(), "d.json", &args);
    let mut v = read_json(&design);
    let extra = 100_000;
    for row in v["mechanism"].as_array_mut().unwrap() {
        row.as_array_mut()
            .unwrap()
            .extend(std::iter::repeat_n(json!(0.0), extra));
    }
    for key in ["output_probabilities", "pml_per_output", "pmc_per_output"] {
        v[key]
            .as_array_mut()
            .unwrap()
            .extend(std::iter::repeat_n(json!(0.0), extra));
    }
    let names = (0..extra).map(|i| json!(format!("z{i}")));
    v["outputs"].as_array_mut().unwrap().extend(names);
    let wide = write(dir.path(), "wide.json", &serde_json::to_string(&v).unwrap());
    let assess = ["assess", "--design", s(&wide)].map(String::from);
    refused(&assess, "16384");
}

/// An alteration of a stored design.
type Forge = fn(&mut Value);

/// The estimation figures a design states are re-derived when it is
/// read: an altered error or group is refused naming the field, everywhere.
#[test]
fn altered_estimation_figures_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let args = [&EXAMPLE1[..], &["--labels", "a,b,c,d", "--format", "json"]].concat();
    let design = output_file(dir.path(), "design.json", &args);
    let stored = read_json(&design);
    assert!(
        stored["estimation"]["rows"][0]["error_per_row"].is_f64(),
        "{stored}"
    );
    let forgeries: [(&str, Forge); 2] = [
        ("error_per_row", |d| {
            let e = d["estimation"]["rows"][0]["error_per_row"]
                .as_f64()
                .unwrap();
            d["estimation"]["rows"][0]["error_per_row"] = json!(e / 2.0);
        }),
        ("merged", |d| {
            d["estimation"]["rows"][0]["merged"] = json!([["a", "b"]])
        }),
    ];
    for (field, forge) in forgeries {
        let mut d = stored.clone();
        forge(&mut d);
        let forged = write(dir.path(), "forged.json", &d.to_string());
        refused(&apply_args(dir.path(), &forged, &[]), field);
        let assess = ["assess".to_string(), "--design".into(), s(&forged).into()];
        refused(&assess, field);
    }
}
