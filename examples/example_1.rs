//! \[E\] Example 1: the mutual-information-optimal mechanism for the known prior
//! p = (0.4, 0.2, 0.2, 0.2) at e^eps = 9/8, with its certificate and the two
//! randomized-response baselines.
//!
//! Run with `cargo run --release --example example_1`.

use pmldesign::prelude::*;
use std::error::Error;

fn print_matrix(mechanism: &Mechanism) {
    for row in mechanism.to_rows() {
        let cells: Vec<String> = row.iter().map(|v| format!("{v:.6}")).collect();
        println!("    [{}]", cells.join("  "));
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let prior = Prior::new(vec![0.4, 0.2, 0.2, 0.2])?;
    let epsilon = (9.0f64 / 8.0).ln();
    let set = UncertaintySet::known(prior.clone());
    let utility = FInformation::mutual_information();
    let d = Problem::new(set)
        .epsilon(epsilon)
        .utility(utility)
        .solve()?;

    println!("[E] Example 1: p = (0.4, 0.2, 0.2, 0.2), eps = ln(9/8) = {epsilon:.6}");
    println!(
        "status {:?}, {} extreme rays, {} pricing passes",
        d.status(),
        d.rays().unwrap_or(0),
        d.iterations()
    );
    println!("optimal mechanism W (rows: inputs x, columns: outputs y):");
    print_matrix(d.mechanism());
    let q: Vec<String> = d
        .output_probabilities()
        .iter()
        .map(|v| format!("{v:.6}"))
        .collect();
    println!("output probabilities q = ({})", q.join(", "));
    let l: Vec<String> = d
        .pml_per_output()
        .iter()
        .map(|v| format!("{v:.6}"))
        .collect();
    println!("PML per output        = ({})", l.join(", "));
    println!("utility I(X;Y) = {:.9} nats", d.utility_value());

    // The textbook high-privacy closed form ([V] Sec V-A), optimal for every
    // sub-convex utility in this regime.
    let closed = closed_form::high_privacy(&prior, epsilon)?;
    let max_diff = d
        .mechanism()
        .to_rows()
        .iter()
        .zip(closed.to_rows().iter())
        .flat_map(|(a, b)| a.iter().zip(b.iter()).map(|(x, y)| (x - y).abs()))
        .fold(0.0, f64::max);
    println!("max |W - closed form| = {max_diff:.3e}");

    let c = d.certificate();
    println!("certificate:");
    println!("    target eps          {:.9}", c.target_epsilon());
    println!("    worst-case PML      {:.9}", c.worst_case_pml());
    println!("    max row-sum error   {:.3e}", c.max_row_sum_error());
    println!("    min entry           {:.6}", c.min_entry());
    println!("    utility             {:.9}", c.utility_value());
    println!("    dual upper bound    {:.9}", c.upper_bound());
    println!("    gap                 {:.3e}", c.gap());

    println!("randomized-response baselines:");
    for (label, rr) in [
        ("same LDP level ", &d.baselines().same_ldp),
        ("PML-calibrated ", &d.baselines().pml_calibrated),
    ] {
        println!(
            "    {label} e_r = {:.6}  worst-case PML = {:.6}  I(X;Y) = {:.9}  ({:.1}% of optimal)",
            rr.ldp_epsilon,
            rr.worst_case_pml,
            rr.utility,
            100.0 * rr.utility / d.utility_value()
        );
    }
    Ok(())
}
