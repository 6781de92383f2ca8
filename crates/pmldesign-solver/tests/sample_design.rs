//! Designs from counts: the certificate holds over the whole ball, checked
//! by the exact greedy worst case, by the ball's vertices (an independent method),
//! and by sampling priors from the ball.

use pmldesign_model::uncertainty::l1_ball_vertices;
use pmldesign_model::{Prior, UncertaintySet, measures, sample};
use pmldesign_solver::{FInformation, Problem, RadiusMethod, Sample, radius};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn design_from_counts_holds_over_the_whole_ball(
        counts in prop::collection::vec(5u64..400, 2..=5),
        log_delta in -12.0f64..-1.0,
        eps in 0.05f64..2.0,
        seed in any::<u64>(),
    ) {
        let m: u64 = counts.iter().sum();
        let estimate = Prior::normalised(counts.iter().map(|&c| c as f64).collect::<Vec<_>>()).unwrap();
        let delta = log_delta.exp();
        let sample = Sample::from_counts(&counts, delta).unwrap();
        prop_assert_eq!(&sample.estimate, &estimate);
        let d = Problem::from_sample(sample).epsilon(eps).solve().unwrap();
        let g = d.guarantee().unwrap();
        let beta = sample::radius_free(m, delta, estimate.len()).unwrap();
        prop_assert!((g.beta() - beta).abs() < 1e-15);
        let w = d.mechanism();
        // Exact greedy worst case (the certificate) ...
        prop_assert!(d.certificate().worst_case_pml() <= eps + 1e-10);
        // ... agrees with the worst case over the ball's vertices.
        let vertices = l1_ball_vertices(&estimate, beta, 1_000_000).unwrap();
        let poly = UncertaintySet::polytope(vertices.iter().map(|v| v.to_vec()).collect()).unwrap();
        let by_vertices = poly.worst_case_pml(w);
        prop_assert!((by_vertices - d.certificate().worst_case_pml()).abs() < 1e-9,
            "vertices {} vs greedy {}", by_vertices, d.certificate().worst_case_pml());
        // ... and no sampled prior of the ball leaks more.
        let n = estimate.len();
        let mut s = seed | 1;
        let mut next = || { s ^= s << 13; s ^= s >> 7; s ^= s << 17; (s >> 11) as f64 / (1u64 << 53) as f64 };
        for _ in 0..300 {
            let mut dir: Vec<f64> = (0..n).map(|_| next() - 0.5).collect();
            let mean = dir.iter().sum::<f64>() / n as f64;
            dir.iter_mut().for_each(|x| *x -= mean);
            let norm: f64 = dir.iter().map(|x| x.abs()).sum();
            let scale = beta * next() / norm;
            let q: Vec<f64> = estimate.masses().iter().zip(&dir).map(|(a, b)| a + scale * b).collect();
            if let Ok(q) = Prior::new(q) {
                prop_assert!(measures::eps_min(w, &q) <= eps + 1e-10);
            }
        }
        // The simpler route never beats the design over the ball.
        if let Some(r) = g.simpler_route() {
            prop_assert!(r.worst_case_pml() <= eps + 1e-9);
            prop_assert!(r.utility() <= d.utility_value() + 1e-9);
        }
    }
}

#[test]
fn kappa_radius_is_sharper_and_noted() {
    let estimate = Prior::normalised(vec![700.0, 200.0, 100.0]).unwrap();
    let free = radius(&estimate, 1000, 1e-3, RadiusMethod::DistributionFree).unwrap();
    let kappa = radius(&estimate, 1000, 1e-3, RadiusMethod::Kappa).unwrap();
    assert!(kappa < free);
    let sample = Sample {
        estimate,
        samples: 1000,
        delta: 1e-3,
        radius: RadiusMethod::Kappa,
        private_prior: None,
    };
    let d = Problem::from_sample(sample)
        .epsilon(0.5)
        .utility(FInformation::mutual_information())
        .solve()
        .unwrap();
    let g = d.guarantee().unwrap();
    assert!((g.beta() - kappa).abs() < 1e-15);
    assert!(g.radius_note().unwrap().contains("estimate"));
    assert_eq!((g.delta(), g.samples()), (1e-3, 1000));
}

#[test]
fn rare_categories_use_the_exact_ball() {
    // beta* exceeds 2 min p^: Proposition 2 does not apply, the exact ball does.
    let counts = [5000.0, 3000.0, 1900.0, 60.0, 40.0];
    let estimate = Prior::normalised(counts.to_vec()).unwrap();
    let beta = sample::radius_free(10_000, 1e-6, 5).unwrap();
    assert!(beta >= 2.0 * estimate.min_mass());
    let sample = Sample {
        estimate,
        samples: 10_000,
        delta: 1e-6,
        radius: RadiusMethod::DistributionFree,
        private_prior: None,
    };
    let d = Problem::from_sample(sample).epsilon(1.0).solve().unwrap();
    assert!(d.certificate().worst_case_pml() <= 1.0 + 1e-10);
}
