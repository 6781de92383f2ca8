//! Times the library's design call (`Problem::solve`) on \[E\] Example 1 and on N = 20 (prior
//! proportional to 1..20, eps = ln 2, mutual information), the same inputs as the
//! Python timing in the README's Python section, to measure the bindings' overhead.
//!
//! Run with `cargo run --release --example design_timing`.

use pmldesign::prelude::*;
use std::time::Instant;

/// The median wall time of `runs` calls of `f`, in microseconds.
fn median_us(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n20: Vec<f64> = (1..=20).map(|i| i as f64 / 210.0).collect();
    let cases = [
        (
            "Example 1 (N = 4)",
            vec![0.4, 0.2, 0.2, 0.2],
            (9.0f64 / 8.0).ln(),
            200,
        ),
        ("N = 20", n20, 2f64.ln(), 20),
    ];
    for (name, prior, epsilon, runs) in cases {
        let set = UncertaintySet::known(Prior::new(prior)?);
        let run = || {
            Problem::new(set.clone())
                .epsilon(epsilon)
                .utility(FInformation::mutual_information())
                .solve()
                .expect("design");
        };
        run();
        println!(
            "{name}: median {:.1} us over {runs} runs",
            median_us(runs, run)
        );
    }
    Ok(())
}
