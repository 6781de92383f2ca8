//! Planning from samples (`docs/theory.md` §6): the radius method, the sample size
//! behind counts and the smallest sample size for an (eps', delta) guarantee.

use pmldesign_model::Prior;
use pmldesign_model::sample::{self, MAX_SAMPLES, RadiusMethod, SamplePlan};

#[test]
fn radius_method_matches_the_radius_functions() {
    let p = Prior::new(vec![0.7, 0.2, 0.1]).unwrap();
    let free = RadiusMethod::DistributionFree
        .radius(500, 0.01, &p)
        .unwrap();
    assert_eq!(free, sample::radius_free(500, 0.01, 3).unwrap());
    let kappa = RadiusMethod::Kappa.radius(500, 0.01, &p).unwrap();
    assert_eq!(kappa, sample::radius_kappa(500, 0.01, &p).unwrap());
    assert!(kappa < free);
    assert!(RadiusMethod::Kappa.radius(0, 0.01, &p).is_err());
}

#[test]
fn radius_method_phi_is_two_without_an_estimate() {
    let p = Prior::new(vec![0.7, 0.2, 0.1]).unwrap();
    assert_eq!(RadiusMethod::DistributionFree.phi(None).unwrap(), 2.0);
    assert_eq!(RadiusMethod::DistributionFree.phi(Some(&p)).unwrap(), 2.0);
    let k = RadiusMethod::Kappa.phi(Some(&p)).unwrap();
    assert_eq!(k, sample::phi(sample::kappa(&p)).unwrap());
    let e = RadiusMethod::Kappa.phi(None).unwrap_err().to_string();
    assert!(e.contains("kappa") && !e.contains("--"), "{e}");
}

#[test]
fn radius_method_serialises_in_snake_case() {
    let json = serde_json::to_string(&RadiusMethod::DistributionFree).unwrap();
    assert_eq!(json, "\"distribution_free\"");
    let back: RadiusMethod = serde_json::from_str("\"kappa\"").unwrap();
    assert_eq!(back, RadiusMethod::Kappa);
}

#[test]
fn sample_size_is_the_total_up_to_two_to_the_53() {
    assert_eq!(sample::sample_size(&[40, 20, 20, 20]).unwrap(), 100);
    assert_eq!(sample::sample_size(&[MAX_SAMPLES, 0]).unwrap(), MAX_SAMPLES);
    let e = sample::sample_size(&[1, MAX_SAMPLES, 5])
        .unwrap_err()
        .to_string();
    assert!(e.contains("counts[1]") && e.contains("2^53"), "{e}");
    assert!(!e.contains("--"), "{e}");
    assert!(sample::sample_size(&[u64::MAX, u64::MAX]).is_err());
}

#[test]
fn sample_plan_is_the_smallest_sufficient_size() {
    let (eps, eps_prime, delta, n) = (0.5, 0.6, 0.01, 4);
    let plan = SamplePlan::new(eps, eps_prime, delta, n).unwrap();
    let g = plan.guarantee;
    assert_eq!(g.m, sample::min_samples(eps, eps_prime, delta, n).unwrap());
    assert!(plan.delta_min <= delta);
    assert!(sample::delta_min(eps, eps_prime, g.m - 1, n).unwrap() > delta);
    assert_eq!(g.beta, sample::radius_free(g.m, delta, n).unwrap());
    assert!(g.epsilon_prime <= eps_prime + 1e-12);
    assert!(SamplePlan::new(0.6, 0.5, delta, n).is_err());
}
