//! Tests of `uncertainty`.

use approx::assert_abs_diff_eq;
use ndarray::{ArrayView1, array};
use pmldesign_model::internals::uncertainty::{unchecked_ball, unchecked_polytope};
use pmldesign_model::prior::Prior;
use pmldesign_model::uncertainty::*;

/// A value built past the constructors is refused by `validate` with
/// their error.
#[test]
fn validate_refuses_what_the_constructors_refuse() {
    let center = Prior::new(vec![0.5, 0.5]).unwrap();
    for beta in [-0.5, 0.0, f64::NAN, f64::INFINITY] {
        let set = unchecked_ball(center.clone(), beta);
        let want = UncertaintySet::l1_ball(center.clone(), beta).unwrap_err();
        assert_eq!(set.validate().unwrap_err().to_string(), want.to_string());
    }
    let vertices = vec![vec![1.5, -0.3, -0.2]];
    let set = unchecked_polytope(vertices.clone());
    let want = UncertaintySet::polytope(vertices).unwrap_err();
    assert_eq!(set.validate().unwrap_err().to_string(), want.to_string());
}

#[test]
fn ball_min_dot_small_beta_closed_form() {
    let p = array![0.5, 0.3, 0.2];
    let c = array![0.2, 0.9, 0.5];
    let beta = 0.1;
    assert_abs_diff_eq!(
        ball_min_dot(p.view(), beta, c.view()),
        p.dot(&c) - beta / 2.0 * (0.9 - 0.2),
        epsilon = 1e-15
    );
}

/// The memory-order passes give the bits of the column-by-column ones:
/// random mechanisms with zeros and ties, radii from 0 to past 2 min p.
#[test]
fn min_output_probabilities_are_the_columns_bits() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(4096);
    for n in [2usize, 3, 7, 30, 64] {
        let g: Vec<f64> = (0..n).map(|_| rng.random_range(0.01..1.0)).collect();
        let prior = Prior::normalised(g).unwrap();
        let w = ndarray::Array2::from_shape_fn((n, n + 2), |_| match rng.random_range(0..4) {
            0 => 0.0,
            1 => 0.5,
            _ => rng.random_range(0.0..1.0),
        });
        let mut sets = vec![UncertaintySet::known(prior.clone())];
        for beta in [0.0, 1e-3, 0.5 * prior.min_mass(), 0.3, 1.5] {
            sets.push(unchecked_ball(prior.clone(), beta));
        }
        let bits = |v: Vec<f64>| v.iter().map(|q| q.to_bits()).collect::<Vec<_>>();
        for set in &sets {
            let by_column = |f: fn(&UncertaintySet, ArrayView1<f64>) -> f64| {
                bits(w.columns().into_iter().map(|c| f(set, c)).collect())
            };
            let want = by_column(UncertaintySet::min_output_probability);
            let got = bits(set.min_output_probabilities(w.view()));
            assert_eq!(got, want, "min: n {n} set {set:?}");
            let want = by_column(UncertaintySet::max_output_probability);
            let got = bits(set.max_output_probabilities(w.view()));
            assert_eq!(got, want, "max: n {n} set {set:?}");
        }
    }
}

#[test]
fn ball_min_and_max_dot_equal_extremes_over_vertices() {
    let center = Prior::new(vec![0.05, 0.15, 0.3, 0.5]).unwrap();
    for &beta in &[0.05, 0.3, 0.7, 1.2, 1.9] {
        let verts = l1_ball_vertices(&center, beta, 10_000).unwrap();
        for v in &verts {
            assert!(v.iter().all(|&x| x >= -1e-15));
            assert_abs_diff_eq!(v.sum(), 1.0, epsilon = 1e-12);
            assert!((v - &center.masses()).mapv(f64::abs).sum() <= beta + 1e-12);
        }
        for c in [array![0.1, 0.9, 0.4, 0.0], array![1.0, 0.2, 0.3, 0.7]] {
            let greedy = ball_min_dot(center.masses(), beta, c.view());
            let best = verts
                .iter()
                .map(|v| v.dot(&c))
                .fold(f64::INFINITY, f64::min);
            assert_abs_diff_eq!(greedy, best, epsilon = 1e-12);
            let ball = UncertaintySet::l1_ball(center.clone(), beta).unwrap();
            let most = verts.iter().map(|v| v.dot(&c)).fold(0.0, f64::max);
            assert_abs_diff_eq!(ball.max_output_probability(c.view()), most, epsilon = 1e-12);
        }
    }
}
