//! Whole records (docs/theory.md §12): the counterexample of issue 26, random
//! correlated records under every mode, the reader's re-derivation.

use pmldesign_model::record::RecordSample;
use pmldesign_solver::{RecordDesign, RecordMode, RecordProblem};

/// The 3 x 4 record of the issue, as counts of 1000 records.
fn counterexample() -> RecordSample {
    let joint = [
        [0.30, 0.02, 0.01, 0.01],
        [0.01, 0.25, 0.02, 0.01],
        [0.02, 0.01, 0.03, 0.31],
    ];
    let tuples = (0..3)
        .flat_map(|a| (0..4).map(move |b| (vec![a, b], (joint[a][b] * 1000.0f64).round() as u64)))
        .collect();
    let labels = vec![
        vec!["a1".into(), "a2".into(), "a3".into()],
        (1..=4).map(|b| format!("b{b}")).collect(),
    ];
    RecordSample::new(vec!["A".into(), "B".into()], labels, tuples).unwrap()
}

fn solve(sample: RecordSample, mode: RecordMode, split: Option<Vec<f64>>) -> RecordDesign {
    let p = RecordProblem::new(sample, 1.0).mode(mode);
    match split {
        Some(s) => p.split(s),
        None => p,
    }
    .solve()
    .unwrap()
}

#[test]
fn per_column_designs_leak_more_than_their_sum_and_composition_does_not() {
    let compose = solve(counterexample(), RecordMode::Compose, Some(vec![0.7, 0.3]));
    let naive = compose.naive.leakage_about_record.unwrap();
    assert!((naive - 1.43).abs() < 0.01, "naive {naive}");
    let leak = compose.leakage_about_record.unwrap();
    assert!(
        leak <= 1.0 + 1e-12 && (leak - 0.90).abs() < 0.01,
        "compose {leak}"
    );
    let mi = compose.utility.value;
    assert!((mi - 0.51).abs() < 0.01, "compose I = {mi}");
    let ldp = solve(counterexample(), RecordMode::Ldp, None);
    assert!(ldp.leakage_about_record.unwrap() <= 1.0 + 1e-12);
    assert!(
        (ldp.utility.value - 0.06).abs() < 0.01,
        "ldp I = {}",
        ldp.utility.value
    );
    let joint = solve(counterexample(), RecordMode::Joint, None);
    assert!(joint.leakage_about_record.unwrap() <= 1.0 + 1e-12);
    assert!(
        (joint.utility.value - 0.92).abs() < 0.01,
        "joint I = {}",
        joint.utility.value
    );
    assert_eq!(joint.cells.len(), 12);
    assert_eq!(
        solve(counterexample(), RecordMode::Auto, None).mode,
        RecordMode::Joint
    );
    let searched = solve(counterexample(), RecordMode::Compose, None);
    assert!(
        searched.utility.value >= mi - 1e-9,
        "searched {} < {mi}",
        searched.utility.value
    );
    assert!(
        searched.statement.contains("thesis Theorem 5.24 (i)"),
        "{}",
        searched.statement
    );
}

#[test]
fn a_stored_record_design_reads_back_and_a_changed_figure_is_refused() {
    let d = solve(counterexample(), RecordMode::Compose, Some(vec![0.7, 0.3]));
    let text = serde_json::to_string(&d).unwrap();
    let back: RecordDesign = serde_json::from_str(&text).unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    for (path, forged) in [
        ("/epsilon", serde_json::json!(2.0)),
        ("/epsilons/0", serde_json::json!(0.8)),
        ("/radii/1", serde_json::json!(0.1)),
        ("/leakage_about_record", serde_json::json!(0.5)),
        ("/naive/leakage_about_record", serde_json::json!(0.9)),
        ("/utility/value", serde_json::json!(0.6)),
        ("/statement", serde_json::json!("anything")),
        ("/mode", serde_json::json!("ldp")),
        ("/sample/tuples/0/1", serde_json::json!(301)),
    ] {
        let old = value.pointer(path).unwrap().clone();
        *value.pointer_mut(path).unwrap() = forged;
        let read = serde_json::from_value::<RecordDesign>(value.clone());
        assert!(read.is_err(), "{path} forged and read");
        *value.pointer_mut(path).unwrap() = old;
    }
    assert!(serde_json::from_value::<RecordDesign>(value).is_ok());
}

#[test]
fn with_a_delta_the_balls_grow_and_the_statement_says_so() {
    let plain = solve(counterexample(), RecordMode::Compose, Some(vec![0.7, 0.3]));
    let d = RecordProblem::new(counterexample(), 1.0)
        .mode(RecordMode::Compose)
        .split(vec![0.7, 0.3])
        .delta(1e-3)
        .solve()
        .unwrap();
    assert!(
        d.radii[0] > 0.0 && d.radii[1] > plain.radii[1],
        "{:?} {:?}",
        d.radii,
        plain.radii
    );
    assert!(
        d.statement
            .starts_with("With probability at least 1 - 0.001"),
        "{}",
        d.statement
    );
    assert!(d.leakage_about_record.unwrap() <= 1.0 + 1e-12);
    let text = serde_json::to_string(&d).unwrap();
    assert!(serde_json::from_str::<RecordDesign>(&text).is_ok());
}

#[test]
fn bad_records_are_refused_naming_the_field() {
    let err = |p: RecordProblem| p.solve().unwrap_err().to_string();
    let e = err(RecordProblem::new(counterexample(), 1.0)
        .mode(RecordMode::Compose)
        .split(vec![0.5, 0.4]));
    assert!(e.starts_with("invalid split"), "{e}");
    let e = err(RecordProblem::new(counterexample(), 1.0)
        .mode(RecordMode::Joint)
        .max_cells(10));
    assert!(
        e.starts_with("invalid max_cells") && e.contains("12 combinations"),
        "{e}"
    );
    let labels = vec![vec!["a".to_string(), "b".to_string()]; 2];
    let twice = RecordSample::new(vec!["A".into(), "A".into()], labels, vec![(vec![0, 1], 3)]);
    assert!(
        twice
            .unwrap_err()
            .to_string()
            .starts_with("invalid columns")
    );
}
