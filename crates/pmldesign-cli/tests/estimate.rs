//! End-to-end tests of `pml estimate` (docs/theory.md §13): a released CSV
//! column and counts give the same estimate; inputs released alike are one
//! group; bad counts are usage errors naming `--counts`.

use crate::common::{json, s, stdout, usage_error, write};

/// Binary randomized response, 3/4 truthful, as CSV rows.
const RR: &str = "0.75,0.25\n0.25,0.75\n";

#[test]
fn counts_and_a_released_column_give_the_closed_form() {
    let dir = tempfile::tempdir().unwrap();
    let w = write(dir.path(), "rr.csv", RR);
    let by_counts = json(&[
        "estimate",
        "--mechanism",
        s(&w),
        "--counts",
        "600,400",
        "--method",
        "inversion",
    ]);
    let e = &by_counts["estimates"];
    // (0.6 - 0.25) / 0.5 = 0.7.
    assert!(
        (e[0]["estimate"].as_f64().unwrap() - 0.7).abs() < 1e-12,
        "{by_counts}"
    );
    assert_eq!(by_counts["rows"], 1000);
    let rows: String = std::iter::repeat_n("y1\n", 600)
        .chain(std::iter::repeat_n("y2\n", 400))
        .collect();
    let data = write(dir.path(), "released.csv", &format!("v_private\n{rows}"));
    let by_data = json(&[
        "estimate",
        "--mechanism",
        s(&w),
        "--data",
        s(&data),
        "--column",
        "v_private",
        "--method",
        "inversion",
    ]);
    assert_eq!(by_data["estimates"], by_counts["estimates"]);
    let named = json(&[
        "estimate",
        "--mechanism",
        s(&w),
        "--counts",
        "y2=400,y1=600",
        "--method",
        "inversion",
    ]);
    assert_eq!(named["estimates"], by_counts["estimates"]);
}

#[test]
fn inputs_released_alike_are_one_group() {
    let dir = tempfile::tempdir().unwrap();
    let w = write(dir.path(), "w.csv", "0.7,0.3\n0.7,0.3\n0.2,0.8\n");
    let table = stdout(&[
        "estimate",
        "--mechanism",
        s(&w),
        "--counts",
        "50,50",
        "--format",
        "table",
    ]);
    assert!(table.contains("{x1, x2}"), "{table}");
    assert!(table.contains("released alike"), "{table}");
}

/// Row 3 is the mean of rows 4 and 5, the others independent: {x3, x4, x5}
/// is released as one group (only its total is estimable) and none of its
/// inputs gets a figure of its own.
#[test]
fn linearly_dependent_rows_form_one_group() {
    let dir = tempfile::tempdir().unwrap();
    let rows = "0.7,0.1,0.1,0.1\n0.1,0.7,0.1,0.1\n0.1,0.1,0.4,0.4\n\
                0.1,0.1,0.7,0.1\n0.1,0.1,0.1,0.7\n";
    let w = write(dir.path(), "w.csv", rows);
    let args = [
        "estimate",
        "--mechanism",
        s(&w),
        "--counts",
        "3000,2000,2500,2500",
    ];
    let table = stdout(&[&args[..], &["--format", "table"]].concat());
    assert!(
        table.contains(
            "note: inputs {x3, x4, x5} are released as one group: only their total is estimable"
        ),
        "{table}"
    );
    let firsts: Vec<&str> = table
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(firsts.contains(&"{x3,"), "{table}");
    for x in ["x3", "x4", "x5"] {
        assert!(!firsts.contains(&x), "{x} has a row of its own:\n{table}");
    }
    let out = json(&args);
    let labels: Vec<&str> = out["estimates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["x1", "x2", "{x3, x4, x5}"], "{out}");
    assert_eq!(out["estimates"][2]["dependent"], true);
    assert_eq!(out["notes"].as_array().unwrap().len(), 1, "{out}");
    let total: f64 = (0..3)
        .map(|g| out["estimates"][g]["estimate"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9, "{out}");
}

#[test]
fn bad_counts_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let w = write(dir.path(), "rr.csv", RR);
    usage_error(
        &["estimate", "--mechanism", s(&w), "--counts", "1,2,3"],
        "--counts",
    );
    usage_error(
        &["estimate", "--mechanism", s(&w), "--counts", "y9=4"],
        "--counts",
    );
    usage_error(
        &["estimate", "--mechanism", s(&w), "--counts", "1.5,2"],
        "--counts",
    );
    usage_error(
        &["estimate", "--mechanism", s(&w), "--counts", "0,0"],
        "counts",
    );
}

#[test]
fn the_bootstrap_is_reproducible_and_close_to_the_delta_method() {
    let dir = tempfile::tempdir().unwrap();
    let w = write(
        dir.path(),
        "w.csv",
        "0.75,0.25,0\n0.25,0.5,0.25\n0,0.25,0.75\n",
    );
    let run = |seed: &str| {
        let args = ["estimate", "--mechanism", s(&w), "--counts", "500,300,200"];
        json(&[&args[..], &["--bootstrap", "200", "--seed", seed]].concat())
    };
    let (a, b, c) = (run("3"), run("3"), run("4"));
    assert_eq!(a, b);
    assert_ne!(a["estimates"], c["estimates"]);
    assert_eq!(a["bootstrap_replicates"], 200);
    for e in a["estimates"].as_array().unwrap() {
        let ratio =
            e["bootstrap_standard_error"].as_f64().unwrap() / e["standard_error"].as_f64().unwrap();
        assert!((ratio - 1.0).abs() < 0.25, "{e}");
    }
    let args = ["estimate", "--mechanism", s(&w), "--counts", "5,3,2"];
    usage_error(&[&args[..], &["--bootstrap", "1"]].concat(), "--bootstrap");
    // A spent time limit: the check is of the replicates of the first round,
    // and a warning says so; the limit bounds the bootstrap alone.
    let args = ["estimate", "--mechanism", s(&w), "--counts", "500,300,200"];
    let cut = json(&[&args[..], &["--bootstrap", "200", "--time-limit", "1e-9"]].concat());
    let drawn = cut["bootstrap_replicates"].as_u64().unwrap();
    assert!((2..200).contains(&drawn), "{drawn}");
    let warnings = cut["warnings"].to_string();
    assert!(
        warnings.contains(&format!("after {drawn} of 200 replicates")),
        "{warnings}"
    );
    usage_error(&[&args[..], &["--time-limit", "5"]].concat(), "--bootstrap");
    usage_error(
        &[&args[..], &["--bootstrap", "9", "--time-limit", "0"]].concat(),
        "--time-limit",
    );
}

/// A record design: its released columns give each column's marginal and the
/// joint cells; masses the data do not determine carry no interval.
#[test]
fn a_record_design_estimates_its_marginals_and_cells() {
    let dir = tempfile::tempdir().unwrap();
    let cells = [
        ("a1", "b1", 30),
        ("a1", "b2", 3),
        ("a2", "b2", 25),
        ("a2", "b1", 2),
        ("a3", "b3", 30),
    ];
    let mut rows = String::from("A,B\n");
    for (a, b, n) in cells {
        rows.push_str(&format!("{a},{b}\n").repeat(n * 20));
    }
    let (data, design) = crate::common::compose_record(dir.path(), &rows);
    let released = dir.path().join("released.csv");
    let seed = "0x1234567890abcdef1234567890abcdef";
    crate::common::apply_record((&design, &data), seed, &released, &[]);
    let e = json(&[
        "estimate",
        "--mechanism",
        s(&design),
        "--data",
        s(&released),
    ]);
    assert_eq!(e["record"], serde_json::json!(["A", "B"]));
    assert_eq!(e["rows"], 1800);
    // One row per mass: column A's marginal sums to 1.
    let marginals = e["marginals"].as_array().unwrap();
    let total: f64 = marginals
        .iter()
        .filter(|m| m["column"] == "A")
        .map(|m| m["estimate"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9, "{e}");
    for m in marginals.iter().chain(e["joint"].as_array().unwrap()) {
        assert_eq!(
            m["identifiable"].as_bool().unwrap(),
            m["lower"].is_f64(),
            "{m}"
        );
    }
    let bad = [
        "estimate",
        "--mechanism",
        s(&design),
        "--data",
        s(&released),
        "--column",
        "A_private",
    ];
    usage_error(&bad, "--column");
    // Inversion is a method for one column: refused for a record, never ignored.
    let inversion = [&bad[..5], &["--method", "inversion"]].concat();
    usage_error(&inversion, "--method inversion");
    assert_eq!(
        json(&[&bad[..5], &["--method", "em"]].concat())["rows"],
        1800
    );
}

/// `--utility estimation` designs for the analyst: the least error per row of
/// the estimate, below randomized response's at the same PML, certified, and
/// read back by `pml assess` and `pml estimate` as written.
#[test]
fn a_design_for_estimation_reads_back_and_beats_randomized_response() {
    let dir = tempfile::tempdir().unwrap();
    let design = crate::common::output_file(
        dir.path(),
        "d.json",
        &[
            "design",
            "--prior",
            "0.4,0.3,0.2,0.1",
            "--epsilon",
            "1",
            "--utility",
            "estimation",
        ],
    );
    let d: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&design).unwrap()).unwrap();
    assert_eq!(d["utility"]["name"], "estimation");
    let error = -d["utility"]["value"].as_f64().unwrap();
    let rows = d["estimation"]["rows"].as_array().unwrap();
    assert!(
        (rows[0]["error_per_row"].as_f64().unwrap() - error).abs() < 1e-9,
        "{d}"
    );
    for row in &rows[1..] {
        assert!(error < row["error_per_row"].as_f64().unwrap(), "{row}");
    }
    let floor = -d["certificate"]["upper_bound"].as_f64().unwrap();
    assert!(
        floor <= error && error - floor <= 1e-6 * error,
        "{floor} {error}"
    );
    let assessed = json(&["assess", "--design", s(&design)]);
    assert_eq!(assessed["verdict"], "verified", "{assessed}");
    let q: Vec<String> = d["output_probabilities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| ((v.as_f64().unwrap() * 1e5).round() as u64).to_string())
        .collect();
    let e = json(&[
        "estimate",
        "--mechanism",
        s(&design),
        "--counts",
        &q.join(","),
    ]);
    for (x, want) in [0.4, 0.3, 0.2, 0.1].iter().enumerate() {
        let got = e["estimates"][x]["estimate"].as_f64().unwrap();
        assert!((got - want).abs() < 1e-4, "{e}");
    }
}

/// Counts released through one mechanism and estimated with a very different
/// one fail the G test and are warned of; the same counts estimated with their
/// own mechanism fit it. A square invertible mechanism leaves the test no power.
#[test]
fn counts_from_another_mechanism_are_warned_of() {
    let dir = tempfile::tempdir().unwrap();
    let own = "0.7,0.1,0.1,0.1\n0.1,0.7,0.1,0.1\n0.1,0.1,0.7,0.1\n";
    let other = "0.1,0.1,0.1,0.7\n0.1,0.1,0.7,0.1\n0.7,0.1,0.1,0.1\n";
    let own = write(dir.path(), "own.csv", own);
    let other = write(dir.path(), "other.csv", other);
    // The expected counts of 10000 rows of p = (0.5, 0.3, 0.2) through `own`.
    let counts = "4000,2800,2200,1000";
    let run = |w: &std::path::Path| {
        let args = [
            "estimate",
            "--mechanism",
            s(w),
            "--counts",
            counts,
            "--format",
            "json",
        ];
        crate::common::pml().args(args).output().unwrap()
    };
    let fits = run(&own);
    assert!(fits.status.success());
    let v: serde_json::Value = serde_json::from_slice(&fits.stdout).unwrap();
    assert_eq!(v["fit"]["degrees_of_freedom"], 1, "{v}");
    assert!(v["fit"]["p_value"].as_f64().unwrap() > 0.5, "{v}");
    assert!(v["fit"]["note"].is_null(), "{v}");
    assert!(!String::from_utf8_lossy(&fits.stderr).contains("warning"));
    let misfit = run(&other);
    assert!(misfit.status.success());
    let v: serde_json::Value = serde_json::from_slice(&misfit.stdout).unwrap();
    assert!(v["fit"]["p_value"].as_f64().unwrap() < 1e-6, "{v}");
    let err = String::from_utf8_lossy(&misfit.stderr).to_string();
    assert!(
        err.contains("warning:") && err.contains("another design"),
        "{err}"
    );
    let table = stdout(&[
        "estimate",
        "--mechanism",
        s(&other),
        "--counts",
        counts,
        "--format",
        "table",
    ]);
    assert!(
        table.contains("G test") && table.contains("another design"),
        "{table}"
    );
    let w = write(dir.path(), "rr.csv", RR);
    let square = json(&["estimate", "--mechanism", s(&w), "--counts", "600,400"]);
    assert_eq!(square["fit"]["degrees_of_freedom"], 0);
    assert!(square["fit"]["p_value"].is_null());
    assert!(
        square["fit"]["note"].as_str().unwrap().contains("no power"),
        "{square}"
    );
}

/// A release written as Parquet by `pml apply` is estimated from as its CSV
/// twin is: the same counts and the same estimate, for a record's released
/// tuples and for one column (the format from the name or `--data-format`).
#[cfg(feature = "parquet")]
#[test]
fn a_parquet_release_estimates_as_its_csv() {
    let dir = tempfile::tempdir().unwrap();
    let rows = "A,B\n".to_string()
        + &"a1,b1\n".repeat(300)
        + &"a2,b2\n".repeat(200)
        + &"a1,b2\n".repeat(100);
    let (data, design) = crate::common::compose_record(dir.path(), &rows);
    let table = dir.path().join("rec.parquet");
    crate::common::parquet_of(&rows, &table);
    let seed = "0x1234567890abcdef1234567890abcdef";
    let released = |input: &std::path::Path, out: &str| {
        let path = dir.path().join(out);
        crate::common::pml()
            .args(["apply", "--mechanism", s(&design), "--data", s(input)])
            .args(["--seed", seed, "--output", s(&path)])
            .assert()
            .success();
        path
    };
    let (csv, parquet) = (
        released(&data, "rec_out.csv"),
        released(&table, "rec_out.parquet"),
    );
    assert_eq!(&std::fs::read(&parquet).unwrap()[..4], b"PAR1");
    let record =
        |path: &std::path::Path| json(&["estimate", "--mechanism", s(&design), "--data", s(path)]);
    let by_csv = record(&csv);
    assert_eq!(by_csv["rows"], 600);
    assert_eq!(record(&parquet), by_csv);
    // One column: a single-column design applied to A, released both ways.
    let single = dir.path().join("a.json");
    crate::common::pml()
        .args([
            "design",
            "--data",
            s(&data),
            "--column",
            "A",
            "--epsilon",
            "1",
        ])
        .args(["--format", "json", "--output", s(&single)])
        .assert()
        .success();
    let one = |input: &std::path::Path, out: &str| {
        let path = dir.path().join(out);
        let run = crate::common::apply_design((&single, input, "A"), &path, &["--seed", seed]);
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        path
    };
    let (csv, parquet) = (one(&data, "a.csv"), one(&table, "a.parquet"));
    let column = |path: &std::path::Path, extra: &[&str]| {
        let args = ["estimate", "--mechanism", s(&single), "--data", s(path)];
        json(&[&args[..], &["--column", "A_private"], extra].concat())
    };
    let by_csv = column(&csv, &[]);
    assert_eq!(by_csv["rows"], 600);
    assert_eq!(column(&parquet, &[]), by_csv);
    // A Parquet file under another name, told by --data-format.
    let renamed = dir.path().join("a.bin");
    std::fs::copy(&parquet, &renamed).unwrap();
    assert_eq!(column(&renamed, &["--data-format", "parquet"]), by_csv);
    // Read as CSV, it is one line naming the fix, never the file's bytes.
    let args = ["estimate", "--mechanism", s(&single), "--data", s(&renamed)];
    let err =
        crate::common::one_line_usage_error(&[&args[..], &["--column", "A_private"]].concat());
    assert!(err.contains("a Parquet file"), "{err}");
    assert!(err.contains("--data-format parquet"), "{err}");
    assert!(!err.contains("\\u{") && err.len() < 400, "{err}");
}
