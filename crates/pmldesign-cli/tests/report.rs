//! `--report FILE.html`: the HTML report beside the usual output, for single and
//! record designs; its flags' usage errors; nothing written on error.

use crate::common::{EXAMPLE1, one_line_usage_error, pml, s, usage_stderr};
use std::path::Path;

fn tempdir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("pml-test")
        .tempdir()
        .unwrap()
}

fn record_csv() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/golden/inputs/record.csv")
        .display()
        .to_string()
}

#[test]
fn design_writes_the_report_with_the_file_to_recheck_and_the_curve() {
    let dir = tempdir();
    let (json, html) = (dir.path().join("d.json"), dir.path().join("d.html"));
    let extra = [
        "--output",
        s(&json),
        "--report",
        s(&html),
        "--tradeoff-budget",
        "600",
    ];
    pml().args(EXAMPLE1).args(extra).assert().success();
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("worst-case PML 0.117783036 &lt;= eps 0.117783036"));
    assert!(page.contains(&format!("pml assess --design {}", json.display())));
    assert!(page.contains("Trade-off with eps") && page.contains("chosen eps = "));
    assert!(!page.contains("not computed ("), "every point within 600 s");
    // The design file the report names is re-checked by pml assess.
    pml()
        .args(["assess", "--design", s(&json)])
        .assert()
        .success();
}

#[test]
fn a_zero_budget_leaves_the_curve_out_and_the_same_design_gives_the_same_page() {
    let dir = tempdir();
    let page = |name: &str| {
        let html = dir.path().join(name);
        let extra = [
            "--format",
            "table",
            "--report",
            s(&html),
            "--tradeoff-budget",
            "0",
        ];
        pml().args(EXAMPLE1).args(extra).assert().success();
        std::fs::read_to_string(html).unwrap()
    };
    let a = page("a.html");
    assert!(!a.contains("Trade-off with eps"));
    assert!(a.contains("pml assess --design design.json"));
    assert_eq!(a, page("b.html"));
}

#[test]
fn a_record_design_writes_its_report() {
    let dir = tempdir();
    let html = dir.path().join("r.html");
    let csv = record_csv();
    let args = [
        "design",
        "--data",
        &csv,
        "--column",
        "A",
        "--column",
        "B",
        "--epsilon",
        "1",
    ];
    let extra = [
        "--record",
        "compose",
        "--split",
        "0.7,0.3",
        "--format",
        "table",
        "--report",
        s(&html),
    ];
    pml().args(args).args(extra).assert().success();
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("How eps is split") && page.contains("pml = 0.7"));
    assert!(page.contains("leakage about the record at the estimate"));
    let budget = ["--report", s(&html), "--tradeoff-budget", "5"];
    let e = one_line_usage_error(&[&args[..], &budget[..]].concat());
    assert!(e.contains("--tradeoff-budget"), "{e}");
}

#[test]
fn bad_report_flags_are_usage_errors_and_nothing_is_written() {
    let dir = tempdir();
    let html = dir.path().join("x.html");
    let e = one_line_usage_error(
        &[
            &EXAMPLE1[..],
            &["--report", s(&html), "--tradeoff-budget", "-1"],
        ]
        .concat(),
    );
    assert!(
        e.contains("invalid --tradeoff-budget = -1.0") && e.contains("e.g. --tradeoff-budget 20"),
        "{e}"
    );
    let same = dir.path().join("same.json");
    let e = one_line_usage_error(
        &[&EXAMPLE1[..], &["--output", s(&same), "--report", s(&same)]].concat(),
    );
    assert!(
        e.contains("invalid --report") && e.contains("--output"),
        "{e}"
    );
    let bad_eps = [
        "design",
        "--prior",
        "0.4,0.2,0.2,0.2",
        "--epsilon",
        "-1",
        "--report",
        s(&html),
    ];
    pml().args(bad_eps).assert().code(2);
    assert!(!html.exists() && !same.exists(), "nothing written on error");
}

/// A design file of Example 1 in `dir`.
fn example_design(dir: &Path) -> std::path::PathBuf {
    let json = dir.join("d.json");
    pml()
        .args(EXAMPLE1)
        .args(["--format", "json", "--output", s(&json)])
        .assert()
        .success();
    json
}

fn page(path: &Path) -> String {
    let page = std::fs::read_to_string(path).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"));
    assert!(!page.contains("<script") && !page.contains("http://") && !page.contains("https://"));
    page
}

#[test]
fn assess_design_writes_the_design_report_naming_the_file() {
    let dir = tempdir();
    let json = example_design(dir.path());
    let html = dir.path().join("a.html");
    let args = ["assess", "--design", s(&json), "--format", "table"];
    pml()
        .args(args)
        .args(["--report", s(&html)])
        .assert()
        .success();
    let page = page(&html);
    assert!(page.contains(&format!("pml assess --design {}", json.display())));
    assert!(page.contains("worst-case PML 0.117783036 &lt;= eps 0.117783036"));
    assert!(page.contains("Trade-off with eps"));
}

#[test]
fn assess_mechanism_writes_the_audit() {
    let dir = tempdir();
    let json = example_design(dir.path());
    let html = dir.path().join("audit.html");
    let args = [
        "assess",
        "--mechanism",
        s(&json),
        "--prior",
        "0.4,0.2,0.2,0.2",
        "--beta",
        "0.1",
        "--format",
        "json",
        "--report",
        s(&html),
    ];
    pml().args(args).assert().success();
    let page = page(&html);
    // [E] Example 1's design leaks exactly ln(9/8) = 0.1177830357 from every
    // output, printed rounded up.
    assert!(
        page.contains("eps-PML for every eps &gt;= 0.117784"),
        "{page}"
    );
    assert!(page.contains("the leakage capacity") && page.contains("tail curve"));
    assert!(page.contains("Post-processing envelope"));
    // A trade-off curve is drawn for a design: clap refuses it with --mechanism.
    let budget = [&args[..], &["--tradeoff-budget", "3"]].concat();
    let e = usage_stderr(&budget);
    assert!(
        e.contains("cannot be used with")
            && e.contains("--tradeoff-budget")
            && e.contains("--mechanism"),
        "{e}"
    );
}

#[test]
fn compare_and_envelope_write_their_reports() {
    let dir = tempdir();
    let (c, e) = (dir.path().join("c.html"), dir.path().join("e.html"));
    let prior = ["--prior", "0.4,0.2,0.2,0.2", "--epsilon", "0.5"];
    pml()
        .arg("compare")
        .args(prior)
        .args(["--format", "json", "--report", s(&c)])
        .assert()
        .success();
    let compare = page(&c);
    for row in ["PML(0.5)", "LDP(0.5)", "randomized response"] {
        assert!(compare.contains(row), "{row}");
    }
    let json = example_design(dir.path());
    let args = ["envelope", "--mechanism", s(&json), "--prior"];
    pml()
        .args(args)
        .args([
            "0.4,0.2,0.2,0.2",
            "--lp",
            "--format",
            "json",
            "--report",
            s(&e),
        ])
        .assert()
        .success();
    let envelope = page(&e);
    assert!(envelope.contains("Statement: ") && envelope.contains("LP upper"));
    let plot = dir.path().join("e.svg");
    let both = ["--plot", s(&plot), "--report", s(&plot)];
    let err = one_line_usage_error(&[&args[..], &["0.4,0.2,0.2,0.2"][..], &both[..]].concat());
    assert!(
        err.contains("invalid --report") && err.contains("--plot"),
        "{err}"
    );
    assert!(!plot.exists());
    let same = dir.path().join("same.json");
    let clash = ["--output", s(&same), "--report", s(&same)];
    let err = one_line_usage_error(&[&["compare"][..], &prior[..], &clash[..]].concat());
    assert!(err.contains("invalid --report"), "{err}");
    assert!(!same.exists());
}
