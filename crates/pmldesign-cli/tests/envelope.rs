//! End-to-end tests of `pml envelope` and of the envelope fields of `pml design` and
//! `pml assess` (\[V\] "Information leakage envelopes").

use crate::common::{EXAMPLE1, json, output_file, run_json, s, stdout, usage_error, write};

use serde_json::Value;
use std::path::{Path, PathBuf};

const LN4: f64 = std::f64::consts::LN_2 * 2.0;

/// \[V\] Example 2, eq. (7), as CSV rows.
fn example2(dir: &Path) -> PathBuf {
    write(
        dir,
        "example2.csv",
        "0,0,0.5,0.5\n0,0,0.5,0.5\n0,0.2,0.4,0.4\n0.2,0,0.4,0.4\n",
    )
}

/// `pml envelope --mechanism MECHANISM` under the uniform prior on four inputs, then
/// `more`.
fn uniform<'a>(mechanism: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    [
        &[
            "envelope",
            "--mechanism",
            mechanism,
            "--prior",
            "0.25,0.25,0.25,0.25",
        ][..],
        more,
    ]
    .concat()
}

fn close(v: &Value, want: f64) -> bool {
    (v.as_f64().unwrap() - want).abs() < 1e-9
}

#[test]
fn example2_curve_json_csv_table_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    let m = example2(dir.path());
    let m = s(&m);
    let svg = dir.path().join("env.svg");
    let v = run_json(&uniform(
        m,
        &[
            "--deltas",
            "0.01,0.1,0.2",
            "--delta",
            "0.1",
            "--format",
            "json",
            "--plot",
            s(&svg),
        ],
    ));
    let curve = v["curve"].as_array().unwrap();
    assert_eq!(curve.len(), 3);
    // Example 3: at delta = 0.1 raw ln(10/9), envelope ln 4 (exact).
    let b = &curve[1];
    assert!(close(&b["left_quantile"], (10.0f64 / 9.0).ln()));
    assert!(close(&b["right_quantile"], LN4));
    assert!(close(&b["envelope"], LN4) && b["exact"] == true);
    assert!(curve[2]["envelope"].is_null() && curve[2]["exact"] == false);
    assert!(close(&v["statement"]["bounds"]["upper"], LN4));
    assert!(v["statement"]["lp"].is_null());
    let text = v["statement"]["text"].as_str().unwrap();
    assert!(
        text.contains("every post-processing") && text.contains("1.386295"),
        "{text}"
    );
    // Similar outputs 3 and 4 are one outcome of the leakage distribution.
    assert_eq!(v["leakage_distribution"].as_array().unwrap().len(), 3);
    assert_eq!(v["leakage_distribution"][0]["outputs"][1], "y4");
    assert_eq!(v["tail_curve"].as_array().unwrap().len(), 2);
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("upper bound"));

    // CSV: one row per delta of a log grid, both ends included.
    let csv = stdout(&uniform(m, &["--deltas", "0.001:0.1:5", "--format", "csv"]));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 6);
    assert!(lines[0].starts_with("delta,left_quantile,right_quantile,binary,lower,upper"));
    assert!(lines[1].starts_with("0.001,") && lines[5].starts_with("0.1,"));
    assert!(
        lines[5].ends_with(",true,1.3862943611198906"),
        "{}",
        lines[5]
    );

    // Table, to a file by extension.
    let out_file = output_file(dir.path(), "env.txt", &uniform(m, &[]));
    let table = std::fs::read_to_string(&out_file).unwrap();
    assert!(table.contains("Publishable at delta = 0.05"), "{table}");
    assert!(table.contains("3 outcomes after merging similar outputs"));
}

/// `--lp`: the envelope itself. \[V\] Example 2 at delta = 0.2 lies strictly between the
/// bounds [ln 5/3, ln 4]: it is ln(22/9), and the headline statement uses it.
#[test]
fn lp_envelope_of_example2() {
    let dir = tempfile::tempdir().unwrap();
    let m = example2(dir.path());
    let v = run_json(&uniform(
        s(&m),
        &[
            "--deltas", "0.05,0.2", "--delta", "0.2", "--lp", "--format", "json",
        ],
    ));
    let want = (22.0f64 / 9.0).ln();
    let lp = &v["curve"][1]["lp"];
    assert!((lp["lower"].as_f64().unwrap() - want).abs() < 1e-7, "{lp}");
    assert!((lp["upper"].as_f64().unwrap() - want).abs() < 1e-7, "{lp}");
    assert!(v["curve"][1]["upper"].as_f64().unwrap() > want + 0.4);
    assert_eq!(v["curve"][0]["lp"]["linear_programs"], 0);
    let published = format!("{:.6}", (want * 1e6).ceil() / 1e6);
    let text = v["statement"]["text"].as_str().unwrap();
    assert!(text.contains(&published), "{text}");
    assert!(v["statement"]["lp"]["witness"].is_array());
    // Every statement at delta = 0.2 publishes the LP's envelope, not the
    // Theorem 3 bound ln 4; at 0.05 the bounds meet at ln 4 and it stays.
    for s in [
        &v["curve"][1]["statement"],
        &v["statement"]["bounds"]["statement"],
    ] {
        let s = s.as_str().unwrap();
        assert!(s.contains(&published) && !s.contains("1.386295"), "{s}");
    }
    let s = v["curve"][0]["statement"].as_str().unwrap();
    assert!(
        s.contains("1.386295") && s.contains("no smaller eps"),
        "{s}"
    );
}

/// `--lp --time-limit` with a limit of a nanosecond (its loop share is nothing):
/// the LP stops before its first solve at \[V\] Example 2's delta = 0.2, reports
/// the Theorem 3 bracket marked stopped, and the statement publishes the bound
/// ln 4, never less.
#[test]
fn lp_envelope_stopped_by_the_time_limit_publishes_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let m = example2(dir.path());
    let v = run_json(&uniform(
        s(&m),
        &[
            "--deltas",
            "0.2",
            "--delta",
            "0.2",
            "--lp",
            "--time-limit",
            "1e-9",
            "--format",
            "json",
        ],
    ));
    let lp = &v["curve"][0]["lp"];
    assert_eq!(lp["stopped"], true, "{lp}");
    assert_eq!(lp["linear_programs"], 0, "{lp}");
    assert!(close(&lp["upper"], LN4), "{lp}");
    assert_eq!(v["statement"]["lp"]["stopped"], true);
    let text = v["statement"]["text"].as_str().unwrap();
    assert!(text.contains("1.386295"), "{text}");
    let table = stdout(&uniform(
        s(&m),
        &[
            "--deltas",
            "0.2",
            "--lp",
            "--time-limit",
            "1e-9",
            "--format",
            "table",
        ],
    ));
    assert!(table.contains("The time limit stopped the LP"), "{table}");
}

#[test]
fn usage_errors_name_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let m = example2(dir.path());
    let m = s(&m);
    for (flag, value) in [
        ("--deltas", "0.5:0.1:3"),
        ("--deltas", "0:0.5:3"),
        ("--deltas", "0.1:0.5"),
        ("--deltas", "0.1,2"),
        ("--delta", "1.5"),
        ("--time-limit", "0"),
        ("--time-limit", "-1"),
    ] {
        usage_error(&uniform(m, &[flag, value]), flag);
    }
    // The mechanism loader of `pml assess`: wrong number of rows.
    usage_error(
        &["envelope", "--mechanism", m, "--prior", "0.5,0.5"],
        "4 rows",
    );
}

/// `pml design` and `pml assess` report the envelope at --envelope-delta beside eps:
/// the high-privacy extremal design of \[E\] Example 1 has envelope eps (\[V\] Thm 4).
#[test]
fn design_and_assess_report_the_envelope() {
    let dir = tempfile::tempdir().unwrap();
    let example1 = |more: &[&'static str]| [&EXAMPLE1[..], more].concat();
    let design = output_file(
        dir.path(),
        "design.json",
        &example1(&["--format", "json", "--envelope-delta", "0.2"]),
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&design).unwrap()).unwrap();
    let eps = (1.125f64).ln();
    assert!(close(&v["envelope"]["delta"], 0.2));
    assert!(close(&v["envelope"]["envelope"], eps), "{}", v["envelope"]);

    let assess = [
        "assess",
        "--mechanism",
        s(&design),
        "--prior",
        "0.4,0.2,0.2,0.2",
    ];
    let a = json(&assess);
    assert!(close(&a["envelope"]["delta"], 0.05));
    assert!(close(&a["envelope"]["upper"], eps) && a["envelope"]["exact"] == true);

    let table = stdout(&[&assess[..], &["--format", "table"]].concat());
    assert!(table.contains("PML envelope at delta = 0.05"), "{table}");

    let table = stdout(&example1(&["--format", "table", "--envelope-delta", "0.1"]));
    assert!(
        table.contains("Post-processing-safe guarantee at delta = 0.1"),
        "{table}"
    );

    usage_error(&example1(&["--envelope-delta", "0"]), "--envelope-delta");
}
