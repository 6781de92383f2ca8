//! Optimised unary encoding's Fisher information, computed without its 2^k
//! outputs (quadrature, a rank-one term and a diagonal per node), against the
//! mechanism written out bit vector by bit vector.

use crate::common::Rng;
use ndarray::Array1;
use pmldesign_model::Mechanism;
use pmldesign_model::frequency::{asymptotic_error, fisher_information, unary_error, unary_fisher};

/// OUE written out: x's own bit is 1 with probability 1/2, every other bit with
/// `r = 1 / (2 + a)` (`1 + a = e^eps`), independently.
fn materialised(k: usize, a: f64) -> Mechanism {
    let r = 1.0 / (2.0 + a);
    let rows: Vec<Vec<f64>> = (0..k)
        .map(|x| {
            (0u32..1 << k)
                .map(|s| {
                    (0..k)
                        .map(|l| {
                            let one = (s >> l) & 1 == 1;
                            let pr = if l == x { 0.5 } else { r };
                            if one { pr } else { 1.0 - pr }
                        })
                        .product()
                })
                .collect()
        })
        .collect();
    Mechanism::from_rows(rows).unwrap()
}

#[test]
fn fisher_matches_the_written_out_mechanism() {
    let mut rng = Rng(0x0e0e_0e0e);
    for case in 0..8 {
        let k = 2 + case % 6;
        let a = [0.3, 1.718281828, 6.0, 53.6][case % 4];
        let mut w = rng.prior_weights(k);
        if case % 3 == 1 {
            w[k - 1] = 0.0;
        }
        let s: f64 = w.iter().sum();
        let p = Array1::from_iter(w.iter().map(|v| v / s));
        let mech = materialised(k, a);
        let exact = fisher_information(&mech, p.view());
        let quick = unary_fisher(p.view(), a);
        let err = quick
            .iter()
            .zip(&exact)
            .map(|(x, y)| (x - y).abs() / y.abs().max(1e-300))
            .fold(0.0, f64::max);
        assert!(err < 1e-11, "k = {k}, a = {a}: relative {err:e}");
        let (e1, e2) = (asymptotic_error(&mech, p.view()), unary_error(p.view(), a));
        match (e1, e2) {
            (Some(x), Some(y)) => assert!((x - y).abs() <= 1e-9 * x, "{x} vs {y}"),
            (x, y) => assert_eq!(x.is_some(), y.is_some(), "k = {k}"),
        }
    }
}

/// Woodbury's trace (the rank-one terms of the quadrature) against the
/// inverse of the whole Fisher information, at sizes past the written-out
/// mechanism's, with zero masses and at strong and weak boosts.
#[test]
fn the_error_by_woodbury_meets_the_inverse() {
    let mut rng = Rng(0x0e1e_2e3e);
    for case in 0..6 {
        let k = [9, 40, 120][case % 3];
        let a = [0.2, 1.718281828, 20.0][(case + case / 3) % 3];
        let mut w = rng.prior_weights(k);
        if case % 2 == 1 {
            w[0] = 0.0;
            w[k / 2] = 0.0;
        }
        let s: f64 = w.iter().sum();
        let p = Array1::from_iter(w.iter().map(|v| v / s));
        let inv = pmldesign_model::frequency::inverse_fisher(&unary_fisher(p.view(), a)).unwrap();
        let dense = inv.diag().sum() - p.dot(&p);
        let quick = unary_error(p.view(), a).unwrap();
        assert!(
            (dense - quick).abs() <= 1e-10 * dense,
            "k = {k}, a = {a}: {dense} vs {quick}"
        );
    }
}
