//! Cyclic subset designs (`frequency::cyclic_subsets`, docs/theory.md §13):
//! stochastic rows at the LDP level of k-subset selection, every input in the
//! same number of blocks, and, under the uniform prior, an error within a
//! fraction of a percent of k-subset selection's closed form.

use ndarray::Array1;
use pmldesign_model::frequency::{
    asymptotic_error, balanced_base_blocks, cyclic_subsets, difference_counts,
    subset_error_uniform, weighted_cyclic_subsets,
};

#[test]
fn rows_are_stochastic_at_the_subset_level() {
    for (k, d, orbits) in [(5, 2, 1), (12, 4, 3), (31, 9, 4)] {
        let a = 1.7;
        let w = cyclic_subsets(k, d, a, orbits).unwrap();
        assert_eq!(w.outputs(), k * orbits);
        let m = w.matrix();
        for row in m.rows() {
            assert!((row.sum() - 1.0).abs() <= 1e-12);
            let high = row
                .iter()
                .filter(|&&v| v > row.iter().cloned().fold(f64::MAX, f64::min))
                .count();
            assert_eq!(high, d * orbits, "each input lies in d blocks per orbit");
        }
        for col in m.columns() {
            let (lo, hi) = col
                .iter()
                .fold((f64::MAX, 0.0f64), |(l, h), &v| (l.min(v), h.max(v)));
            assert!((hi / lo - (1.0 + a)).abs() <= 1e-12);
        }
    }
}

#[test]
fn base_blocks_are_distinct_and_deterministic() {
    let b = balanced_base_blocks(40, 11, 3);
    assert_eq!(b, balanced_base_blocks(40, 11, 3));
    for block in &b {
        let mut s = block.clone();
        s.dedup();
        assert_eq!(s.len(), 11);
        assert!(block.iter().all(|&x| x < 40));
    }
}

#[test]
fn under_the_uniform_prior_the_error_is_near_k_subset_selection() {
    for (k, eps) in [(32usize, 1.0f64), (64, 2.0)] {
        let a = eps.exp_m1();
        let d = pmldesign_model::frequency::best_subset_size_uniform(k, a);
        let subset = subset_error_uniform(k, d, a);
        let p = Array1::from_elem(k, 1.0 / k as f64);
        let w = cyclic_subsets(k, d, a, 16).unwrap();
        let e = asymptotic_error(&w, p.view()).unwrap();
        assert!(e >= subset * (1.0 - 1e-9), "{e} below {subset}");
        assert!(e <= subset * 1.01, "k = {k}: {e} vs {subset}");
    }
}

#[test]
fn a_difference_set_is_counted_once_per_difference() {
    // {0, 1, 3} mod 7: every nonzero difference once (the Fano plane).
    assert_eq!(difference_counts(7, &[0, 1, 3]), vec![1.0; 3]);
    // At an even k the difference k / 2 is counted from both ends.
    assert_eq!(difference_counts(4, &[0, 2]), vec![0.0, 2.0]);
}

#[test]
fn weighted_orbits_keep_rows_stochastic_and_drop_weightless_ones() {
    let blocks = balanced_base_blocks(12, 4, 3);
    let w = weighted_cyclic_subsets(12, 1.5, &blocks, &[0.5, 0.0, 0.5]).unwrap();
    assert_eq!(w.outputs(), 24);
    for row in w.matrix().rows() {
        assert!((row.sum() - 1.0).abs() <= 1e-12);
    }
    assert!(weighted_cyclic_subsets(12, 1.5, &blocks, &[0.5, 0.5]).is_err());
    assert!(weighted_cyclic_subsets(12, 1.5, &blocks, &[0.5, 0.6, -0.1]).is_err());
}

#[test]
fn bad_parameters_are_refused() {
    assert!(cyclic_subsets(4, 4, 1.0, 1).is_err());
    assert!(cyclic_subsets(4, 2, 0.0, 1).is_err());
    assert!(cyclic_subsets(4, 2, 1.0, 0).is_err());
}
