//! Tests of `design::simplicial`.

use ndarray::{Array1, Array2, array};
use pmldesign_model::Mechanism;
use pmldesign_model::frequency::asymptotic_error;
use pmldesign_solver::internals::design::simplicial::*;

/// The eps-LDP mechanism whose columns are all the two-level rays, `e^eps`
/// on a subset S and 1 elsewhere: every row sums to the same by symmetry,
/// so dividing by it keeps the rays.
fn all_rays(k: usize, eps: f64) -> Mechanism {
    let cols: Vec<Vec<f64>> = (1u32..(1 << k) - 1)
        .map(|s| {
            (0..k)
                .map(|x| if s >> x & 1 == 1 { eps.exp() } else { 1.0 })
                .collect()
        })
        .collect();
    let mut w = Array2::from_shape_fn((k, cols.len()), |(x, y)| cols[y][x]);
    let total = w.row(0).sum();
    w.mapv_inplace(|v| v / total);
    Mechanism::new(w).expect("row-stochastic")
}

fn randomized_response(k: usize, eps: f64) -> Mechanism {
    pmldesign_solver::closed_form::randomized_response(k, eps).expect("a level >= 0")
}

/// k-subset selection of subsets of `d` inputs at eps-LDP.
fn subsets(k: usize, d: usize, eps: f64) -> Mechanism {
    pmldesign_solver::internals::reference::literature::subset_mechanism(k, d, eps.exp_m1())
        .expect("few outputs")
}

fn solved(p: &Array1<f64>, k: usize, eps: f64) -> Pool {
    let mut pool = Pool::start(randomized_response(k, eps), p.view());
    pool.add(&all_rays(k, eps), 0.5);
    pool.solve(1.0, 0.0, &|| false);
    pool
}

/// Over every eps-LDP ray and a uniform prior, the optimum is k-subset
/// selection at its best size (Ye and Barg 2018): the restricted problem
/// over all rays reaches it, from randomized response.
#[test]
fn reaches_the_best_subset_mechanism_under_a_uniform_prior() {
    let (k, eps) = (6, 1.0);
    let p = Array1::from_elem(k, 1.0 / k as f64);
    let pool = solved(&p, k, eps);
    let m = pool.mechanism().expect("a mechanism");
    let error = asymptotic_error(&m, p.view()).expect("estimable");
    let best = (1..k)
        .map(|d| asymptotic_error(&subsets(k, d, eps), p.view()).expect("estimable"))
        .fold(f64::INFINITY, f64::min);
    assert!(
        (error - best).abs() <= 1e-9 * best,
        "{error} against {best}"
    );
}

/// Under a skewed prior the weights' solution is a mechanism whose rows sum
/// to 1, whose columns are rays (LDP holds), with no output of negligible
/// probability, below randomized response and every subset mechanism.
#[test]
fn a_skewed_prior_gives_a_clean_mechanism_below_the_baselines() {
    let (k, eps) = (5, 1.0);
    let p = array![0.45, 0.25, 0.15, 0.1, 0.05];
    let pool = solved(&p, k, eps);
    let m = pool.mechanism().expect("a mechanism");
    let w = m.matrix();
    for row in w.rows() {
        assert!((row.sum() - 1.0).abs() <= 1e-13, "row sum {}", row.sum());
    }
    for c in w.columns() {
        let (lo, hi) = c
            .iter()
            .fold((f64::INFINITY, 0.0f64), |(l, h), v| (l.min(*v), h.max(*v)));
        assert!(
            hi <= eps.exp() * lo * (1.0 + 1e-12),
            "a column outside the LDP cone"
        );
        assert!(p.dot(&c) > 1e-7, "an output of probability {}", p.dot(&c));
    }
    let error = asymptotic_error(&m, p.view()).expect("estimable");
    let rr = asymptotic_error(&randomized_response(k, eps), p.view()).expect("estimable");
    assert!(error < rr);
    for d in 1..k {
        let subset = asymptotic_error(&subsets(k, d, eps), p.view()).expect("estimable");
        assert!(
            error <= subset * (1.0 + 1e-12),
            "{error} above the {d}-subset's {subset}"
        );
    }
}

/// A pool stopped before its first Newton step keeps its weights: the
/// point never moves where f does not decrease.
#[test]
fn a_stopped_solve_keeps_the_point() {
    let (k, eps) = (4, 1.0);
    let p = Array1::from_elem(k, 0.25);
    let mut pool = Pool::start(randomized_response(k, eps), p.view());
    pool.add(&all_rays(k, eps), 0.5);
    let before = pool.weights.clone();
    pool.solve(1.0, 0.0, &|| true);
    assert_eq!(pool.weights, before);
}
