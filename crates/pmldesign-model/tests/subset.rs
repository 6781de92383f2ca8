//! The d-subset mechanism's Fisher information, computed without its C(k, d)
//! outputs (quadrature over elementary symmetric sums), against the same
//! mechanism written out subset by subset; its error under the uniform prior
//! against the closed form, and the published figure at k = 128.

use crate::common::Rng;
use ndarray::{Array1, Array2};
use pmldesign_model::Mechanism;
use pmldesign_model::frequency::{
    asymptotic_error, best_subset_size_uniform, fisher_information, subset_error,
    subset_error_uniform, subset_fisher,
};

/// Every d-subset of 0..k, as membership masks.
fn subsets(k: usize, d: usize) -> Vec<u32> {
    (0u32..1 << k)
        .filter(|s| s.count_ones() as usize == d)
        .collect()
}

/// The d-subset mechanism written out: `W(S|x) = (1 + a [x in S]) / Z`.
fn materialised(k: usize, d: usize, a: f64) -> Mechanism {
    let sets = subsets(k, d);
    let rows: Vec<Vec<f64>> = (0..k)
        .map(|x| {
            let r: Vec<f64> = sets
                .iter()
                .map(|s| 1.0 + a * f64::from((s >> x) & 1 == 1))
                .collect();
            let z: f64 = r.iter().sum();
            r.iter().map(|v| v / z).collect()
        })
        .collect();
    Mechanism::from_rows(rows).unwrap()
}

fn max_relative(a: &Array2<f64>, b: &Array2<f64>) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs() / y.abs().max(1e-300))
        .fold(0.0, f64::max)
}

#[test]
fn fisher_matches_the_written_out_mechanism() {
    let mut rng = Rng(0x5eed_5b5e7);
    for case in 0..12 {
        let k = 3 + case % 5;
        let d = 1 + rng.below(k - 1);
        let a = [0.3, 1.718281828, 6.0, 53.6][case % 4];
        let mut w = rng.prior_weights(k);
        // Ties (equal masses share a computation) and a mass 0 (never observed).
        if case % 3 == 0 {
            w[1] = w[0];
        }
        if case % 4 == 1 {
            w[k - 1] = 0.0;
        }
        let s: f64 = w.iter().sum();
        let p = Array1::from_iter(w.iter().map(|v| v / s));
        let exact = fisher_information(&materialised(k, d, a), p.view());
        let quick = subset_fisher(p.view(), d, a);
        let err = max_relative(&quick, &exact);
        assert!(err < 1e-11, "k = {k}, d = {d}, a = {a}: relative {err:e}");
        let (e1, e2) = (
            asymptotic_error(&materialised(k, d, a), p.view()),
            subset_error(p.view(), d, a),
        );
        match (e1, e2) {
            (Some(x), Some(y)) => assert!((x - y).abs() <= 1e-9 * x, "{x} vs {y}"),
            (x, y) => assert_eq!(x.is_some(), y.is_some(), "k = {k}, d = {d}"),
        }
    }
}

#[test]
fn uniform_prior_meets_the_closed_form() {
    for (k, d, a) in [
        (10, 3, 1.718281828),
        (10, 1, 0.5),
        (40, 11, 1.718281828),
        (64, 32, 0.2),
    ] {
        let p = Array1::from_elem(k, 1.0 / k as f64);
        let general = subset_error(p.view(), d, a).unwrap();
        let closed = subset_error_uniform(k, d, a);
        assert!(
            (general - closed).abs() <= 1e-9 * closed,
            "k = {k}, d = {d}: {general} vs {closed}"
        );
    }
}

#[test]
fn best_subset_at_k_128_and_eps_1() {
    // Ye and Barg's mechanism at k = 128, eps = 1: d = 34, error 464 per row.
    let a = 1f64.exp() - 1.0;
    let d = best_subset_size_uniform(128, a);
    assert_eq!(d, 34);
    let e = subset_error_uniform(128, d, a);
    assert!((e - 464.1).abs() < 0.1, "{e}");
    // k = 2, d = 1 is binary randomized response: `m Var(p^_0) = q (1 - q) / (2 pi - 1)^2`
    // at q = 1/2, pi = e^eps / (1 + e^eps), twice over: `(1 + e^eps)^2 / (2 (e^eps - 1)^2)`.
    let eps = 0.7f64;
    let a = eps.exp() - 1.0;
    let rr = (1.0 + eps.exp()).powi(2) / (2.0 * a * a);
    assert!((subset_error_uniform(2, 1, a) - rr).abs() < 1e-12 * rr);
}
