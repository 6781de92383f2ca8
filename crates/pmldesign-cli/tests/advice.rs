//! The estimation advice of `pml design`: compared at the data's m by a seeded
//! simulation where the design knows m, in the m -> infinity limit (and saying
//! so) where it does not.

use crate::common::{json, pml, s, stdout};

/// 10,000 rows drawn from the Zipf prior over 32 symbols (`p_x` proportional to
/// `1/x`), counted: Python's `random.Random(7).choices` one row at a time.
const ZIPF_COUNTS: &str = "2472,1281,809,619,492,392,318,294,288,247,220,207,178,184,169,173,147,113,138,123,120,111,94,107,102,95,95,95,82,82,80,73";

/// The PML mutual-information design at eps 1 from those rows: in the limit
/// randomized response estimates the histogram many times better, but at the
/// data's m = 10,000 rows EM's error from the design is the smaller, so the
/// advice does not send the data holder to randomized response.
#[test]
fn a_zipf_data_design_is_compared_at_its_size() {
    let args = ["design", "--counts", ZIPF_COUNTS, "--epsilon", "1", "-q"];
    let d = json(&args);
    let e = &d["estimation"];
    let sim = &e["simulated"];
    assert_eq!(sim["rows"], 10000);
    assert_eq!(sim["replicates"], 200);
    assert_eq!(sim["seed"], 1);
    let limit = |k: usize| e["rows"][k]["error_per_row"].as_f64().unwrap();
    let at_m = |k: usize| sim["error_per_row"][k].as_f64().unwrap();
    let rr = (1..=2).filter(|&k| {
        e["rows"][k]["mechanism"]
            .as_str()
            .unwrap()
            .starts_with("randomized response")
    });
    for k in rr {
        assert!(limit(0) > 5.0 * limit(k), "the limit favours row {k}: {e}");
        assert!(
            at_m(0) < limit(k).min(at_m(k)),
            "at m the design is better than row {k}: {e}"
        );
    }
    let text = stdout(&[&args[..], &["--format", "table"]].concat());
    assert!(text.contains("EM at m = 10000"), "{text}");
    assert!(text.contains("simulated: 200 replicates, seed 1"), "{text}");
    assert!(!text.contains("more accurate than the design"), "{text}");
    let again = json(&args);
    assert_eq!(
        again["estimation"], d["estimation"],
        "same input, same figures"
    );
}

/// A design from a given prior has no m: its advice keeps the limit and says
/// so, and nothing is simulated; it names the design for estimation, since
/// k-subset selection's figure is far below the design's.
#[test]
fn a_prior_design_advises_in_the_limit_and_says_so() {
    let counts: Vec<f64> = ZIPF_COUNTS.split(',').map(|c| c.parse().unwrap()).collect();
    let total: f64 = counts.iter().sum();
    let prior: Vec<String> = counts.iter().map(|c| format!("{}", c / total)).collect();
    let args = [
        "design",
        "--prior",
        &prior.join(","),
        "--epsilon",
        "1",
        "-q",
    ];
    let d = json(&args);
    assert!(
        d["estimation"].get("simulated").is_none(),
        "{}",
        d["estimation"]
    );
    let text = stdout(&[&args[..], &["--format", "table"]].concat());
    let note = text
        .lines()
        .find(|l| l.contains("to estimate the input distribution"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(note.contains("in the m -> infinity limit"), "{note}");
    assert!(note.contains("than the design's in that limit"), "{note}");
    assert!(note.contains("--utility estimation"), "{note}");
}

/// The report shows both columns and says what each assumes.
#[test]
fn the_report_says_what_its_figures_assume() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("r.html");
    let out = pml()
        .args([
            "design",
            "--counts",
            "30,20,10,5",
            "--epsilon",
            "1",
            "-q",
            "--report",
        ])
        .arg(s(&page))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("m -&gt; infinity") || html.contains("m -> infinity"),
        "limit named"
    );
    assert!(html.contains("EM at m = 65"), "the simulated column");
    assert!(
        html.contains("simulated: 200 replicates, seed 1"),
        "its seed and replicates"
    );
}

/// A stored design's simulated figures are advice: read back without being
/// simulated again (another figure of the right shape is accepted), but a
/// figure of the wrong shape is refused in one line naming the field.
#[test]
fn stored_simulated_figures_are_checked_for_shape_only() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "design",
        "--counts",
        "30,20,10,5",
        "--epsilon",
        "1",
        "-q",
        "--format",
        "json",
    ];
    let design = crate::common::output_file(dir.path(), "d.json", &args);
    let stored: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&design).unwrap()).unwrap();
    assert_eq!(stored["estimation"]["simulated"]["rows"], 65, "{stored}");
    let assess = |d: &serde_json::Value| {
        let path = crate::common::write(dir.path(), "forged.json", &d.to_string());
        pml()
            .args(["assess", "--design", s(&path)])
            .output()
            .unwrap()
    };
    let mut other = stored.clone();
    other["estimation"]["simulated"]["error_per_row"][0] = serde_json::json!(1.0e6);
    assert!(
        assess(&other).status.success(),
        "not re-checked, so not refused"
    );
    let mut bad = stored.clone();
    bad["estimation"]["simulated"]["error_per_row"][0] = serde_json::json!(-1.0);
    let out = assess(&bad);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("estimation.simulated.error_per_row[0]"),
        "{err}"
    );
}
