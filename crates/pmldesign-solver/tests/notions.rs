//! One engine for every information-density notion: structured ray
//! families against the generic enumerator, optimal LDP against randomized
//! response, \[D\] Corollary 5 (ALIP = PML in the high-privacy regime), and
//! certificates that re-measure every notion.

use crate::common::design_notion;
use crate::common::{random_prior, rng, same_up_to_column_order};
use approx::assert_abs_diff_eq;
use pmldesign_model::measures::{self, NotionLevels};
use pmldesign_model::{ColumnCone, Notion, Prior, UncertaintySet};
use pmldesign_solver::closed_form::{high_privacy, randomized_response};
use pmldesign_solver::internals::RaySet;
use pmldesign_solver::internals::{enumerate, generic_rays, structured};
use pmldesign_solver::internals::{optimise_in_cone, optimise_over_rays};
use pmldesign_solver::{BUILTIN_NAMES, builtin};
use pmldesign_solver::{
    Constraint, DesignStatus, FInformation, Settings, Utility, design_intersection,
};
use rand::RngExt;
use rand::rngs::StdRng;

fn settings() -> Settings {
    Settings::default()
}

fn same_sets(a: &RaySet, b: &RaySet) -> bool {
    a.len() == b.len()
        && a.iter().all(|r| {
            b.iter()
                .any(|q| r.iter().zip(q.iter()).all(|(x, y)| (x - y).abs() <= 1e-8))
        })
}

fn random_notion(r: &mut impl RngExt, k: usize) -> Notion {
    let mut e = || 0.02 + 2.0 * r.random::<f64>();
    match k % 5 {
        0 => Notion::Pml { epsilon: e() },
        1 => Notion::Pmc { epsilon: e() },
        2 => Notion::Alip {
            epsilon_lower: e(),
            epsilon_upper: e(),
        },
        3 => Notion::Lip { epsilon: e() },
        _ => Notion::Ldp { epsilon: e() },
    }
}

/// A random known prior on `n` symbols (mass floor `floor`), the random notion of
/// case `case` and its cone.
fn known_prior_cone(
    r: &mut StdRng,
    n: usize,
    floor: f64,
    case: usize,
) -> (Prior, Notion, ColumnCone) {
    let p = random_prior(r, n, floor);
    let notion = random_notion(r, case);
    let cone = ColumnCone::for_notion(&UncertaintySet::known(p.clone()), &notion).unwrap();
    (p, notion, cone)
}

#[test]
fn structured_families_match_generic_enumeration() {
    let mut r = rng(501);
    for case in 0..200 {
        let n = 2 + case % 5;
        let (p, notion, cone) = known_prior_cone(&mut r, n, 0.05, case);
        let fast = enumerate(&cone).unwrap();
        let slow = generic_rays(&cone).unwrap();
        assert!(
            same_sets(&fast, &slow),
            "case {case} {notion:?} p={:?}\nstructured {:?}\ngeneric {:?}",
            p.masses(),
            fast.to_vectors(),
            slow.to_vectors()
        );
        for v in fast.iter() {
            assert!(cone.violation(v) < 1e-12, "case {case}");
            assert_abs_diff_eq!(p.dot(v), 1.0, epsilon = 1e-12);
        }
    }
    // The LDP staircase also for a set of priors (normalised by the reference).
    for case in 0..30 {
        let n = 2 + case % 5;
        let p = random_prior(&mut r, n, 0.05);
        let set = UncertaintySet::l1_ball(p, 0.2).unwrap();
        let cone = ColumnCone::for_notion(&set, &Notion::Ldp { epsilon: 0.7 }).unwrap();
        assert!(same_sets(
            &enumerate(&cone).unwrap(),
            &generic_rays(&cone).unwrap()
        ));
    }
}

#[test]
fn box_cut_without_lower_end_is_the_pml_family() {
    // PML for a known prior is the box [0, e^eps] cut by p . c = 1 (family Z).
    let mut r = rng(502);
    for case in 0..60 {
        let n = 2 + case % 5;
        let p = random_prior(&mut r, n, 0.05);
        let eps = 3.0 * r.random::<f64>();
        let cone = ColumnCone::pml(&UncertaintySet::known(p.clone()), eps).unwrap();
        let boxed = pmldesign_solver::internals::box_cut(p.masses(), 0.0, eps.exp()).unwrap();
        assert!(
            same_sets(&boxed, &structured(&cone).unwrap()),
            "case {case}"
        );
    }
}

#[test]
fn binary_optimal_ldp_is_randomized_response() {
    let mut r = rng(503);
    for case in 0..20 {
        let p = random_prior(&mut r, 2, 0.05);
        let eps = 0.05 + 3.0 * r.random::<f64>();
        let set = UncertaintySet::known(p.clone());
        let rr = randomized_response(2, eps).unwrap();
        for name in BUILTIN_NAMES {
            let u = builtin(name).unwrap();
            let d = design_notion(&set, &Notion::Ldp { epsilon: eps }, u.as_ref(), &settings())
                .unwrap();
            // MAP accuracy is piecewise linear and can tie with the constant
            // mechanism (a skewed prior): only its value is pinned.
            assert!(
                name == "map" || same_up_to_column_order(d.mechanism().matrix(), rr.matrix(), 1e-9),
                "case {case} {name}: {:?}",
                d.mechanism().matrix()
            );
            assert_abs_diff_eq!(d.utility_value(), u.value(&rr, p.masses()), epsilon = 1e-10);
        }
    }
}

#[test]
fn optimal_ldp_never_below_randomized_response() {
    let mut r = rng(504);
    for case in 0..40 {
        let n = 3 + case % 3;
        let p = random_prior(&mut r, n, 0.1);
        let eps = 0.05 + 2.5 * r.random::<f64>();
        let set = UncertaintySet::known(p.clone());
        let rr = randomized_response(n, eps).unwrap();
        let name = BUILTIN_NAMES[case % BUILTIN_NAMES.len()];
        let u = builtin(name).unwrap();
        let d =
            design_notion(&set, &Notion::Ldp { epsilon: eps }, u.as_ref(), &settings()).unwrap();
        assert!(
            d.utility_value() >= u.value(&rr, p.masses()) - 1e-10,
            "case {case} {name}"
        );
        assert!(d.certificate().levels().ldp <= eps + 1e-10);
    }
}

#[test]
fn uniform_four_small_eps_binary_mechanism_beats_randomized_response() {
    // Kairouz, Oh and Viswanath: in the high-privacy regime the binary mechanism
    // (two outputs, e^eps on half the inputs) is optimal, strictly above k-RR.
    let p = Prior::uniform(4).unwrap();
    let set = UncertaintySet::known(p.clone());
    let mi = FInformation::mutual_information();
    for &eps in &[0.05, 0.1, 0.3] {
        let d = design_notion(&set, &Notion::Ldp { epsilon: eps }, &mi, &settings()).unwrap();
        let rr = mi.value(&randomized_response(4, eps).unwrap(), p.masses());
        let e = f64::exp(eps);
        let binary = pmldesign_model::Mechanism::from_rows(vec![
            vec![e / (1.0 + e), 1.0 / (1.0 + e)],
            vec![e / (1.0 + e), 1.0 / (1.0 + e)],
            vec![1.0 / (1.0 + e), e / (1.0 + e)],
            vec![1.0 / (1.0 + e), e / (1.0 + e)],
        ])
        .unwrap();
        let bin = mi.value(&binary, p.masses());
        assert!(
            bin > rr * (1.0 + 1e-3),
            "eps {eps}: binary {bin} vs RR {rr}"
        );
        assert!(d.utility_value() >= bin - 1e-12, "eps {eps}");
        assert!(d.utility_value() > rr * (1.0 + 1e-3), "eps {eps}");
    }
}

#[test]
fn staircase_lp_agrees_with_generic_enumeration() {
    let mut r = rng(505);
    for case in 0..30 {
        let n = 2 + case % 4;
        let (p, _, cone) = known_prior_cone(&mut r, n, 0.1, case);
        let name = BUILTIN_NAMES[case % 5];
        let u = builtin(name).unwrap();
        let fast =
            optimise_in_cone(&cone, p.masses(), u.as_ref(), &settings(), &mut |_| {}).unwrap();
        let slow = generic_rays(&cone).unwrap();
        let (_, bound, _) = optimise_over_rays(&slow, p.masses(), u.as_ref(), &settings()).unwrap();
        let value = u.value(&fast.mechanism, p.masses());
        assert_abs_diff_eq!(value, bound, epsilon = 1e-7 * (1.0 + bound.abs()));
    }
}

#[test]
fn corollary_5_alip_equals_pml_in_high_privacy() {
    let mut r = rng(506);
    for case in 0..30 {
        let n = 2 + case % 5;
        let p = random_prior(&mut r, n, 0.2);
        let pmin = p.min_mass();
        let eps_u = -(1.0 - pmin).ln() * (0.05 + 0.9 * r.random::<f64>());
        let star = measures::pml_to_pmc(eps_u, pmin);
        let eps_l = star + [0.0, 1e-9, 0.5 * r.random::<f64>()][case % 3];
        let set = UncertaintySet::known(p.clone());
        let alip = Notion::Alip {
            epsilon_lower: eps_l,
            epsilon_upper: eps_u,
        };
        let alip_cone = ColumnCone::for_notion(&set, &alip).unwrap();
        let pml_cone = ColumnCone::pml(&set, eps_u).unwrap();
        assert!(
            same_sets(
                &enumerate(&alip_cone).unwrap(),
                &structured(&pml_cone).unwrap()
            ),
            "case {case}"
        );
        let name = BUILTIN_NAMES[case % 5];
        let u = builtin(name).unwrap();
        let a = design_notion(&set, &alip, u.as_ref(), &settings()).unwrap();
        let b = design_notion(
            &set,
            &Notion::Pml { epsilon: eps_u },
            u.as_ref(),
            &settings(),
        )
        .unwrap();
        assert_abs_diff_eq!(a.utility_value(), b.utility_value(), epsilon = 1e-10);
        let closed = high_privacy(&p, eps_u).unwrap();
        // MAP can tie between vertices: value only (checked above).
        assert!(
            name == "map" || same_up_to_column_order(a.mechanism().matrix(), closed.matrix(), 1e-9)
        );
    }
    // Below eps*_l the ALIP polytope is strictly smaller: the extremal mechanism
    // leaves it, and the optimum drops.
    let p = Prior::new(vec![0.4, 0.3, 0.2, 0.1]).unwrap();
    let set = UncertaintySet::known(p.clone());
    let eps_u = 0.08;
    let star = measures::pml_to_pmc(eps_u, 0.1);
    let mi = FInformation::mutual_information();
    let tight = design_notion(
        &set,
        &Notion::Alip {
            epsilon_lower: 0.8 * star,
            epsilon_upper: eps_u,
        },
        &mi,
        &settings(),
    )
    .unwrap();
    let pml = design_notion(&set, &Notion::Pml { epsilon: eps_u }, &mi, &settings()).unwrap();
    assert!(tight.utility_value() < pml.utility_value() - 1e-9);
}

#[test]
fn every_notion_certifies_by_measurement() {
    let mut r = rng(507);
    for case in 0..60 {
        let n = 2 + case % 4;
        let p = random_prior(&mut r, n, 0.1);
        let set = match case % 3 {
            0 => UncertaintySet::known(p.clone()),
            1 => UncertaintySet::l1_ball(p.clone(), 0.1 * r.random::<f64>() + 0.01).unwrap(),
            _ => UncertaintySet::polytope(vec![
                p.masses().to_vec(),
                random_prior(&mut r, n, 0.1).masses().to_vec(),
            ])
            .unwrap(),
        };
        let notion = random_notion(&mut r, case);
        let name = BUILTIN_NAMES[case % 5];
        let u = builtin(name).unwrap();
        let d = design_notion(&set, &notion, u.as_ref(), &settings()).unwrap();
        assert_eq!(*d.notion(), notion);
        // Re-measure independently of the certificate.
        let levels = NotionLevels::measure(d.mechanism(), &set);
        assert_eq!(&levels, d.certificate().levels());
        assert!(
            levels.excess(&notion) <= 1e-10,
            "case {case} {notion:?}: {levels:?}"
        );
        assert!(d.certificate().upper_bound() >= d.utility_value() - 1e-9);
        if d.status() == DesignStatus::Optimal {
            assert!(d.certificate().is_optimal());
        }
        if let UncertaintySet::Known { prior, .. } = &set {
            let (l, up) = measures::alip_parameters(d.mechanism(), prior);
            assert!(l == levels.pmc || (l - levels.pmc).abs() <= 1e-12);
            assert_abs_diff_eq!(up, levels.pml, epsilon = 1e-12);
        }
    }
}

#[test]
fn intersection_pml_ball_and_pmc_estimate() {
    // PML for every prior in a ball, PMC for the estimate: certified once per
    // constraint by measurement, and the optimum is at most that of either part.
    let p = Prior::new(vec![0.5, 0.3, 0.2]).unwrap();
    let ball = UncertaintySet::l1_ball(p.clone(), 0.1).unwrap();
    let known = UncertaintySet::known(p.clone());
    let pml = Constraint {
        set: ball.clone(),
        notion: Notion::Pml { epsilon: 0.6 },
    };
    let pmc = Constraint {
        set: known.clone(),
        notion: Notion::Pmc { epsilon: 0.3 },
    };
    let mi = FInformation::mutual_information();
    let both = design_intersection(&[pml.clone(), pmc.clone()], &mi, &settings()).unwrap();
    assert_eq!(both.status(), DesignStatus::Optimal);
    assert_eq!(both.certificates().len(), 2);
    let w = both.mechanism();
    assert!(ball.worst_case_pml(w) <= 0.6 + 1e-10);
    assert!(measures::pmc(w, &p) <= 0.3 + 1e-10);
    assert!(w.max_row_sum_error() <= 1e-12);
    let alone = |c: &Constraint| design_notion(&c.set, &c.notion, &mi, &settings()).unwrap();
    let (a, b) = (alone(&pml), alone(&pmc));
    assert!(both.utility_value() <= a.utility_value() + 1e-10);
    assert!(both.utility_value() <= b.utility_value() + 1e-10);
    // Both constraints bind here: the intersection is strictly worse than each.
    assert!(both.utility_value() < a.utility_value().min(b.utility_value()) - 1e-6);
    // The same cone through the generic path gives the same optimum.
    let cone = ColumnCone::intersection(vec![
        ColumnCone::pml(&ball, 0.6).unwrap(),
        ColumnCone::for_notion(&known, &Notion::Pmc { epsilon: 0.3 }).unwrap(),
    ])
    .unwrap();
    let opt = optimise_in_cone(&cone, p.masses(), &mi, &settings(), &mut |_| {}).unwrap();
    assert_abs_diff_eq!(
        mi.value(&opt.mechanism, p.masses()),
        both.utility_value(),
        epsilon = 1e-10
    );
}

/// A level no mechanism of interest can reach is not an error under any notion
/// (docs/theory.md §4): levels past e^690 are designed at 690 (stricter), and
/// large finite levels keep the box cut's and the staircase's free coordinates
/// inside their tolerance (at eps = 35, outside it, branch and bound returns the
/// constant mechanism). The optimum then approaches the identity's utility.
#[test]
fn large_eps_is_not_an_error_under_any_notion() {
    let p = Prior::new(vec![0.4, 0.3, 0.2, 0.1]).unwrap();
    let set = UncertaintySet::known(p.clone());
    let u = FInformation::mutual_information();
    let identity = u.value(&pmldesign_model::Mechanism::identity(4), p.masses());
    for eps in [35.0, 100.0, 690.0, 710.0, 1e300] {
        let notions = [
            Notion::Pml { epsilon: eps },
            Notion::Pmc { epsilon: eps },
            Notion::Alip {
                epsilon_lower: eps,
                epsilon_upper: eps,
            },
            Notion::Lip { epsilon: eps },
            Notion::Ldp { epsilon: eps },
        ];
        for notion in notions {
            let d = design_notion(&set, &notion, &u, &settings())
                .unwrap_or_else(|e| panic!("{notion:?}: {e}"));
            assert!(
                matches!(
                    d.status(),
                    DesignStatus::Optimal | DesignStatus::NoPrivacyNeeded
                ),
                "{notion:?}: {:?}",
                d.status()
            );
            assert!(
                (d.utility_value() - identity).abs() <= 1e-9,
                "{notion:?}: {} vs the identity's {identity}",
                d.utility_value()
            );
        }
    }
}

/// The two-point value `P f(h) + (1 - P) f(l)`, `f(t) = t ln t`, of densities
/// at `l` and `h` with mean 1 under the prior (docs/theory.md §4d).
fn two_point(l: f64, h: f64) -> f64 {
    let mass = (1.0 - l) / (h - l);
    mass * h * h.ln() + (1.0 - mass) * l * l.ln()
}

#[test]
fn a_priori_mutual_information_bounds_hold_and_are_near_the_lp_optimum() {
    let mi = FInformation::mutual_information();
    let mut r = rng(511);
    for case in 0..80 {
        let n = 2 + case % 5;
        let p = random_prior(&mut r, n, 0.01);
        let eps = 0.05 + 2.5 * r.random::<f64>();
        let notion = match case % 3 {
            0 => Notion::Ldp { epsilon: eps },
            1 => Notion::Lip { epsilon: eps },
            _ => Notion::Alip {
                epsilon_lower: 2.0 * eps,
                epsilon_upper: eps,
            },
        };
        let bound = mi
            .bound_on_density(notion.density_range().unwrap())
            .unwrap();
        // Independently: the two-point values, over a grid of the lower end for LDP.
        let by_points = match notion {
            Notion::Ldp { epsilon } => (1..20_000)
                .map(|k| {
                    let d = 1.0 + epsilon.exp_m1() * k as f64 / 20_000.0;
                    two_point(1.0 / d, epsilon.exp() / d)
                })
                .fold(f64::NEG_INFINITY, f64::max),
            _ => two_point((-notion.lower().unwrap()).exp(), eps.exp()),
        };
        assert!(
            bound >= by_points && bound - by_points <= 1e-6 * bound,
            "{notion:?}: {bound} {by_points}"
        );
        assert!(bound < eps, "tighter than the PML level");
        let cone = ColumnCone::for_notion(&UncertaintySet::known(p.clone()), &notion).unwrap();
        let rays = enumerate(&cone).unwrap();
        let (_, lp, _) = optimise_over_rays(&rays, p.masses(), &mi, &settings()).unwrap();
        assert!(
            lp <= bound + 1e-12,
            "case {case} {notion:?} p={:?}: LP {lp} > {bound}",
            p.masses()
        );
    }
    // Uniform on 12 inputs, eps = ln 3 under LDP: the optimum is near the bound.
    let p = Prior::new(vec![1.0 / 12.0; 12]).unwrap();
    let notion = Notion::Ldp { epsilon: 3f64.ln() };
    let bound = mi
        .bound_on_density(notion.density_range().unwrap())
        .unwrap();
    let cone = ColumnCone::for_notion(&UncertaintySet::known(p.clone()), &notion).unwrap();
    let (_, lp, _) =
        optimise_over_rays(&enumerate(&cone).unwrap(), p.masses(), &mi, &settings()).unwrap();
    assert!(lp <= bound && lp >= 0.99 * bound, "{lp} {bound}");
}
