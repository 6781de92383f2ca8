//! Tests of `pricing::line_metric`.

use ndarray::{Array1, array};
use pmldesign_solver::internals::pricing::line_metric::*;

/// The minimiser beats every vertex (every walk) of a small slice.
#[test]
fn dinkelbach_finds_the_best_walk() {
    let s = LineSlice::new(array![0.1, 0.2, 0.3, 0.25, 0.15], 0.7).unwrap();
    let a = array![0.3, -0.2, 0.5, 0.1, -0.4];
    let v = s.minimise(a.view());
    assert!((s.r.dot(&v) - 1.0).abs() < 1e-12);
    let best = a.dot(&v);
    for mask in 0..16u32 {
        let mut w = Array1::ones(5);
        for x in 1..5 {
            let step = if mask >> (x - 1) & 1 == 1 { 0.7 } else { -0.7 };
            w[x] = w[x - 1] * f64::exp(step);
        }
        assert!(best <= a.dot(&w) / s.r.dot(&w) + 1e-12);
    }
}
