//! Tests of `frequency::fisher`.

use ndarray::{Array1, Array2, array};
use pmldesign_model::internals::frequency::fisher::*;
use pmldesign_model::mechanism::Mechanism;

#[test]
fn binary_randomized_response_meets_its_closed_form() {
    // W = [[a, 1-a], [1-a, a]]: the inversion estimate is unbiased with
    // m Var(p^_0) = q_0 q_1 / (2a - 1)^2, the ML estimate's asymptotic variance.
    let (a, p0) = (0.75, 0.3);
    let w = Mechanism::new(array![[a, 1.0 - a], [1.0 - a, a]]).unwrap();
    let p = array![p0, 1.0 - p0];
    let q0 = p0 * a + (1.0 - p0) * (1.0 - a);
    let var = q0 * (1.0 - q0) / (2.0 * a - 1.0).powi(2);
    let err = asymptotic_error(&w, p.view()).unwrap();
    assert!((err - 2.0 * var).abs() < 1e-12, "{err} vs {}", 2.0 * var);
}

/// k-ary randomized response's closed form agrees with the Cholesky route
/// on the same Fisher information, for skewed priors and several levels.
#[test]
fn randomized_response_meets_the_general_route() {
    for (n, e) in [(2, 0.5_f64), (3, 1.0), (7, 0.1), (12, 3.0)] {
        let p = Array1::from_shape_fn(n, |x| (x + 1) as f64);
        let p = &p / p.sum();
        let (d, o) = (
            e.exp() / (e.exp() + n as f64 - 1.0),
            1.0 / (e.exp() + n as f64 - 1.0),
        );
        let w = Array2::from_shape_fn((n, n), |(x, y)| if x == y { d } else { o });
        closed_meets_general(&w, &p);
    }
    let not_rr = array![[0.6, 0.3, 0.1], [0.3, 0.6, 0.1], [0.1, 0.3, 0.6]];
    assert!(closed_form_trace(not_rr.view(), array![0.3, 0.3, 0.4].view()).is_none());
}

/// The closed form of `D + 1 b^T` agrees with the Cholesky route: randomized
/// response toward a prior (built entry by entry, so its diagonal increments
/// differ in the last bits), and a matrix of unequal increments.
#[test]
fn a_diagonal_plus_constant_columns_meets_the_general_route() {
    let n = 9;
    let p = Array1::from_shape_fn(n, |x| 1.0 / (x + 1) as f64);
    let p = &p / p.sum();
    let a = (-1.3f64).exp();
    let toward = Array2::from_shape_fn((n, n), |(x, y)| {
        a * p[y] + if x == y { 1.0 - a } else { 0.0 }
    });
    let uneven = Array2::from_shape_fn((n, n), |(x, y)| {
        0.01 * (y + 1) as f64 + if x == y { 0.2 + 0.05 * y as f64 } else { 0.0 }
    });
    for w in [toward, uneven] {
        closed_meets_general(&w, &p);
    }
}

/// `w`'s closed form (which it has) within 1e-10 of the Cholesky route.
fn closed_meets_general(w: &Array2<f64>, p: &Array1<f64>) {
    let closed = closed_form_trace(w.view(), p.view()).unwrap();
    let general = inverse_fisher(&fisher_of(w.view(), p.view()))
        .unwrap()
        .diag()
        .sum();
    assert!(
        (closed - general).abs() <= 1e-10 * general,
        "{w}: {closed} vs {general}"
    );
}

#[test]
fn the_identity_has_the_error_of_the_raw_sample_and_merged_rows_none() {
    let p = array![0.5, 0.3, 0.2];
    let err = asymptotic_error(&Mechanism::identity(3), p.view()).unwrap();
    assert!((err - (1.0 - p.dot(&p))).abs() < 1e-12);
    let merged = Mechanism::new(array![[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]).unwrap();
    assert!(asymptotic_error(&merged, p.view()).is_none());
}
