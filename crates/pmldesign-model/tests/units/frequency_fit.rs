//! Tests of `frequency::fit`.

use pmldesign_model::internals::frequency::fit::{chi_square_tail, goodness_of_fit};

#[test]
fn chi_square_tails_match_tables() {
    // P(chi2_1 >= 3.841459) = 0.05; P(chi2_2 >= x) = exp(-x/2).
    assert!((chi_square_tail(3.841_458_820_694_124, 1) - 0.05).abs() < 1e-9);
    assert!((chi_square_tail(10.0, 2) - (-5.0f64).exp()).abs() < 1e-12);
    assert_eq!(chi_square_tail(0.0, 3), 1.0);
    assert_eq!(chi_square_tail(f64::INFINITY, 3), 0.0);
}

#[test]
fn a_perfect_fit_and_an_impossible_count() {
    let fit = goodness_of_fit(&[25, 25, 50, 0], &[0.25, 0.25, 0.5, 0.0], 2);
    assert_eq!(fit.degrees_of_freedom, 1);
    assert!(fit.statistic.abs() < 1e-12 && fit.p_value == Some(1.0));
    // G by hand: 2 (30 ln(30/25) + 20 ln(20/25)) on 3 - 2 = 1 degree.
    let fit = goodness_of_fit(&[30, 20, 50], &[0.25, 0.25, 0.5], 2);
    let g = 2.0 * (30.0 * 1.2f64.ln() + 20.0 * 0.8f64.ln());
    assert!((fit.statistic - g).abs() < 1e-12);
    let fit = goodness_of_fit(&[1, 9], &[0.0, 1.0], 1);
    assert!(fit.statistic.is_infinite() && fit.unlikely());
    // Square and invertible: no degree of freedom, no power.
    assert_eq!(goodness_of_fit(&[3, 7], &[0.3, 0.7], 2).p_value, None);
}
