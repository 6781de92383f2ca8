//! Tests of `design::loss_ipm`.

use ndarray::Array2;
use pmldesign_model::{Prior, UncertaintySet};
use pmldesign_solver::Interrupt;
use pmldesign_solver::internals::cones::sparse::Constraints;
use pmldesign_solver::internals::design::loss_direct::{repaired, solve_dual, solve_primal};
use pmldesign_solver::internals::design::loss_ipm::*;

/// The interior point and the simplex (`microlp` or HiGHS) solve the same LP:
/// equal primal values and, once repaired, equal dual bounds, to 1e-8.
#[test]
fn interior_point_agrees_with_the_simplex_lps() {
    for (n, seed) in [(3, 1u64), (7, 2), (12, 3)] {
        let masses: Vec<f64> = (0..n)
            .map(|i| 1.0 + ((i as u64 * 7 + seed) % 5) as f64)
            .collect();
        let p = Prior::normalised(masses).unwrap();
        let beta = p.min_mass();
        for set in [
            UncertaintySet::known(p.clone()),
            UncertaintySet::l1_ball(p, beta).unwrap(),
        ] {
            let cons = Constraints::new(&set, 0.7).unwrap();
            let c = Array2::from_shape_fn((n, n), |(x, y)| {
                set.reference()[x] * (x as f64 - y as f64).abs()
            });
            let Ok(ipm) = solve(&cons, &c, cons.e, None, &Interrupt::new()) else {
                panic!("Clarabel failed at N = {n}");
            };
            let simplex = solve_primal(&cons, &c, cons.e, None).unwrap();
            let value = |w: &Array2<f64>| (w * &c).sum();
            assert!((value(&ipm.w) - value(&simplex)).abs() < 1e-8, "N = {n}");
            let ipm_bound = repaired(&cons, &c, ipm.dual).bound;
            let lp_bound = repaired(&cons, &c, solve_dual(&cons, &c, None).unwrap()).bound;
            assert!((ipm_bound - lp_bound).abs() < 1e-8, "N = {n}");
            assert!(ipm_bound <= value(&simplex) + 1e-12, "N = {n}");
        }
    }
}
