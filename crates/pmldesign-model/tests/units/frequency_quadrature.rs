//! Tests of `frequency::quadrature`.

use pmldesign_model::internals::frequency::quadrature::*;

#[test]
fn quadrature_integrates_powers() {
    for r in [0.0, 1e-6, 0.5, 1.7, 55.0, 200.0] {
        let v: f64 = tanh_sinh().map(|(t, w)| w * t.powf(r)).sum();
        assert!((v * (1.0 + r) - 1.0).abs() < 1e-13, "r = {r}: {v}");
    }
}
