//! The two LPs meet: the best MAP accuracy from the LP over rays equals one
//! minus the least expected Hamming loss from the direct LP.

use crate::common::design;
use crate::common::minimise_loss;
use crate::common::{known_or_small_ball, random_prior, rng};
use pmldesign_model::UncertaintySet;
use pmldesign_solver::Loss;
use pmldesign_solver::Route;
use pmldesign_solver::{MapAccuracy, Settings};
use rand::RngExt;

#[test]
fn map_accuracy_is_one_minus_least_hamming_loss() {
    let mut r = rng(11);
    for case in 0..24 {
        let n = r.random_range(2..=6);
        let p = random_prior(&mut r, n, 0.3);
        let eps = r.random_range(0.05..2.0);
        let set = known_or_small_ball(&mut r, &p, case, 0.1..0.9);
        let map = design(&set, eps, &MapAccuracy, &Settings::default()).unwrap();
        let loss = minimise_loss(&set, eps, &Loss::Hamming).unwrap();
        assert!(
            (map.utility_value() - (1.0 - loss.expected_loss)).abs() < 1e-8,
            "case {case}: MAP {} vs 1 - loss {}",
            map.utility_value(),
            1.0 - loss.expected_loss
        );
        assert!(loss.certificate.worst_case_pml() <= eps + 1e-10);
        assert!(loss.certificate.max_row_sum_error() <= 1e-12);
    }
}

#[test]
fn hamming_loss_extremes() {
    let p = pmldesign_model::Prior::new(vec![0.5, 0.3, 0.2]).unwrap();
    let set = UncertaintySet::known(p);
    let free = minimise_loss(&set, 10.0, &Loss::Hamming).unwrap();
    assert!(free.expected_loss.abs() < 1e-12);
    let none = minimise_loss(&set, 0.0, &Loss::Hamming).unwrap();
    assert!((none.expected_loss - 0.5).abs() < 1e-9);
}

/// Past \[E\] Prop 2 at N = 40 (rare categories, no vertex list): MAP accuracy
/// is priced as the loss `-diag(p)`, one linear pricing per maximiser, and
/// meets one minus the least Hamming loss, which column generation over the
/// exact ball's families finds independently; both are optimal.
#[test]
fn map_accuracy_meets_hamming_loss_past_proposition_2() {
    let p = pmldesign_model::Prior::normalised(
        (1..=40).map(|k| (k as f64).powf(-1.1)).collect::<Vec<_>>(),
    )
    .unwrap();
    let beta = 3.0 * p.min_mass();
    let set = UncertaintySet::l1_ball(p, beta).unwrap();
    let map = design(&set, 1.0, &MapAccuracy, &Settings::default()).unwrap();
    let loss = minimise_loss(&set, 1.0, &Loss::Hamming).unwrap();
    assert_eq!(map.route(), Route::BranchAndBound);
    assert_eq!(map.status(), pmldesign_solver::DesignStatus::Optimal);
    assert_eq!(loss.status, pmldesign_solver::DesignStatus::Optimal);
    assert!(
        (map.utility_value() - (1.0 - loss.expected_loss)).abs() < 1e-8,
        "MAP {} vs 1 - loss {}",
        map.utility_value(),
        1.0 - loss.expected_loss
    );
    assert!(map.certificate().worst_case_pml() <= 1.0 + 1e-12);
}
