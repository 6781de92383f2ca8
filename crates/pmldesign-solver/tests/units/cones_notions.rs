//! Tests of `cones::notions`.

use ndarray::array;
use pmldesign_solver::internals::cones::notions::*;

#[test]
fn staircase_counts() {
    let r = array![0.25, 0.25, 0.25, 0.25];
    assert_eq!(ldp_staircase(r.view(), 0.5).unwrap().len(), 14);
    assert_eq!(ldp_staircase(r.view(), 0.0).unwrap().len(), 1);
}

#[test]
fn box_cut_of_pmc_has_n_vertices() {
    // PMC alone: N - 1 coordinates at e^-eps, one free.
    let p = array![0.5, 0.3, 0.2];
    let rays = box_cut(p.view(), (-0.4f64).exp(), f64::INFINITY).unwrap();
    assert_eq!(rays.len(), 3);
    for v in rays.iter() {
        assert!((p.dot(&v) - 1.0).abs() < 1e-14);
    }
}
