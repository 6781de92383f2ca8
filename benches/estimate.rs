//! Criterion benchmark: estimating the input distribution from the counts of
//! 10^8 released rows (issue 37's speed target: inversion under 100 ms and EM
//! under 1 s at N = 1024), through `estimate_frequencies`, the matrix in memory.
//!
//! Run with `cargo bench --bench estimate` (add `-- --quick` for rough numbers).

use criterion::{Criterion, criterion_group, criterion_main};
use pmldesign::prelude::*;
use std::hint::black_box;

/// The expected counts of `m` rows from a Zipf-like prior through `w`, rounded.
fn counts(w: &Mechanism, m: f64) -> Vec<u64> {
    let k = w.inputs();
    let weights: Vec<f64> = (1..=k).map(|i| 1.0 / i as f64).collect();
    let total: f64 = weights.iter().sum();
    let matrix = w.matrix();
    (0..w.outputs())
        .map(|y| {
            let q: f64 = (0..k).map(|x| weights[x] / total * matrix[[x, y]]).sum();
            (q * m).round() as u64
        })
        .collect()
}

fn bench_estimate(c: &mut Criterion) {
    let mut group = c.benchmark_group("estimate N=1024, 1e8 rows");
    group.sample_size(10);
    for (name, k, eps) in [("rr eps=3", 1024, 3.0), ("rr eps=6", 1024, 6.0)] {
        let w = closed_form::randomized_response(k, eps).expect("a level >= 0");
        let n = counts(&w, 1e8);
        for method in [FrequencyMethod::Inversion, FrequencyMethod::Em] {
            let settings = FrequencySettings {
                method,
                ..FrequencySettings::default()
            };
            group.bench_function(format!("{name} {method:?}"), |b| {
                b.iter(|| estimate_frequencies(black_box(&w), black_box(&n), &settings).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_estimate);
criterion_main!(benches);
