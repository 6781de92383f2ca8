//! Criterion benchmark: the LP for label-dependent losses (Hamming loss, known
//! prior, eps = ln 2) at N = 32, 64 and 128, by the default method: column
//! generation with microlp, the direct LP with HiGHS (`--features highs`).
//!
//! Run with `cargo bench --bench loss` (add `-- --quick` for rough numbers).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use pmldesign::prelude::*;
use std::hint::black_box;

/// Alphabet sizes benchmarked (about 7 s a run at N = 128 with microlp, README
/// "Benchmarks").
const SIZES: [usize; 3] = [32, 64, 128];

mod support;
use support::prior;

fn bench_loss(c: &mut Criterion) {
    let eps = 2f64.ln();
    let mut group = c.benchmark_group("loss/hamming_known");
    group.sample_size(10);
    for n in SIZES {
        let set = UncertaintySet::known(prior(n));
        // Time the full call even when it fails, but say so: a failing design is a
        // solver bug to report.
        let solve = |set: &UncertaintySet| {
            Problem::new(set.clone())
                .epsilon(eps)
                .loss(Loss::Hamming)
                .solve()
        };
        if let Err(e) = solve(&set) {
            eprintln!("warning: loss/hamming_known/{n}: minimise_loss failed: {e}");
        }
        group.bench_with_input(BenchmarkId::from_parameter(n), &set, |b, set| {
            b.iter(|| solve(black_box(set)).is_ok())
        });
    }
    group.finish();
}

criterion_group!(benches, bench_loss);
criterion_main!(benches);
