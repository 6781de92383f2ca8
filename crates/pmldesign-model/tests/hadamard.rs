//! Hadamard response written out: row-stochastic, eps-LDP with its worst ratio
//! exactly e^eps, eps-PML exactly under a known prior and over an l1 ball when
//! its boost is calibrated to the least mass of an output's input set, and its
//! error under the uniform prior against the closed form.

use crate::common::Rng;
use ndarray::Array1;
use pmldesign_model::frequency::{
    asymptotic_error, hadamard_error_uniform, hadamard_least_mass, hadamard_outputs,
    hadamard_response,
};
use pmldesign_model::measures::ldp::ldp_parameter;
use pmldesign_model::measures::pml::eps_min;
use pmldesign_model::{Prior, UncertaintySet};

/// The PML boost of a binding input set of mass m: `(e^eps - 1) / (1 - e^eps m)`.
fn pml_boost(epsilon: f64, m: f64) -> f64 {
    epsilon.exp_m1() / (1.0 - epsilon.exp() * m)
}

#[test]
fn it_is_row_stochastic_and_ldp_at_exactly_eps() {
    for k in 2..=40 {
        let outputs = hadamard_outputs(k);
        assert!(outputs > k && outputs <= 2 * k && outputs.is_power_of_two());
        for epsilon in [0.1f64, 1.0, 3.0] {
            let w = hadamard_response(k, epsilon.exp_m1()).unwrap();
            assert_eq!((w.inputs(), w.outputs()), (k, outputs));
            for row in w.matrix().rows() {
                assert!((row.sum() - 1.0).abs() < 1e-14);
                let high = row.iter().filter(|&&v| v > 1.0 / outputs as f64).count();
                assert_eq!(high, outputs / 2);
            }
            let ldp = ldp_parameter(&w);
            assert!((ldp - epsilon).abs() < 1e-12, "k {k}: {ldp} vs {epsilon}");
        }
    }
}

#[test]
fn pml_calibration_meets_the_level_exactly() {
    let mut rng = Rng(0x4ada_3a7d);
    let mut checked = 0;
    for case in 0..24 {
        let k = 2 + case % 11;
        let prior = Prior::normalised(rng.prior_weights(k)).unwrap();
        let p = prior.masses();
        let m = hadamard_least_mass(p).unwrap();
        for epsilon in [0.2f64, 0.7, 1.5] {
            if epsilon.exp() * m >= 1.0 {
                continue;
            }
            let w = hadamard_response(k, pml_boost(epsilon, m)).unwrap();
            let leak = eps_min(&w, &prior);
            assert!((leak - epsilon).abs() < 1e-12, "k {k}: {leak} vs {epsilon}");
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked}");
}

#[test]
fn over_an_l1_ball_the_worst_prior_takes_half_the_radius() {
    let center = Prior::new(vec![0.3, 0.25, 0.2, 0.15, 0.1]).unwrap();
    let m = hadamard_least_mass(center.masses()).unwrap();
    for (epsilon, beta) in [(0.5, 0.1), (1.0, 0.2)] {
        let set = UncertaintySet::l1_ball(center.clone(), beta).unwrap();
        let w = hadamard_response(5, pml_boost(epsilon, m - beta / 2.0)).unwrap();
        let leak = set.worst_case_pml(&w);
        assert!((leak - epsilon).abs() < 1e-9, "{leak} vs {epsilon}");
    }
}

#[test]
fn the_uniform_error_meets_the_closed_form() {
    for k in [3, 7, 15, 31] {
        let p = Array1::from_elem(k, 1.0 / k as f64);
        for a in [0.5, 1.0f64.exp_m1(), 6.0] {
            let w = hadamard_response(k, a).unwrap();
            let e = asymptotic_error(&w, p.view()).unwrap();
            let closed = hadamard_error_uniform(k, a).unwrap();
            assert!(
                (e - closed).abs() <= 1e-10 * closed,
                "k {k}: {e} vs {closed}"
            );
        }
    }
    // k = 7 at eps = 1: b = tanh(1/2), 6 (7 - b) / (7 b^2).
    let b = 0.5f64.tanh();
    let hand = 6.0 * (7.0 - b) / (7.0 * b * b);
    let e = hadamard_error_uniform(7, 1.0f64.exp_m1()).unwrap();
    assert!(
        (e - hand).abs() < 1e-12 * hand && (e - 26.2413).abs() < 1e-3,
        "{e}"
    );
    assert_eq!(hadamard_error_uniform(6, 1.0), None);
}

/// k = 3, K = 4: rows 1..3 of H give `S_0` every input and `S_1 = {1}`,
/// `S_2 = {0}`, `S_3 = {2}`; k = 2 leaves `S_3` empty (it leaks nothing).
#[test]
fn the_binding_mass_is_the_lightest_input_set() {
    let p = Array1::from(vec![0.5, 0.2, 0.3]);
    assert_eq!(hadamard_least_mass(p.view()), Some(0.2));
    let p = Array1::from(vec![0.25, 0.45, 0.3]);
    assert_eq!(hadamard_least_mass(p.view()), Some(0.25));
    let two = Array1::from(vec![0.9, 0.1]);
    assert_eq!(hadamard_least_mass(two.view()), Some(0.1));
    let w = hadamard_response(2, 1.0).unwrap();
    let empty = w.matrix().column(3).to_owned();
    assert!(empty.iter().all(|&v| v == empty[0]));
}

#[test]
fn bad_arguments_are_errors() {
    assert!(hadamard_response(0, 1.0).is_err());
    assert!(hadamard_response(3, f64::NAN).is_err());
    assert!(hadamard_response(3, -0.5).is_err());
    // The limit of an infinite boost: each input's high set, uniformly.
    let w = hadamard_response(3, f64::INFINITY).unwrap();
    assert_eq!(w.matrix().row(0).to_vec(), vec![0.5, 0.0, 0.5, 0.0]);
    assert!(hadamard_response(1 << 20, 1.0).is_err());
    assert_eq!(hadamard_least_mass(Array1::<f64>::zeros(0).view()), None);
}

/// `W diag(1/q) W^T` summed output by output, the definition.
fn fisher_by_definition(w: &pmldesign_model::Mechanism, p: &Array1<f64>) -> ndarray::Array2<f64> {
    let m = w.matrix();
    let q = m.t().dot(p);
    let n = m.nrows();
    ndarray::Array2::from_shape_fn((n, n), |(x, z)| {
        (0..m.ncols())
            .map(|y| m[[x, y]] * m[[z, y]] / q[y])
            .sum::<f64>()
    })
}

#[test]
fn its_fisher_information_by_the_transform_is_the_definitions() {
    use pmldesign_model::frequency::fisher_information;
    let mut rng = Rng(0x7a15_4ad1);
    for k in [2, 3, 5, 7, 8, 13, 31, 40] {
        let p = Array1::from(
            Prior::normalised(rng.prior_weights(k))
                .unwrap()
                .masses()
                .to_vec(),
        );
        for a in [0.0, 0.4, 1.7, 20.0, f64::INFINITY] {
            let w = hadamard_response(k, a).unwrap();
            let fast = fisher_information(&w, p.view());
            let slow = fisher_by_definition(&w, &p);
            let scale = slow.iter().fold(0.0f64, |s, v| s.max(v.abs()));
            let off = (&fast - &slow).iter().fold(0.0f64, |s, v| s.max(v.abs()));
            assert!(off <= 1e-13 * scale, "k {k}, a {a}: {off} of {scale}");
        }
        // A matrix off the form by one entry takes the general route.
        let mut rows: Vec<Vec<f64>> = hadamard_response(k, 1.0)
            .unwrap()
            .matrix()
            .rows()
            .into_iter()
            .map(|r| r.to_vec())
            .collect();
        let last = rows[k - 1].len() - 1;
        let (hi, lo) = (rows[k - 1][0], rows[k - 1][last]);
        rows[k - 1][0] = 0.5 * (hi + lo);
        rows[k - 1][last] += 0.5 * (hi - lo);
        let w = pmldesign_model::Mechanism::from_rows(rows).unwrap();
        let off = (&fisher_information(&w, p.view()) - &fisher_by_definition(&w, &p))
            .iter()
            .fold(0.0f64, |s, v| s.max(v.abs()));
        assert!(off < 1e-12, "k {k}: {off}");
    }
}
