//! Tests of `pricing::branch_bound::three_level`.

use ndarray::Array1;
use pmldesign_solver::FInformation;
use pmldesign_solver::internals::colgen::oracle::RayOracle;
use pmldesign_solver::internals::pricing::branch_bound::three_level::*;

/// A dual of `-1e-17` at an input of mass 0 leaves the crude bound finite
/// (its ratio `lambda_x / p_x` would be `-inf`), and it still bounds the
/// family's largest reduced cost.
#[test]
fn the_crude_bound_is_finite_at_masses_0() {
    let p = [0.4, 0.0, 0.3, 0.2, 0.0, 0.1];
    let family = ThreeLevel::new(&p, 1f64.exp(), 0.1, &FInformation::mutual_information())
        .expect("mutual information is separable");
    let lambda = Array1::from(vec![0.35, -1e-17, 0.3, 0.2, 2e-17, 0.1]);
    let crude = family.crude_bound(lambda.as_slice().unwrap());
    assert!(crude.is_finite(), "{crude}");
    let priced = family.price(&lambda, f64::INFINITY, 0);
    assert!(priced.max_reduced_cost.is_finite());
    assert!(
        priced.max_reduced_cost <= crude,
        "{} > {crude}",
        priced.max_reduced_cost
    );
}
