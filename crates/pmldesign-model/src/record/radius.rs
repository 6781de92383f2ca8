//! The l1 radius around a column's marginal estimate that holds every prior an
//! adversary can hold on the column after seeing the earlier columns' outputs
//! (docs/theory.md §12).
//!
//! That prior is `sum_a P(a | y) P(Aj | A<j = a)`, a mixture of the conditionals,
//! so within the largest l1 distance from the marginal to one of them. From a
//! sample, each conditional is an estimate from its `m_a` records ([`with_slack`]).

use super::RecordSample;
use crate::error::Result;
use crate::sample::radius_free;

/// The largest l1 radius: the ball then holds every prior.
pub const WHOLE_SIMPLEX: f64 = 2.0;

/// `max_a || p^(Aj | A<j = a) - p^(Aj) ||_1` over the observed combinations `a` of
/// the columns before `j` (0 for the first column): the radius when the sample's
/// joint estimate is taken as the truth.
pub fn spread(s: &RecordSample, j: usize) -> f64 {
    let marginal = normalised(&s.marginal(j));
    s.conditionals(j)
        .iter()
        .map(|counts| l1(&normalised(counts), &marginal))
        .fold(0.0, f64::max)
}

/// The failure events of [`with_slack`] over all columns: the first column's
/// marginal, then for each later column one per observed combination of the
/// columns before it, and one more where some combination was never observed.
pub fn events(s: &RecordSample) -> usize {
    1 + (1..s.columns().len())
        .map(|j| {
            let observed = s.conditionals(j).len();
            observed + usize::from(unobserved(s, j, observed))
        })
        .sum::<usize>()
}

/// The radius for column `j` that holds, except with probability `delta_each` per
/// event ([`events`]), every prior on the column after the earlier outputs, when
/// those outputs leak at most `eps_before` about the earlier columns:
///
/// - column 0: the distribution-free radius of \[E\] eq. (7) for its m records;
/// - later columns: `max_a (|| p^(Aj|a) - p^(Aj) ||_1 + beta*(delta_each, m_a))`,
///   plus `e^eps_before beta*(delta_each, m)` over the joint of the earlier columns
///   when some combination `a` was never observed: such combinations hold true mass
///   at most `beta/2`, and the outputs raise it at most `e^eps_before`-fold.
///
/// At most [`WHOLE_SIMPLEX`].
pub fn with_slack(s: &RecordSample, j: usize, delta_each: f64, eps_before: f64) -> Result<f64> {
    let n = s.labels(j).len();
    if j == 0 {
        return Ok(radius_free(s.rows(), delta_each, n)?.min(WHOLE_SIMPLEX));
    }
    let marginal = normalised(&s.marginal(j));
    let conditionals = s.conditionals(j);
    let mut radius: f64 = 0.0;
    for counts in &conditionals {
        let m_a: u64 = counts.iter().sum();
        let slack = radius_free(m_a, delta_each, n)?;
        radius = radius.max(l1(&normalised(counts), &marginal) + slack);
    }
    if unobserved(s, j, conditionals.len()) {
        let unseen = match s.prefix_cells(j) {
            Some(cells) => eps_before.exp() * radius_free(s.rows(), delta_each, cells)?,
            None => WHOLE_SIMPLEX,
        };
        radius += unseen;
    }
    Ok(radius.min(WHOLE_SIMPLEX))
}

/// Some combination of the labels of the columns before `j` was never observed.
fn unobserved(s: &RecordSample, j: usize, observed: usize) -> bool {
    s.prefix_cells(j).is_none_or(|cells| observed < cells)
}

fn normalised(counts: &[u64]) -> Vec<f64> {
    let m: u64 = counts.iter().sum();
    counts.iter().map(|&c| c as f64 / m as f64).collect()
}

fn l1(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum()
}
