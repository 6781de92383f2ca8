//! The floor under eps-LDP at any prior from priors of few levels
//! (docs/theory.md §13, "A floor from priors of few levels"): the least `tr
//! J^-1` of an eps-LDP mechanism is concave in the prior and unchanged by
//! relabelling the inputs, so a mixture of priors of few levels
//! ([`super::estimation_levels`]) that majorises p bounds it at p.

use super::estimation_levels::{Levels, level_floor};
use good_lp::{Expression, ProblemVariables, Solution, SolverModel, Variable, variable};
use ndarray::ArrayView1;
use rayon::prelude::*;

/// A prior of few levels: each level's count of inputs and relative mass, in
/// decreasing order of the data's masses.
pub(crate) type Parts = Vec<(usize, f64)>;

/// A floor from priors of few levels, with the priors the LP weighs above 0
/// (what a design stores, so that a reader recomputes only those).
pub struct Mixture {
    /// The floor: a lower bound on `tr J^-1` of every eps-LDP mechanism at the prior.
    pub floor: f64,
    /// The priors the LP weighs above 0, each as its levels' (count of inputs,
    /// relative mass).
    pub priors: Vec<Parts>,
}

/// The floor under eps-LDP at the prior `p` from priors of few levels
/// (docs/theory.md §13): `tr J^-1` of the best eps-LDP mechanism is concave
/// in the prior and unchanged by relabelling the inputs, so where p is
/// majorised by `sum_i lambda_i q_i + (1 - sum_i lambda_i) e_1` for priors
/// `q_i` of few levels (in p's order; [`weighted`]), it is at least `sum_i
/// lambda_i floor(q_i) + (1 - sum_i lambda_i) R` ([`rest_floor`]: every
/// prior's is at least R). The levels are each mass order's prefixes at a lower level
/// [`TAIL_LEVELS`] times the prefix's, with the first input apart at
/// [`HEAD_LEVELS`] times (and, in the wider [`Family`], the first two at
/// [`HEAD_PAIRS`]); an LP weights them (its callers ask [`mixture_applies`]
/// first). `None` where some mass is zero.
pub fn mixture_floor(p: ArrayView1<f64>, epsilon: f64, family: Family) -> Option<Mixture> {
    mixture_over(p, epsilon, family.members(p.len()))
}

/// The floor of [`mixture_floor`] over the priors a stored design names
/// (untrusted: each is checked to be a prior of at most [`MOST_PARTS`] levels
/// over p's inputs, each level 0 or within [`LEVEL_SPREAD`] of the largest, of
/// at most `4 (k + 1)^2` orbits, [`MOST_PRIORS`] in all); `None` where one is
/// not, or where some mass of p is zero.
pub fn witnessed_floor(p: ArrayView1<f64>, epsilon: f64, priors: &[Parts]) -> Option<f64> {
    let k = p.len();
    let valid = |parts: &Parts| {
        let orbits: f64 = parts.iter().map(|(n, _)| *n as f64 + 1.0).product();
        let most = parts.iter().fold(0.0f64, |m, &(_, w)| m.max(w));
        let total: f64 = parts.iter().map(|&(n, w)| n as f64 * w).sum();
        (1..=MOST_PARTS).contains(&parts.len())
            && parts.iter().map(|(n, _)| n).sum::<usize>() == k
            && total.is_finite()
            && most > 0.0
            && parts
                .iter()
                .all(|&(n, w)| n >= 1 && (w == 0.0 || w >= most * LEVEL_SPREAD))
            && orbits <= 4.0 * ((k + 1) * (k + 1)) as f64
    };
    let fits = !priors.is_empty() && priors.len() <= MOST_PRIORS && priors.iter().all(valid);
    fits.then(|| mixture_over(p, epsilon, priors.to_vec()))
        .flatten()
        .map(|m| m.floor)
}

/// The levels of a stored prior, at most.
pub const MOST_PARTS: usize = 4;

/// The stored priors a reader weighs, at most (an LP's vertex weighs at most
/// k, and k is at most 128).
pub const MOST_PRIORS: usize = 512;

/// The least ratio of a stored prior's positive level to its largest (the
/// family's is 0.1 / 7): the levels' problems are solved at the spreads the
/// design uses.
pub const LEVEL_SPREAD: f64 = 1e-3;

/// The floor over `priors` (docs on [`mixture_floor`]).
fn mixture_over(p: ArrayView1<f64>, epsilon: f64, priors: Vec<Parts>) -> Option<Mixture> {
    if p.len() < 2 || p.iter().any(|&m| m <= 0.0) {
        return None;
    }
    let mut sorted = p.to_vec();
    sorted.sort_by(|a, b| b.total_cmp(a));
    let levels: Vec<Levels> = priors
        .iter()
        .map(|parts| Levels::normalised(parts))
        .collect();
    let floors: Vec<Option<f64>> = levels.par_iter().map(|l| level_floor(l, epsilon)).collect();
    let (kept, members): (Vec<Parts>, Vec<(Vec<f64>, f64)>) = priors
        .into_iter()
        .zip(&levels)
        .zip(floors)
        .filter_map(|((parts, l), v)| Some((parts, (l.prior(), v?))))
        .unzip();
    let (floor, weights) = weighted(&sorted, &members, rest_floor(p.len(), epsilon))?;
    let priors = kept
        .into_iter()
        .zip(weights)
        .filter_map(|(parts, w)| (w > 0.0).then_some(parts))
        .collect();
    Some(Mixture { floor, priors })
}

/// Whether the mixture floor is computed for `p`: from 17 inputs (below,
/// enumeration prices every ray of LDP) to 128 (seconds there,
/// `Family::seconds`), at a prior with two masses or more (at the
/// uniform prior k-subset selection's figure is the optimum, and the LPs'
/// bound proves it).
pub fn mixture_applies(p: ArrayView1<f64>) -> bool {
    let most = p.fold(0.0f64, |m, v| m.max(*v));
    let least = p.fold(f64::INFINITY, |m, v| m.min(*v));
    MIXTURE_SIZES.contains(&p.len()) && least > 0.0 && most > least * (1.0 + 1e-12)
}

/// The alphabets the mixture floor is computed for.
pub(crate) const MIXTURE_SIZES: std::ops::RangeInclusive<usize> = 17..=128;

/// The alphabets a reader computes the whole wider family for, where a
/// design names no priors that prove its bound (at 64 inputs, 17 s).
pub(crate) const READER_SIZES: std::ops::RangeInclusive<usize> = 17..=64;

/// The priors of few levels a mixture floor weighs, from the narrowest: each
/// family holds the one before it. With a Zipf prior at eps 1 they certify
/// the design within 1.5 %, 1.3 % and 1.1 % at 128 inputs (docs/benchmarks.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Every prefix length j of [`prefixes`] at every tail level, with the
    /// first input apart at half the head levels ([`FEW_HEADS`]), and the
    /// uniform prior.
    FewHeads,
    /// Those, with the first input apart at every head level.
    Heads,
    /// Those, and the first two inputs apart at every pair of head levels in
    /// prefixes of at most [`PAIRED_PREFIXES`] inputs and of [`PAIRED_LONG`].
    HeadPairs,
    /// Those, and priors with two tail levels ([`TWO_TAILS`]): for every two
    /// prefix lengths `j < m`, the first input at each of [`TWO_TAIL_HEADS`]
    /// times the level of the first j, the inputs past j to m at the first
    /// tail level and the rest at the second; only at [`TWO_TAIL_SIZES`],
    /// where each of these priors has at most `4 (k + 1)^2` orbits, as a
    /// stored prior may. At eps 2 and 32 labels with a Zipf prior they raise
    /// the floor by 0.8 %, at eps 1 by 0.15 %.
    TwoTails,
}

impl Family {
    /// Seconds the family takes at `k` inputs on two cores, with a margin:
    /// `c k^(3/4)` (Zipf priors, eps 1; few heads 2.1, 3.1 and 3.9 s at 32, 64
    /// and 128 inputs, heads 4.1, 6.7 and 10.1 s, head pairs about 8 s at 32
    /// and 22 s at 128).
    /// Two tails: `0.1 k^(3/2)` (about 15 s at 32 inputs and eps 1, 9 s at eps 2).
    pub(crate) fn seconds(self, k: usize) -> f64 {
        let c = match self {
            Family::FewHeads => 0.17,
            Family::Heads => 0.33,
            Family::HeadPairs => 0.65,
            Family::TwoTails => return 0.1 * (k as f64).powf(1.5),
        };
        c * (k as f64).powf(0.75)
    }

    /// Whether the family is defined at `k` inputs: every one at
    /// [`MIXTURE_SIZES`], two tails only at [`TWO_TAIL_SIZES`].
    pub(crate) fn covers(self, k: usize) -> bool {
        match self {
            Family::TwoTails => TWO_TAIL_SIZES.contains(&k),
            _ => MIXTURE_SIZES.contains(&k),
        }
    }

    /// The family's priors at `k` inputs.
    fn members(self, k: usize) -> Vec<Parts> {
        let mut out = vec![vec![(k, 1.0)]];
        let heads: &[f64] = match self {
            Family::FewHeads => &FEW_HEADS,
            _ => &HEAD_LEVELS,
        };
        for j in prefixes(k) {
            for &tail in &TAIL_LEVELS {
                for &head in heads {
                    out.extend(match head == 1.0 {
                        true => Some(vec![(j, 1.0), (k - j, tail)]),
                        false if (2..=APART_PREFIXES).contains(&j) => {
                            Some(vec![(1, head), (j - 1, 1.0), (k - j, tail)])
                        }
                        false => None,
                    });
                }
                if matches!(self, Family::HeadPairs | Family::TwoTails) && paired(j) {
                    out.extend(
                        HEAD_PAIRS
                            .iter()
                            .map(|&(h1, h2)| vec![(1, h1), (1, h2), (j - 2, 1.0), (k - j, tail)]),
                    );
                }
            }
        }
        if self == Family::TwoTails {
            out.extend(two_tails(k));
        }
        out
    }
}

/// The priors of two tail levels at k inputs ([`Family::TwoTails`]).
fn two_tails(k: usize) -> Vec<Parts> {
    let (near, far) = TWO_TAILS;
    let lengths = prefixes(k);
    let mut out = Vec::new();
    for &j in &lengths {
        for &m in lengths.iter().filter(|&&m| m > j) {
            for &head in &TWO_TAIL_HEADS {
                let tails = [(m - j, near), (k - m, near * far)];
                let parts: Parts = match head == 1.0 {
                    true => [(j, 1.0)].into_iter().chain(tails).collect(),
                    false if j >= 2 => [(1, head), (j - 1, 1.0)].into_iter().chain(tails).collect(),
                    false => continue,
                };
                let orbits: usize = parts.iter().map(|(n, _)| n + 1).product();
                if orbits <= 4 * (k + 1) * (k + 1) {
                    out.push(parts);
                }
            }
        }
    }
    out
}

/// The two tail levels of [`Family::TwoTails`]: the first relative to the
/// prefix's level, the second relative to the first. Of the pairs from 0.15
/// to 0.4 tried with a Zipf prior at 32 labels, (0.25, 0.25) gives the
/// highest floor at eps 2 (20.153 in `tr J^-1`, against 20.121 at (0.3, 0.3)
/// and 20.015 at (0.4, 0.4)), and at eps 1 and 4 too.
pub const TWO_TAILS: (f64, f64) = (0.25, 0.25);

/// The first input's level relative to the prefix's in [`Family::TwoTails`]
/// (1: not apart).
pub const TWO_TAIL_HEADS: [f64; 3] = [1.0, 2.0, 3.0];

/// The alphabets [`Family::TwoTails`] is defined at: past 48 inputs some of
/// its priors have more orbits than a stored prior may, and at 64 inputs it
/// takes 34 s to raise the floor by 0.03 %.
pub const TWO_TAIL_SIZES: std::ops::RangeInclusive<usize> = 17..=48;

/// The prefix lengths j of a family at k inputs: every j up to 16, then
/// steps of `j / 8`, so the LP still finds lengths near any it would pick
/// while the costliest priors (near `k / 2`, `(j + 1)(k - j + 1)` orbits) are
/// fewest.
pub fn prefixes(k: usize) -> Vec<usize> {
    std::iter::successors(Some(1usize), |&j| Some(j + (j / 8).max(1)))
        .take_while(|&j| j < k)
        .collect()
}

/// The longest prefix a family sets its first input apart in.
const APART_PREFIXES: usize = 32;

/// The wider family sets its first two inputs apart in every prefix up to
/// this length (and in those of [`PAIRED_LONG`]).
pub const PAIRED_PREFIXES: usize = 12;

/// Longer prefixes the wider family sets its first two inputs apart in: two
/// only, as their priors cost the most (with Zipf priors the LP weighs the
/// pairs in prefixes of 5 to 8 inputs and of 24).
pub const PAIRED_LONG: [usize; 2] = [16, 24];

/// Whether the wider family sets the first two inputs apart in prefixes of `j`.
fn paired(j: usize) -> bool {
    (3..=PAIRED_PREFIXES).contains(&j) || PAIRED_LONG.contains(&j)
}

/// The tail's level relative to the prefix's.
pub const TAIL_LEVELS: [f64; 4] = [0.0, 0.05, 0.1, 0.2];

/// The first input's level relative to the prefix's (1: not apart).
pub const HEAD_LEVELS: [f64; 6] = [1.0, 1.5, 2.0, 3.0, 4.5, 7.0];

/// The head levels of [`Family::FewHeads`].
pub const FEW_HEADS: [f64; 3] = [1.0, 2.0, 4.5];

/// The first two inputs' levels relative to the prefix's, in the wider family.
pub const HEAD_PAIRS: [(f64, f64); 4] = [(2.0, 1.5), (3.0, 2.0), (4.5, 3.0), (7.0, 4.5)];

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

/// `R = 1 + (k - 1) / (e^eps - 1)`, the least `tr J^-1` of an eps-LDP
/// mechanism over k inputs at every prior, lowered by 1e-12 relative for
/// rounding: the closed form `sum_x p_x^2 + (1 - p_x)^2 / (d_x - 1)` at
/// eps-LDP's ceilings `d_x = 1 / (p_x + (1 - p_x) e^-eps)` is this, whatever p
/// (docs/theory.md §13). The part of p the priors of few levels leave is
/// bounded by it.
pub fn rest_floor(k: usize, epsilon: f64) -> f64 {
    (1.0 + (k as f64 - 1.0) / epsilon.exp_m1()) * (1.0 - 1e-12)
}

/// `sum_i lambda_i v_i + (1 - sum_i lambda_i) rest` at the LP's best weights
/// with p majorised by `s = sum_i lambda_i q_i + (1 - sum_i lambda_i) e_1`
/// (the members are `(q_i, v_i)`, p in decreasing order): every tail of s,
/// the mass past its first m inputs, at most p's (docs/theory.md §13). The
/// weights are scaled down until that holds in floating point; with the
/// weights.
pub fn weighted(p: &[f64], members: &[(Vec<f64>, f64)], rest: f64) -> Option<(f64, Vec<f64>)> {
    let tails: Vec<Vec<f64>> = members.iter().map(|(q, _)| tails_of(q)).collect();
    let limit = tails_of(p);
    let mut vars = ProblemVariables::new();
    let lambda: Vec<Variable> = members
        .iter()
        .map(|_| vars.add(variable().min(0.0)))
        .collect();
    let gain: Expression = members
        .iter()
        .zip(&lambda)
        .map(|((_, v), l)| (v - rest) * *l)
        .sum();
    let solver = crate::lp::backend::guarded_until(lambda.len(), None);
    let mut model = vars.maximise(gain).using(solver);
    for (m, &most) in limit.iter().enumerate() {
        let used: Expression = tails.iter().zip(&lambda).map(|(t, l)| t[m] * *l).sum();
        model = model.with(used.leq(most));
    }
    let sol = model.solve().ok()?;
    let mut weights: Vec<f64> = lambda.iter().map(|l| sol.value(*l).max(0.0)).collect();
    let scale = limit
        .iter()
        .enumerate()
        .map(|(m, most)| {
            let used: f64 = tails.iter().zip(&weights).map(|(t, w)| t[m] * w).sum();
            match used > 0.0 {
                true => most / used,
                false => 1.0,
            }
        })
        .fold(1.0f64, f64::min)
        * (1.0 - 1e-12);
    weights.iter_mut().for_each(|w| *w *= scale);
    let total: f64 = weights.iter().sum();
    let bound: f64 = members
        .iter()
        .zip(&weights)
        .map(|((_, v), w)| v * w)
        .sum::<f64>();
    let floor = bound + (1.0 - total).max(0.0) * rest;
    floor.is_finite().then_some((floor, weights))
}

/// The mass past the first m entries of `q`, for m = 0 to `q.len() - 1`.
fn tails_of(q: &[f64]) -> Vec<f64> {
    let mut tails = vec![0.0; q.len()];
    let mut past = 0.0;
    for m in (0..q.len()).rev() {
        past += q[m];
        tails[m] = past;
    }
    tails
}
