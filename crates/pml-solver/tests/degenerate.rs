//! Degenerate instances: near-uniform and exactly uniform priors make the LP over
//! rays massively degenerate (many tied rays); every design must still certify.

use pml_model::{Prior, UncertaintySet};
use pml_solver::utility::builtin;
use pml_solver::{DesignSettings, design};

/// xorshift64*, as in the benches.
struct XorShift(u64);

impl XorShift {
    fn next_f64(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (x >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn near_uniform(n: usize) -> Prior {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15 ^ n as u64);
    let w: Vec<f64> = (0..n).map(|_| 1.0 + rng.next_f64()).collect();
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
                if let Err(e) = design(&set, eps, u.as_ref(), &DesignSettings::default()) {
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
                if let Err(e) = design(&set, eps, u.as_ref(), &DesignSettings::default()) {
                    panic!("n = {n}, k = {k}, {name}: {e}");
                }
            }
        }
    }
}
