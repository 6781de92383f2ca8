//! EM returns the maximum-likelihood estimate (docs/theory.md §13), certified by
//! the likelihood gap `max_g G_g - m` (G = W (n / q)), re-computed here from the
//! counts: the Karush-Kuhn-Tucker conditions hold over random releases, on
//! faces of the simplex, where extrapolation used to trap the method, and for
//! mechanisms with more outputs than inputs; its intervals cover.

use crate::common::Rng;
use crate::frequency::{randomized_response, released, settings};
use ndarray::Array2;
use pmldesign_model::Mechanism;
use pmldesign_model::frequency::{
    FrequencyEstimate, FrequencyMethod, estimate_frequencies, estimate_functionals,
};

/// `G = W (n / q)` at `p`, from scratch.
fn gradient(w: &Mechanism, counts: &[u64], p: &[f64]) -> Vec<f64> {
    let w = w.matrix();
    let q: Vec<f64> = (0..w.ncols())
        .map(|y| (0..w.nrows()).map(|x| p[x] * w[[x, y]]).sum())
        .collect();
    (0..w.nrows())
        .map(|x| {
            let terms = counts.iter().enumerate().filter(|(_, c)| **c > 0);
            terms.map(|(y, &c)| w[[x, y]] * c as f64 / q[y]).sum()
        })
        .collect()
}

/// The estimate meets the KKT conditions of the maximum on the simplex to
/// `max(1e-6, 1e-12 m)` nats: `G_g <= m + gap` everywhere (equality on the
/// support up to the same), and the reported gap is the one re-computed.
fn assert_certified(w: &Mechanism, counts: &[u64], e: &FrequencyEstimate, what: &str) {
    let m: f64 = counts.iter().sum::<u64>() as f64;
    let target = (1e-12 * m).max(1e-6);
    assert!(
        e.converged,
        "{what}: not converged, gap {:?}",
        e.likelihood_gap
    );
    let g = gradient(w, counts, &e.estimate);
    let top = g.iter().fold(f64::NEG_INFINITY, |a, &v| a.max(v));
    let gap = e.likelihood_gap.expect("EM reports its gap");
    assert!(top - m <= target * 1.01, "{what}: max G - m = {}", top - m);
    assert!(
        (gap - (top - m).max(0.0)).abs() <= 1e-9 * m,
        "{what}: gap {gap}"
    );
    let sum: f64 = e.estimate.iter().sum();
    assert!((sum - 1.0).abs() < 1e-12 && e.estimate.iter().all(|&p| p >= 0.0));
}

/// Eight-ary randomized response at eps 0.5: the first extrapolation used to be
/// clamped to the simplex, zeroing masses EM can never revive, and the method
/// stopped 4.42 nats short while saying converged. The maximum (KKT) is
/// (0.496, 0.176, 0.158, 0.073, 0.055, 0.042, 0, 0).
#[test]
fn a_face_reached_by_extrapolation_does_not_trap_em() {
    let w = randomized_response(8, 0.5);
    let counts = [1538, 1296, 1283, 1219, 1205, 1195, 1118, 1146];
    let e = estimate_frequencies(&w, &counts, &settings(FrequencyMethod::Em)).unwrap();
    assert_certified(&w, &counts, &e, "8-ary RR");
    let mle = [0.496, 0.176, 0.158, 0.073, 0.055, 0.042, 0.0, 0.0];
    for (x, (&p, &want)) in e.estimate.iter().zip(&mle).enumerate() {
        assert!((p - want).abs() < 1e-3, "input {x}: {p} vs {want}");
    }
    assert!(
        e.estimate[6] == 0.0 && e.estimate[7] == 0.0,
        "{:?}",
        e.estimate
    );
}

/// A Zipf-like prior with the last masses 0.
fn zipf(k: usize, zeros: usize) -> Vec<f64> {
    let raw: Vec<f64> = (0..k)
        .map(|i| {
            if i + zeros >= k {
                0.0
            } else {
                1.0 / (i + 1) as f64
            }
        })
        .collect();
    let s: f64 = raw.iter().sum();
    raw.iter().map(|v| v / s).collect()
}

/// Random releases through randomized response (k = 2 to 64, eps 0.25 to 4),
/// Zipf truths with and without zeros, and random wide mechanisms: every EM
/// estimate is certified, and at least as likely as the projected inversion.
#[test]
fn em_is_certified_over_random_releases() {
    let mut rng = Rng(54);
    let mut cases = 0;
    for &k in &[2usize, 3, 8, 16, 64] {
        for &eps in &[0.25, 0.5, 1.0, 4.0] {
            for &zeros in &[0, k / 2] {
                let w = randomized_response(k, eps);
                let p = zipf(k, zeros);
                let m = [200, 5_000][rng.below(2)];
                let counts = released(&mut rng, &w, &p, m);
                let e = estimate_frequencies(&w, &counts, &settings(FrequencyMethod::Em)).unwrap();
                assert_certified(
                    &w,
                    &counts,
                    &e,
                    &format!("RR k={k} eps={eps} zeros={zeros}"),
                );
                let inv = estimate_frequencies(&w, &counts, &settings(FrequencyMethod::Inversion));
                assert!(e.log_likelihood >= inv.unwrap().log_likelihood - 1e-9 * m as f64);
                cases += 1;
            }
        }
    }
    for (n, outputs) in [(3, 7), (5, 12), (8, 20), (12, 12)] {
        for _ in 0..4 {
            let w = rng.mechanism(n, outputs);
            let p = zipf(n, rng.below(n / 2 + 1));
            let counts = released(&mut rng, &w, &p, 2_000);
            let e = estimate_frequencies(&w, &counts, &settings(FrequencyMethod::Em)).unwrap();
            if e.groups.len() == n {
                assert_certified(&w, &counts, &e, &format!("random {n}x{outputs}"));
                cases += 1;
            }
        }
    }
    // Zipf at k = 128, eps 1: more than 1e-2 off in a third of releases before.
    for _ in 0..3 {
        let w = randomized_response(128, 1.0);
        let counts = released(&mut rng, &w, &zipf(128, 0), 20_000);
        let e = estimate_frequencies(&w, &counts, &settings(FrequencyMethod::Em)).unwrap();
        assert_certified(&w, &counts, &e, "RR k=128 eps=1");
        cases += 1;
    }
    assert!(cases >= 50, "{cases} cases");
}

/// The binary randomized response's maximum-likelihood estimate in closed form:
/// inversion's `(q^ - (1 - a)) / (2a - 1)`, clamped to [0, 1].
#[test]
fn binary_randomized_response_meets_its_closed_form_on_and_off_the_boundary() {
    let a: f64 = 0.75;
    let w = Mechanism::new(Array2::from_shape_vec((2, 2), vec![a, 1.0 - a, 1.0 - a, a]).unwrap())
        .unwrap();
    for (n0, n1) in [(600u64, 400u64), (200, 800), (100, 900), (250, 750), (1, 0)] {
        let counts = [n0, n1];
        let e = estimate_frequencies(&w, &counts, &settings(FrequencyMethod::Em)).unwrap();
        let q0 = n0 as f64 / (n0 + n1) as f64;
        let want = ((q0 - (1.0 - a)) / (2.0 * a - 1.0)).clamp(0.0, 1.0);
        assert!(
            (e.estimate[0] - want).abs() < 1e-9,
            "{n0}/{n1}: {:?}",
            e.estimate
        );
        assert_certified(&w, &counts, &e, &format!("{n0}/{n1}"));
    }
}

/// Nominal 95 % intervals over square and wide mechanisms, interior and boundary
/// truths, 400 releases each: EM's (inverse Fisher information on the simplex)
/// and inversion's (centred on the unprojected estimate) cover at least 94 % on
/// average over the inputs and at least 90 % for each.
#[test]
fn intervals_cover_on_square_and_wide_mechanisms() {
    let mut rng = Rng(95);
    let wide = rng.mechanism(4, 9);
    let cases: Vec<(&str, Mechanism, Vec<f64>)> = vec![
        ("RR 6, interior", randomized_response(6, 1.0), zipf(6, 0)),
        ("RR 6, zeros", randomized_response(6, 1.0), zipf(6, 2)),
        ("RR 16, low eps", randomized_response(16, 0.5), zipf(16, 0)),
        (
            "RR 16, low eps, zeros",
            randomized_response(16, 0.5),
            zipf(16, 8),
        ),
        ("wide 4x9", wide.clone(), vec![0.4, 0.3, 0.2, 0.1]),
        ("wide 4x9, zero", wide, vec![0.5, 0.3, 0.2, 0.0]),
    ];
    for (name, w, p) in &cases {
        for method in [FrequencyMethod::Em, FrequencyMethod::Inversion] {
            let mut covered = vec![0usize; p.len()];
            let reps = 400;
            for _ in 0..reps {
                let counts = released(&mut rng, w, p, 2_000);
                let e = estimate_frequencies(w, &counts, &settings(method)).unwrap();
                for (x, c) in covered.iter_mut().enumerate() {
                    *c += usize::from(e.lower[x] <= p[x] && p[x] <= e.upper[x]);
                }
            }
            let rates: Vec<f64> = covered.iter().map(|&c| c as f64 / reps as f64).collect();
            let mean = rates.iter().sum::<f64>() / rates.len() as f64;
            let what = format!("{name} {method:?}: {rates:?}");
            assert!(mean >= 0.94 && rates.iter().all(|&r| r >= 0.90), "{what}");
        }
    }
}

/// A record-like joint over 2 x 3 cells through a product of randomized
/// responses: the joint's estimates sum to 1 and each marginal is the sum of its
/// cells, and the fit is certified.
#[test]
fn functionals_are_sums_of_a_distribution() {
    let (a, b) = (randomized_response(2, 0.5), randomized_response(3, 0.5));
    let rows: Vec<Vec<f64>> = (0..6)
        .map(|c| {
            (0..6)
                .map(|t| a.matrix()[[c / 3, t / 3]] * b.matrix()[[c % 3, t % 3]])
                .collect()
        })
        .collect();
    let w = Mechanism::from_rows(rows).unwrap();
    let mut rng = Rng(7);
    let counts = released(&mut rng, &w, &[0.3, 0.2, 0.0, 0.1, 0.4, 0.0], 3_000);
    let mut functionals: Vec<Vec<f64>> = (0..6)
        .map(|c| (0..6).map(|i| f64::from(u8::from(i == c))).collect())
        .collect();
    functionals.push((0..6).map(|i| f64::from(u8::from(i < 3))).collect());
    let f = estimate_functionals(&w, &counts, &functionals, &settings(FrequencyMethod::Em));
    let f = f.unwrap();
    assert!(f.converged && f.likelihood_gap.unwrap() <= 1e-6);
    let joint: f64 = f.values[..6].iter().map(|v| v.estimate).sum();
    assert!((joint - 1.0).abs() < 1e-12, "{joint}");
    let first: f64 = f.values[..3].iter().map(|v| v.estimate).sum();
    assert_eq!(first, f.values[6].estimate);
    for v in &f.values {
        let (lo, hi) = (v.lower.unwrap(), v.upper.unwrap());
        assert!(lo <= v.estimate && v.estimate <= hi, "{v:?}");
    }
}
