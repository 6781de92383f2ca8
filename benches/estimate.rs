//! Criterion benchmark: estimating the input distribution from the counts of
//! 10^8 released rows at N = 1024, through `estimate_frequencies`, the matrix in
//! memory, the likelihood gap certified: Zipf truths inside the simplex, and one
//! with half its masses 0 at eps 0.5, whose maximum lies on a face.
//!
//! Run with `cargo bench --bench estimate` (add `-- --quick` for rough numbers).

use criterion::{Criterion, criterion_group, criterion_main};
use pmldesign::prelude::*;
use std::hint::black_box;

/// The expected counts of `m` rows from a Zipf-like prior through `w` (the last
/// `zeros` masses 0), rounded.
fn counts(w: &Mechanism, m: f64, zeros: usize) -> Vec<u64> {
    let k = w.inputs();
    let weights: Vec<f64> = (1..=k)
        .map(|i| if i + zeros > k { 0.0 } else { 1.0 / i as f64 })
        .collect();
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
    let cases = [
        ("rr eps=3", 3.0, 0),
        ("rr eps=6", 6.0, 0),
        ("rr eps=0.5, half zero", 0.5, 512),
    ];
    for (name, eps, zeros) in cases {
        let w = closed_form::randomized_response(1024, eps).expect("a level >= 0");
        let n = counts(&w, 1e8, zeros);
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
