//! Zero counts: a category never observed has mass 0 in the estimate,
//! and the ball of the sample guarantee (or a given radius) still protects it. A
//! known prior with a zero stays an error (its row would be unconstrained).

use pmldesign_model::{Prior, UncertaintySet};
use pmldesign_solver::{Design, Problem, Sample};

/// PML of `design` at `prior` (max over every input: a mass near 0 still counts in
/// the ball), by hand.
fn pml_at(design: &Design, prior: &[f64]) -> f64 {
    let w = design.mechanism().matrix();
    (0..w.ncols())
        .filter_map(|y| {
            let q: f64 = (0..w.nrows()).map(|x| prior[x] * w[[x, y]]).sum();
            let top = (0..w.nrows()).map(|x| w[[x, y]]).fold(0.0, f64::max);
            (q > 0.0).then(|| (top / q).ln())
        })
        .fold(0.0, f64::max)
}

#[test]
fn estimates_with_zeros_are_protected_over_the_whole_ball() {
    for counts in [
        &[50u64, 30, 0][..],
        &[40, 0, 30, 20],
        &[3, 0, 0, 5, 9],
        &[7, 0],
        &[0, 12, 1],
    ] {
        for delta in [0.05, 0.5] {
            let sample = Sample::from_counts(counts, delta).unwrap();
            let d = Problem::from_sample(sample).epsilon(1.0).solve().unwrap();
            assert!(
                d.certificate().worst_case_pml() <= 1.0 + 1e-12,
                "{counts:?} {delta}"
            );
            // Every vertex of the ball, re-measured by hand.
            for v in d.uncertainty().vertices(100_000).unwrap() {
                let level = pml_at(&d, v.as_slice().unwrap());
                assert!(level <= 1.0 + 1e-12, "{counts:?} {delta}: {level} at {v}");
            }
            // A stored design with a zero at the centre reads back, re-certified.
            let text = serde_json::to_string(&d).unwrap();
            let back: Design = serde_json::from_str(&text).unwrap();
            assert_eq!(serde_json::to_string(&back).unwrap(), text);
            assert!(d.guarantee().unwrap().simpler_route().is_none());
        }
    }
}

#[test]
fn a_given_radius_around_a_prior_with_a_zero_is_a_ball_like_any_other() {
    let center = Prior::center(vec![0.5, 0.5, 0.0]).unwrap();
    let d = Problem::new(UncertaintySet::l1_ball(center, 0.2).unwrap())
        .epsilon(0.8)
        .solve()
        .unwrap();
    for v in d.uncertainty().vertices(1000).unwrap() {
        assert!(pml_at(&d, v.as_slice().unwrap()) <= 0.8 + 1e-12);
    }
}

#[test]
fn a_known_prior_with_a_zero_is_refused_naming_it() {
    let prior = Prior::center(vec![0.5, 0.5, 0.0]).unwrap();
    let e = Problem::new(UncertaintySet::known(prior))
        .epsilon(1.0)
        .solve()
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("invalid prior[2] = 0") && e.contains("ball"),
        "{e}"
    );
    assert!(Prior::new(vec![0.5, 0.5, 0.0]).is_err());
    assert!(Prior::center(vec![0.0, 0.0]).is_err());
    assert!(Prior::center(vec![0.5, -0.5, 1.0]).is_err());
}
