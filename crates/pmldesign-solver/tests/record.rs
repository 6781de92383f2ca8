//! Whole records (docs/theory.md §12): a 3 x 4 record whose per-column designs
//! leak more than their levels' sum, random correlated records under every
//! mode, the reader's re-derivation, and record estimates that are
//! distributions.

use pmldesign_model::record::RecordSample;
use pmldesign_solver::{RecordDesign, RecordMode, RecordProblem};

/// A strongly correlated 3 x 4 record, as counts of 1000 records.
fn counterexample() -> RecordSample {
    let joint = [
        [0.30, 0.02, 0.01, 0.01],
        [0.01, 0.25, 0.02, 0.01],
        [0.02, 0.01, 0.03, 0.31],
    ];
    let tuples = (0..3)
        .flat_map(|a| (0..4).map(move |b| (vec![a, b], (joint[a][b] * 1000.0f64).round() as u64)))
        .collect();
    let labels = vec![
        vec!["a1".into(), "a2".into(), "a3".into()],
        (1..=4).map(|b| format!("b{b}")).collect(),
    ];
    RecordSample::new(vec!["A".into(), "B".into()], labels, tuples).unwrap()
}

fn solve(sample: RecordSample, mode: RecordMode, split: Option<Vec<f64>>) -> RecordDesign {
    let p = RecordProblem::new(sample, 1.0).mode(mode);
    match split {
        Some(s) => p.split(s),
        None => p,
    }
    .solve()
    .unwrap()
}

#[test]
fn per_column_designs_leak_more_than_their_sum_and_composition_does_not() {
    let compose = solve(counterexample(), RecordMode::Compose, Some(vec![0.7, 0.3]));
    let naive = compose.naive().leakage_about_record.unwrap();
    assert!((naive - 1.43).abs() < 0.01, "naive {naive}");
    let leak = compose.leakage_about_record().unwrap();
    assert!(
        leak <= 1.0 + 1e-12 && (leak - 0.90).abs() < 0.01,
        "compose {leak}"
    );
    let mi = compose.utility().value;
    assert!((mi - 0.51).abs() < 0.01, "compose I = {mi}");
    let ldp = solve(counterexample(), RecordMode::Ldp, None);
    assert!(ldp.leakage_about_record().unwrap() <= 1.0 + 1e-12);
    assert!(
        (ldp.utility().value - 0.06).abs() < 0.01,
        "ldp I = {}",
        ldp.utility().value
    );
    let joint = solve(counterexample(), RecordMode::Joint, None);
    assert!(joint.leakage_about_record().unwrap() <= 1.0 + 1e-12);
    assert!(
        (joint.utility().value - 0.92).abs() < 0.01,
        "joint I = {}",
        joint.utility().value
    );
    assert_eq!(joint.cells().len(), 12);
    assert_eq!(
        solve(counterexample(), RecordMode::Auto, None).mode(),
        RecordMode::Joint
    );
    let searched = solve(counterexample(), RecordMode::Compose, None);
    assert!(
        searched.utility().value >= mi - 1e-9,
        "searched {} < {mi}",
        searched.utility().value
    );
    assert!(
        searched
            .guarantee()
            .statement
            .contains("thesis Theorem 5.24 (i)"),
        "{}",
        searched.guarantee().statement
    );
}

#[test]
fn a_stored_record_design_reads_back_and_a_changed_figure_is_refused() {
    let d = solve(counterexample(), RecordMode::Compose, Some(vec![0.7, 0.3]));
    let text = serde_json::to_string(&d).unwrap();
    let back: RecordDesign = serde_json::from_str(&text).unwrap();
    assert_eq!(serde_json::to_string(&back).unwrap(), text);
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    for (path, forged) in [
        ("/epsilon", serde_json::json!(2.0)),
        ("/epsilons/0", serde_json::json!(0.8)),
        ("/radii/1", serde_json::json!(0.1)),
        ("/leakage_about_record", serde_json::json!(0.5)),
        ("/naive/leakage_about_record", serde_json::json!(0.9)),
        ("/utility/value", serde_json::json!(0.6)),
        ("/guarantee/statement", serde_json::json!("anything")),
        ("/mode", serde_json::json!("ldp")),
        ("/sample/tuples/0/1", serde_json::json!(301)),
    ] {
        let old = value.pointer(path).unwrap().clone();
        *value.pointer_mut(path).unwrap() = forged;
        let read = serde_json::from_value::<RecordDesign>(value.clone());
        assert!(read.is_err(), "{path} forged and read");
        *value.pointer_mut(path).unwrap() = old;
    }
    assert!(serde_json::from_value::<RecordDesign>(value).is_ok());
}

#[test]
fn with_a_delta_the_balls_grow_and_the_statement_says_so() {
    let plain = solve(counterexample(), RecordMode::Compose, Some(vec![0.7, 0.3]));
    let d = RecordProblem::new(counterexample(), 1.0)
        .mode(RecordMode::Compose)
        .split(vec![0.7, 0.3])
        .delta(1e-3)
        .solve()
        .unwrap();
    assert!(
        d.radii()[0] > 0.0 && d.radii()[1] > plain.radii()[1],
        "{:?} {:?}",
        d.radii(),
        plain.radii()
    );
    assert!(
        d.guarantee()
            .statement
            .starts_with("With probability at least 1 - 0.001"),
        "{}",
        d.guarantee().statement
    );
    assert!(d.leakage_about_record().unwrap() <= 1.0 + 1e-12);
    let text = serde_json::to_string(&d).unwrap();
    assert!(serde_json::from_str::<RecordDesign>(&text).is_ok());
    let mut forged: serde_json::Value = serde_json::from_str(&text).unwrap();
    forged["guarantee"]["delta"] = serde_json::json!(0.1);
    assert!(serde_json::from_value::<RecordDesign>(forged).is_err());
}

#[test]
fn bad_records_are_refused_naming_the_field() {
    let err = |p: RecordProblem| p.solve().unwrap_err().to_string();
    let e = err(RecordProblem::new(counterexample(), 1.0)
        .mode(RecordMode::Compose)
        .split(vec![0.5, 0.4]));
    assert!(e.starts_with("invalid split"), "{e}");
    let e = err(RecordProblem::new(counterexample(), 1.0)
        .mode(RecordMode::Joint)
        .max_cells(10));
    assert!(
        e.starts_with("invalid max_cells") && e.contains("12 combinations"),
        "{e}"
    );
    let labels = vec![vec!["a".to_string(), "b".to_string()]; 2];
    let twice = RecordSample::new(vec!["A".into(), "A".into()], labels, vec![(vec![0, 1], 3)]);
    assert!(
        twice
            .unwrap_err()
            .to_string()
            .starts_with("invalid columns")
    );
}

/// A record of `sizes` columns driven by a hidden state, so the columns are
/// correlated; every combination observed at least once when `full`.
fn correlated(seed: u64, sizes: &[usize], full: bool) -> RecordSample {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let states = 3;
    let weights: Vec<Vec<Vec<f64>>> = sizes
        .iter()
        .map(|&n| {
            (0..states)
                .map(|_| (0..n).map(|_| rng.random::<f64>().powi(3) + 0.01).collect())
                .collect()
        })
        .collect();
    let mut tuples = Vec::new();
    let mut tuple = vec![0usize; sizes.len()];
    loop {
        let mass: f64 = (0..states)
            .map(|z| {
                tuple
                    .iter()
                    .enumerate()
                    .map(|(j, &x)| weights[j][z][x] / weights[j][z].iter().sum::<f64>())
                    .product::<f64>()
            })
            .sum::<f64>()
            / states as f64;
        let count = (mass * if full { 2000.0 } else { 150.0 }).round() as u64 + u64::from(full);
        if count > 0 {
            tuples.push((tuple.clone(), count));
        }
        let Some(j) = (0..sizes.len()).rev().find(|&j| tuple[j] + 1 < sizes[j]) else {
            break;
        };
        tuple[j] += 1;
        tuple[j + 1..].iter_mut().for_each(|x| *x = 0);
    }
    let columns = (0..sizes.len()).map(|j| format!("c{j}")).collect();
    let labels = sizes
        .iter()
        .map(|&n| (0..n).map(|x| format!("v{x}")).collect())
        .collect();
    RecordSample::new(columns, labels, tuples).unwrap()
}

#[test]
fn random_correlated_records_keep_their_total_under_every_mode() {
    let cases: [(u64, &[usize]); 6] = [
        (1, &[2, 3]),
        (2, &[4, 2]),
        (3, &[3, 3, 2]),
        (4, &[2, 2, 2, 2]),
        (5, &[5, 4]),
        (6, &[8, 2]),
    ];
    for (seed, sizes) in cases {
        let sample = correlated(seed, sizes, true);
        let eps = 0.4 + 0.3 * seed as f64 / 6.0;
        let run = |mode| {
            RecordProblem::new(sample.clone(), eps)
                .mode(mode)
                .solve()
                .unwrap()
        };
        let (joint, compose, ldp) = (
            run(RecordMode::Joint),
            run(RecordMode::Compose),
            run(RecordMode::Ldp),
        );
        for d in [&joint, &compose, &ldp] {
            let leak = d.leakage_about_record().unwrap();
            assert!(
                leak <= eps + 1e-12,
                "seed {seed} {:?}: {leak} > {eps}",
                d.mode()
            );
            assert!(
                (d.epsilons().iter().sum::<f64>() - eps).abs() < 1e-12
                    || d.mode() == RecordMode::Joint
            );
        }
        let (j, c, l) = (
            joint.utility().value,
            compose.utility().value,
            ldp.utility().value,
        );
        assert!(
            j >= c * (1.0 - 1e-9) - 1e-12 && j >= l * (1.0 - 1e-9) - 1e-12,
            "seed {seed}: joint {j}, compose {c}, ldp {l}"
        );
    }
}

#[test]
fn unobserved_combinations_send_auto_to_compose_and_a_delta_covers_them() {
    let sample = correlated(7, &[3, 3, 3], false);
    assert!(
        sample.tuples().len() < 27,
        "{} combinations observed",
        sample.tuples().len()
    );
    let d = RecordProblem::new(sample.clone(), 1.0).solve().unwrap();
    assert_eq!(d.mode(), RecordMode::Compose);
    let e = RecordProblem::new(sample.clone(), 1.0)
        .mode(RecordMode::Joint)
        .solve()
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("invalid record") && e.contains("never observed"),
        "{e}"
    );
    let with_delta = RecordProblem::new(sample, 1.0)
        .delta(1e-3)
        .split(vec![0.4, 0.3, 0.3])
        .solve()
        .unwrap();
    assert!(
        with_delta.radii().iter().all(|&r| r > 0.0 && r <= 2.0),
        "{:?}",
        with_delta.radii()
    );
    assert!(with_delta.leakage_about_record().unwrap() <= 1.0 + 1e-12);
}

/// `auto` keeps the better of joint and compose up to `AUTO_JOINT_CELLS`
/// combinations, and composes past them (where the joint design takes minutes).
#[test]
fn auto_is_the_better_of_joint_and_compose_on_small_records_and_composes_past_them() {
    for sample in [counterexample(), correlated(9, &[4, 2], true)] {
        let run = |mode| {
            RecordProblem::new(sample.clone(), 1.0)
                .mode(mode)
                .solve()
                .unwrap()
        };
        let (auto, joint, compose) = (
            run(RecordMode::Auto),
            run(RecordMode::Joint),
            run(RecordMode::Compose),
        );
        let best = joint.utility().value.max(compose.utility().value);
        assert_eq!(auto.utility().value, best, "auto {:?}", auto.mode());
        assert_ne!(auto.mode(), RecordMode::Auto);
    }
    let wide = correlated(10, &[6, 6], true);
    assert!(wide.tuples().len() > pmldesign_solver::internals::AUTO_JOINT_CELLS);
    let d = RecordProblem::new(wide, 1.0).solve().unwrap();
    assert_eq!(d.mode(), RecordMode::Compose);
}

/// The released tuples' expected counts (rounded) from `rows` records of the
/// sample's joint through a product design.
fn released_through(r: &RecordDesign, rows: f64) -> Vec<(Vec<String>, u64)> {
    let (a, b) = (&r.designs()[0], &r.designs()[1]);
    let total: u64 = r.sample().tuples().iter().map(|(_, n)| n).sum();
    let mut out = Vec::new();
    for (ya, la) in a.outputs().iter().enumerate() {
        for (yb, lb) in b.outputs().iter().enumerate() {
            let q: f64 = (r.sample().tuples().iter())
                .map(|(t, n)| {
                    let (wa, wb) = (a.mechanism().matrix(), b.mechanism().matrix());
                    *n as f64 / total as f64 * wa[[t[0], ya]] * wb[[t[1], yb]]
                })
                .sum();
            out.push((vec![la.clone(), lb.clone()], (q * rows).round() as u64));
        }
    }
    out
}

/// A compose record at eps 1 estimated from 60,000 released records: certified
/// maximum likelihood, the joint's masses sum to 1 and each marginal is exactly
/// the sum of its cells (the unbiased per-functional estimates did not: joint
/// sums of 1.16 to 1.62 were measured).
#[test]
fn a_record_estimate_is_a_distribution() {
    let r = solve(counterexample(), RecordMode::Compose, Some(vec![0.7, 0.3]));
    let released = released_through(&r, 60_000.0);
    let settings = pmldesign_model::frequency::FrequencySettings::default();
    let e = pmldesign_solver::estimate_record(&r, &released, &settings).unwrap();
    assert!(
        e.converged && e.likelihood_gap.unwrap() <= 1e-6,
        "{:?}",
        e.likelihood_gap
    );
    let joint: f64 = e.joint.iter().map(|(_, v)| v.estimate).sum();
    assert!((joint - 1.0).abs() < 1e-9, "joint sums to {joint}");
    for (j, marginal) in e.marginals.iter().enumerate() {
        let total: f64 = marginal.iter().map(|(_, v)| v.estimate).sum();
        assert!((total - 1.0).abs() < 1e-9, "column {j} sums to {total}");
        for (value, v) in marginal {
            let cells = e.joint.iter().filter(|(cell, _)| &cell[j] == value);
            let sum: f64 = cells.map(|(_, c)| c.estimate).sum();
            assert_eq!(sum, v.estimate, "column {j} value {value}");
        }
    }
}

/// The public file of a compose record: read back as written, and the estimate
/// from it is the record design's (the same product channel); its sentence is
/// re-derived, so a stronger one is refused; a joint record has none.
#[test]
fn a_public_record_estimates_as_its_design_and_states_only_what_it_derives() {
    use pmldesign_model::frequency::FrequencySettings;
    use pmldesign_solver::{PublicRecord, estimate_public_record, estimate_record};
    let compose = solve(counterexample(), RecordMode::Compose, Some(vec![0.7, 0.3]));
    let public = PublicRecord::of(&compose).unwrap();
    let text = public.to_json();
    let read = PublicRecord::from_json(&text).unwrap();
    assert_eq!(read, public);
    assert_eq!(read.columns(), ["A", "B"]);
    assert_eq!(read.parts().len(), 2);
    let (a, b) = (read.parts()[0].outputs(), read.parts()[1].outputs());
    let (la, lb) = (a.len() - 1, b.len() - 1);
    let released: Vec<(Vec<String>, u64)> = vec![
        (vec![a[0].clone(), b[0].clone()], 300),
        (vec![a[la].clone(), b[lb].clone()], 250),
        (vec![a[0].clone(), b[lb].clone()], 40),
    ];
    let s = FrequencySettings::default();
    assert_eq!(
        estimate_public_record(&read, &released, &s).unwrap(),
        estimate_record(&compose, &released, &s).unwrap()
    );
    let stronger = text.replace(
        "is 1-PML about the whole record",
        "is 0.5-PML about the whole record",
    );
    assert_ne!(stronger, text);
    let err = PublicRecord::from_json(&stronger).unwrap_err().to_string();
    assert!(err.contains("invalid guarantee"), "{err}");
    let joint = solve(counterexample(), RecordMode::Joint, None);
    let err = PublicRecord::of(&joint).unwrap_err().to_string();
    assert!(err.contains("a joint record has no public file"), "{err}");
}

/// The time limit bounds the whole record, not each of its designs: spent at
/// once, the split search stops at the equal split, each column's design gets
/// what is left (a millisecond) and returns its best certified mechanism (a
/// time-limit stop, or optimal where that took less), and the record is still
/// certified within its level.
#[test]
fn a_spent_time_limit_bounds_the_whole_record() {
    use pmldesign_solver::{DesignStatus, Settings};
    let settings = Settings::default().time_limit(std::time::Duration::from_nanos(1));
    let r = RecordProblem::new(counterexample(), 1.0)
        .mode(RecordMode::Compose)
        .settings(settings)
        .solve()
        .unwrap();
    assert_eq!(r.epsilons(), vec![0.5, 0.5]);
    for d in r.designs() {
        // A column this small may be proven optimal within its millisecond.
        let stopped = [DesignStatus::TimeLimit, DesignStatus::Optimal];
        assert!(stopped.contains(&d.status()), "{:?}", d.status());
        assert!(d.certificate().worst_case_pml() <= 0.5 + 1e-12);
    }
    assert!(r.leakage_about_record().unwrap() <= 1.0 + 1e-12);
}

/// A joint design too large for its share of the record's time limit is
/// refused up front, naming the record's limit and the least the whole record
/// needs: the least of the design alone, times the designs sharing it.
#[test]
fn a_record_too_large_for_its_limit_names_the_records_least() {
    use pmldesign_solver::{Problem, Sample, Settings, SolverError};
    use std::time::Duration;
    let labels: Vec<Vec<String>> = ["a", "b"]
        .iter()
        .map(|c| (0..40).map(|x| format!("{c}{x}")).collect())
        .collect();
    let tuples: Vec<(Vec<usize>, u64)> = (0..1600)
        .map(|c| (vec![c / 40, c % 40], 1 + (c % 7) as u64))
        .collect();
    let counts: Vec<u64> = tuples.iter().map(|t| t.1).collect();
    let sample = RecordSample::new(vec!["a".into(), "b".into()], labels, tuples).unwrap();
    let limit = Duration::from_secs(1);
    let settings = Settings::default().time_limit(limit);
    let e = RecordProblem::new(sample, 1.0)
        .mode(RecordMode::Joint)
        .delta(1e-6)
        .max_cells(2000)
        .settings(settings.clone())
        .solve()
        .unwrap_err();
    let SolverError::TimeLimitTooShort {
        limit: said,
        least,
        n,
        parts,
        ..
    } = e
    else {
        panic!("{e}");
    };
    assert_eq!((said, n, parts), (limit, 1600, 3));
    let alone = Problem::from_sample(Sample::from_counts(&counts, 1e-6).unwrap())
        .epsilon(1.0)
        .settings(settings)
        .solve()
        .unwrap_err();
    let SolverError::TimeLimitTooShort { least: one, .. } = alone else {
        panic!("{alone}");
    };
    assert!(
        least >= 3 * one && least < 3 * one + limit,
        "{least:?} {one:?}"
    );
    let text = e.to_string();
    assert!(
        text.starts_with(
            "invalid time_limit = 1 s: the record's design over 1600 inputs, given 1/3"
        ),
        "{text}"
    );
    assert!(e.is_input_error());
}
