//! Degenerate instances: near-uniform and exactly uniform priors make the LP over
//! rays massively degenerate (many tied rays); every design must still certify.

use crate::common::Rng;
use crate::common::design;
use pmldesign_model::{Prior, UncertaintySet};
use pmldesign_solver::Settings;
use pmldesign_solver::builtin;

/// Weights 1 + U[0, 1), as the benches draw them (same generator and seed).
fn near_uniform(n: usize) -> Prior {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ n as u64);
    let w: Vec<f64> = (0..n).map(|_| 1.0 + rng.unit()).collect();
    Prior::normalised(w).unwrap()
}

#[test]
fn near_uniform_priors_certify() {
    let eps = 2f64.ln();
    for n in 6..=14 {
        let p = near_uniform(n);
        for set in [
            UncertaintySet::known(p.clone()),
            UncertaintySet::l1_ball(p.clone(), 0.5 * p.min_mass()).unwrap(),
        ] {
            for name in ["mi", "map"] {
                let u = builtin(name).unwrap();
                if let Err(e) = design(&set, eps, u.as_ref(), &Settings::default()) {
                    panic!("n = {n}, {name}, {:?}: {e}", set);
                }
            }
        }
    }
}

#[test]
fn uniform_priors_certify() {
    for n in [4, 6, 9, 12] {
        let p = Prior::uniform(n).unwrap();
        for k in 1..n {
            let eps = (n as f64 / k as f64).ln();
            for name in ["mi", "tv", "map"] {
                let u = builtin(name).unwrap();
                let set = UncertaintySet::known(p.clone());
                if let Err(e) = design(&set, eps, u.as_ref(), &Settings::default()) {
                    panic!("n = {n}, k = {k}, {name}: {e}");
                }
            }
        }
    }
}
