//! Tests of `pricing::notion_slices`.

use ndarray::{Array1, array};
use pmldesign_solver::internals::pricing::notion_slices::*;

#[test]
fn staircase_minimiser_beats_every_prefix_and_vertex() {
    let s = StaircaseSlice {
        r: array![0.5, 0.3, 0.2],
        e: 3.0,
    };
    let a = array![0.4, -0.1, 0.3];
    let v = s.minimise(a.view());
    assert!((s.r.dot(&v) - 1.0).abs() < 1e-12);
    // Every vertex of the slice: each coordinate at m or 3m.
    for mask in 0..8u32 {
        let u = Array1::from_shape_fn(3, |i| if mask >> i & 1 == 1 { 3.0 } else { 1.0 });
        let u = &u / s.r.dot(&u);
        assert!(a.dot(&v) <= a.dot(&u) + 1e-12);
    }
}

#[test]
fn box_minimiser_fills_cheapest_mass_first() {
    let s = BoxSlice {
        r: array![0.5, 0.25, 0.25],
        lo: 0.5,
        hi: f64::INFINITY,
    };
    let v = s.minimise(array![1.0, 0.0, 2.0].view());
    // Floors 0.5 everywhere (mass 0.5), the other 0.5 onto x = 1.
    assert_eq!(v, array![0.5, 2.5, 0.5]);
}
