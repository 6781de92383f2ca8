//! Designs for estimation (docs/theory.md §13, "Designing for estimation") against randomized response at
//! the same PML and the mutual-information design: the asymptotic error per
//! released row of the maximum-likelihood estimate of the input distribution.
//!
//! Run with `cargo run --release -p pmldesign-solver --example estimation_design`.

use pmldesign_model::frequency::asymptotic_error;
use pmldesign_model::{Prior, UncertaintySet};
use pmldesign_solver::Problem;
use std::error::Error;

fn main() -> Result<(), Box<dyn Error>> {
    for (n, eps, seed) in [(4, 0.8, 1u64), (6, 1.0, 2), (8, 1.5, 3), (10, 2.0, 4)] {
        let mut state = seed;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 11) as f64 / (1u64 << 53) as f64) + 0.05
        };
        let raw: Vec<f64> = (0..n).map(|_| next()).collect();
        let total: f64 = raw.iter().sum();
        let p: Vec<f64> = raw.iter().map(|v| v / total).collect();
        let set = UncertaintySet::known(Prior::new(p.clone())?);
        let pv = ndarray::Array1::from(p.clone());
        let err = |m| asymptotic_error(m, pv.view()).unwrap_or(f64::INFINITY);
        let mi = Problem::new(set.clone()).epsilon(eps).solve()?;
        let began = std::time::Instant::now();
        let d = Problem::new(set).epsilon(eps).estimation().solve()?;
        let rr = &d.baselines().pml_calibrated.mechanism;
        println!(
            "N = {n}, eps = {eps}: m E|p^-p|^2  MI design {:.4}  RR same PML {:.4}  design {:.4} (certified >= {:.4}, relative gap {:.1e}, {:?}, {} steps, {} outputs, {:.2} s)",
            err(mi.mechanism()),
            err(rr),
            -d.utility_value(),
            -d.certificate().upper_bound(),
            d.certificate().gap() / d.utility_value().abs(),
            d.status(),
            d.iterations(),
            d.mechanism().outputs(),
            began.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
