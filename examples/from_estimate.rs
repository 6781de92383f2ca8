//! Mechanism design from an estimate: every prior within l1 distance beta of
//! p^ = (0.35, 0.3, 0.2, 0.15) is protected at eps = ln 2 (\[E\] Prop 2). One line per
//! built-in utility compares the optimal design with randomized response calibrated
//! to the same worst-case PML and with randomized response at the same LDP level.
//!
//! Run with `cargo run --release --example from_estimate`.

use pmldesign::prelude::*;
use pmldesign::solver::{BUILTIN_NAMES, builtin};
use std::error::Error;

fn main() -> Result<(), Box<dyn Error>> {
    let estimate = Prior::new(vec![0.35, 0.3, 0.2, 0.15])?;
    let beta = 0.05;
    let epsilon = 2f64.ln();
    let set = UncertaintySet::l1_ball(estimate, beta)?;

    println!("p^ = (0.35, 0.3, 0.2, 0.15), beta = {beta}, eps = ln 2 = {epsilon:.6}");
    println!(
        "identity worst-case PML over the ball: {:.6}",
        set.worst_case_pml(&Mechanism::identity(set.len()))
    );
    println!(
        "{:<10} {:>7} {:>12} {:>12} {:>12} {:>10} {:>10} {:>11}",
        "utility", "outputs", "design", "RR calib.", "RR same-LDP", "gain/cal.", "gap", "worst PML"
    );
    for name in BUILTIN_NAMES {
        let utility = builtin(name).ok_or_else(|| format!("unknown utility {name}"))?;
        let d = Problem::new(set.clone())
            .epsilon(epsilon)
            .boxed_utility(utility)
            .solve()?;
        let calibrated = d.baselines().pml_calibrated.utility;
        let same_ldp = d.baselines().same_ldp.utility;
        println!(
            "{:<10} {:>7} {:>12.6} {:>12.6} {:>12.6} {:>9.1}% {:>10.1e} {:>11.6}",
            d.utility_name(),
            d.mechanism().outputs(),
            d.utility_value(),
            calibrated,
            same_ldp,
            100.0 * (d.utility_value() / calibrated - 1.0),
            d.certificate().gap(),
            d.certificate().worst_case_pml()
        );
    }
    println!(
        "(RR calibrated: LDP parameter chosen so its worst-case PML over the ball is eps; \
         RR same-LDP: LDP parameter eps.)"
    );
    Ok(())
}
