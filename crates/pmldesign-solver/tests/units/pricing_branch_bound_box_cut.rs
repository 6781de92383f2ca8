//! Tests of `pricing::branch_bound::box_cut`.

use pmldesign_solver::internals::objective::utility::FInformation;
use pmldesign_solver::internals::pricing::branch_bound::box_cut::*;

/// A free coordinate that rounds to an end never lifts a coordinate above
/// the cap (a set raised 1e-12 above it measured above eps, and
/// the design paid for mixing), and the ray stays normalised.
#[test]
fn rays_at_an_end_stay_in_the_box() {
    let mi = FInformation::mutual_information();
    for d in [-1e-14, -1e-15, 0.0, 1e-15, 1e-14] {
        let p = [0.25, 0.25 + d, 0.5 - d];
        let cut = BoxCut::new(&p, 0.0, 2.0, false, &mi).unwrap();
        for (u, f) in [(vec![0], 1), (vec![1], 0), (vec![], 2), (vec![0], 2)] {
            let Some(v) = cut.ray(&u, f) else { continue };
            let mass: f64 = v.iter().zip(&p).map(|(a, b)| a * b).sum();
            assert!(
                v.iter().all(|&x| (0.0..=2.0).contains(&x)),
                "{d} {u:?} {f}: {v}"
            );
            assert!((mass - 1.0).abs() <= 1e-15, "{d} {u:?} {f}: p . v = {mass}");
        }
    }
}
