//! The PML envelope computed by LP (\[V\], `docs/theory.md` §8): a known value on
//! \[V\] Example 2, agreement with the closed forms of Theorems 4 and 5, and, on small
//! mechanisms, every deterministic merge of outputs stays below the computed value.

use crate::common::{Rng, example2};
use ndarray::Array2;
use pmldesign_model::envelope::{Envelope, LeakageDistribution, RandomizedResponseEnvelope};
use pmldesign_model::{Mechanism, Prior};
use pmldesign_solver::closed_form;
use pmldesign_solver::envelope::envelope_value;

/// The witness re-measured: its right quantile at delta is the certified lower end.
fn check_witness(w: &Mechanism, p: &Prior, v: &pmldesign_solver::envelope::EnvelopeValue) {
    if let Some(g) = &v.witness {
        let g = Array2::from_shape_fn((g.len(), g[0].len()), |(i, j)| g[i][j]);
        let z = Mechanism::new(w.matrix().dot(&g)).unwrap();
        let r = LeakageDistribution::new(&z, p)
            .unwrap()
            .right_quantile(v.delta)
            .unwrap();
        assert!((r - v.lower).abs() <= 1e-12, "{r} vs {}", v.lower);
    }
}

/// \[V\] Example 2 at delta = 0.2: the bounds are [ln 5/3, ln 4]; the envelope is
/// ln(22/9): two outcomes, y1 (resp. y2) with 1/9 of the similar pair y3, y4 each.
#[test]
fn example2_between_the_bounds() {
    let (w, p) = example2();
    let b = Envelope::new(&w, &p).unwrap().bounds(0.2).unwrap();
    assert!(!b.exact);
    let v = envelope_value(&w, &p, 0.2).unwrap();
    let want = (22.0f64 / 9.0).ln();
    assert!(v.lower <= v.upper && v.upper - v.lower <= 1e-8, "{v:?}");
    assert!(
        (v.lower - want).abs() < 1e-7 && (v.upper - want).abs() < 1e-7,
        "{v:?}"
    );
    assert!(v.lower > b.lower + 0.3 && v.upper < b.upper - 0.4);
    check_witness(&w, &p, &v);
    // Where the bounds meet no LP is needed.
    let v = envelope_value(&w, &p, 0.1).unwrap();
    assert_eq!(v.linear_programs, 0);
    assert!((v.lower - 4f64.ln()).abs() < 1e-12 && v.lower == v.upper);
}

/// \[V\] Theorem 4 (the bounds meet) and Theorem 5 (the LP value lies between the
/// closed-form bounds; part (i) exact).
#[test]
fn closed_forms_agree() {
    let mut rng = Rng(3);
    for _ in 0..20 {
        let n = 2 + rng.below(5);
        let p = rng.prior(n);
        let eps = pmldesign_model::measures::privacy_thresholds(&p)[1] * (0.05 + 0.9 * rng.unit());
        let w = closed_form::high_privacy(&p, eps).unwrap();
        for delta in [0.05, 0.3, 0.7] {
            let v = envelope_value(&w, &p, delta).unwrap();
            assert!((v.lower - eps).abs() < 1e-12 && (v.upper - eps).abs() < 1e-12);
        }
    }
    for _ in 0..20 {
        let k = 2 + rng.below(5);
        let p = rng.prior(k);
        let er = 0.2 + 2.0 * rng.unit();
        let w = closed_form::randomized_response(k, er).unwrap();
        let rr = RandomizedResponseEnvelope::new(&p, er).unwrap();
        for delta in [0.02, 0.1, 0.25, 0.5, 0.8] {
            let v = envelope_value(&w, &p, delta).unwrap();
            check_witness(&w, &p, &v);
            assert!(v.upper <= rr.upper_bound(delta).unwrap() + 1e-12);
            if let Some(h) = rr.lower_bound(delta).unwrap() {
                assert!(
                    h <= v.upper + 1e-9,
                    "k={k} er={er} delta={delta}: {h} > {v:?}"
                );
            }
            if let Some(e) = rr.exact(delta).unwrap() {
                assert!((v.lower - e).abs() < 1e-12);
            }
        }
    }
}

/// All set partitions of `0..m` as block labels.
fn partitions(m: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = vec![vec![]];
    for _ in 0..m {
        let mut next = Vec::new();
        for h in &out {
            let blocks: usize = h.iter().max().map_or(0, |&b| b + 1);
            for b in 0..=blocks {
                let mut g = h.clone();
                g.push(b);
                next.push(g);
            }
        }
        out = next;
    }
    out
}

/// On random small mechanisms: the LP value lies in the general bounds and brackets to
/// the tolerance, its witness re-measures to its lower end, and no deterministic merge
/// of outputs has a right quantile above its upper end.
#[test]
fn brackets_every_merge_of_small_mechanisms() {
    let mut rng = Rng(99);
    let mut improved = 0;
    for _ in 0..60 {
        let n = 2 + rng.below(3);
        let m = 2 + rng.below(4);
        let w = rng.mechanism(n, m);
        let p = rng.prior(n);
        let env = Envelope::new(&w, &p).unwrap();
        let merges: Vec<Mechanism> = partitions(m)
            .into_iter()
            .map(|h| {
                let k = h.iter().max().unwrap() + 1;
                let g = Array2::from_shape_fn((m, k), |(y, z)| f64::from(h[y] == z));
                Mechanism::new(w.matrix().dot(&g)).unwrap()
            })
            .collect();
        for delta in [0.03, 0.15, 0.4, 0.75] {
            let b = env.bounds(delta).unwrap();
            let v = envelope_value(&w, &p, delta).unwrap();
            assert!(
                v.lower >= b.lower - 1e-12 && v.upper <= b.upper + 1e-12,
                "{v:?} {b:?}"
            );
            assert!(v.converged, "{v:?}");
            check_witness(&w, &p, &v);
            if v.lower > b.lower + 1e-6 {
                improved += 1;
            }
            for z in &merges {
                let r = LeakageDistribution::new(z, &p)
                    .unwrap()
                    .right_quantile(delta)
                    .unwrap();
                assert!(r <= v.upper + 1e-9, "merge {r} > {v:?}");
            }
        }
    }
    assert!(improved > 10, "{improved}");
}

/// Larger mechanisms (8 inputs, 20 outputs): the bisection converges, within the
/// general bounds, and the computed envelope is non-increasing in delta.
#[test]
fn converges_on_larger_mechanisms() {
    let mut rng = Rng(8);
    for _ in 0..4 {
        let w = rng.mechanism(8, 20);
        let p = rng.prior(8);
        let env = Envelope::new(&w, &p).unwrap();
        let deltas: Vec<f64> = (1..12).map(|i| i as f64 / 12.0).collect();
        let curve = pmldesign_solver::envelope::envelope_curve(&w, &p, &deltas).unwrap();
        for pair in curve.windows(2) {
            assert!(pair[1].lower <= pair[0].upper + 1e-9, "{pair:?}");
        }
        for v in &curve {
            let b = env.bounds(v.delta).unwrap();
            assert!(v.converged, "{v:?}");
            assert!(v.lower >= b.lower - 1e-12 && v.upper <= b.upper + 1e-12);
            check_witness(&w, &p, v);
        }
    }
}

/// A time limit that has passed before the first LP (an interrupt, or a limit of
/// a nanosecond, whose loop share is nothing) stops the bisection at the
/// Theorem 3 bracket: marked stopped, no LP solved, both ends the general
/// bounds, so what is published never understates the envelope.
#[test]
fn a_stopped_envelope_keeps_the_certified_bracket() {
    use pmldesign_solver::envelope::envelope_curve_with;
    use pmldesign_solver::{Interrupt, Settings};
    let (w, p) = example2();
    let b = Envelope::new(&w, &p).unwrap().bounds(0.2).unwrap();
    let interrupted = Interrupt::new();
    interrupted.set();
    let mut by_flag = Settings::default();
    by_flag.column_generation.interrupt = interrupted;
    let by_clock = Settings::default().time_limit(std::time::Duration::from_nanos(1));
    for settings in [by_flag, by_clock] {
        let v = envelope_curve_with(&w, &p, &[0.2, 0.1], &settings).unwrap();
        let stopped = &v[0];
        assert!(stopped.stopped && !stopped.converged, "{stopped:?}");
        assert_eq!(stopped.linear_programs, 0);
        assert_eq!((stopped.lower, stopped.upper), (b.lower, b.upper));
        assert_eq!(stopped.published(&b), (b.upper, false));
        // Where the bounds meet there is nothing to stop.
        assert!(!v[1].stopped && v[1].converged && v[1].lower == v[1].upper);
    }
    // Without a limit the same grid converges.
    let free = envelope_curve_with(&w, &p, &[0.2], &Settings::default()).unwrap();
    assert!(!free[0].stopped && free[0].converged);
    assert!(free[0].upper < b.upper);
}
