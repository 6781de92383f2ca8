//! Tests of `reference::pair_balance`.

use ndarray::Array1;
use pmldesign_model::frequency::difference_counts;
use pmldesign_solver::internals::reference::literature::{Level, cyclic_design};
use pmldesign_solver::internals::reference::pair_balance::*;

use pmldesign_model::frequency::{
    asymptotic_error, balanced_base_blocks, best_subset_size_uniform, subset_error_uniform,
};

/// The pair counts of the weighted orbits, per difference.
fn covered(k: usize, blocks: &[Vec<usize>], w: &[f64]) -> Vec<f64> {
    let mut c = vec![0.0; k / 2];
    for (b, wm) in blocks.iter().zip(w) {
        for (ci, n) in c.iter_mut().zip(difference_counts(k, b)) {
            *ci += wm * n;
        }
    }
    c
}

#[test]
fn weights_even_out_every_difference() {
    for (k, d) in [(13usize, 4usize), (32, 9), (64, 17), (128, 34)] {
        let blocks = balanced_base_blocks(k, d, (k / 2 + 1) * 2);
        let w = even_weights(k, &blocks).expect("the LP solves");
        assert!((w.iter().sum::<f64>() - 1.0).abs() <= 1e-14);
        assert!(w.iter().all(|v| *v >= 0.0));
        assert!(w.iter().filter(|v| **v > 0.0).count() <= k / 2 + 1);
        let c = covered(k, &blocks, &w);
        let (lo, hi) = c
            .iter()
            .fold((f64::MAX, 0.0f64), |(l, h), v| (l.min(*v), h.max(*v)));
        assert!(hi - lo <= 1e-12 * hi, "k = {k}: counts {lo} to {hi}");
    }
}

#[test]
fn under_the_uniform_prior_the_cyclic_design_has_k_subset_selections_error() {
    for (k, eps) in [(32usize, 1.0f64), (32, 2.0), (64, 1.0), (128, 1.0)] {
        let a = eps.exp_m1();
        let p = Array1::from_elem(k, 1.0 / k as f64);
        let w = cyclic_design(p.view(), &Level::Ldp(eps)).expect("a finite boost");
        assert!(w.outputs() <= (k / 2 + 1) * k);
        let figure = subset_error_uniform(k, best_subset_size_uniform(k, a), a);
        let e = asymptotic_error(&w, p.view()).expect("every input estimable");
        assert!(
            (e - figure).abs() <= 1e-10 * figure,
            "k = {k}, eps {eps}: {e} vs {figure}"
        );
    }
}
