//! The floor under eps-LDP at any prior from priors of few levels
//! (docs/theory.md §13, "A floor from priors of few levels"): the least `tr
//! J^-1` of an eps-LDP mechanism is concave in the prior and unchanged by
//! relabelling the inputs, so a mixture of priors below p, each of few levels
//! ([`super::estimation_levels`]), bounds it at p.

use super::estimation_levels::{Levels, level_floor};
use good_lp::{Expression, ProblemVariables, Solution, SolverModel, Variable, variable};
use ndarray::ArrayView1;
use rayon::prelude::*;

/// The floor under eps-LDP at the prior `p` from priors of few levels
/// (docs/theory.md §13): `tr J^-1` of the best eps-LDP mechanism is concave
/// in the prior and unchanged by relabelling the inputs, so where `sum_i
/// lambda_i q_i <= p` for priors `q_i` of few levels (in p's order), it is at
/// least `sum_i lambda_i floor(q_i) + (1 - sum_i lambda_i)` (every prior's is
/// at least 1). The levels are each mass order's prefixes at a lower level
/// [`TAIL_LEVELS`] times the prefix's, with the first input apart at
/// [`HEAD_LEVELS`] times; an LP weights them (its callers ask
/// [`mixture_applies`] first). `None` where some mass is zero.
pub(crate) fn mixture_floor(p: ArrayView1<f64>, epsilon: f64) -> Option<f64> {
    let k = p.len();
    if k < 2 || p.iter().any(|&m| m <= 0.0) {
        return None;
    }
    let mut sorted = p.to_vec();
    sorted.sort_by(|a, b| b.total_cmp(a));
    let family = family(k);
    let floors: Vec<Option<f64>> = family.par_iter().map(|l| level_floor(l, epsilon)).collect();
    let members: Vec<(Vec<f64>, f64)> = family
        .iter()
        .zip(floors)
        .filter_map(|(l, v)| Some((l.prior(), v?)))
        .collect();
    weighted(&sorted, &members)
}

/// Whether the mixture floor is computed for `p`: from 17 inputs (below,
/// enumeration prices every ray of LDP) to 64 (its cost grows as N^2,
/// [`MIXTURE_SECONDS_PER_SQUARE`]), at a prior with two masses or more (at the
/// uniform prior k-subset selection's figure is the optimum, and the LPs'
/// bound proves it).
pub(crate) fn mixture_applies(p: ArrayView1<f64>) -> bool {
    let most = p.fold(0.0f64, |m, v| m.max(*v));
    let least = p.fold(f64::INFINITY, |m, v| m.min(*v));
    MIXTURE_SIZES.contains(&p.len()) && least > 0.0 && most > least * (1.0 + 1e-12)
}

/// The alphabets the mixture floor is computed for.
pub(crate) const MIXTURE_SIZES: std::ops::RangeInclusive<usize> = 17..=64;

/// Seconds per squared input of the mixture floor on two cores: 2.1 s at 32
/// inputs and 7.6 s at 64 (Zipf priors).
pub(crate) const MIXTURE_SECONDS_PER_SQUARE: f64 = 2.2e-3;

/// The tail's level relative to the prefix's.
const TAIL_LEVELS: [f64; 2] = [0.0, 0.1];

/// The first input's level relative to the prefix's (1: not apart).
const HEAD_LEVELS: [f64; 6] = [1.0, 1.5, 2.0, 3.0, 4.5, 7.0];

/// The priors of few levels weighted: every prefix length j below k at every
/// tail level, with the first input apart at every head level, and the
/// uniform prior.
fn family(k: usize) -> Vec<Levels> {
    let mut out = vec![Levels::normalised(&[(k, 1.0)])];
    for j in 1..k {
        for &tail in &TAIL_LEVELS {
            for &head in &HEAD_LEVELS {
                let parts: Vec<(usize, f64)> = match head == 1.0 {
                    true => vec![(j, 1.0), (k - j, tail)],
                    false if j >= 2 => vec![(1, head), (j - 1, 1.0), (k - j, tail)],
                    false => continue,
                };
                out.push(Levels::normalised(&parts));
            }
        }
    }
    out
}

impl Levels {
    /// The prior of `parts` (each a count of inputs and a relative level),
    /// normalised.
    fn normalised(parts: &[(usize, f64)]) -> Self {
        let total: f64 = parts.iter().map(|(n, w)| *n as f64 * w).sum();
        Levels {
            sizes: parts.iter().map(|(n, _)| *n).collect(),
            masses: parts.iter().map(|(_, w)| w / total).collect(),
        }
    }

    /// The masses input by input, level by level.
    fn prior(&self) -> Vec<f64> {
        self.sizes
            .iter()
            .zip(&self.masses)
            .flat_map(|(&n, &m)| std::iter::repeat_n(m, n))
            .collect()
    }
}

/// `sum_i lambda_i v_i + 1 - sum_i lambda_i` at the LP's best weights with
/// `sum_i lambda_i q_i <= p` (the members are `(q_i, v_i)`), the weights
/// scaled down until that holds in floating point.
fn weighted(p: &[f64], members: &[(Vec<f64>, f64)]) -> Option<f64> {
    let k = p.len();
    let mut vars = ProblemVariables::new();
    let lambda: Vec<Variable> = members
        .iter()
        .map(|_| vars.add(variable().min(0.0)))
        .collect();
    let gain: Expression = members
        .iter()
        .zip(&lambda)
        .map(|((_, v), l)| (v - 1.0) * *l)
        .sum();
    let solver = crate::lp::backend::guarded_until(lambda.len(), None);
    let mut model = vars.maximise(gain).using(solver);
    for x in 0..k {
        let used: Expression = members
            .iter()
            .zip(&lambda)
            .map(|((q, _), l)| q[x] * *l)
            .sum();
        model = model.with(used.leq(p[x]));
    }
    let sol = model.solve().ok()?;
    let mut weights: Vec<f64> = lambda.iter().map(|l| sol.value(*l).max(0.0)).collect();
    let used: Vec<f64> = (0..k)
        .map(|x| {
            members
                .iter()
                .zip(&weights)
                .map(|((q, _), w)| q[x] * w)
                .sum()
        })
        .collect();
    let scale = (0..k)
        .filter(|&x| used[x] > 0.0)
        .fold(1.0f64, |s, x| s.min(p[x] / used[x]))
        * (1.0 - 1e-12);
    weights.iter_mut().for_each(|w| *w *= scale);
    let total: f64 = weights.iter().sum();
    let bound: f64 = members
        .iter()
        .zip(&weights)
        .map(|((_, v), w)| v * w)
        .sum::<f64>();
    let floor = bound + (1.0 - total).max(0.0);
    floor.is_finite().then_some(floor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objective::estimation_floor::tests::zipf;
    use ndarray::Array1;

    /// At 8 labels with a Zipf prior the mixture floor is below the optimum
    /// that enumeration certifies (22.209944 per row, eps 1) and within 1 % of
    /// it; relabelling the inputs leaves it unchanged.
    #[test]
    fn the_mixture_floor_is_below_the_enumerated_optimum_and_near_it() {
        let p = zipf(8);
        let norm = p.dot(&p);
        let error = mixture_floor(p.view(), 1.0).unwrap() - norm;
        assert!(error <= 22.209944, "{error}");
        assert!(error >= 0.99 * 22.209944, "{error}");
        let reversed: Array1<f64> = p.iter().rev().copied().collect();
        let again = mixture_floor(reversed.view(), 1.0).unwrap() - norm;
        assert_eq!(error.to_bits(), again.to_bits());
    }
}
