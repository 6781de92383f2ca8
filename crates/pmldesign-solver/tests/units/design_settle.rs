//! Tests of `design::settle`.

use ndarray::{Array1, Array2, array};
use pmldesign_model::linalg::nonnegative_least_squares_until;
use pmldesign_model::measures as density;
use pmldesign_model::measures::NotionLevels;
use pmldesign_model::{Mechanism, Notion, UncertaintySet};
use pmldesign_solver::internals::design::settle::*;

/// A mechanism far above its target (weights of an unfinished LP) is mixed
/// coarsely until it meets it: a private mechanism, never an error.
#[test]
fn far_off_mechanisms_are_mixed_until_private() {
    let p = array![0.5, 0.3, 0.2];
    let prior = pmldesign_model::Prior::new(p.to_vec()).unwrap();
    let set = UncertaintySet::known(prior.clone());
    let w = Mechanism::new(array![[0.9, 0.1], [0.2, 0.8], [0.5, 0.5]]).unwrap();
    let eps = 0.99 * density::eps_min(&w, &prior);
    let notion = Notion::Pml { epsilon: eps };
    let met = meet_target(w, &set, &notion, p.view(), false).unwrap();
    let levels = NotionLevels::measure_notion(&met, &set, &notion);
    assert!(levels.excess(&notion) <= 0.0);
    for row in met.matrix().rows() {
        assert!((row.sum() - 1.0).abs() < 1e-12);
    }
}

/// The test hook of the polishing loop: a stop raised before step k ends it
/// there (the caller then keeps the LP's weights), at every k, while the
/// same candidates polish to an exact basis when nothing stops them; the
/// non-negative fallback stops the same way.
#[test]
fn polishing_stops_at_any_step() {
    let candidates: Vec<(Array1<f64>, f64)> = vec![
        (ndarray::array![1.0, 1.0, 1.0], 0.5),
        (ndarray::array![2.0, 0.5, 0.0], 0.3),
        (ndarray::array![0.0, 1.5, 2.0], 0.2),
        (ndarray::array![1e-9, 1.0, 3.0], 1e-12),
    ];
    let (support, theta) = polish(&candidates, 3, &|_| false).unwrap();
    let w = stacked(support.iter(), 3).dot(&theta);
    assert!(w.iter().all(|r| (r - 1.0).abs() <= 1e-13), "{w}");
    for k in 0..3 {
        let asked = std::cell::Cell::new(0);
        let stop = |i: usize| {
            asked.set(asked.get().max(i + 1));
            i >= k
        };
        assert!(polish(&candidates, 3, &stop).is_none(), "stopped at {k}");
        assert_eq!(asked.get(), k + 1, "no step after the stop at {k}");
    }
    let v = stacked(candidates.iter().map(|c| &c.0), 3);
    let ones = Array1::ones(3);
    assert!(nonnegative_least_squares_until(&v, &ones, &|_| false).is_some());
    assert!(nonnegative_least_squares_until(&v, &ones, &|i| i >= 1).is_none());
}

/// LP weights whose rows are off by rounding (no exact basis) are repaired
/// and settled: rows sum to 1, and no column's PML under the prior rises.
#[test]
fn repair_fixes_rows_without_raising_leakage() {
    let p = array![0.5, 0.3, 0.2];
    let mut w = array![
        [0.6 + 3e-10, 0.4, 0.0],
        [0.2, 0.5 - 2e-10, 0.3],
        [0.1, 0.2, 0.7 + 1e-10]
    ];
    let pml = |w: &Array2<f64>| -> Vec<f64> {
        let q = p.dot(w);
        w.columns()
            .into_iter()
            .zip(q.iter())
            .map(|(c, qy)| (c.iter().copied().fold(0.0, f64::max) / qy).ln())
            .collect()
    };
    let before = pml(&w);
    repair(&mut w);
    mix_with_means(&mut w, p.view(), REPAIR_MIX);
    for row in w.rows() {
        assert!((row.sum() - 1.0).abs() <= 1e-15);
    }
    for (a, b) in pml(&w).iter().zip(&before) {
        assert!(a <= b, "PML rose from {b} to {a}");
    }
    assert!(w.iter().all(|&x| x > 0.0));
}
