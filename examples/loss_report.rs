//! Times the loss LP (expected Hamming loss, eps = ln 2, Dirichlet(2) priors with
//! fixed seeds, known prior) by column generation and by the direct LP, with the LP
//! backend compiled in, and prints a Markdown table for the README.
//!
//! ```text
//! cargo run --release --example loss_report -- 32 64 100 128
//! cargo run --release --features highs --example loss_report -- 32 64 100 128
//! ```
//!
//! Arguments are alphabet sizes; `--direct-max N` skips the direct LP above N,
//! `--cg-max N` the same for column generation. The backend column names the
//! direct LP's solver (Clarabel by default) and column generation's (microlp).

use pmldesign::model::{Prior, UncertaintySet};
use pmldesign::solver::backend::{LOSS_LP_BACKEND, LP_BACKEND};
use pmldesign::solver::{Loss, LossMethod, Problem, Settings};
use std::time::Instant;

#[path = "support/dirichlet.rs"]
mod dirichlet;

/// The Dirichlet(2) prior on n symbols that `bench_report` uses.
fn dirichlet2(n: usize) -> Prior {
    Prior::normalised(dirichlet::dirichlet2(n, 1000 + n as u64)).expect("positive weights")
}

fn main() {
    let mut sizes = Vec::new();
    let (mut direct_max, mut cg_max) = (usize::MAX, usize::MAX);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--direct-max" => direct_max = args.next().and_then(|v| v.parse().ok()).unwrap_or(0),
            "--cg-max" => cg_max = args.next().and_then(|v| v.parse().ok()).unwrap_or(0),
            _ => sizes.extend(a.parse::<usize>().ok()),
        }
    }
    if sizes.is_empty() {
        sizes = vec![32, 64, 100, 128];
    }
    let eps = 2f64.ln();
    println!("| N | method | LP backend | time (s) | expected loss | gap | status |");
    println!("|---|--------|------------|----------|---------------|-----|--------|");
    for n in sizes {
        let set = UncertaintySet::known(dirichlet2(n));
        for (method, name, max, backend) in [
            (
                LossMethod::ColumnGeneration,
                "column generation",
                cg_max,
                LP_BACKEND,
            ),
            (LossMethod::Direct, "direct LP", direct_max, LOSS_LP_BACKEND),
        ] {
            if n > max {
                continue;
            }
            let settings = Settings {
                loss_method: method,
                ..Settings::default()
            };
            let start = Instant::now();
            let result = Problem::new(set.clone())
                .epsilon(eps)
                .loss(Loss::Hamming)
                .settings(settings)
                .solve();
            let secs = start.elapsed().as_secs_f64();
            match result {
                Ok(d) => println!(
                    "| {n} | {name} | {backend} | {secs:.3} | {:.9} | {:.1e} | {:?} |",
                    -d.utility_value(),
                    d.certificate().gap(),
                    d.status()
                ),
                Err(e) => println!("| {n} | {name} | {backend} | {secs:.3} | failed: {e} | | |"),
            }
        }
    }
}
