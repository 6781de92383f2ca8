//! Tests of `reference::closed_form`.

use approx::assert_abs_diff_eq;
use pmldesign_model::{Prior, measures};
use pmldesign_solver::closed_form::*;

#[test]
fn example_1_matrix() {
    let p = Prior::new(vec![0.4, 0.2, 0.2, 0.2]).unwrap();
    let w = high_privacy(&p, (9.0f64 / 8.0).ln()).unwrap();
    let expect = ndarray::array![
        [0.325, 0.225, 0.225, 0.225],
        [0.45, 0.1, 0.225, 0.225],
        [0.45, 0.225, 0.1, 0.225],
        [0.45, 0.225, 0.225, 0.1],
    ];
    assert_abs_diff_eq!(w.matrix(), expect.view(), epsilon = 1e-12);
}

#[test]
fn theorem_5_check_values() {
    let p = Prior::new(vec![0.6, 0.4]).unwrap();
    let w = binary_l1(&p, 0.1, 0.3).unwrap();
    let expect = ndarray::array![[0.535193, 0.464807], [0.226943, 0.773057]];
    assert_abs_diff_eq!(w.matrix(), expect.view(), epsilon = 1e-6);
    // Remark 3: p1 = 1/2, beta = 1 gives Warner's randomized response.
    let half = Prior::uniform(2).unwrap();
    let w = binary_l1(&half, 0.999_999_999, 0.5).unwrap();
    // Warner: diagonal e^eps / (1 + e^eps), randomized response at e_r = eps.
    let rr = randomized_response(2, 0.5).unwrap();
    assert_abs_diff_eq!(w.matrix()[[0, 0]], rr.matrix()[[0, 0]], epsilon = 1e-8);
}

#[test]
fn randomized_response_pml_check_values() {
    assert_abs_diff_eq!(randomized_response_pml(0.25, 1.0), 0.642626, epsilon = 1e-6);
    assert_abs_diff_eq!(
        randomized_response_pml(1.0 / 6.0, 0.5),
        0.397335,
        epsilon = 1e-6
    );
    let p = Prior::new(vec![0.5, 0.25, 0.25]).unwrap();
    let w = randomized_response(3, 1.0).unwrap();
    assert_abs_diff_eq!(measures::eps_min(&w, &p), 0.642626, epsilon = 1e-6);
    let er = calibrated_randomized_response(0.25, 0.642626);
    assert_abs_diff_eq!(er, 1.0, epsilon = 1e-5);
}

#[test]
fn k_singular_is_doubly_stochastic() {
    let w = k_singular(6, 2).unwrap();
    let p = Prior::uniform(6).unwrap();
    assert!(w.max_row_sum_error() < 1e-15);
    assert_abs_diff_eq!(measures::eps_min(&w, &p), 3.0f64.ln(), epsilon = 1e-12);
}
