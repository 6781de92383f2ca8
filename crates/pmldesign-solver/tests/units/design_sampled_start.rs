//! Tests of `design::sampled_start`.

use ndarray::Array1;
use pmldesign_solver::internals::design::sampled_start::*;

/// Every sampled ray has mass 1 and keeps its densities within the levels
/// (eps-PML, and LIP's two levels), and the same prior and levels give the
/// same rays.
#[test]
fn rays_meet_the_level_and_repeat() {
    // A geometric prior over 40 inputs.
    let w = Array1::from_shape_fn(40, |i| 0.9f64.powi(i as i32));
    let p = &w / w.sum();
    for (lo, hi) in [(0.0, 1.5f64.exp()), ((-0.5f64).exp(), 1.5f64.exp())] {
        let rays = sampled_rays(p.view(), (lo, hi), 200);
        for q in &rays {
            assert!((p.dot(q) - 1.0).abs() <= 1e-12, "{}", p.dot(q));
            let within = |v: f64| v >= lo * (1.0 - 1e-15) && v <= hi * (1.0 + 1e-15);
            assert!(q.iter().all(|&v| within(v)), "{q}");
        }
        assert_eq!(rays, sampled_rays(p.view(), (lo, hi), 200));
    }
    let rays = sampled_rays(p.view(), (0.0, 1.5f64.exp()), 200);
    // Different orders, not one ray repeated.
    assert!(rays.iter().skip(1).any(|q| *q != rays[0]));
}
