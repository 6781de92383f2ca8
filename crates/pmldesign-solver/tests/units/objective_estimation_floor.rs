//! Tests of `objective::estimation_floor`.

use ndarray::Array1;
use pmldesign_model::DensityRange;
use pmldesign_solver::internals::objective::estimation_floor::*;

/// The Zipf prior over k labels (`p_i` proportional to `1 / i`).
pub(crate) fn zipf(k: usize) -> Array1<f64> {
    let w = Array1::from_shape_fn(k, |i| 1.0 / (i + 1) as f64);
    let total = w.sum();
    w / total
}

/// The relaxation's floor never falls below the closed form's, and more
/// steps never give less.
#[test]
fn relaxation_is_at_least_the_closed_form() {
    for k in [2, 5, 16, 40] {
        let p = zipf(k);
        let range = Some(DensityRange::Levels {
            lower: None,
            upper: 1.0,
        });
        let d = p.mapv(|px| ceiling(px, range));
        let closed = closed_form(p.view(), &d);
        let few = notion_floor(p.view(), range, 3);
        let many = notion_floor(p.view(), range, RELAXATION_STEPS);
        assert!(few >= closed * (1.0 - 1e-12), "{k}: {few} < {closed}");
        assert!(many >= few, "{k}: {many} < {few}");
    }
}
