//! End-to-end tests of `pml assess`.

use crate::common::{
    EXAMPLE1, json, one_line_usage_error, output_file, s, stdout, usage_stderr, write,
};

use serde_json::Value;
use std::path::{Path, PathBuf};

/// Runs `pml assess --mechanism MECHANISM ARGS --format json` and returns the object.
fn assess_json(mechanism: &Path, args: &[&str]) -> Value {
    json(&[&["assess", "--mechanism", s(mechanism)][..], args].concat())
}

/// Runs `pml assess --mechanism MECHANISM ARGS` expecting a one-line usage error;
/// returns stderr.
fn assess_usage_error(mechanism: &Path, args: &[&str]) -> String {
    one_line_usage_error(&[&["assess", "--mechanism", s(mechanism)][..], args].concat())
}

/// \[E\] Example 1 designed by `pml design`, written as its JSON.
fn example1_design(dir: &Path) -> PathBuf {
    output_file(
        dir,
        "design.json",
        &[&EXAMPLE1[..], &["--format", "json"]].concat(),
    )
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

const EXAMPLE1_CSV: &str = "input,y1,y2,y3,y4\n\
    x1,0.325,0.225,0.225,0.225\n\
    x2,0.45,0.1,0.225,0.225\n\
    x3,0.45,0.225,0.1,0.225\n\
    x4,0.45,0.225,0.225,0.1\n";

#[test]
fn example_1_from_design_json() {
    let dir = tempfile::tempdir().unwrap();
    let design = example1_design(dir.path());
    let v = assess_json(&design, &["--prior", "0.4,0.2,0.2,0.2"]);
    let eps = (9.0f64 / 8.0).ln();
    assert!((f(&v["eps_min"]) - eps).abs() < 1e-12, "{}", v["eps_min"]);
    assert_eq!(v["privacy_region"], 1);
    assert!((f(&v["exp_eps_min"]) - 1.125).abs() < 1e-12);
    assert!((f(&v["eps_max"]) - 5f64.ln()).abs() < 1e-12);
    for l in v["pml_per_outcome"].as_array().unwrap() {
        assert!((f(l) - eps).abs() < 1e-12);
    }
    let tail = v["tail_curve"].as_array().unwrap();
    assert_eq!(tail.len(), 1);
    assert!((f(&tail[0]["epsilon"]) - eps).abs() < 1e-12);
    assert_eq!(f(&tail[0]["delta"]), 0.0);
    assert!((f(&v["ldp_parameter"]) - 2.25f64.ln()).abs() < 1e-12);
    assert!((f(&v["maximal_leakage"]) - eps).abs() < 1e-12);
    assert!(v["uncertainty"].is_null());
    assert_eq!(v["mechanism"].as_array().unwrap().len(), 4);
    assert_eq!(v["outputs"].as_array().unwrap().len(), 4);
}

#[test]
fn csv_mechanism_in_every_layout() {
    let dir = tempfile::tempdir().unwrap();
    let numbers: String = EXAMPLE1_CSV
        .lines()
        .skip(1)
        .map(|l| l.split_once(',').unwrap().1.to_string() + "\n")
        .collect();
    let header_only = format!("y1,y2,y3,y4\n{numbers}");
    let labelled_no_header: String = EXAMPLE1_CSV
        .lines()
        .skip(1)
        .map(|l| l.to_string() + "\r\n")
        .collect();
    let json_rows = "[[0.325,0.225,0.225,0.225],[0.45,0.1,0.225,0.225],\
                     [0.45,0.225,0.1,0.225],[0.45,0.225,0.225,0.1]]";
    for (name, text) in [
        ("labelled.csv", EXAMPLE1_CSV.to_string()),
        ("numbers.csv", numbers.clone()),
        ("header.csv", header_only),
        ("rows_crlf.csv", labelled_no_header),
        ("rows.json", json_rows.to_string()),
    ] {
        let p = write(dir.path(), name, &text);
        let v = assess_json(&p, &["--prior", "0.4,0.2,0.2,0.2"]);
        assert!(
            (f(&v["eps_min"]) - (9.0f64 / 8.0).ln()).abs() < 1e-12,
            "{name}"
        );
        assert_eq!(v["privacy_region"], 1, "{name}");
    }
    // Row labels from the file are shown when the prior has none of its own.
    let p = write(
        dir.path(),
        "named.csv",
        "input,y1,y2\nred,0.9,0.1\nblue,0.2,0.8\n",
    );
    let v = assess_json(&p, &["--prior", "0.5,0.5"]);
    assert_eq!(v["labels"], serde_json::json!(["red", "blue"]));
    // ... and must match the prior's labels when both are given.
    let err = assess_usage_error(&p, &["--prior", "0.5,0.5", "--labels", "blue,red"]);
    assert!(err.contains("--labels red,blue"), "{err}");
}

#[test]
fn ball_capacity_below_theorem4_and_table() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "m.csv", EXAMPLE1_CSV);
    let ball = ["--prior", "0.4,0.2,0.2,0.2", "--beta", "0.1"];
    let v = assess_json(&p, &ball);
    let u = &v["uncertainty"];
    assert_eq!(u["set"]["kind"], "l1_ball");
    let c = f(&u["leakage_capacity"]);
    let t4 = &u["theorem4"];
    let bound = f(&t4["capacity_bound"]);
    let cor2 = f(&t4["corollary2_bound"]);
    assert!(c <= bound + 1e-12 && bound <= cor2);
    // Tight for this extremal first-region mechanism ([E] Thm 4, k = 1).
    assert!((c - bound).abs() < 1e-12);
    assert_eq!(t4["region"], 1);
    assert!((f(&u["sensitivity"]) - (c - f(&v["eps_min"]))).abs() < 1e-15);
    assert!((f(&u["sensitivity"]) + (1.0 - 0.05 * 0.125 / 0.2f64).ln()).abs() < 1e-12);

    // A mechanism with zeros (region > 1) over a ball from counts and delta.
    let z = write(
        dir.path(),
        "z.json",
        "[[0.5,0.5,0.0],[0.0,0.5,0.5],[0.5,0.0,0.5]]",
    );
    let v = assess_json(&z, &["--counts", "5000,3000,2000", "--delta", "0.01"]);
    let u = &v["uncertainty"];
    let c = f(&u["leakage_capacity"]);
    let t4 = &u["theorem4"];
    assert!(f(&t4["region"]) > 1.0);
    assert!((c - f(&t4["capacity_bound"])).abs() < 1e-12, "{t4}");
    assert!((c - f(&t4["corollary2_bound"])).abs() < 1e-12);
    assert!(
        v["ldp_parameter"].is_null(),
        "infinite LDP parameter is null"
    );
    let r = &v["radius"];
    assert_eq!(r["samples"], 10_000);
    assert!((f(&r["beta"]) - f(&u["set"]["beta"])).abs() == 0.0);

    // The table names the figures.
    let t = stdout(
        &[
            &["assess", "--format", "table", "--mechanism", s(&p)][..],
            &ball,
        ]
        .concat(),
    );
    for needle in [
        "eps_min",
        "privacy region",
        "LDP parameter",
        "maximal leakage",
        "tail curve",
        "leakage capacity",
        "sensitivity",
        "Theorem 4",
        "tight",
        "Corollary 2",
    ] {
        assert!(t.contains(needle), "missing {needle}:\n{t}");
    }
}

#[test]
fn polytope_of_priors() {
    let dir = tempfile::tempdir().unwrap();
    let m = write(dir.path(), "m.csv", EXAMPLE1_CSV);
    for (name, text) in [
        (
            "v.json",
            "[[0.4,0.2,0.2,0.2],[0.25,0.25,0.25,0.25],[0.1,0.3,0.3,0.3]]",
        ),
        (
            "v.csv",
            "0.4,0.2,0.2,0.2\n0.25,0.25,0.25,0.25\n0.1,0.3,0.3,0.3\n",
        ),
    ] {
        let pr = write(dir.path(), name, text);
        let v = assess_json(&m, &["--prior", "0.4,0.2,0.2,0.2", "--priors", s(&pr)]);
        let u = &v["uncertainty"];
        assert_eq!(u["set"]["kind"], "polytope");
        assert!(u["theorem4"].is_null());
        // The worst vertex is (0.1, 0.3, 0.3, 0.3), on output y2: 0.225 / 0.1875.
        assert!((f(&u["leakage_capacity"]) - 1.2f64.ln()).abs() < 1e-12);
        assert!(f(&u["sensitivity"]) > 0.0);
    }
}

#[test]
fn bad_files_exit_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let prior = ["--prior", "0.4,0.2,0.2,0.2"];
    let run = |file: &Path, extra: &[&str]| assess_usage_error(file, &[&prior[..], extra].concat());
    let missing = d.join("missing.json");
    assert!(run(&missing, &[]).contains("cannot read --mechanism"));
    let e = run(&write(d, "bad.json", "{\"mechanism\": [[0.5, 0.5],"), &[]);
    assert!(e.contains("not valid JSON"), "{e}");
    let e = run(&write(d, "nomech.json", "{\"prior\": [0.5, 0.5]}"), &[]);
    assert!(e.contains("\"mechanism\""), "{e}");
    let e = run(&write(d, "word.json", "[[0.5, \"a\"], [0.5, 0.5]]"), &[]);
    assert!(e.contains("row 0 entry 1"), "{e}");
    let e = run(&write(d, "empty.csv", "  \n"), &[]);
    assert!(e.contains("empty"), "{e}");
    let e = run(&write(d, "word.csv", "0.5,0.5\n0.5,abc\n"), &[]);
    assert!(e.contains("line 2 field 2"), "{e}");
    // Rows that do not sum to 1: the model names the row.
    let e = run(
        &write(d, "sum.csv", "0.5,0.6\n0.5,0.5\n0.5,0.5\n0.5,0.5\n"),
        &[],
    );
    assert!(e.contains("mechanism row 0") && e.contains("sum"), "{e}");
    let e = run(
        &write(d, "ragged.csv", "0.5,0.5\n1.0\n0.5,0.5\n0.5,0.5\n"),
        &[],
    );
    assert!(e.contains("row 1"), "{e}");
    // Wrong row count, and a transposed matrix.
    let e = run(&write(d, "three.csv", "1,0\n0,1\n0.5,0.5\n"), &[]);
    assert!(e.contains("3 rows") && e.contains("4 entries"), "{e}");
    let e = run(
        &write(
            d,
            "t.csv",
            "0.25,0.25,0.25,0.25\n0.25,0.25,0.25,0.25\n0.5,0.5,0,0\n",
        ),
        &[],
    );
    assert!(e.contains("transposed"), "{e}");
    // Bad sets.
    let m = write(d, "m.csv", EXAMPLE1_CSV);
    let e = run(&m, &["--beta", "-1"]);
    assert!(e.contains("beta"), "{e}");
    // --delta needs a sample size, which --prior lacks: clap refuses the pair.
    let e = usage_stderr(&[
        "assess",
        "--mechanism",
        s(&m),
        "--prior",
        prior[1],
        "--delta",
        "0.01",
    ]);
    assert!(e.contains("--delta") && e.contains("--prior"), "{e}");
    let e = run(&m, &["--priors", s(&write(d, "p.json", "[[0.5,0.5]]"))]);
    assert!(e.contains("--priors") && e.contains("2 entries"), "{e}");
    let e = run(
        &m,
        &["--priors", s(&write(d, "q.csv", "0.5,0.5,0.5,0.5\n"))],
    );
    assert!(e.contains("vertices[0]"), "{e}");
}

/// `pml assess --design FILE` on a design written by `pml design`, then edited
/// by `edit`: the verdict's JSON, or the one-line error (exit 2) naming the field.
fn verify_edited(design: &[&str], edit: impl Fn(&mut Value)) -> Result<Value, String> {
    let dir = tempfile::tempdir().unwrap();
    let path = output_file(
        dir.path(),
        "d.json",
        &[design, &["--format", "json"]].concat(),
    );
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut v);
    std::fs::write(&path, v.to_string()).unwrap();
    let out = crate::common::pml()
        .args(["assess", "--design", s(&path), "--format", "json"])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    match out.status.code() {
        Some(0) => Ok(serde_json::from_slice(&out.stdout).unwrap()),
        Some(2) => {
            assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
            Err(err)
        }
        code => panic!("exit {code:?}: {err}"),
    }
}

const DESIGN: [&str; 5] = [
    "design",
    "--prior",
    "0.3,0.25,0.2,0.15,0.1",
    "--epsilon",
    "0.5",
];

/// A design file as written verifies: its privacy, its utility and its dual,
/// re-priced over every ray; a loss design's dual is re-checked against its LP.
#[test]
fn a_design_file_verifies() {
    let v = verify_edited(&DESIGN, |_| {}).unwrap();
    assert_eq!(v["verdict"], "verified");
    assert_eq!(v["verification"]["repricing"], "exact");
    let bound = f(&v["certificate"]["upper_bound"]);
    assert!(f(&v["verification"]["dual_bound"]) <= bound + 1e-9);
    for loss in [
        &["--loss", "hamming"][..],
        &["--loss", "absolute", "--loss-method", "direct"],
    ] {
        let design = [&DESIGN[..], &["--beta", "0.05", "--utility", "loss"], loss].concat();
        let v = verify_edited(&design, |_| {}).unwrap();
        assert_eq!(v["verdict"], "verified", "{loss:?}");
    }
    let dir = tempfile::tempdir().unwrap();
    let text = output_file(
        dir.path(),
        "d.json",
        &[&DESIGN[..], &["--format", "json"]].concat(),
    );
    let table = stdout(&["assess", "--design", s(&text), "--format", "table"]);
    assert!(
        table.contains("every check passed") && table.contains("re-priced"),
        "{table}"
    );
}

/// Mass moved within a row of the matrix: the re-measured utility (or privacy)
/// no longer matches what the file states.
#[test]
fn an_altered_matrix_fails() {
    let err = verify_edited(&DESIGN, |v| {
        let row = v["mechanism"][0].as_array_mut().unwrap();
        let (big, _) = row
            .iter()
            .enumerate()
            .max_by(|a, b| f(a.1).total_cmp(&f(b.1)))
            .unwrap();
        let small = (big + 1) % row.len();
        row[big] = serde_json::json!(f(&row[big]) - 0.01);
        row[small] = serde_json::json!(f(&row[small]) + 0.01);
    })
    .unwrap_err();
    assert!(
        err.contains("--design") && (err.contains("utility.value") || err.contains("PML")),
        "{err}"
    );
}

/// A dual edited consistently (lambda and its bound lowered together) proves less
/// once re-priced; one edited alone no longer adds up.
#[test]
fn an_altered_dual_fails() {
    let lower = |v: &mut Value, both: bool| {
        let dual = &mut v["certificate"]["dual"];
        dual["lambda"][1] = serde_json::json!(f(&dual["lambda"][1]) - 0.01);
        if both {
            dual["bound"] = serde_json::json!(f(&dual["bound"]) - 0.01);
        }
    };
    let err = verify_edited(&DESIGN, |v| lower(v, true)).unwrap_err();
    assert!(
        err.contains("certificate.dual.lambda") && err.contains("re-priced"),
        "{err}"
    );
    let err = verify_edited(&DESIGN, |v| lower(v, false)).unwrap_err();
    assert!(err.contains("certificate.dual.bound"), "{err}");
    let loss = [&DESIGN[..], &["--utility", "loss", "--loss", "hamming"]].concat();
    let err = verify_edited(&loss, |v| {
        let dual = &mut v["loss"]["dual"];
        dual["lambda"][0] = serde_json::json!(f(&dual["lambda"][0]) - 0.01);
        dual["bound"] = serde_json::json!(f(&dual["bound"]) - 0.01);
    })
    .unwrap_err();
    assert!(err.contains("loss.dual.lambda"), "{err}");
}

/// `--design` stands alone: with a mechanism or a prior it is a usage error.
#[test]
fn design_conflicts_with_mechanism_and_prior() {
    for extra in [&["--mechanism", "m.csv"][..], &["--prior", "0.5,0.5"]] {
        let out = crate::common::pml()
            .args([&["assess", "--design", "d.json"][..], extra].concat())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("cannot be used with"));
    }
}

/// A bare matrix given to `--design` (CSV, a JSON array, or a JSON object without a
/// `mechanism` field) is "not a design file", in one line pointing to `--mechanism`.
#[test]
fn a_bare_matrix_is_not_a_design_file() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [
        ("m.csv", "0.5,0.5\n0.5,0.5\n"),
        ("m.json", "[[0.5, 0.5], [0.5, 0.5]]"),
        ("o.json", "{\"prior\": [0.5, 0.5]}"),
    ] {
        let path = write(dir.path(), name, text);
        let err = one_line_usage_error(&["assess", "--design", s(&path)]);
        assert!(err.contains("not a design file"), "{name}: {err}");
        assert!(err.contains("--mechanism"), "{name}: {err}");
    }
}
