//! Additive noise on binary data (\[E\] Sec. VI): the Laplace guarantee of Proposition 3
//! and eq. (16) against a direct maximisation of the leakage, Remark 4, the Gaussian
//! `delta_1` of eq. (17) against Monte Carlo and a fine grid of priors, the relations
//! between eps*, delta*, delta_1 and delta_2, and the pLDP comparator.

use pmldesign_model::additive::{
    self, DELTA1_ABSOLUTE_TOLERANCE, DELTA1_RELATIVE_TOLERANCE, gaussian_delta1,
    gaussian_guarantee, gaussian_leakage, gaussian_violation_probability, gaussian_violation_set,
    laplace_epsilon, laplace_epsilon_ball, laplace_ldp_scale, laplace_leakage, laplace_scale,
    laplace_scale_ball, pldp_delta, pldp_sigma,
};
use pmldesign_model::{ModelError, Prior, sample};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use std::f64::consts::{LN_2, PI};

fn prior(p_plus: f64) -> Prior {
    Prior::new(vec![1.0 - p_plus, p_plus]).unwrap()
}

fn field(err: ModelError) -> String {
    let ModelError::Invalid { field, .. } = err else {
        panic!("not an invalid field: {err}");
    };
    field
}

/// max over y in [-6, 6] (step 1e-4, which contains +-1) of the Laplace leakage.
fn laplace_grid_max(b: f64, p: &Prior) -> f64 {
    (-60_000..=60_000)
        .map(|i| laplace_leakage(b, p, i as f64 * 1e-4).unwrap())
        .fold(f64::NEG_INFINITY, f64::max)
}

#[test]
fn laplace_epsilon_is_the_maximum_leakage() {
    for &p_plus in &[0.24, 0.5, 0.67, 0.9] {
        let p = prior(p_plus);
        for &b in &[0.3, 0.7, 1.0, 2.0, 2.0 / LN_2, 10.0] {
            let eps = laplace_epsilon(b, &p).unwrap();
            let grid = laplace_grid_max(b, &p);
            assert!(
                (eps - grid).abs() < 1e-12,
                "p+ = {p_plus}, b = {b}: {eps} vs {grid}"
            );
            // Proposition 3 as printed.
            let p_min = p_plus.min(1.0 - p_plus);
            let printed = 2.0 / b - ((2.0 / b).exp() * p_min + 1.0 - p_min).ln();
            assert!((eps - printed).abs() < 1e-12);
            // PML never exceeds eps_max = -ln p_min, nor the LDP value 2/b.
            assert!(eps <= -p_min.ln() + 1e-15 && eps <= 2.0 / b + 1e-15);
        }
    }
}

#[test]
fn laplace_scale_inverts_epsilon() {
    for &p_plus in &[0.24, 0.33, 0.5] {
        let p = prior(p_plus);
        for &b in &[0.2, 0.5, 1.0, 3.0, 30.0, 1e4] {
            let eps = laplace_epsilon(b, &p).unwrap();
            let back = laplace_scale(eps, &p).unwrap();
            assert!((back / b - 1.0).abs() < 1e-9, "b = {b}: {back}");
            for &beta in &[0.0, 0.05, 0.2] {
                let eps = laplace_epsilon_ball(b, &p, beta).unwrap();
                let back = laplace_scale_ball(eps, &p, beta).unwrap();
                assert!((back / b - 1.0).abs() < 1e-9, "b = {b}, beta = {beta}");
            }
        }
    }
    // eps >= eps_max needs no noise; eps = 0 needs infinite noise.
    let p = prior(0.24);
    assert_eq!(laplace_scale(-(0.24f64).ln(), &p).unwrap(), 0.0);
    assert_eq!(laplace_scale(5.0, &p).unwrap(), 0.0);
    assert_eq!(laplace_scale(0.0, &p).unwrap(), f64::INFINITY);
}

#[test]
fn laplace_ball_is_the_worst_prior_of_the_ball() {
    // eq. (16) = sup over the ball of Proposition 3, here over a grid of priors.
    let p_hat = prior(0.3);
    for &beta in &[0.0, 0.1, 0.4] {
        for &b in &[0.5, 1.5] {
            let ball = laplace_epsilon_ball(b, &p_hat, beta).unwrap();
            let grid = (0..=1000)
                .map(|i| 0.3 - beta / 2.0 + beta * i as f64 / 1000.0)
                .map(|p| laplace_epsilon(b, &prior(p)).unwrap())
                .fold(0.0, f64::max);
            assert!((ball - grid).abs() < 1e-12, "beta = {beta}, b = {b}");
            // and the grid over y at the worst prior agrees.
            let worst = prior(0.3 - beta / 2.0);
            assert!((ball - laplace_grid_max(b, &worst)).abs() < 1e-12);
        }
    }
}

#[test]
fn remark_4_ldp_at_uniform_estimate_and_beta_one() {
    let uniform = prior(0.5);
    for &b in &[0.5, 1.0, 2.0, 7.0] {
        let eps = laplace_epsilon_ball(b, &uniform, 1.0).unwrap();
        assert!((eps - 2.0 / b).abs() < 1e-14, "b = {b}: {eps}");
        // Beyond beta = 2 p^_min the ball reaches the degenerate priors: still 2/b.
        let eps = laplace_epsilon_ball(b, &prior(0.2), 0.9).unwrap();
        assert!((eps - 2.0 / b).abs() < 1e-14);
    }
    for &eps in &[0.1, LN_2, 2.0] {
        let b = laplace_scale_ball(eps, &uniform, 1.0).unwrap();
        assert!((b - laplace_ldp_scale(eps).unwrap()).abs() < 1e-12 * b);
        assert!((b - 2.0 / eps).abs() < 1e-12 * b);
    }
}

#[test]
fn laplace_with_estimate_needs_more_noise_than_known_prior() {
    // eq. (14) with m = 1000, delta = 1e-9, and the Adult income marginal 0.24.
    let beta = sample::radius_free(1000, 1e-9, 2).unwrap();
    let direct = (2.0 * (LN_2 - 1e-9f64.ln()) / 1000.0).sqrt();
    assert!((beta - direct).abs() < 1e-15);
    let p = prior(0.24);
    let eps = LN_2;
    let known = laplace_scale(eps, &p).unwrap();
    let ball = laplace_scale_ball(eps, &p, beta).unwrap();
    let ldp = laplace_ldp_scale(eps).unwrap();
    assert!(known < ball && ball < ldp, "{known} < {ball} < {ldp}");
}

#[test]
fn bad_input_names_the_field() {
    let p = prior(0.3);
    assert_eq!(field(laplace_epsilon(0.0, &p).unwrap_err()), "b");
    assert_eq!(field(laplace_epsilon(-1.0, &p).unwrap_err()), "b");
    assert_eq!(field(laplace_epsilon(f64::NAN, &p).unwrap_err()), "b");
    assert_eq!(field(laplace_scale(-0.1, &p).unwrap_err()), "eps");
    assert_eq!(field(laplace_scale(f64::NAN, &p).unwrap_err()), "eps");
    assert_eq!(
        field(laplace_epsilon_ball(1.0, &p, 2.5).unwrap_err()),
        "beta"
    );
    assert_eq!(
        field(laplace_scale_ball(1.0, &p, -0.1).unwrap_err()),
        "beta"
    );
    assert_eq!(
        field(gaussian_delta1(0.0, &p, 0.1, 1.0).unwrap_err()),
        "sigma"
    );
    assert_eq!(
        field(gaussian_delta1(1.0, &p, f64::NAN, 1.0).unwrap_err()),
        "beta"
    );
    assert_eq!(
        field(gaussian_delta1(1.0, &p, 0.1, -1.0).unwrap_err()),
        "eps"
    );
    assert_eq!(field(gaussian_leakage(1.0, &p, f64::NAN).unwrap_err()), "y");
    assert_eq!(field(pldp_sigma(0.0, 1e-6).unwrap_err()), "eps");
    assert_eq!(field(pldp_sigma(1.0, 0.0).unwrap_err()), "delta");
    let ternary = Prior::uniform(3).unwrap();
    assert_eq!(field(laplace_epsilon(1.0, &ternary).unwrap_err()), "prior");
    // beta e^eps >= 2: eq. (8) gives no eps*.
    let err = gaussian_guarantee(1.5, &p, 100, 1e-6, 2.0).unwrap_err();
    assert_eq!(field(err.clone()), "beta");
    assert!(err.to_string().contains("eps <"), "{err}");
}

#[test]
fn gaussian_end_points_solve_leakage_equals_eps() {
    for &(sigma, p_plus, eps) in &[(1.5, 0.5, 0.3), (2.0, 0.3, 0.2), (1.0, 0.8, 0.1)] {
        let p = prior(p_plus);
        let set = gaussian_violation_set(sigma, &p, eps).unwrap();
        let t = set.above.expect("a positive violating half");
        let s = set.below.expect("a negative violating half");
        assert!((gaussian_leakage(sigma, &p, t).unwrap() - eps).abs() < 1e-12);
        assert!((gaussian_leakage(sigma, &p, -s).unwrap() - eps).abs() < 1e-12);
        assert!(gaussian_leakage(sigma, &p, 0.999 * t).unwrap() < eps);
        assert!(gaussian_leakage(sigma, &p, 1.001 * t).unwrap() > eps);
        // The leakage, from the densities directly.
        for &y in &[-3.0, -0.4, 0.0, 0.7, 2.5] {
            let f = |x: f64| (-(y - x) * (y - x) / (2.0 * sigma * sigma)).exp();
            let direct = (f(-1.0).max(f(1.0)) / ((1.0 - p_plus) * f(-1.0) + p_plus * f(1.0))).ln();
            assert!((gaussian_leakage(sigma, &p, y).unwrap() - direct).abs() < 1e-12);
        }
    }
    // From eps = -ln P(-1) on no negative outcome violates, from -ln P(+1) none at all.
    let set = gaussian_violation_set(1.5, &prior(0.3), -(0.7f64).ln() + 1e-12).unwrap();
    assert!(set.above.is_some() && set.below.is_none());
    let set = gaussian_violation_set(1.5, &prior(0.3), -(0.3f64).ln() + 1e-12).unwrap();
    assert!(set.above.is_none() && set.below.is_none());
}

/// Monte Carlo estimate of P_Y(E_eps(P)) with the leakage computed from the densities,
/// and its standard error.
fn monte_carlo(sigma: f64, p_plus: f64, eps: f64, n: usize, seed: u64) -> (f64, f64) {
    let mut rng = Pcg64::seed_from_u64(seed);
    let p = prior(p_plus);
    let mut hits = 0usize;
    for _ in 0..n {
        let x = if rng.random::<f64>() < p_plus {
            1.0
        } else {
            -1.0
        };
        // Box-Muller.
        let u1: f64 = 1.0 - rng.random::<f64>();
        let u2: f64 = rng.random();
        let g = (-2.0 * u1.ln()).sqrt() * (2.0 * PI * u2).cos();
        if gaussian_leakage(sigma, &p, x + sigma * g).unwrap() > eps {
            hits += 1;
        }
    }
    let est = hits as f64 / n as f64;
    (est, (est * (1.0 - est) / n as f64).sqrt())
}

#[test]
fn gaussian_violation_probability_matches_monte_carlo() {
    let n = 400_000;
    for (k, &(sigma, p_plus, eps)) in [(1.5, 0.5, 0.3), (2.0, 0.3, 0.2), (1.0, 0.7, 0.5)]
        .iter()
        .enumerate()
    {
        let exact = gaussian_violation_probability(sigma, &prior(p_plus), eps).unwrap();
        let (mc, se) = monte_carlo(sigma, p_plus, eps, n, 17 + k as u64);
        assert!(
            (exact - mc).abs() < 4.0 * se,
            "sigma {sigma}, p {p_plus}, eps {eps}: {exact} vs MC {mc} +- {se}"
        );
    }
}

#[test]
fn gaussian_delta1_matches_monte_carlo_at_its_worst_prior() {
    let n = 400_000;
    for (k, &(sigma, p_hat, beta, eps)) in [
        (1.5, 0.5, 0.2, 0.3),
        (2.0, 0.3, 0.3, 0.25),
        (1.5, 0.3, 0.05, 0.6),
    ]
    .iter()
    .enumerate()
    {
        let d = gaussian_delta1(sigma, &prior(p_hat), beta, eps).unwrap();
        assert!((d.worst_prior - p_hat).abs() <= beta / 2.0 + 1e-15);
        let (mc, se) = monte_carlo(sigma, d.worst_prior, eps, n, 99 + k as u64);
        assert!(
            (d.delta1 - mc).abs() < 4.0 * se,
            "sigma {sigma}: delta1 {} vs MC {mc} +- {se}",
            d.delta1
        );
    }
}

#[test]
fn gaussian_delta1_bounds_a_fine_grid_of_priors() {
    for &(sigma, p_hat, beta) in &[
        (1.5, 0.5, 0.54),
        (2.0, 0.5, 0.2),
        (1.5, 0.3, 0.1),
        (1.0, 0.3, 0.6),
    ] {
        for &eps in &[0.0, 0.05, 0.2, 0.5, 1.0, 2.0] {
            let d = gaussian_delta1(sigma, &prior(p_hat), beta, eps).unwrap();
            let lo = (p_hat - beta / 2.0).max(0.0);
            let hi = (p_hat + beta / 2.0).min(1.0);
            // The clipped end points are degenerate priors: evaluate just inside.
            let grid = (0..=4000)
                .map(|i| lo + (hi - lo) * i as f64 / 4000.0)
                .map(|p| p.clamp(1e-12, 1.0 - 1e-12))
                .map(|p| gaussian_violation_probability(sigma, &prior(p), eps).unwrap())
                .fold(0.0, f64::max);
            let tol = DELTA1_ABSOLUTE_TOLERANCE.max(DELTA1_RELATIVE_TOLERANCE * d.delta1);
            assert!(
                d.error_bound <= tol,
                "eps {eps}: error bound {}",
                d.error_bound
            );
            assert!(
                grid <= d.upper() + 1e-12,
                "eps {eps}: grid {grid} > {}",
                d.upper()
            );
            assert!(
                d.delta1 <= grid + 1e-6,
                "eps {eps}: {} vs grid {grid}",
                d.delta1
            );
            if eps == 0.0 {
                assert!((d.delta1 - 1.0).abs() < 1e-12);
            }
        }
    }
    // beta = 0 is the known prior, exactly.
    let d = gaussian_delta1(1.5, &prior(0.3), 0.0, 0.4).unwrap();
    let exact = gaussian_violation_probability(1.5, &prior(0.3), 0.4).unwrap();
    assert_eq!((d.delta1, d.error_bound), (exact, 0.0));
}

#[test]
fn gaussian_delta1_is_monotone() {
    let p_hat = prior(0.5);
    let mut last = 1.0 + 1e-12;
    for i in 0..30 {
        let eps = 0.05 * i as f64;
        let d = gaussian_delta1(1.5, &p_hat, 0.2, eps).unwrap().delta1;
        assert!(d <= last, "delta1 increased at eps {eps}");
        last = d;
    }
    let mut last = 0.0;
    for i in 0..10 {
        let d = gaussian_delta1(1.5, &p_hat, 0.1 * i as f64, 0.3)
            .unwrap()
            .delta1;
        assert!(d >= last - 1e-15, "delta1 decreased in beta");
        last = d;
    }
}

#[test]
fn gaussian_guarantee_relations() {
    for &(sigma, p_hat, m) in &[(1.5, 0.5, 1000u64), (2.0, 0.5, 10_000), (1.5, 0.3, 100_000)] {
        let delta2 = 1e-6;
        for &eps in &[0.1, 0.3, 0.6] {
            let g = gaussian_guarantee(sigma, &prior(p_hat), m, delta2, eps).unwrap();
            // eq. (14) and eq. (8).
            let beta = (2.0 * (LN_2 - delta2.ln()) / m as f64).sqrt();
            assert!((g.beta - beta).abs() < 1e-15);
            let eps_star = eps - (1.0 - beta * eps.exp() / 2.0).ln();
            assert!((g.eps_star - eps_star).abs() < 1e-12);
            // delta_1 over the same ball.
            let d1 = gaussian_delta1(sigma, &prior(p_hat), beta, eps).unwrap();
            assert_eq!(g.delta1, d1);
            // Union bound: 1 - delta* = (1 - delta_1)(1 - delta_2), so delta* >= both.
            let lhs = 1.0 - g.delta_star;
            let rhs = (1.0 - d1.upper()) * (1.0 - delta2);
            assert!((lhs - rhs).abs() < 1e-15);
            assert!(g.delta_star >= delta2 && g.delta_star >= d1.delta1);
            assert!(g.eps_star > eps);
        }
    }
}

#[test]
fn pldp_comparator() {
    for &eps in &[0.2, 0.5, 1.0, 2.0] {
        for &delta in &[1e-9, 1e-6, 1e-3, 0.1] {
            let sigma = pldp_sigma(eps, delta).unwrap();
            let f = statrs::function::erf::erfc_inv(delta);
            let printed = 2f64.sqrt() * (f + (f * f + eps).sqrt()) / eps;
            assert!((sigma - printed).abs() < 1e-12 * sigma);
            let back = pldp_delta(sigma, eps).unwrap();
            assert!(
                (back / delta - 1.0).abs() < 1e-8,
                "eps {eps}, delta {delta}: {back}"
            );
        }
    }
    // The pLDP delta is the two-sided tail of the privacy loss 2Y/sigma^2 given X = 1:
    // 2 Q((sigma^2 eps - 2) / (2 sigma)).
    let (sigma, eps) = (1.5f64, 1.0f64);
    let z = (sigma * sigma * eps - 2.0) / (2.0 * sigma);
    let q = 0.5 * statrs::function::erf::erfc(z / 2f64.sqrt());
    assert!((pldp_delta(sigma, eps).unwrap() - 2.0 * q).abs() < 1e-15);
    // At the same sigma and eps, PML with a known uniform prior fails less often.
    let pml = additive::gaussian_violation_probability(sigma, &prior(0.5), eps).unwrap();
    assert!(pml < pldp_delta(sigma, eps).unwrap());
}
