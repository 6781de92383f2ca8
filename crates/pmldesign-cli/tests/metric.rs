//! End-to-end tests of losses under every notion and of metric privacy:
//! `pml design --notion ldp|metric --utility loss`, `pml assess --metric`,
//! `pml compare --metric` and the errors of the distance flags.

use crate::common::{json, one_line_usage_error, usage_error, write};

const PRIOR: &str = "0.4,0.3,0.2,0.1";

/// eps-LDP Hamming on a uniform prior is randomized response:
/// loss `(N - 1) / (e^eps + N - 1)`.
#[test]
fn ldp_hamming_is_randomized_response() {
    let d = json(&[
        "design",
        "--prior",
        "0.25,0.25,0.25,0.25",
        "--epsilon",
        "1",
        "--notion",
        "ldp",
        "--utility",
        "loss",
        "--loss",
        "hamming",
    ]);
    let want = 3.0 / (1f64.exp() + 3.0);
    assert!(
        (d["loss"]["expected_loss"].as_f64().unwrap() - want).abs() < 1e-9,
        "{d}"
    );
    assert_eq!(d["notion"]["notion"], "ldp");
    assert!(d["certificate"]["levels"]["ldp"].as_f64().unwrap() <= 1.0 + 1e-12);
}

/// The line metric: the design is d-private as measured, `pml assess --metric line`
/// reports the same level, and a matrix file spelling out |i - j| agrees.
#[test]
fn line_metric_design_assess_and_matrix_file() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "design",
        "--prior",
        PRIOR,
        "--epsilon",
        "0.5",
        "--notion",
        "metric",
    ];
    let loss = ["--utility", "loss", "--loss", "absolute"];
    let d = json(&[&base[..], &["--metric", "line"], &loss].concat());
    let level = d["certificate"]["levels"]["metric"].as_f64().unwrap();
    assert!(level <= 0.5 + 1e-12 && level > 0.49, "{level}");
    let file = write(dir.path(), "design.json", &d.to_string());
    let a = json(&[
        "assess",
        "--mechanism",
        file.to_str().unwrap(),
        "--prior",
        PRIOR,
        "--metric",
        "line",
    ]);
    let measured = a["metric"]["smallest_epsilon"].as_f64().unwrap();
    assert!((measured - level).abs() < 1e-12, "{a}");
    let rows = "0,1,2,3\n1,0,1,2\n2,1,0,1\n3,2,1,0\n";
    let m = write(dir.path(), "line.csv", rows);
    let e = json(&[&base[..], &["--metric-matrix", m.to_str().unwrap()], &loss].concat());
    let (x, y) = (
        d["loss"]["expected_loss"].as_f64().unwrap(),
        e["loss"]["expected_loss"].as_f64().unwrap(),
    );
    assert!((x - y).abs() < 1e-9, "{x} vs {y}");
}

/// `pml compare --metric line` adds the metric row.
#[test]
fn compare_gains_the_metric_row() {
    let c = json(&[
        "compare",
        "--prior",
        PRIOR,
        "--epsilon",
        "0.5",
        "--metric",
        "line",
    ]);
    let text = c.to_string();
    assert!(text.contains("METRIC(0.5, line)"), "{text}");
}

/// Usage errors: one line, exit 2, naming the flag and (for a matrix) the entry.
#[test]
fn distance_errors_name_the_flag_and_entry() {
    let dir = tempfile::tempdir().unwrap();
    let base = ["design", "--prior", PRIOR, "--epsilon", "0.5"];
    usage_error(&[&base[..], &["--notion", "metric"]].concat(), "--metric");
    usage_error(
        &[&base[..], &["--metric", "line"]].concat(),
        "--notion metric",
    );
    for (name, text, needle) in [
        (
            "negative.csv",
            "0,1,1,1\n1,0,-1,1\n1,-1,0,1\n1,1,1,0\n",
            "metric[1][2]",
        ),
        (
            "diagonal.csv",
            "0,1,1,1\n1,2,1,1\n1,1,0,1\n1,1,1,0\n",
            "metric[1][1]",
        ),
        (
            "asymmetric.csv",
            "0,1,1,1\n2,0,1,1\n1,1,0,1\n1,1,1,0\n",
            "symmetric",
        ),
        ("three.csv", "0,1,1\n1,0,1\n1,1,0\n", "metric"),
    ] {
        let path = write(dir.path(), name, text);
        let args = [
            &base[..],
            &[
                "--notion",
                "metric",
                "--metric-matrix",
                path.to_str().unwrap(),
            ],
        ]
        .concat();
        let err = one_line_usage_error(&args);
        assert!(
            err.contains(needle) && err.contains("--metric-matrix"),
            "{name}: {err}"
        );
    }
}
