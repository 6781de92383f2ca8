//! Known answers and identities for `design`.

use crate::common::design;
use crate::common::{
    assert_beats_baselines, known_or_small_ball, random_prior, rng, same_up_to_column_order,
};
use approx::assert_abs_diff_eq;
use ndarray::array;
use pmldesign_model::{Mechanism, Prior, UncertaintySet, measures};
use pmldesign_solver::Route;
use pmldesign_solver::closed_form::{binary_l1, high_privacy, k_singular};
use pmldesign_solver::{BUILTIN_NAMES, builtin};
use pmldesign_solver::{DesignStatus, FInformation, PricingMethod, Settings, Utility};
use rand::RngExt;

fn settings() -> Settings {
    Settings::default()
}

#[test]
fn example_1_every_builtin_utility() {
    let p = Prior::new(vec![0.4, 0.2, 0.2, 0.2]).unwrap();
    let set = UncertaintySet::known(p);
    let expect = array![
        [0.325, 0.225, 0.225, 0.225],
        [0.45, 0.1, 0.225, 0.225],
        [0.45, 0.225, 0.1, 0.225],
        [0.45, 0.225, 0.225, 0.1]
    ];
    for name in BUILTIN_NAMES {
        let u = builtin(name).unwrap();
        let d = design(&set, (9.0f64 / 8.0).ln(), u.as_ref(), &settings()).unwrap();
        let expect_value = u.value(
            &Mechanism::new(expect.clone()).unwrap(),
            set.reference().view(),
        );
        assert_abs_diff_eq!(d.utility_value(), expect_value, epsilon = 1e-9);
        // MAP accuracy is piecewise linear: here the constant mechanism ties with
        // the extremal one (both 0.4), so only its value is pinned.
        assert!(
            name == "map" || same_up_to_column_order(d.mechanism().matrix(), expect.view(), 1e-9),
            "{name}: {:?}",
            d.mechanism().matrix()
        );
        for l in d.pml_per_output().iter().filter(|_| name != "map") {
            assert_abs_diff_eq!(*l, (9.0f64 / 8.0).ln(), epsilon = 1e-12);
        }
    }
}

#[test]
fn high_privacy_closed_form_equals_lp_in_region_1() {
    let mut r = rng(1);
    for _ in 0..12 {
        let n = r.random_range(2..=6);
        let p = random_prior(&mut r, n, 0.3);
        let limit = measures::privacy_thresholds(&p)[1];
        let eps = limit * r.random_range(0.05..0.95);
        let closed = high_privacy(&p, eps).unwrap();
        let set = UncertaintySet::known(p.clone());
        for name in BUILTIN_NAMES {
            let u = builtin(name).unwrap();
            let d = design(&set, eps, u.as_ref(), &settings()).unwrap();
            let closed_value = u.value(&closed, p.masses());
            assert_abs_diff_eq!(d.utility_value(), closed_value, epsilon = 1e-9);
            // MAP accuracy can tie between vertices (see above): value only.
            assert!(
                name == "map"
                    || same_up_to_column_order(d.mechanism().matrix(), closed.matrix(), 1e-8),
                "{name} n={n} eps={eps}"
            );
        }
    }
}

#[test]
fn theorem_5_equals_lp_on_the_ball() {
    let mut r = rng(2);
    for _ in 0..25 {
        let p1: f64 = r.random_range(0.5..0.9);
        let p = Prior::new(vec![p1, 1.0 - p1]).unwrap();
        let beta = 2.0 * (1.0 - p1) * r.random_range(0.05..0.95);
        let eps = -(p1 - beta / 2.0).ln() * r.random_range(0.05..1.0);
        let closed = binary_l1(&p, beta, eps).unwrap();
        let set = UncertaintySet::l1_ball(p.clone(), beta).unwrap();
        let u = FInformation::mutual_information();
        let d = design(&set, eps, &u, &settings()).unwrap();
        let closed_value = u.value(&closed, p.masses());
        assert_abs_diff_eq!(d.utility_value(), closed_value, epsilon = 1e-9);
        assert!(
            same_up_to_column_order(d.mechanism().matrix(), closed.matrix(), 1e-7),
            "p1={p1} beta={beta} eps={eps}: {:?} vs {:?}",
            d.mechanism().matrix(),
            closed.matrix()
        );
        // Theorem 5's mechanism is tight: worst-case PML over the ball is eps.
        assert_abs_diff_eq!(set.worst_case_pml(&closed), eps, epsilon = 1e-9);
    }
}

#[test]
fn k_singular_mutual_information_for_uniform_priors() {
    for (n, k) in [(4, 2), (6, 2), (6, 3), (8, 2), (5, 1)] {
        let p = Prior::uniform(n).unwrap();
        let eps = (n as f64 / k as f64).ln();
        let u = FInformation::mutual_information();
        let d = design(&UncertaintySet::known(p.clone()), eps, &u, &settings()).unwrap();
        assert_abs_diff_eq!(d.utility_value(), eps, epsilon = 1e-9);
        let ks = k_singular(n, k).unwrap();
        assert_abs_diff_eq!(u.value(&ks, p.masses()), eps, epsilon = 1e-12);
    }
}

#[test]
fn designs_beat_randomized_response_and_respect_mi_bound() {
    let mut r = rng(3);
    for case in 0..30 {
        let n = r.random_range(2..=7);
        let p = random_prior(&mut r, n, 0.2);
        let eps = r.random_range(0.05..2.0);
        let set = known_or_small_ball(&mut r, &p, case, 0.05..0.9);
        for name in BUILTIN_NAMES {
            let u = builtin(name).unwrap();
            let d = design(&set, eps, u.as_ref(), &settings()).unwrap();
            assert_beats_baselines(&d, eps, &format!("{name} case {case}"));
            assert!(d.mechanism().outputs() <= n);
            assert!(d.certificate().max_row_sum_error() <= 1e-12);
            if name == "mi" {
                // [T] Prop 5.35: I(X;Y) <= eps under eps-PML.
                assert!(d.utility_value() <= eps + 1e-12);
            }
        }
    }
}

#[test]
fn ball_design_holds_for_sampled_priors_in_the_ball() {
    let mut r = rng(4);
    for _ in 0..10 {
        let n = r.random_range(2..=6);
        let p = random_prior(&mut r, n, 0.3);
        let beta = 2.0 * p.min_mass() * r.random_range(0.1..0.95);
        let eps = r.random_range(0.1..1.5);
        let set = UncertaintySet::l1_ball(p.clone(), beta).unwrap();
        let d = design(&set, eps, &FInformation::mutual_information(), &settings()).unwrap();
        for _ in 0..200 {
            // A random direction with zero sum, scaled to l1 norm <= beta.
            let mut dir: Vec<f64> = (0..n).map(|_| r.random::<f64>() - 0.5).collect();
            let mean = dir.iter().sum::<f64>() / n as f64;
            dir.iter_mut().for_each(|x| *x -= mean);
            let norm: f64 = dir.iter().map(|x| x.abs()).sum();
            let scale = beta * r.random::<f64>().sqrt() / norm;
            let q: Vec<f64> = p
                .masses()
                .iter()
                .zip(&dir)
                .map(|(a, b)| a + scale * b)
                .collect();
            if let Ok(q) = Prior::new(q) {
                assert!(measures::eps_min(d.mechanism(), &q) <= eps + 1e-10);
            }
        }
    }
}

#[test]
fn no_privacy_needed_returns_identity() {
    let p = Prior::new(vec![0.5, 0.3, 0.2]).unwrap();
    let eps = measures::eps_max(&p);
    let d = design(
        &UncertaintySet::known(p),
        eps,
        &FInformation::mutual_information(),
        &settings(),
    )
    .unwrap();
    assert_eq!(d.status(), DesignStatus::NoPrivacyNeeded);
    assert_eq!(d.mechanism().matrix(), ndarray::Array2::<f64>::eye(3));
}

#[test]
fn zero_epsilon_releases_nothing() {
    let p = Prior::new(vec![0.5, 0.3, 0.2]).unwrap();
    let d = design(
        &UncertaintySet::known(p),
        0.0,
        &FInformation::mutual_information(),
        &settings(),
    )
    .unwrap();
    assert!(d.utility_value().abs() < 1e-12);
    assert!(d.certificate().worst_case_pml() <= 1e-10);
}

#[test]
fn bad_inputs_are_errors() {
    let p = Prior::new(vec![0.5, 0.3, 0.2]).unwrap();
    let u = FInformation::mutual_information();
    let e = design(&UncertaintySet::known(p.clone()), -0.1, &u, &settings()).unwrap_err();
    assert!(e.is_input_error() && e.to_string().contains("epsilon"));
    let e = UncertaintySet::l1_ball(p.clone(), 0.0).unwrap_err();
    assert!(e.to_string().contains("beta"), "{e}");
    // Past Proposition 2 (beta >= 2 min p) the exact ball is used, not refused.
    let set = UncertaintySet::l1_ball(p.clone(), 0.5).unwrap();
    let d = design(&set, 0.5, &u, &settings()).unwrap();
    assert!(d.certificate().worst_case_pml() <= 0.5 + 1e-10);
    // Enumeration keeps its alphabet limit; branch and bound has none.
    let big = UncertaintySet::known(Prior::uniform(30).unwrap());
    let enumerate = Settings {
        pricing: PricingMethod::Enumerate,
        ..settings()
    };
    let e = design(&big, 0.5, &u, &enumerate).unwrap_err();
    assert!(e.is_input_error() && e.to_string().contains("30"), "{e}");
    let d = design(&big, 0.5, &u, &settings()).unwrap();
    assert_eq!(d.status(), DesignStatus::Optimal);
}

#[test]
fn time_limit_returns_a_certified_private_mechanism_with_its_gap() {
    let mut r = rng(9);
    let p = random_prior(&mut r, 12, 0.5);
    let mut s = settings();
    s.column_generation.time_limit = Some(std::time::Duration::from_nanos(1));
    let u = FInformation::mutual_information();
    let set = UncertaintySet::known(p);
    let d = design(&set, 0.7, &u, &s).unwrap();
    assert_eq!(d.status(), DesignStatus::TimeLimit);
    // The limit is spent before the search: the best structured baseline.
    assert_eq!((d.iterations(), d.route()), (0, Route::Baseline));
    assert!(d.certificate().worst_case_pml() <= 0.7 + 1e-10);
    assert!(d.certificate().max_row_sum_error() <= 1e-12);
    let full = design(&set, 0.7, &u, &settings()).unwrap();
    // The stopped design's bound brackets the optimum.
    assert!(d.utility_value() <= full.utility_value() + 1e-9);
    assert!(d.certificate().upper_bound() >= full.utility_value() - 1e-9);
}

/// The certificate carries the LP dual, and it can be checked without the
/// solver: `lambda . v >= mu(v) - r` for every extreme ray (enumerated here),
/// and `sum(lambda) + max(0, r)` is at least the reported upper bound.
#[test]
fn certificate_dual_checks_against_every_ray() {
    let p = Prior::new(vec![0.35, 0.25, 0.2, 0.12, 0.08]).unwrap();
    let u = FInformation::mutual_information();
    for set in [
        UncertaintySet::known(p.clone()),
        UncertaintySet::l1_ball(p.clone(), 0.05).unwrap(),
    ] {
        let d = design(&set, 0.4, &u, &settings()).unwrap();
        let dual = d.certificate().dual().expect("an LP was solved");
        assert_eq!(dual.lambda().len(), 5);
        let lambda = ndarray::Array1::from(dual.lambda().to_vec());
        let cone = pmldesign_model::ColumnCone::pml(&set, 0.4).unwrap();
        let rays = pmldesign_solver::internals::enumerate(&cone).unwrap();
        for v in rays.iter() {
            let rc = u.column_value(v, set.reference().view()) - lambda.dot(&v);
            assert!(rc <= dual.max_reduced_cost() + 1e-12, "ray {v}: {rc}");
        }
        let bound = lambda.sum() + dual.max_reduced_cost().max(0.0);
        assert!((bound - dual.bound()).abs() <= 1e-12);
        assert!(d.certificate().upper_bound() <= dual.bound() + 1e-15);
        assert!(d.utility_value() <= dual.bound() + 1e-12);
    }
}

/// The title gives the verdict: "Optimal" only for a design proven optimal,
/// "Near-optimal" at a coarse gap, "Best-found" when the clock stopped it.
#[test]
fn the_title_says_whether_the_design_is_optimal() {
    let p = crate::common::dirichlet_prior(&mut crate::common::Rng(48), 48);
    let set = UncertaintySet::known(p);
    let solve = |settings: Settings| {
        pmldesign_solver::Problem::new(set.clone())
            .epsilon(0.5)
            .utility(FInformation::mutual_information())
            .settings(settings)
            .solve()
            .unwrap()
    };
    let optimal = solve(Settings::default());
    assert_eq!(optimal.status(), DesignStatus::Optimal);
    assert!(optimal.title().starts_with("Optimal eps-PML mechanism"));
    let coarse = solve(Settings::default().gap(0.5));
    assert_eq!(coarse.status(), DesignStatus::GapLimit);
    assert!(coarse.title().starts_with("Near-optimal eps-PML"));
    let mut stopped = Settings::default();
    stopped.column_generation.time_limit = Some(std::time::Duration::from_millis(1));
    let stopped = solve(stopped);
    assert_eq!(stopped.status(), DesignStatus::TimeLimit);
    assert!(
        stopped.title().starts_with("Best-found eps-PML"),
        "{}",
        stopped.title()
    );
}
