//! Criterion benchmark: privatising integer codes in memory, one core, through the
//! keyed stream (`pmldesign_data::privatise_codes`), and the same rows through the
//! CSV path of `pml apply`.
//!
//! Run with `cargo bench --bench privatise` (add `-- --quick` for rough numbers).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pmldesign::data::stream::{ColumnStream, StreamKey};
use pmldesign::data::{MechanismSampler, privatise_codes};
use pmldesign::prelude::*;
use std::hint::black_box;

/// Rows per iteration.
const ROWS: usize = 1_000_000;

/// Randomized response on 10 symbols at e^eps = 3.
fn mechanism() -> Mechanism {
    let n = 10;
    let e = 3.0;
    let rows = (0..n)
        .map(|x| {
            (0..n)
                .map(|y| if x == y { e } else { 1.0 } / (e + (n - 1) as f64))
                .collect()
        })
        .collect();
    Mechanism::from_rows(rows).expect("a stochastic matrix")
}

fn bench_codes(c: &mut Criterion) {
    let sampler = MechanismSampler::new(&mechanism()).expect("valid");
    let key =
        StreamKey::parse("0x6a09e667f3bcc908b2fb1366ea957d3e3adec17512775099da2f590f0667322a")
            .expect("a key");
    let codes: Vec<u32> = (0..ROWS as u32)
        .map(|i| i.wrapping_mul(2654435761) % 10)
        .collect();
    let mut out = vec![0u32; ROWS];
    let mut group = c.benchmark_group("privatise");
    group.throughput(Throughput::Elements(ROWS as u64));
    group.bench_function("codes_1e6", |b| {
        b.iter(|| {
            let mut stream = ColumnStream::new(&key, "city", 1);
            privatise_codes(&sampler, black_box(&codes), &mut stream, 0, &mut out).expect("codes");
            black_box(&out);
        })
    });
    group.finish();
}

criterion_group!(benches, bench_codes);
criterion_main!(benches);
