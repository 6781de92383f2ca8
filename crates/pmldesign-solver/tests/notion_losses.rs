//! Losses under PMC, ALIP, LIP and LDP (docs/theory.md §4c): known
//! optima, the direct LP against column generation, and the certificate's
//! re-measured levels.

use pmldesign_model::{Notion, Prior, UncertaintySet};
use pmldesign_solver::{Design, DesignStatus, Loss, LossMethod, Problem, Settings};

fn solve(set: &UncertaintySet, notion: Notion, loss: Loss, method: LossMethod) -> Design {
    let settings = Settings {
        loss_method: method,
        ..Settings::default()
    };
    Problem::new(set.clone())
        .notion(notion)
        .loss(loss)
        .settings(settings)
        .solve()
        .unwrap()
}

fn harmonic(n: usize) -> Prior {
    Prior::normalised((0..n).map(|i| 1.0 / (1.0 + i as f64)).collect::<Vec<_>>()).unwrap()
}

/// The best k-subset randomized response for the Hamming loss under eps-LDP:
/// the k most likely labels, each kept with probability `e / (e + k - 1)`; the
/// others answered uniformly among the k (docs/theory.md §4c).
fn best_subset_rr(p: &[f64], epsilon: f64) -> f64 {
    let e = epsilon.exp();
    let mut sorted = p.to_vec();
    sorted.sort_by(|a, b| b.total_cmp(a));
    let mut top = 0.0;
    let mut best: f64 = 0.0;
    for (k, q) in sorted.iter().enumerate() {
        top += q;
        best = best.max(e * top / (e + k as f64));
    }
    1.0 - best
}

/// Uniform prior: randomized response is optimal, loss `(N - 1) / (e^eps + N - 1)`.
#[test]
fn ldp_hamming_uniform_is_randomized_response() {
    for (n, eps) in [(2, 0.5), (5, 1.0), (12, 2.0)] {
        let set = UncertaintySet::known(Prior::uniform(n).unwrap());
        for method in [LossMethod::Direct, LossMethod::ColumnGeneration] {
            let d = solve(&set, Notion::Ldp { epsilon: eps }, Loss::Hamming, method);
            let want = (n as f64 - 1.0) / (eps.exp() + n as f64 - 1.0);
            let got = d.loss().unwrap().expected_loss;
            assert!(
                (got - want).abs() < 1e-9,
                "N={n} eps={eps}: {got} vs {want}"
            );
            assert_eq!(d.status(), DesignStatus::Optimal);
            assert!(d.certificate().levels().ldp <= eps + 1e-12);
        }
    }
}

/// Non-uniform priors: the LP equals the best subset randomized response.
#[test]
fn ldp_hamming_is_the_best_subset_randomized_response() {
    for (prior, eps) in [
        (harmonic(8), 1.0),
        (harmonic(20), 0.5),
        (Prior::new(vec![0.6, 0.2, 0.1, 0.05, 0.05]).unwrap(), 2.0),
    ] {
        let want = best_subset_rr(prior.masses().as_slice().unwrap(), eps);
        let set = UncertaintySet::known(prior);
        let d = solve(
            &set,
            Notion::Ldp { epsilon: eps },
            Loss::Hamming,
            LossMethod::Auto,
        );
        let got = d.loss().unwrap().expected_loss;
        assert!((got - want).abs() < 1e-9, "{got} vs {want}");
    }
}

/// Column generation and the direct LP reach the same optimum under every notion
/// with a structured slice, for three losses.
#[test]
fn direct_lp_equals_column_generation() {
    let set = UncertaintySet::known(Prior::new(vec![0.35, 0.25, 0.2, 0.12, 0.08]).unwrap());
    let notions = [
        Notion::Ldp { epsilon: 0.8 },
        Notion::Pmc { epsilon: 0.4 },
        Notion::Lip { epsilon: 0.6 },
        Notion::Alip {
            epsilon_lower: 0.3,
            epsilon_upper: 0.9,
        },
    ];
    for notion in notions {
        for loss in [Loss::Hamming, Loss::Absolute, Loss::Squared] {
            let a = solve(&set, notion.clone(), loss.clone(), LossMethod::Direct);
            let b = solve(
                &set,
                notion.clone(),
                loss.clone(),
                LossMethod::ColumnGeneration,
            );
            let (la, lb) = (a.loss().unwrap(), b.loss().unwrap());
            assert_eq!(la.method, LossMethod::Direct);
            assert_eq!(lb.method, LossMethod::ColumnGeneration);
            let msg = format!("{} {}", notion.label(), loss.name());
            assert!((la.expected_loss - lb.expected_loss).abs() < 1e-8, "{msg}");
            assert!(la.lower_bound <= lb.expected_loss + 1e-9, "{msg}");
            assert!(lb.lower_bound <= la.expected_loss + 1e-9, "{msg}");
            assert_eq!(a.status(), DesignStatus::Optimal, "{msg} {la:?}");
            assert_eq!(
                b.status(),
                DesignStatus::Optimal,
                "{msg} {lb:?} {:?}",
                b.mechanism()
            );
        }
    }
}

/// The certificate re-measures the notion: PMC, ALIP and LIP over a ball of
/// priors (direct LP over its vertices) stay within their levels.
#[test]
fn ball_designs_meet_their_levels_as_measured() {
    let set = UncertaintySet::l1_ball(Prior::new(vec![0.4, 0.3, 0.2, 0.1]).unwrap(), 0.05).unwrap();
    for notion in [
        Notion::Pmc { epsilon: 0.5 },
        Notion::Lip { epsilon: 0.7 },
        Notion::Alip {
            epsilon_lower: 0.4,
            epsilon_upper: 1.0,
        },
    ] {
        let d = solve(&set, notion.clone(), Loss::Absolute, LossMethod::Auto);
        let l = d.loss().unwrap();
        assert_eq!(l.method, LossMethod::Direct);
        let levels = d.certificate().levels();
        assert!(levels.excess(&notion) <= 1e-12, "{}", notion.label());
        assert!(l.expected_loss >= l.lower_bound - 1e-9);
        assert_eq!(*d.notion(), notion);
    }
}

/// Column generation under PMC is refused for a ball (no exact slice), with the
/// field named.
#[test]
fn column_generation_needs_a_structured_slice() {
    let set = UncertaintySet::l1_ball(Prior::new(vec![0.5, 0.3, 0.2]).unwrap(), 0.05).unwrap();
    let settings = Settings {
        loss_method: LossMethod::ColumnGeneration,
        ..Settings::default()
    };
    let e = Problem::new(set)
        .notion(Notion::Pmc { epsilon: 0.5 })
        .loss(Loss::Hamming)
        .settings(settings)
        .solve()
        .unwrap_err();
    assert!(e.to_string().contains("method"), "{e}");
}

/// eps = 0 under LDP: every row equal, the best constant guess.
#[test]
fn ldp_zero_is_the_best_constant_guess() {
    let set = UncertaintySet::known(Prior::new(vec![0.5, 0.3, 0.2]).unwrap());
    let d = solve(
        &set,
        Notion::Ldp { epsilon: 0.0 },
        Loss::Hamming,
        LossMethod::Auto,
    );
    assert!((d.loss().unwrap().expected_loss - 0.5).abs() < 1e-9);
}

/// Regression (found by the edges suite): under LIP over a polytope the LP's
/// near-constant guess left a column of 2e-13 noise beside zeros (PMC infinite);
/// such noise columns are dropped and the design certifies.
#[test]
fn noise_columns_are_dropped() {
    let p = vec![
        0.354953860,
        0.327404766,
        0.020632070,
        0.167209348,
        0.129799956,
    ];
    let q = vec![
        0.315110267,
        0.101256409,
        0.002077004,
        0.265796700,
        0.315759620,
    ];
    let set = UncertaintySet::polytope(vec![p, q]).unwrap();
    let d = solve(
        &set,
        Notion::Lip { epsilon: 0.0415 },
        Loss::Hamming,
        LossMethod::Direct,
    );
    assert!(d.certificate().levels().lip() <= 0.0415 + 1e-12);
}

/// The direct LP under LIP over a ball past Proposition 2 keeps the time
/// limit: stopped before its primal, the design is still returned, certified
/// LIP over the whole ball (the constant guess or a structured baseline that
/// loses less), with the loss without privacy as its bound and a time-limit
/// status; the same route serves PMC, ALIP and metric privacy.
#[test]
fn direct_lp_under_lip_stops_at_the_time_limit() {
    use pmldesign_model::measures::NotionLevels;
    let set = UncertaintySet::l1_ball(harmonic(12), 0.5).unwrap();
    let mut settings = Settings {
        loss_method: LossMethod::Direct,
        ..Settings::default()
    };
    settings.column_generation.time_limit = Some(std::time::Duration::from_nanos(1));
    for notion in [
        Notion::Lip { epsilon: 0.8 },
        Notion::Pmc { epsilon: 0.8 },
        Notion::Metric {
            epsilon: 0.8,
            metric: pmldesign_model::Metric::Line,
        },
    ] {
        let d = Problem::new(set.clone())
            .notion(notion.clone())
            .loss(Loss::Hamming)
            .settings(settings.clone())
            .solve()
            .unwrap();
        assert_eq!(d.status(), DesignStatus::TimeLimit, "{notion:?}");
        let excess = NotionLevels::measure_notion(d.mechanism(), &set, &notion).excess(&notion);
        assert!(excess <= 1e-12, "{notion:?}: {excess}");
        let loss = d.loss().unwrap();
        assert!(loss.lower_bound <= loss.expected_loss, "{notion:?}");
        // The constant guess loses 1 - max p; a structured baseline only less.
        let p = set.reference();
        let max_p = p.iter().copied().fold(0.0, f64::max);
        assert!(loss.expected_loss <= 1.0 - max_p + 1e-12, "{notion:?}");
    }
}
