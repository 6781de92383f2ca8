//! The analyst's half of a release (docs/theory.md §13): inputs drawn
//! from a known distribution, privatised with the project's keyed stream through
//! a designed mechanism and through randomized response, then estimated. The
//! 95 % intervals cover the true masses at their level, and the parametric
//! bootstrap agrees with the delta method.

use pmldesign::data::bootstrap::bootstrap;
use pmldesign::data::stream::ColumnStream;
use pmldesign::data::{AliasTable, MechanismSampler, privatise_codes, seeded_rng};
use pmldesign::model::record::RecordSample;
use pmldesign::prelude::*;
use pmldesign::solver::{RecordDesign, RecordMode, RecordProblem, estimate_record};

const P: [f64; 5] = [0.35, 0.25, 0.2, 0.12, 0.08];
const ROWS: usize = 100_000;
const REPS: u64 = 400;

/// Released counts of repetition `rep`: `ROWS` inputs drawn from `P`, each
/// privatised by `w` from its place of the keyed stream.
fn released(w: &Mechanism, rep: u64) -> Vec<u64> {
    let alias = AliasTable::new(&P).unwrap();
    let mut rng = seeded_rng(rep);
    let codes: Vec<u32> = (0..ROWS).map(|_| alias.sample(&mut rng) as u32).collect();
    let sampler = MechanismSampler::new(w).unwrap();
    let key = StreamKey::parse(&(1_000 + rep).to_string()).unwrap();
    let mut out = vec![0u32; ROWS];
    privatise_codes(
        &sampler,
        &codes,
        &mut ColumnStream::new(&key, "x", 1),
        0,
        &mut out,
    )
    .unwrap();
    let mut counts = vec![0u64; w.outputs()];
    out.iter().for_each(|&y| counts[y as usize] += 1);
    counts
}

/// The eps-PML design for `P` maximising mutual information.
fn designed(eps: f64) -> Mechanism {
    let design = Problem::new(UncertaintySet::known(Prior::new(P.to_vec()).unwrap()))
        .epsilon(eps)
        .solve()
        .unwrap();
    design.mechanism().clone()
}

/// The share of `REPS` repetitions whose interval covers each group's true mass.
fn coverage(w: &Mechanism, method: FrequencyMethod) -> Vec<f64> {
    let settings = FrequencySettings {
        method,
        ..FrequencySettings::default()
    };
    let mut covered: Vec<u64> = Vec::new();
    for rep in 0..REPS {
        let e = estimate_frequencies(w, &released(w, rep), &settings).unwrap();
        covered.resize(e.groups.len(), 0);
        for (g, inputs) in e.groups.iter().enumerate() {
            let truth: f64 = inputs.iter().map(|&x| P[x]).sum();
            covered[g] += u64::from(e.lower[g] <= truth && truth <= e.upper[g]);
        }
    }
    covered.iter().map(|&c| c as f64 / REPS as f64).collect()
}

/// 400 repetitions of 10^5 rows per case; the 95 % intervals cover each mass in
/// 93-97 % of them. Observed at these seeds: randomized response (eps = 1, EM)
/// 0.945 0.955 0.9375 0.9525 0.97; the design (eps = 1.5, five distinct rows),
/// EM and inversion alike, 0.955 0.9475 0.9425 0.9525 0.96.
#[test]
fn the_intervals_cover_at_their_level() {
    let cases = [
        (
            "RR, EM",
            closed_form::randomized_response(P.len(), 1.0).unwrap(),
            FrequencyMethod::Em,
        ),
        ("design, EM", designed(1.5), FrequencyMethod::Em),
        (
            "design, inversion",
            designed(1.5),
            FrequencyMethod::Inversion,
        ),
    ];
    for (name, w, method) in cases {
        let rates = coverage(&w, method);
        eprintln!("{name}: coverage {rates:?}");
        assert!(
            rates.iter().all(|r| (0.93..=0.97).contains(r)),
            "{name}: {rates:?}"
        );
    }
}

/// The bootstrap's standard errors are within 15 % of the delta method's, and
/// its percentile intervals lie within a standard error of the delta method's.
#[test]
fn the_bootstrap_agrees_with_the_delta_method() {
    let w = designed(1.5);
    let settings = FrequencySettings::default();
    let e = estimate_frequencies(&w, &released(&w, 7), &settings).unwrap();
    let key = StreamKey::parse("11").unwrap();
    let check = bootstrap(&w, &e, &settings, (400, &key), None).unwrap();
    for g in 0..e.groups.len() {
        let (delta, boot) = (e.standard_error[g], check.standard_error[g]);
        assert!(
            (boot / delta - 1.0).abs() < 0.15,
            "group {g}: {boot} vs {delta}"
        );
        assert!((check.lower[g] - e.lower[g]).abs() < delta, "group {g}");
        assert!((check.upper[g] - e.upper[g]).abs() < delta, "group {g}");
    }
    let again = bootstrap(&w, &e, &settings, (400, &key), None).unwrap();
    assert_eq!(again, check, "the same key, the same check");
}

/// Two correlated columns (3 x 4 cells), as in the record module's example.
const JOINT: [[f64; 4]; 3] = [
    [0.30, 0.02, 0.01, 0.01],
    [0.01, 0.25, 0.02, 0.01],
    [0.02, 0.01, 0.03, 0.31],
];

fn record_sample() -> RecordSample {
    let tuples =
        (0..3).flat_map(|a| (0..4).map(move |b| (vec![a, b], (JOINT[a][b] * 1000.0) as u64)));
    let labels = vec![
        vec!["a1".into(), "a2".into(), "a3".into()],
        (1..=4).map(|b| format!("b{b}")).collect(),
    ];
    RecordSample::new(vec!["A".into(), "B".into()], labels, tuples.collect()).unwrap()
}

/// Released tuples of repetition `rep`: `rows` records drawn from `JOINT`, each
/// released through the record design as `pml apply` releases it.
fn released_records(r: &RecordDesign, rep: u64, rows: usize) -> Vec<(Vec<String>, u64)> {
    let cells: Vec<[usize; 2]> = (0..3).flat_map(|a| (0..4).map(move |b| [a, b])).collect();
    let alias =
        AliasTable::new(&cells.iter().map(|&[a, b]| JOINT[a][b]).collect::<Vec<_>>()).unwrap();
    let mut rng = seeded_rng(rep);
    let drawn: Vec<[usize; 2]> = (0..rows).map(|_| cells[alias.sample(&mut rng)]).collect();
    let key = StreamKey::parse(&(5_000 + rep).to_string()).unwrap();
    // Released tuples are counted by their output codes, then labelled once.
    let (codes, outputs): (Vec<Vec<u32>>, Vec<Vec<Vec<String>>>) = if r.mode() == RecordMode::Joint
    {
        let label = |c: &[usize; 2]| vec![format!("a{}", c[0] + 1), format!("b{}", c[1] + 1)];
        let cell: Vec<u32> = cells
            .iter()
            .map(|c| r.cells().iter().position(|t| *t == label(c)).unwrap() as u32)
            .collect();
        let x: Vec<u32> = drawn.iter().map(|&[a, b]| cell[a * 4 + b]).collect();
        let ys = privatised(r.designs()[0].mechanism(), &x, &key, "AB");
        (vec![ys], vec![r.decoded().to_vec()])
    } else {
        r.designs()
            .iter()
            .enumerate()
            .map(|(j, d)| {
                let x: Vec<u32> = drawn.iter().map(|c| c[j] as u32).collect();
                let ys = privatised(d.mechanism(), &x, &key, &r.columns()[j]);
                (ys, d.outputs().iter().map(|o| vec![o.clone()]).collect())
            })
            .unzip()
    };
    let mut counts: std::collections::BTreeMap<Vec<u32>, u64> = Default::default();
    for i in 0..rows {
        *counts
            .entry(codes.iter().map(|ys| ys[i]).collect())
            .or_default() += 1;
    }
    counts
        .into_iter()
        .map(|(y, n)| {
            let label = y
                .iter()
                .zip(&outputs)
                .flat_map(|(&k, o)| o[k as usize].clone());
            (label.collect(), n)
        })
        .collect()
}

fn privatised(w: &Mechanism, codes: &[u32], key: &StreamKey, column: &str) -> Vec<u32> {
    let sampler = MechanismSampler::new(w).unwrap();
    let mut out = vec![0u32; codes.len()];
    privatise_codes(
        &sampler,
        codes,
        &mut ColumnStream::new(key, column, 1),
        0,
        &mut out,
    )
    .unwrap();
    out
}

/// A record released by `compose` and by `joint`: 200 repetitions of 10^5
/// records; every identifiable marginal's and cell's 95 % interval covers its
/// true mass in 92-98 % of them (observed: compose 93.5-97 % over its five
/// identifiable marginals and six cells; joint 93-96 % over its three cells).
#[test]
fn a_records_marginals_and_cells_cover_at_their_level() {
    let settings = FrequencySettings::default();
    for mode in [RecordMode::Compose, RecordMode::Joint] {
        let r = RecordProblem::new(record_sample(), 2.0)
            .mode(mode)
            .solve()
            .unwrap();
        let mut covered: Vec<(String, u64, u64)> = Vec::new();
        for rep in 0..200 {
            let e = estimate_record(&r, &released_records(&r, rep, 100_000), &settings).unwrap();
            let truth_a = |v: &str| {
                JOINT[v[1..].parse::<usize>().unwrap() - 1]
                    .iter()
                    .sum::<f64>()
            };
            let truth_b = |v: &str| {
                (0..3)
                    .map(|a| JOINT[a][v[1..].parse::<usize>().unwrap() - 1])
                    .sum::<f64>()
            };
            let marginals = e.marginals[0]
                .iter()
                .map(|(v, f)| (format!("A={v}"), truth_a(v), f));
            let marginals = marginals.chain(
                e.marginals[1]
                    .iter()
                    .map(|(v, f)| (format!("B={v}"), truth_b(v), f)),
            );
            let cells = e.joint.iter().map(|(c, f)| {
                let (a, b) = (
                    c[0][1..].parse::<usize>().unwrap() - 1,
                    c[1][1..].parse::<usize>().unwrap() - 1,
                );
                (format!("{c:?}"), JOINT[a][b], f)
            });
            for (k, (name, truth, f)) in marginals.chain(cells).enumerate() {
                if covered.len() <= k {
                    covered.push((name, 0, 0));
                }
                if let (Some(lo), Some(hi)) = (f.lower, f.upper) {
                    covered[k].1 += u64::from(lo <= truth && truth <= hi);
                    covered[k].2 += 1;
                }
            }
        }
        let rates: Vec<(String, f64)> = covered
            .iter()
            .filter(|(_, _, n)| *n > 0)
            .map(|(name, c, n)| (name.clone(), *c as f64 / *n as f64))
            .collect();
        eprintln!("{mode:?}: {rates:?}");
        // compose determines both marginals of A and most cells; the MI-optimal
        // joint design at eps = 2 determines three cells only.
        let least = if mode == RecordMode::Compose { 11 } else { 3 };
        assert!(rates.len() >= least, "{mode:?}: {rates:?}");
        assert!(
            rates.iter().all(|(_, r)| (0.92..=0.98).contains(r)),
            "{mode:?}: {rates:?}"
        );
    }
}
