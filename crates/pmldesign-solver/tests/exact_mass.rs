//! Sets of exact mass (docs/theory.md §4e): under eps-PML for a known prior of
//! many small masses, a fractional cover by sets of mass just above `e^-eps`
//! has mutual information eps, the a-priori bound. The design reaches it, so
//! its certificate closes on the closed form `I <= eps` ([T] Prop. 5.35); over
//! the l1 ball of \[E\] Prop 2 the same holds at `eps' = ln(e^eps / (1 + (beta/2)
//! e^eps))`, and the file reads back (its bound re-derived by the reader).

use crate::common::{Rng, design_notion, dirichlet_prior};
use pmldesign_model::{Notion, UncertaintySet};
use pmldesign_solver::Route;
use pmldesign_solver::{Design, DesignStatus, FInformation, Settings};

/// The design's information and its bound, proven optimal at the default gap.
fn reaches_eps(n: usize, epsilon: f64) {
    let p = dirichlet_prior(&mut Rng(1000 + n as u64), n);
    let set = UncertaintySet::known(p);
    let mi = FInformation::mutual_information();
    let notion = Notion::Pml { epsilon };
    let d = design_notion(&set, &notion, &mi, &Settings::default()).unwrap();
    let ctx = format!("N = {n}, eps = {epsilon}");
    assert_eq!(d.status(), DesignStatus::Optimal, "{ctx}");
    assert!(
        d.utility_value() >= epsilon * (1.0 - 1e-9),
        "{ctx}: I = {}",
        d.utility_value()
    );
    assert!(
        d.utility_value() <= epsilon * (1.0 + 1e-12),
        "{ctx}: I = {}",
        d.utility_value()
    );
    assert!(
        d.certificate().upper_bound() <= epsilon * (1.0 + 1e-12),
        "{ctx}"
    );
    assert!(d.certificate().holds(), "{ctx}");
}

#[test]
fn a_known_prior_design_at_n64_reaches_eps() {
    for epsilon in [0.4, 0.9] {
        reaches_eps(64, epsilon);
    }
}

/// (The size where the sets of exact mass matter: branch and bound alone
/// takes several times as long to prove this design optimal.)
#[test]
fn a_known_prior_design_at_n128_reaches_eps() {
    reaches_eps(128, 1.6);
}

/// Over the ball of radius min p (Prop 2) the design reaches `eps'` and is
/// proven optimal against it; the JSON reads back through the verifying reader.
#[test]
fn a_ball_design_at_n64_reaches_eps_prime_and_reads_back() {
    let p = dirichlet_prior(&mut Rng(1064), 64);
    let beta = p.min_mass();
    let epsilon: f64 = 0.9;
    let set = UncertaintySet::l1_ball(p, beta).unwrap();
    let mi = FInformation::mutual_information();
    let notion = Notion::Pml { epsilon };
    let d = design_notion(&set, &notion, &mi, &Settings::default()).unwrap();
    let eps_prime = (epsilon.exp() / (1.0 + beta / 2.0 * epsilon.exp())).ln();
    assert_eq!(d.status(), DesignStatus::Optimal);
    assert!(
        d.utility_value() >= eps_prime * (1.0 - 1e-9),
        "{} vs {eps_prime}",
        d.utility_value()
    );
    assert!(d.certificate().upper_bound() <= eps_prime * (1.0 + 1e-12));
    let back: Design = serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
    assert_eq!(back.utility_value(), d.utility_value());
}

/// Past 384 inputs the design is assembled from blocks of about 256, each
/// reaching eps, and proven optimal against the a-priori bound (no dual).
#[test]
fn a_known_prior_design_at_n400_is_assembled_from_blocks() {
    let p = dirichlet_prior(&mut Rng(1400), 400);
    let set = UncertaintySet::known(p);
    let mi = FInformation::mutual_information();
    let d = design_notion(
        &set,
        &Notion::Pml { epsilon: 0.4 },
        &mi,
        &Settings::default(),
    )
    .unwrap();
    assert_eq!(d.status(), DesignStatus::Optimal);
    assert_eq!(d.route(), Route::Blocks);
    assert!(
        d.utility_value() >= 0.4 * (1.0 - 1e-9),
        "{}",
        d.utility_value()
    );
    assert!(d.certificate().dual().is_none());
    let back: Design = serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
    assert_eq!(back.utility_value(), d.utility_value());
}

/// Under eps-LDP, staircases on sets of mass near the best top mass reach the
/// two-point bound `D* - 1 - ln D*` (`D* = eps e^eps / (e^eps - 1)`, docs/theory.md
/// §4d) at N = 64: the design is proven optimal against that closed form, and
/// the JSON reads back through the verifying reader.
#[test]
fn an_ldp_design_at_n64_reaches_the_two_point_bound_and_reads_back() {
    let p = dirichlet_prior(&mut Rng(1064), 64);
    let set = UncertaintySet::known(p);
    let mi = FInformation::mutual_information();
    for epsilon in [0.5f64, 1.5] {
        let e = epsilon.exp();
        let d_star = epsilon * e / (e - 1.0);
        let bound = d_star - 1.0 - d_star.ln();
        let notion = Notion::Ldp { epsilon };
        let d = design_notion(&set, &notion, &mi, &Settings::default()).unwrap();
        let ctx = format!("eps = {epsilon}: I = {}", d.utility_value());
        assert_eq!(d.status(), DesignStatus::Optimal, "{ctx}");
        assert!(d.utility_value() >= bound * (1.0 - 1e-9), "{ctx}");
        assert!(d.utility_value() <= bound * (1.0 + 1e-12), "{ctx}");
        assert!(
            d.certificate().upper_bound() <= bound * (1.0 + 1e-12),
            "{ctx}"
        );
        assert!(d.certificate().holds(), "{ctx}");
        let back: Design = serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
        assert_eq!(back.utility_value(), d.utility_value(), "{ctx}");
    }
}
