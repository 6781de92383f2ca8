//! Tests of `private_prior`.

use pmldesign_model::prior::Prior;
use pmldesign_model::private_prior::*;
use pmldesign_model::sample::RadiusMethod;

/// The law of `|Z|` up to `k_max`: `P(0) = (1-a)/(1+a)`, `P(k) = 2 a^k (1-a)/(1+a)`.
fn abs_law(epsilon: f64, k_max: usize) -> Vec<f64> {
    let a = (-epsilon).exp();
    let c = (1.0 - a) / (1.0 + a);
    (0..=k_max)
        .map(|k| {
            if k == 0 {
                c
            } else {
                2.0 * c * a.powi(k as i32)
            }
        })
        .collect()
}

/// `P(T >= t)` for the sum of n copies, by convolution (the tail past k_max is
/// below 1e-15 for the laws used).
fn exact_tail(n: usize, epsilon: f64, t: usize) -> f64 {
    let k_max = 400;
    let law = abs_law(epsilon, k_max);
    let mut sum = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; sum.len() + k_max];
        for (i, &p) in sum.iter().enumerate() {
            for (k, &q) in law.iter().enumerate() {
                next[i + k] += p * q;
            }
        }
        sum = next;
    }
    1.0 - sum[..t].iter().sum::<f64>()
}

#[test]
fn the_bound_holds_against_the_exact_law() {
    for &(n, eps, delta) in &[
        (2, 1.0, 0.05),
        (5, 0.5, 0.01),
        (10, 2.0, 1e-3),
        (3, 0.2, 0.1),
    ] {
        let t = noise_bound(n, eps, delta).unwrap();
        let tail = exact_tail(n, eps, t as usize);
        assert!(
            tail <= delta,
            "n {n} eps {eps}: P(T >= {t}) = {tail} > {delta}"
        );
        // And not absurdly loose: a quarter of t is exceeded often.
        assert!(
            exact_tail(n, eps, (t / 4) as usize) > delta,
            "n {n} eps {eps}"
        );
    }
}

#[test]
fn the_chernoff_exponent_is_a_bound_at_every_t() {
    for t in 1..60 {
        let exact = exact_tail(4, 0.7, t);
        assert!(log_tail(4, 0.7, t as f64).exp() >= exact - 1e-15, "t {t}");
    }
    assert_eq!(log_tail(4, 0.7, 0.0), 0.0);
}

#[test]
fn the_radius_adds_the_noise_to_the_sample() {
    let q = Prior::center(vec![0.5, 0.3, 0.2]).unwrap();
    let r = private_radius(RadiusMethod::DistributionFree, 1000, 0.05, 1.0, &q).unwrap();
    let t = noise_bound(3, 1.0, 0.025).unwrap();
    assert_eq!((r.noise_bound, r.samples_lower), (t, 1000 - t));
    let sample = pmldesign_model::sample::radius_free(1000 - t, 0.025, 3).unwrap();
    assert_eq!(r.sample_beta, sample);
    assert_eq!(r.noise_beta, 2.0 * t as f64 / 1000.0);
    assert_eq!(r.beta(), sample + r.noise_beta);
}

#[test]
fn bad_levels_and_tiny_totals_are_refused() {
    for eps in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e-4] {
        let e = noise_bound(3, eps, 0.05).unwrap_err().to_string();
        assert!(e.contains("private prior epsilon"), "{e}");
    }
    let q = Prior::center(vec![0.5, 0.5]).unwrap();
    let e = private_radius(RadiusMethod::DistributionFree, 3, 0.05, 0.1, &q).unwrap_err();
    assert!(e.to_string().contains("noisy total"), "{e}");
}
