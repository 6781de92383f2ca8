//! Criterion benchmarks: extreme-ray enumeration, full designs and leakage
//! assessment.
//!
//! Run with `cargo bench --bench design` (add `-- --quick` for rough numbers, or a
//! filter such as `-- design/mi_known`).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use pmldesign::prelude::*;
use pmldesign::solver::internals;
use std::hint::black_box;
use std::time::Duration;

/// Alphabet sizes of the ray enumeration (it materialises every ray: ~10^7 at 20).
const SIZES: [usize; 3] = [8, 12, 16];
/// Alphabet sizes of the full designs (column generation streams the rays).
const DESIGN_SIZES: [usize; 5] = [8, 12, 16, 18, 20];

mod support;
use support::{XorShift, prior};

fn epsilon() -> f64 {
    2f64.ln()
}

/// The known prior and the l1 ball of radius `beta = min p / 2` around it.
fn sets(n: usize) -> [(&'static str, UncertaintySet); 2] {
    let p = prior(n);
    let beta = 0.5 * p.min_mass();
    [
        ("known", UncertaintySet::known(p.clone())),
        (
            "ball",
            UncertaintySet::l1_ball(p, beta).expect("positive radius"),
        ),
    ]
}

fn bench_rays(c: &mut Criterion) {
    let mut group = c.benchmark_group("rays/structured");
    for n in SIZES {
        if n >= 16 {
            group.sample_size(10);
            group.measurement_time(Duration::from_secs(5));
        }
        for (label, set) in sets(n) {
            let cone = ColumnCone::pml(&set, epsilon()).expect("valid cone");
            group.bench_with_input(BenchmarkId::new(label, n), &cone, |b, cone| {
                b.iter(|| internals::structured(black_box(cone)).expect("enumeration"))
            });
        }
    }
    group.finish();
}

fn bench_design(c: &mut Criterion) {
    let utility = FInformation::mutual_information();
    let design = |set: &UncertaintySet| {
        Problem::new(set.clone())
            .epsilon(epsilon())
            .utility(utility)
            .solve()
    };
    for (label, index) in [("design/mi_known", 0), ("design/mi_ball", 1)] {
        let mut group = c.benchmark_group(label);
        for n in DESIGN_SIZES {
            if n >= 12 {
                group.sample_size(10);
                group.measurement_time(Duration::from_secs(if n >= 16 { 10 } else { 5 }));
            }
            let [known, ball] = sets(n);
            let set = if index == 0 { known.1 } else { ball.1 };
            // Time the full call even when it fails (e.g. at certification, after all
            // the work), but say so: a failing design is a solver bug to report.
            if let Err(e) = design(&set) {
                eprintln!("warning: {label}/{n}: design failed: {e}");
            }
            group.bench_with_input(BenchmarkId::from_parameter(n), &set, |b, set| {
                b.iter(|| design(black_box(set)).is_ok())
            });
        }
        group.finish();
    }
}

fn bench_assess(c: &mut Criterion) {
    const N: usize = 1000;
    let p = prior(N);
    let mut rng = XorShift::new(42);
    let rows: Vec<Vec<f64>> = (0..N)
        .map(|_| {
            let row: Vec<f64> = (0..N).map(|_| rng.next_f64() + 1e-3).collect();
            let s: f64 = row.iter().sum();
            row.into_iter().map(|v| v / s).collect()
        })
        .collect();
    let mechanism = Mechanism::from_rows(rows).expect("row-stochastic");
    let set = UncertaintySet::known(p.clone());
    let mut group = c.benchmark_group("assess/pml_1000x1000");
    group.bench_function("worst_case_pml", |b| {
        b.iter(|| set.worst_case_pml(black_box(&mechanism)))
    });
    group.bench_function("eps_min", |b| {
        b.iter(|| measures::eps_min(black_box(&mechanism), black_box(&p)))
    });
    group.finish();
}

criterion_group!(benches, bench_rays, bench_design, bench_assess);
criterion_main!(benches);
