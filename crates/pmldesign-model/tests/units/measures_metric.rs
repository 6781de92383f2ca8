//! Tests of `measures::metric`.

use ndarray::array;
use pmldesign_model::measures::metric::*;
use pmldesign_model::mechanism::Mechanism;
use pmldesign_model::metric::Metric;

#[test]
fn geometric_rows_have_level_eps_on_the_line() {
    // The truncated geometric mechanism on {0, 1, 2} with alpha = e^-0.5.
    let a = (-0.5f64).exp();
    let w = array![
        [
            1.0 / (1.0 + a),
            (1.0 - a) / (1.0 + a) * a,
            a * a / (1.0 + a)
        ],
        [a / (1.0 + a), (1.0 - a) / (1.0 + a), a / (1.0 + a)],
        [
            a * a / (1.0 + a),
            (1.0 - a) / (1.0 + a) * a,
            1.0 / (1.0 + a)
        ],
    ];
    let m = Mechanism::new(w).unwrap();
    let d = Metric::Line.distances(3).unwrap();
    assert!((metric_level(&m, d.view()) - 0.5).abs() < 1e-12);
    let discrete = Metric::Discrete.distances(3).unwrap();
    let ldp = pmldesign_model::measures::ldp_parameter(&m);
    assert!((metric_level(&m, discrete.view()) - ldp).abs() < 1e-12);
}

#[test]
fn a_zero_against_a_positive_entry_is_infinite() {
    let m = Mechanism::identity(2);
    let d = Metric::Line.distances(2).unwrap();
    assert_eq!(metric_level(&m, d.view()), f64::INFINITY);
}
