//! Tests of `solution::literature`.

use ndarray::ArrayView1;
use pmldesign_model::measures::pml::eps_min;
use pmldesign_model::{Notion, Prior, UncertaintySet};
use pmldesign_solver::internals::reference::literature::Level;
use pmldesign_solver::internals::reference::literature::hadamard;
use pmldesign_solver::internals::reference::literature::{HADAMARD, subset_mechanism};
use pmldesign_solver::internals::solution::estimation::FIGURE_ONLY;

#[test]
fn pml_calibration_meets_the_level_exactly() {
    let masses = vec![0.35, 0.25, 0.2, 0.12, 0.08];
    let prior = Prior::new(masses.clone()).unwrap();
    let mut sorted = masses.clone();
    sorted.sort_by(f64::total_cmp);
    for epsilon in [0.3, 1.0, 2.0] {
        let level = Level::Pml {
            epsilon,
            shift: 0.0,
        };
        for size in 1..5 {
            let smallest: f64 = sorted[..size].iter().sum();
            let Some(a) = level.boost(smallest) else {
                // No finite boost: the level allows the set itself.
                assert!(epsilon.exp() * smallest >= 1.0);
                continue;
            };
            let leak = eps_min(&subset_mechanism(5, size, a).unwrap(), &prior);
            assert!(
                (leak - epsilon).abs() < 1e-12,
                "{size}: {leak} vs {epsilon}"
            );
        }
    }
}

/// The density notions the calibrations are tested at.
fn density_notions() -> [Notion; 3] {
    [
        Notion::Pmc { epsilon: 0.7 },
        Notion::Lip { epsilon: 1.0 },
        Notion::Alip {
            epsilon_lower: 0.5,
            epsilon_upper: 1.2,
        },
    ]
}

/// k-subset selection under PMC, LIP and ALIP at the boost the level
/// allows: the notion holds within 1e-12, and a boost 1e-6 larger breaks it.
#[test]
fn density_calibration_meets_the_level_exactly() {
    use pmldesign_model::measures::NotionLevels;
    let masses = vec![0.35, 0.25, 0.2, 0.12, 0.08];
    let set = UncertaintySet::known(Prior::new(masses.clone()).unwrap());
    let mut sorted = masses.clone();
    sorted.sort_by(f64::total_cmp);
    for notion in density_notions() {
        let level = Level::of(&notion, &set).unwrap();
        for size in 1..5 {
            let smallest: f64 = sorted[..size].iter().sum();
            let largest: f64 = sorted[5 - size..].iter().sum();
            let a = level.boost_range(smallest, largest).unwrap();
            let excess = |a: f64| {
                let m = subset_mechanism(5, size, a).unwrap();
                NotionLevels::measure_notion(&m, &set, &notion).excess(&notion)
            };
            assert!(excess(a) <= 1e-12, "{notion:?} {size}: {}", excess(a));
            assert!(
                excess(a * (1.0 + 1e-6)) > 0.0,
                "{notion:?} {size}: not binding"
            );
        }
    }
}

/// Hadamard response under PMC, LIP and ALIP at the boost the level allows
/// over its outputs' input sets: the notion holds within 1e-12, and a boost
/// 1e-6 larger breaks it; at 8 and 40 inputs of Zipf-like masses too.
#[test]
fn hadamard_response_meets_density_levels_exactly() {
    use pmldesign_model::frequency::{hadamard_mass_range, hadamard_response};
    use pmldesign_model::measures::NotionLevels;
    for k in [5usize, 8, 40] {
        let masses: Vec<f64> = match k {
            5 => vec![0.35, 0.25, 0.2, 0.12, 0.08],
            _ => {
                let total: f64 = (1..=k).map(|i| 1.0 / i as f64).sum();
                (1..=k).map(|i| 1.0 / (i as f64 * total)).collect()
            }
        };
        let set = UncertaintySet::known(Prior::new(masses.clone()).unwrap());
        let p = ArrayView1::from(&masses);
        let (least, largest) = hadamard_mass_range(p).unwrap();
        for notion in density_notions() {
            let level = Level::of(&notion, &set).unwrap();
            let m = hadamard(p, &level).unwrap();
            let excess = |m: &pmldesign_model::Mechanism| {
                NotionLevels::measure_notion(m, &set, &notion).excess(&notion)
            };
            assert!(excess(&m) <= 1e-12, "{notion:?} {k}: {}", excess(&m));
            let a = level.boost_range(least, largest).unwrap();
            let more = hadamard_response(k, a * (1.0 + 1e-6)).unwrap();
            assert!(excess(&more) > 0.0, "{notion:?} {k}: not binding");
        }
    }
}

#[test]
fn hadamard_response_is_calibrated_by_the_level() {
    let masses = [0.35, 0.25, 0.2, 0.12, 0.08];
    let prior = Prior::new(masses.to_vec()).unwrap();
    let p = ArrayView1::from(&masses);
    let least = pmldesign_model::frequency::hadamard_least_mass(p).unwrap();
    for epsilon in [0.3f64, 1.0, 2.0] {
        let ldp = hadamard(p, &Level::Ldp(epsilon)).unwrap();
        let measured = pmldesign_model::measures::ldp::ldp_parameter(&ldp);
        assert!(
            (measured - epsilon).abs() < 1e-12,
            "{measured} vs {epsilon}"
        );
        let shift = 0.0;
        let m = hadamard(p, &Level::Pml { epsilon, shift }).unwrap();
        let leak = eps_min(&m, &prior);
        if epsilon.exp() * least >= 1.0 {
            // Every boost meets the level: its limit, each input's high set
            // uniformly, leaks ln(1 / least) at most.
            assert!(m.matrix().iter().any(|&v| v == 0.0));
            assert!(
                (leak - (1.0 / least).ln()).abs() < 1e-12,
                "{leak} vs {least}"
            );
            assert!(leak <= epsilon);
        } else {
            assert!((leak - epsilon).abs() < 1e-12, "{leak} vs {epsilon}");
        }
    }
    assert!(hadamard(ArrayView1::from(&[1.0]), &Level::Ldp(1.0)).is_none());
}

#[test]
fn a_stored_table_without_the_literature_rows_still_reads() {
    let set = UncertaintySet::known(Prior::new(vec![0.4, 0.3, 0.2, 0.1]).unwrap());
    let problem = pmldesign_solver::Problem::new(set).notion(Notion::Ldp { epsilon: 1.0 });
    let d = problem.solve().unwrap().with_estimation().unwrap();
    let full = d.estimation().cloned().unwrap();
    assert!(full.rows.iter().any(|r| r.mechanism.ends_with(FIGURE_ONLY)));
    let last = full.rows.last().unwrap();
    assert!(last.mechanism.starts_with(HADAMARD), "{last:?}");
    // Before Hadamard response's row, and before every literature row.
    let mut older = full.clone();
    older.rows.pop();
    assert_eq!(older.check(&d).unwrap(), full);
    older.rows.retain(|r| !r.mechanism.ends_with(FIGURE_ONLY));
    assert_eq!(older.check(&d).unwrap(), full);
    older.rows.pop();
    assert!(older.check(&d).is_err());
    let mut altered = full.clone();
    altered.rows.remove(1);
    assert!(altered.check(&d).is_err());
    let mut altered = full.clone();
    altered.rows.truncate(full.rows.len() - 2);
    assert!(altered.check(&d).is_err());
}

/// Past the squares scored by their Fisher information (1,100 labels), a
/// design for estimation carries its table: its own row is its objective,
/// randomized response and OUE by their closed forms, Hadamard response by its
/// transform (the design's own figures where it is the design). A reader
/// lists the same baselines and rows, and refuses a row altered by 1e-6.
#[test]
fn a_design_past_the_scored_squares_carries_its_table_and_reads_back() {
    use pmldesign_solver::Design;
    let k = 1100;
    let d = past_the_scored_squares(k, 3)
        .estimation()
        .solve()
        .unwrap()
        .with_estimation()
        .unwrap();
    let table = d.estimation().cloned().unwrap();
    let names: Vec<&str> = table.rows.iter().map(|r| r.mechanism.as_str()).collect();
    assert_eq!(names[0], "design");
    assert_eq!(table.rows[0].error_per_row, Some(-d.utility_value()));
    assert!(
        names.iter().any(|n| n.starts_with("unary encoding")),
        "{names:?}"
    );
    let hadamard_row = table.rows.last().unwrap();
    assert!(hadamard_row.mechanism.starts_with(HADAMARD), "{names:?}");
    assert!(
        table
            .rows
            .iter()
            .all(|r| r.groups == k && r.error_per_row.is_some())
    );
    // Never above a row it could have started from.
    assert!(
        table
            .rows
            .iter()
            .all(|r| -d.utility_value() <= r.error_per_row.unwrap() + 1e-9)
    );
    let text = serde_json::to_string(&d).unwrap();
    let read: Design = serde_json::from_str(&text).unwrap();
    let labels = |d: &Design| {
        d.baselines()
            .rows()
            .iter()
            .map(|r| r.label.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(labels(&read), labels(&d));
    assert_eq!(read.estimation().unwrap().rows, table.rows);
    let mut altered: serde_json::Value = serde_json::from_str(&text).unwrap();
    let stated = &mut altered["estimation"]["rows"][0]["error_per_row"];
    *stated = serde_json::json!(stated.as_f64().unwrap() * (1.0 + 1e-6));
    assert!(serde_json::from_value::<Design>(altered).is_err());
}

/// Past the squares scored by their Fisher information, a design whose own
/// error is quick to measure (an MI design's few outputs) carries a table of
/// the baselines that are quick too, which a reader derives alike; a loss
/// design (a square matrix) carries none.
#[test]
fn past_the_scored_squares_only_quick_rows_are_measured() {
    use pmldesign_model::frequency::has_quick_error;
    use pmldesign_solver::Design;
    let problem = || past_the_scored_squares(1100, 2);
    let d = problem().solve().unwrap().with_estimation().unwrap();
    let table = d.estimation().cloned().unwrap();
    assert!(has_quick_error(d.mechanism()));
    let quick = d
        .baselines()
        .rows()
        .into_iter()
        .filter(|b| has_quick_error(b.mechanism))
        .count();
    assert!(quick >= 2);
    assert_eq!(table.labels(&d).len(), table.rows.len());
    assert!(table.rows.len() > quick);
    let read: Design = serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
    assert_eq!(read.estimation().unwrap().rows, table.rows);
    let loss = problem()
        .loss(pmldesign_solver::Loss::Hamming)
        .settings(
            pmldesign_solver::Settings::default().time_limit(std::time::Duration::from_secs(2)),
        )
        .solve()
        .unwrap()
        .with_estimation()
        .unwrap();
    assert!(loss.estimation().is_none());
}

/// eps-PML (eps 1) over a Zipf(1) prior of `k` labels, with a limit of
/// `seconds`.
fn past_the_scored_squares(k: usize, seconds: u64) -> pmldesign_solver::Problem<'static> {
    let raw: Vec<f64> = (1..=k).map(|i| 1.0 / i as f64).collect();
    let p: Vec<f64> = raw.iter().map(|v| v / raw.iter().sum::<f64>()).collect();
    let limit = std::time::Duration::from_secs(seconds);
    pmldesign_solver::Problem::new(UncertaintySet::known(Prior::new(p).unwrap()))
        .notion(Notion::Pml { epsilon: 1.0 })
        .settings(pmldesign_solver::Settings::default().time_limit(limit))
}
