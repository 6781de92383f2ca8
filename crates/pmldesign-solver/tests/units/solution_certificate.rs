//! Tests of `solution::certificate`.

use pmldesign_solver::internals::solution::certificate::DualCertificate;

/// A design's certificate holds; moving its level past the tolerance does not.
#[test]
fn a_designs_certificate_holds() {
    use pmldesign_model::{Prior, UncertaintySet};
    let set = UncertaintySet::known(Prior::new(vec![0.4, 0.3, 0.2, 0.1]).unwrap());
    let d = pmldesign_solver::Problem::new(set)
        .epsilon(0.8)
        .solve()
        .unwrap();
    assert!(d.certificate().holds());
    // The same certificate read with a lower target (its fields are read-only).
    let mut value = serde_json::to_value(d.certificate()).unwrap();
    value["notion"]["epsilon"] = serde_json::json!(0.8 - 1e-9);
    let tighter: pmldesign_solver::Certificate = serde_json::from_value(value).unwrap();
    assert!(!tighter.holds());
}

/// A dual whose search stopped without a bound is written with `null`s
/// (JSON has no infinity) and reads back (a record design
/// stopped by its time limit could not be read back).
#[test]
fn an_unbounded_dual_round_trips() {
    let d = DualCertificate::new(vec![0.5, 0.5], f64::INFINITY);
    let text = serde_json::to_string(&d).unwrap();
    assert!(text.contains("\"max_reduced_cost\":null"), "{text}");
    let back: DualCertificate = serde_json::from_str(&text).unwrap();
    assert_eq!(back, d);
}
