//! Tests of `reference::structured`.

use pmldesign_model::Mechanism;
use pmldesign_solver::internals::reference::structured::*;

/// A stopped search gives way to any better baseline; a converged one
/// keeps its design within rounding.
#[test]
fn a_stopped_design_gives_way_to_any_better_baseline() {
    // Built as a design file states one (its loss guesses are not stored).
    let b: StructuredBaseline = serde_json::from_value(serde_json::json!({
        "family": "balanced_partition",
        "groups": 2,
        "arc": 0,
        "mix": 1.0,
        "level": 0.0,
        "worst_case_pml": 0.0,
        "utility": 0.5,
        "mechanism": serde_json::to_value(Mechanism::identity(2)).unwrap(),
    }))
    .unwrap();
    let bs = std::slice::from_ref(&b);
    assert!(beating(bs, 0.5 - 1e-14, false).is_some());
    assert!(beating(bs, 0.5 - 1e-14, true).is_none());
    assert!(beating(bs, 0.5 - 1e-11, true).is_some());
    assert!(beating(bs, 0.5, false).is_none());
}
