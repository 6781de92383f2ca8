//! The three releases of a record: one design over the product alphabet, one per
//! column over the ball of its conditional priors, or eps/k-LDP per column.

use super::{RecordMode, RecordProblem};
use crate::error::Result;
use crate::problem::{Problem, Sample};
use crate::solution::design::Design;
use pmldesign_model::record::{RecordSample, radius};
use pmldesign_model::{Notion, Prior, UncertaintySet};
use std::collections::{HashMap, HashSet};

/// The designs of a release: each column's level (one for `joint`), the radius of
/// each column's ball (`compose`; 0 is its marginal alone), the designs, and for
/// `joint` the value tuple of each joint label.
#[derive(Debug, Clone)]
pub(super) struct Columns {
    pub epsilons: Vec<f64>,
    pub radii: Vec<f64>,
    pub designs: Vec<Design>,
    pub cells: Vec<Vec<String>>,
}

/// Column designs already solved, by (column, level, radius): the split search
/// asks for many twice.
#[derive(Default)]
pub(super) struct Cache(HashMap<(usize, u64, u64), Design>);

/// The estimate of column `j` alone.
pub(super) fn marginal(s: &RecordSample, j: usize) -> Result<Prior> {
    Ok(Prior::normalised(
        s.marginal(j).iter().map(|&c| c as f64).collect::<Vec<_>>(),
    )?)
}

/// The radius of column `j`'s ball under `split`: the spread of its conditionals,
/// plus each one's sampling slack with a delta (shared equally by every event).
pub(super) fn radius_of(p: &RecordProblem, j: usize, split: &[f64]) -> Result<f64> {
    match p.delta {
        None => Ok(radius::spread(&p.sample, j)),
        Some(delta) => {
            let each = delta / radius::events(&p.sample) as f64;
            let before: f64 = split[..j].iter().sum();
            Ok(radius::with_slack(&p.sample, j, each, before)?)
        }
    }
}

/// The set of column `j`'s design: its marginal, or the ball of radius `r` around it.
pub(super) fn column_set(s: &RecordSample, j: usize, r: f64) -> Result<UncertaintySet> {
    let prior = marginal(s, j)?;
    Ok(if r > 0.0 {
        UncertaintySet::l1_ball(prior, r)?
    } else {
        UncertaintySet::known(prior)
    })
}

/// `compose` with the levels `split`.
pub(super) fn compose(p: &RecordProblem, split: &[f64], cache: &mut Cache) -> Result<Columns> {
    let mut radii = Vec::with_capacity(split.len());
    let mut designs = Vec::with_capacity(split.len());
    for (j, &eps) in split.iter().enumerate() {
        let r = radius_of(p, j, split)?;
        let key = (j, eps.to_bits(), r.to_bits());
        let d = match cache.0.get(&key) {
            Some(d) => d.clone(),
            None => {
                let set = column_set(&p.sample, j, r)?;
                // The columns left, and the naive release's k designs after.
                let parts = split.len() - j + split.len();
                let d = column_problem(p, j, set, parts)
                    .epsilon(eps)
                    .solve()
                    .map_err(|e| p.restated(e, parts))?;
                cache.0.insert(key, d.clone());
                d
            }
        };
        radii.push(r);
        designs.push(d);
    }
    Ok(Columns {
        epsilons: split.to_vec(),
        radii,
        designs,
        cells: Vec::new(),
    })
}

/// `ldp`: eps/k-LDP per column (its utility at the column's marginal).
pub(super) fn ldp(p: &RecordProblem) -> Result<Columns> {
    let k = p.sample.columns().len();
    let eps = p.epsilon / k as f64;
    let designs = (0..k)
        .map(|j| {
            let set = UncertaintySet::known(marginal(&p.sample, j)?);
            let parts = 2 * k - j;
            column_problem(p, j, set, parts)
                .notion(Notion::Ldp { epsilon: eps })
                .solve()
                .map_err(|e| p.restated(e, parts))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Columns {
        epsilons: vec![eps; k],
        radii: Vec::new(),
        designs,
        cells: Vec::new(),
    })
}

/// What the naive release would be: each column designed for its marginal alone at
/// eps/k (not a guarantee about the record; shown beside the designs).
pub(super) fn naive(p: &RecordProblem) -> Result<Vec<Design>> {
    let k = p.sample.columns().len();
    (0..k)
        .map(|j| {
            let set = UncertaintySet::known(marginal(&p.sample, j)?);
            column_problem(p, j, set, k - j)
                .epsilon(p.epsilon / k as f64)
                .solve()
                .map_err(|e| p.restated(e, k - j))
        })
        .collect()
}

/// `joint`: one design over every combination of the labels, for the joint
/// estimate (or the ball of its sample guarantee with a delta).
pub(super) fn joint(p: &RecordProblem) -> Result<Columns> {
    let s = &p.sample;
    let tuples = cell_tuples(s);
    let problem = match p.delta {
        Some(delta) => Problem::from_sample(Sample::from_counts(&joint_counts(s), delta)?),
        None => Problem::new(UncertaintySet::known(joint_estimate(s)?)),
    };
    // Then the naive release's k designs, and compose's 2k under auto (asked
    // for by name, joint runs no compose after it).
    let parts = 1 + later_designs(p);
    let d = problem
        .epsilon(p.epsilon)
        .labels(cell_labels(&tuples))
        .settings(p.share(parts))
        .bare()
        .solve()
        .map_err(|e| p.restated(e, parts))?;
    Ok(Columns {
        epsilons: vec![p.epsilon],
        radii: Vec::new(),
        designs: vec![d],
        cells: tuples,
    })
}

/// The designs that follow a joint design within the record's time limit: the
/// naive release's one per column, and compose's two per column under `auto`.
fn later_designs(p: &RecordProblem) -> usize {
    let per_column = if p.mode == RecordMode::Auto { 3 } else { 1 };
    per_column * p.sample.columns().len()
}

/// The count of every combination of the labels, in row-major order.
pub(super) fn joint_counts(s: &RecordSample) -> Vec<u64> {
    let mut counts = vec![0u64; s.cells().unwrap_or(0)];
    for (t, c) in s.tuples() {
        counts[s.cell_index(t)] += c;
    }
    counts
}

/// The joint estimate `count / m` over every combination (0 where one was never
/// observed: only a ball may be centred there, [`RecordProblem::resolved`]).
pub(super) fn joint_estimate(s: &RecordSample) -> Result<Prior> {
    Ok(Prior::center_normalised(
        joint_counts(s)
            .iter()
            .map(|&c| c as f64)
            .collect::<Vec<_>>(),
    )?)
}

/// Every combination of the labels, in row-major order.
pub(super) fn cell_tuples(s: &RecordSample) -> Vec<Vec<String>> {
    let k = s.columns().len();
    let mut out: Vec<Vec<String>> = vec![Vec::new()];
    for j in 0..k {
        out = out
            .into_iter()
            .flat_map(|t| {
                s.labels(j).iter().map(move |l| {
                    let mut t = t.clone();
                    t.push(l.clone());
                    t
                })
            })
            .collect();
    }
    out
}

/// A joint label per combination: its values joined by `|`, or `cellK` when two
/// joined values would read the same.
pub(super) fn cell_labels(tuples: &[Vec<String>]) -> Vec<String> {
    let joined: Vec<String> = tuples.iter().map(|t| t.join("|")).collect();
    let distinct: HashSet<&String> = joined.iter().collect();
    if distinct.len() == joined.len() && joined.iter().all(|l| !l.trim().is_empty()) {
        joined
    } else {
        (1..=tuples.len()).map(|i| format!("cell{i}")).collect()
    }
}

/// Column `j`'s problem, one of `parts` designs that share the time left.
fn column_problem<'a>(
    p: &RecordProblem,
    j: usize,
    set: UncertaintySet,
    parts: usize,
) -> Problem<'a> {
    Problem::new(set)
        .labels(p.sample.labels(j).to_vec())
        .settings(p.share(parts))
        .bare()
}
