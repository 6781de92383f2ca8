//! Tests of `sample`.

use pmldesign_model::prior::Prior;
use pmldesign_model::sample::*;
use std::f64::consts::LN_2;

fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

#[test]
fn phi_values() {
    assert_eq!(phi(0.5).unwrap(), 2.0);
    // Continuity at 1/2 and the direct formula away from it.
    for t in [0.5f64 - 1e-12, 0.5 - 1e-6, 0.5 - 1e-4, 0.49, 0.3, 0.1, 1e-6] {
        let direct = ((1.0 - t) / t).ln() / (1.0 - 2.0 * t);
        let tol = if t > 0.499 { 1e-6 } else { 1e-12 };
        assert!(rel(phi(t).unwrap(), direct) < tol, "t = {t}");
    }
    assert!((phi(0.5 - 1e-9).unwrap() - 2.0).abs() < 1e-15);
    // Decreasing.
    let mut prev = f64::INFINITY;
    for i in 1..=100 {
        let v = phi(i as f64 / 200.0).unwrap();
        assert!(v < prev && v >= 2.0);
        prev = v;
    }
    for bad in [0.0, -0.1, 0.6, f64::NAN] {
        let msg = phi(bad).unwrap_err().to_string();
        assert!(msg.contains("invalid t"), "{msg}");
    }
}

#[test]
fn kappa_values() {
    let k = |v: Vec<f64>| kappa(&Prior::new(v).unwrap());
    assert_eq!(k(vec![0.25; 4]), 0.5);
    assert!((k(vec![0.9, 0.1]) - 0.1).abs() < 1e-15);
    assert!((k(vec![0.6, 0.3, 0.1]) - 0.4).abs() < 1e-15);
    assert!((k(vec![1.0 / 3.0; 3]) - 1.0 / 3.0).abs() < 1e-15);
    // Against brute force over all subsets.
    let p = Prior::normalised(
        (1..=13)
            .map(|i| (i * i % 17 + 1) as f64)
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let m = p.masses().to_vec();
    let mut best = 0.0f64;
    for mask in 0u32..(1 << m.len()) {
        let s: f64 = (0..m.len())
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| m[i])
            .sum();
        best = best.max(s.min(1.0 - s));
    }
    assert!((kappa(&p) - best).abs() < 1e-12);
    // Beyond the exact limit: the conservative 1/2.
    let big = Prior::normalised(
        (0..KAPPA_EXACT_MAX_N + 1)
            .map(|i| 1.0 + i as f64)
            .collect::<Vec<_>>(),
    )
    .unwrap();
    assert_eq!(kappa(&big), 0.5);
}

#[test]
fn radius_free_matches_issue_example() {
    let beta = radius_free(10_000, 1e-6, 20).unwrap();
    let expected = ((2.0 / 10_000.0) * ((2f64.powi(20) - 2.0).ln() - 1e-6f64.ln())).sqrt();
    assert!(rel(beta, expected) < 1e-14);
    assert!((beta - 0.0744).abs() < 5e-4, "{beta}");
}

#[test]
fn ln_subsets_stable() {
    // At m = 2 and delta = 1/2 the radius is sqrt(ln(2^N - 2) + ln 2).
    let ln_subsets = |n: usize| radius_free(2, 0.5, n).unwrap().powi(2) - LN_2;
    for n in 2..60 {
        let direct = (2f64.powi(n as i32) - 2.0).ln();
        assert!(rel(ln_subsets(n), direct) < 1e-14, "n = {n}");
    }
    assert!(rel(ln_subsets(2), LN_2) < 1e-14);
    assert!(rel(ln_subsets(100_000), 100_000.0 * LN_2) < 1e-15);
    assert!(radius_free(10, 0.5, 5000).unwrap().is_finite());
}

#[test]
fn radius_kappa_half_equals_free() {
    for (m, delta, n) in [(1000u64, 1e-3, 4usize), (10_000, 1e-6, 20), (7, 0.3, 2)] {
        let p = Prior::uniform(n).unwrap();
        assert_eq!(kappa(&p), 0.5);
        let a = radius_kappa(m, delta, &p).unwrap();
        let b = radius_free(m, delta, n).unwrap();
        assert!(rel(a, b) < 1e-15, "{a} vs {b}");
    }
    // Smaller kappa, larger phi, smaller radius.
    let skew = Prior::new(vec![0.97, 0.01, 0.01, 0.01]).unwrap();
    assert!(radius_kappa(1000, 1e-3, &skew).unwrap() < radius_free(1000, 1e-3, 4).unwrap());
}

#[test]
fn failure_probability_inverts_radius() {
    for (m, delta, n) in [(1000u64, 1e-3, 4usize), (10_000, 1e-6, 20), (50, 0.2, 3)] {
        let beta = radius_free(m, delta, n).unwrap();
        assert!(rel(failure_probability(m, beta, n, 2.0).unwrap(), delta) < 1e-9);
        let p = Prior::new(vec![0.5, 0.3, 0.2]).unwrap();
        let bk = radius_kappa(m, delta, &p).unwrap();
        let ph = phi(kappa(&p)).unwrap();
        assert!(rel(failure_probability(m, bk, 3, ph).unwrap(), delta) < 1e-9);
    }
    assert_eq!(failure_probability(1, 0.0, 10, 2.0).unwrap(), 1.0);
    assert!(failure_probability(10, 0.1, 3, 1.5).is_err());
    assert!(failure_probability(10, -0.1, 3, 2.0).is_err());
}

#[test]
fn round_trip_eq8_corollary3() {
    for (m, delta, n, eps) in [
        (10_000u64, 1e-6, 20usize, 5f64.ln()),
        (1_000_000, 1e-9, 50, 1.0),
        (500, 0.05, 2, 0.2),
        (100_000, 0.01, 8, 0.0),
    ] {
        let beta = radius_free(m, delta, n).unwrap();
        let ep = epsilon_prime(eps, beta).unwrap();
        assert!(ep > eps);
        let back = delta_min(eps, ep, m, n).unwrap();
        assert!(rel(back, delta) < 1e-9, "{back} vs {delta}");
        // max_epsilon inverts eq. (8).
        let e = max_epsilon(m, delta, n, ep).unwrap();
        assert!((e - eps).abs() < 1e-12, "{e} vs {eps}");
        let g = SampleGuarantee::from_design(eps, m, delta, n).unwrap();
        assert_eq!((g.beta, g.epsilon_prime), (beta, ep));
        let t = SampleGuarantee::for_target(ep, m, delta, n).unwrap();
        assert!((t.epsilon - eps).abs() < 1e-12);
    }
}

#[test]
fn eq8_algebra() {
    // e^-eps' = e^-eps - beta / 2.
    let (eps, beta) = (1.3, 0.1);
    let ep = epsilon_prime(eps, beta).unwrap();
    assert!(((-ep).exp() - ((-eps).exp() - beta / 2.0)).abs() < 1e-15);
    assert_eq!(epsilon_prime(eps, 0.0).unwrap(), eps);
}

#[test]
fn min_samples_is_smallest() {
    for (eps, ep, delta, n) in [
        (5f64.ln(), 5f64.ln() + 0.1, 1e-5, 20usize),
        (1.0, 1.5, 1e-3, 2),
        (0.5, 0.51, 1e-9, 100),
        (2.0, 8.0, 0.5, 3),
    ] {
        let m = min_samples(eps, ep, delta, n).unwrap();
        assert!(delta_min(eps, ep, m, n).unwrap() <= delta);
        if m > 1 {
            assert!(delta_min(eps, ep, m - 1, n).unwrap() > delta, "m = {m}");
        }
        // The design at eps with m samples meets eps' at delta.
        let beta = radius_free(m, delta, n).unwrap();
        assert!(epsilon_prime(eps, beta).unwrap() <= ep * (1.0 + 1e-12));
    }
    assert!(min_samples(1.0, 1.0 + 1e-12, 1e-6, 10).is_err());
}

fn err(r: pmldesign_model::Result<impl std::fmt::Debug>) -> String {
    r.unwrap_err().to_string()
}

#[test]
fn bad_inputs_name_the_field() {
    for d in [0.0, 1.0, -0.5, 2.0, f64::NAN] {
        assert!(err(radius_free(100, d, 4)).contains("invalid delta"));
        assert!(err(min_samples(1.0, 2.0, d, 4)).contains("invalid delta"));
    }
    assert!(err(radius_free(0, 0.1, 4)).contains("invalid m"));
    assert!(err(delta_min(1.0, 2.0, 0, 4)).contains("invalid m"));
    assert!(err(radius_free(10, 0.1, 1)).contains("invalid n"));
    let p = Prior::uniform(3).unwrap();
    assert!(err(radius_kappa(0, 0.1, &p)).contains("invalid m"));
    assert!(err(radius_kappa(10, 1.5, &p)).contains("invalid delta"));
    // beta e^eps >= 2.
    let msg = err(epsilon_prime(1.0, 2.0 * (-1.0f64).exp()));
    assert!(
        msg.contains("invalid beta") && msg.contains("ln(2/beta)"),
        "{msg}"
    );
    let msg = err(epsilon_prime(2.0, 0.5));
    assert!(
        msg.contains("invalid beta") && msg.contains("2 e^-eps"),
        "{msg}"
    );
    let msg = err(epsilon_prime(0.0, 2.5));
    assert!(
        msg.contains("invalid beta") && msg.contains("beta >= 2"),
        "{msg}"
    );
    // The suggested eps works.
    let eps_ok = (2.0f64 / 0.5).ln() * (1.0 - 1e-9);
    assert!(epsilon_prime(eps_ok, 0.5).is_ok());
    assert!(err(epsilon_prime(-1.0, 0.1)).contains("invalid eps"));
    assert!(err(delta_min(1.0, 1.0, 10, 4)).contains("invalid eps_prime"));
    assert!(err(delta_min(1.0, 0.5, 10, 4)).contains("invalid eps_prime"));
    assert!(err(max_epsilon(10, 0.1, 20, 0.1)).contains("invalid eps_prime"));
    assert!(err(max_epsilon(0, 0.1, 20, 1.0)).contains("invalid m"));
}

#[test]
fn delta_min_caps_at_one() {
    assert_eq!(delta_min(1.0, 1.01, 10, 30).unwrap(), 1.0);
    assert!(delta_min(1.0, 3.0, 100_000, 4).unwrap() < 1e-100);
}

#[test]
fn guarantee_serialises() {
    let g = SampleGuarantee::from_design(1.0, 1000, 0.01, 4).unwrap();
    let s = serde_json::to_string(&g).unwrap();
    assert!(s.contains("\"epsilon_prime\""));
    let back: SampleGuarantee = serde_json::from_str(&s).unwrap();
    assert_eq!(
        (back.m, back.delta, back.epsilon),
        (g.m, g.delta, g.epsilon)
    );
    assert!(rel(back.beta, g.beta) < 1e-15 && rel(back.epsilon_prime, g.epsilon_prime) < 1e-15);
}
