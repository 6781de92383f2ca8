//! Sets of priors a mechanism must protect: a known prior, the l1 ball around an
//! estimate (\[E\] Prop 2, App. D) and polytopes given by their vertices (\[E\] Cor 1).

use crate::error::{ModelError, Result};
use crate::linalg::{column_dots, column_extremes, column_first_extremes};
use crate::mechanism::Mechanism;
use crate::prior::Prior;
use crate::ranking::{by_few_levels, in_order_until};
use ndarray::{Array1, ArrayView1, ArrayView2};
use serde::Serialize;

mod checks;
pub(crate) mod raw;

/// Default limit on the number of vertices materialised for `B_beta(p^) ∩ simplex`.
pub const DEFAULT_VERTEX_LIMIT: usize = 200_000;

/// The set of priors over which leakage is guaranteed.
///
/// Every value is valid ([`UncertaintySet::validate`]): the variants cannot be
/// built outside this crate (build them with [`UncertaintySet::known`],
/// [`UncertaintySet::l1_ball`] or [`UncertaintySet::polytope`]), and reading
/// one from JSON checks it as those constructors do.
///
/// ```compile_fail
/// use pmldesign_model::{Prior, UncertaintySet};
/// let center = Prior::new(vec![0.5, 0.5]).unwrap();
/// let _ = UncertaintySet::L1Ball { center, beta: -0.5 };
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    deny_unknown_fields,
    try_from = "raw::RawSet"
)]
#[non_exhaustive]
pub enum UncertaintySet {
    /// A single, known prior.
    #[non_exhaustive]
    Known {
        /// The prior.
        prior: Prior,
    },
    /// Every prior Q in the simplex with `||Q - center||_1 <= beta` (\[E\] Sec. III).
    #[non_exhaustive]
    L1Ball {
        /// The estimate `p^` at the centre (a mass may be 0: a category never
        /// observed; every prior of the ball near it still counts).
        center: Prior,
        /// The l1 radius.
        beta: f64,
    },
    /// The convex hull of the given distributions (\[E\] Cor 1). Vertices may lie on
    /// the boundary of the simplex.
    #[non_exhaustive]
    Polytope {
        /// The vertices, each a probability vector.
        vertices: Vec<Vec<f64>>,
    },
}

/// Whether \[E\] Proposition 2 applies to the l1 ball of radius `beta` around
/// `center`: `beta < 2 min p^`.
pub fn within_proposition_2(center: &Prior, beta: f64) -> bool {
    beta < 2.0 * center.min_mass()
}

impl UncertaintySet {
    /// The l1 distance from the distribution `q` (one mass per input) to the
    /// set: `||q - p||_1` to a known prior, `max(0, ||q - c||_1 - beta)` to a
    /// ball; `None` for a polytope, or when `q` has another length.
    pub fn l1_distance(&self, q: &[f64]) -> Option<f64> {
        let from = |p: &Prior| -> Option<f64> {
            let masses = p.masses();
            (masses.len() == q.len())
                .then(|| masses.iter().zip(q).map(|(a, b)| (a - b).abs()).sum())
        };
        match self {
            UncertaintySet::Known { prior } => from(prior),
            UncertaintySet::L1Ball { center, beta } => from(center).map(|d| (d - beta).max(0.0)),
            UncertaintySet::Polytope { .. } => None,
        }
    }

    /// A known prior.
    pub fn known(prior: Prior) -> Self {
        UncertaintySet::Known { prior }
    }

    /// The l1 ball of radius `beta > 0` around `center`, intersected with the simplex.
    pub fn l1_ball(center: Prior, beta: f64) -> Result<Self> {
        let set = UncertaintySet::L1Ball { center, beta };
        set.validate()?;
        Ok(set)
    }

    /// The convex hull of `vertices`, each a probability vector of the same length.
    pub fn polytope(vertices: Vec<Vec<f64>>) -> Result<Self> {
        let set = UncertaintySet::Polytope { vertices };
        set.validate()?;
        Ok(set)
    }

    /// Checks what the constructors check: a ball's radius finite and `> 0`, a
    /// polytope's vertices probability vectors of one length (at least 2). A
    /// prior is valid by construction. The constructors, reading from JSON and
    /// every solve call it, so no invalid set is designed for.
    pub fn validate(&self) -> Result<()> {
        match self {
            UncertaintySet::Known { .. } => Ok(()),
            UncertaintySet::L1Ball { beta, .. } => checks::beta(*beta),
            UncertaintySet::Polytope { vertices } => checks::vertices(vertices),
        }
    }

    /// Alphabet size N.
    pub fn len(&self) -> usize {
        match self {
            UncertaintySet::Known { prior } => prior.len(),
            UncertaintySet::L1Ball { center, .. } => center.len(),
            UncertaintySet::Polytope { vertices } => vertices[0].len(),
        }
    }

    /// Always false.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The nominal prior: the known prior, the centre of the ball, or the centroid of
    /// the vertices. It lies in the set.
    pub fn reference(&self) -> Array1<f64> {
        match self {
            UncertaintySet::Known { prior } => prior.masses().to_owned(),
            UncertaintySet::L1Ball { center, .. } => center.masses().to_owned(),
            UncertaintySet::Polytope { vertices } => {
                let mut c = Array1::zeros(self.len());
                for v in vertices {
                    c += &ArrayView1::from(v.as_slice());
                }
                c / vertices.len() as f64
            }
        }
    }

    /// `min_{Q in S} Q . c` for a non-negative column c: the smallest probability an
    /// output with likelihoods c can have under any prior of the set. For the ball it
    /// is the exact greedy mass transfer of \[E\] App. D, valid for every beta.
    pub fn min_output_probability(&self, c: ArrayView1<f64>) -> f64 {
        match self {
            UncertaintySet::Known { prior } => prior.dot(c),
            UncertaintySet::L1Ball { center, beta } => ball_min_dot(center.masses(), *beta, c),
            UncertaintySet::Polytope { vertices } => vertices
                .iter()
                .map(|v| ArrayView1::from(v.as_slice()).dot(&c))
                .fold(f64::INFINITY, f64::min),
        }
    }

    /// [`Self::min_output_probability`] of every column of `w`, the same bits,
    /// reading a row-major `w` in memory order: for the ball each column's dot
    /// product, extremes and first donor come from one pass, and only a column
    /// whose first donor cannot give all of beta/2 is transferred column by
    /// column (at N = 4096 the strided passes took 60 % of an l1-ball design's
    /// structured baselines).
    pub fn min_output_probabilities(&self, w: ArrayView2<f64>) -> Vec<f64> {
        let by_column = || {
            w.columns()
                .into_iter()
                .map(|c| self.min_output_probability(c))
                .collect()
        };
        let p = match self {
            UncertaintySet::Known { prior } => {
                return column_dots(prior.masses(), w).unwrap_or_else(by_column);
            }
            UncertaintySet::L1Ball { center, .. } => center.masses(),
            UncertaintySet::Polytope { .. } => return by_column(),
        };
        let (Some(dots), UncertaintySet::L1Ball { beta, .. }) = (column_dots(p, w), self) else {
            return by_column();
        };
        let budget = beta / 2.0;
        let firsts = column_first_extremes(w);
        let n = w.nrows();
        dots.into_iter()
            .zip(firsts)
            .enumerate()
            .map(|(y, (dot, ((hi, top), (lo, _))))| {
                // The first donor: the first largest entry, or the first index
                // but k (= 0) of a constant column.
                let top = if hi > lo { top } else { 1 };
                if budget <= 0.0 || n < 2 || p[top] < budget {
                    return self.min_output_probability(w.column(y));
                }
                let value = dot - budget * (hi - lo);
                clamp_transfer(value, n, dot + beta * hi.max(0.0))
            })
            .collect()
    }

    /// `max_{Q in S} Q . c` for a non-negative column c: the largest probability an
    /// output with likelihoods c can have under any prior of the set (exact for
    /// the ball: the greedy transfer of [`ball_min_dot`] the other way).
    pub fn max_output_probability(&self, c: ArrayView1<f64>) -> f64 {
        match self {
            UncertaintySet::Known { prior } => prior.dot(c),
            UncertaintySet::L1Ball { center, beta } => {
                -ball_min_dot_signed(center.masses(), *beta, (-&c).view())
            }
            UncertaintySet::Polytope { vertices } => vertices
                .iter()
                .map(|v| ArrayView1::from(v.as_slice()).dot(&c))
                .fold(0.0, f64::max),
        }
    }

    /// [`Self::max_output_probability`] of every column of `w`, the same bits
    /// (for a known prior in one pass in memory order).
    pub fn max_output_probabilities(&self, w: ArrayView2<f64>) -> Vec<f64> {
        if let UncertaintySet::Known { prior } = self
            && let Some(q) = column_dots(prior.masses(), w)
        {
            return q;
        }
        w.columns()
            .into_iter()
            .map(|c| self.max_output_probability(c))
            .collect()
    }

    /// Worst-case PML of one output over the set:
    /// `sup_Q ln(max_x c_x / Q . c)`; `None` for an all-zero column, infinite when
    /// some prior of the (closed) set gives the output probability 0.
    pub fn column_worst_case_pml(&self, c: ArrayView1<f64>) -> Option<f64> {
        let m = c.iter().copied().fold(0.0, f64::max);
        (m > 0.0).then(|| pml_of(m, self.min_output_probability(c)))
    }

    /// Worst-case PML of each output over the set (in one pass in memory order
    /// for a known prior and the ball, the same bits as column by column).
    pub fn worst_case_pml_per_output(&self, mechanism: &Mechanism) -> Vec<Option<f64>> {
        let w = mechanism.matrix();
        let q = self.min_output_probabilities(w);
        column_extremes(w)
            .into_iter()
            .zip(q)
            .map(|((m, _), q)| (m > 0.0).then(|| pml_of(m, q)))
            .collect()
    }

    /// Leakage capacity `C(W, S) = max_y sup_{Q in S} l_Q(y)` (\[E\] Def 5): the
    /// smallest eps for which W is eps-PML for every prior of the set.
    pub fn worst_case_pml(&self, mechanism: &Mechanism) -> f64 {
        self.worst_case_pml_per_output(mechanism)
            .into_iter()
            .flatten()
            .fold(0.0, f64::max)
    }

    /// The vertices of the set: the prior itself, the listed vertices, or those of
    /// `B_beta(p^) ∩ simplex` (see [`l1_ball_vertices`]).
    pub fn vertices(&self, limit: usize) -> Result<Vec<Array1<f64>>> {
        match self {
            UncertaintySet::Known { prior } => Ok(vec![prior.masses().to_owned()]),
            UncertaintySet::L1Ball { center, beta } => l1_ball_vertices(center, *beta, limit),
            UncertaintySet::Polytope { vertices } => {
                Ok(vertices.iter().map(|v| Array1::from(v.clone())).collect())
            }
        }
    }
}

/// `ln(m / q)` (at least 0) of an output of largest likelihood m and smallest
/// probability q; infinite where q is not positive.
fn pml_of(m: f64, q: f64) -> f64 {
    if q <= 0.0 {
        f64::INFINITY
    } else {
        (m / q).ln().max(0.0)
    }
}

/// `min Q . c` over `Q` in the simplex with `||Q - p||_1 <= beta`: move up to beta/2
/// of mass from the coordinates with the largest c (each limited by its own mass)
/// onto the coordinate with the smallest c (\[E\] App. D, docs/theory.md §2). For
/// `beta < 2 min p` this is `p . c - beta/2 (max c - min c)`.
/// A result within the rounding of the transfers (`4 N u (p . c + beta max c)`)
/// counts as 0: the exact minimum may be 0 (a vertex of the ball off the
/// column's support), and no positive probability is certified.
pub fn ball_min_dot(p: ArrayView1<f64>, beta: f64, c: ArrayView1<f64>) -> f64 {
    let value = ball_min_dot_signed(p, beta, c);
    let scale = p.dot(&c) + beta * c.iter().copied().fold(0.0, f64::max);
    clamp_transfer(value, p.len(), scale)
}

/// A transfer's result within its rounding (`4 N u scale`) counts as 0.
fn clamp_transfer(value: f64, n: usize, scale: f64) -> f64 {
    if value <= 4.0 * n as f64 * f64::EPSILON * scale {
        0.0
    } else {
        value
    }
}

/// The greedy transfer of [`ball_min_dot`] for a column of any sign (no clamping
/// at 0); `max Q . c` over the ball is `-ball_min_dot_signed(p, beta, -c)`.
///
/// The donors are taken in order of decreasing c (ties by index), value by
/// value where the column holds few ([`by_few_levels`]), else found a few at a
/// time ([`in_order_until`]): a small budget beta/2 is spent by the first one
/// or two, so a full sort of every column (N log N each, over N columns) would
/// order entries the transfer never reads, the bulk of an l1-ball design's
/// baselines at large N. The same order as a full stable sort, so the same
/// bits.
fn ball_min_dot_signed(p: ArrayView1<f64>, beta: f64, c: ArrayView1<f64>) -> f64 {
    let n = p.len();
    let mut budget = beta / 2.0;
    // The dot product of the column as given (its bits), the rest on a copy
    // read contiguously.
    let mut value = p.dot(&c);
    let c = c.to_vec();
    let k = (0..n)
        .min_by(|&a, &b| c[a].total_cmp(&c[b]))
        .expect("non-empty");
    if budget > 0.0 {
        let donors: Vec<usize> = (0..n).filter(|&i| i != k).collect();
        // Each donor gives at most the largest mass.
        let largest = p.iter().copied().fold(0.0, f64::max);
        let at_least = (budget / largest).ceil().clamp(1.0, n as f64) as usize;
        let mut give = |i: usize| {
            let moved = budget.min(p[i]);
            value -= moved * (c[i] - c[k]);
            budget -= moved;
            budget > 0.0
        };
        if !by_few_levels(&donors, |i| c[i], &mut give) {
            let order = |a: &usize, b: &usize| c[*b].total_cmp(&c[*a]).then(a.cmp(b));
            in_order_until(donors, order, at_least, give);
        }
    }
    value
}

/// The vertices of `B_beta(p^) ∩ simplex` (docs/theory.md §2): for each recipient k, mass
/// beta/2 arrives from a set D of donors emptied completely (`p^(D) <= beta/2`)
/// and, when D holds less than beta/2, one more donor j that gives the rest. When
/// `1 - p^_k <= beta/2` the vertex is the point mass on k. Duplicates are removed.
/// Fails when more than `limit` candidates would be produced, found (a few
/// words each) before any is built (at N = 2048 building the first 200,000
/// took 3.2 GB).
pub fn l1_ball_vertices(center: &Prior, beta: f64, limit: usize) -> Result<Vec<Array1<f64>>> {
    let (p, half) = (center.masses(), beta / 2.0);
    let candidates = ball_candidates(center, beta, limit)?;
    let mut out: Vec<Array1<f64>> = candidates.iter().map(|c| c.vertex(p, half)).collect();
    out.sort_by(|a, b| {
        a.iter()
            .zip(b.iter())
            .map(|(x, y)| x.total_cmp(y))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    out.dedup_by(|a, b| a.iter().zip(b.iter()).all(|(x, y)| (x - y).abs() <= 1e-14));
    Ok(out)
}

/// Whether the ball has more than `limit` candidate vertices (when
/// [`l1_ball_vertices`] fails), found without building any vertex.
pub fn l1_ball_exceeds(center: &Prior, beta: f64, limit: usize) -> bool {
    ball_candidates(center, beta, limit).is_err()
}

/// The candidate vertices of the ball, up to `limit` (an error past it).
fn ball_candidates(center: &Prior, beta: f64, limit: usize) -> Result<Vec<BallCandidate>> {
    let p = center.masses();
    let n = p.len();
    let half = beta / 2.0;
    let too_many = || {
        ModelError::invalid(
            "beta",
            beta,
            format!("the ball around the estimate has more than {limit} vertices on {n} symbols"),
            "use a smaller radius (more samples or a larger delta) or merge rare categories",
        )
    };
    if n > 30 && half >= center.min_mass() {
        return Err(too_many());
    }
    let mut candidates = Vec::new();
    walk_ball_vertices(p, half, &mut |candidate| {
        candidates.push(candidate);
        if candidates.len() > limit {
            Err(too_many())
        } else {
            Ok(())
        }
    })?;
    Ok(candidates)
}

/// A candidate vertex of the ball ([`l1_ball_vertices`]), before it is built.
#[derive(Debug, Clone, Copy)]
enum BallCandidate {
    /// The point mass on k.
    Point(usize),
    /// beta/2 to recipient k from the donors of `mask` (bits over the inputs
    /// but k), emptied, and `rest` from donor j if any.
    Donors {
        k: usize,
        mask: u64,
        partial: Option<(usize, f64)>,
    },
}

impl BallCandidate {
    fn vertex(self, p: ArrayView1<f64>, half: f64) -> Array1<f64> {
        let n = p.len();
        match self {
            BallCandidate::Point(k) => {
                let mut v = Array1::zeros(n);
                v[k] = 1.0;
                v
            }
            BallCandidate::Donors { k, mask, partial } => {
                let mut v = p.to_owned();
                let others = (0..n).filter(|&i| i != k);
                for (b, i) in others.enumerate() {
                    if mask >> b & 1 == 1 {
                        v[i] = 0.0;
                    }
                }
                v[k] += half;
                if let Some((j, rest)) = partial {
                    v[j] -= rest;
                }
                v
            }
        }
    }
}

/// Visits every candidate vertex of the ball of half-radius `half` around `p`
/// (depth-first over donor sets in index order), stopping at the first error.
fn walk_ball_vertices(
    p: ArrayView1<f64>,
    half: f64,
    visit: &mut dyn FnMut(BallCandidate) -> Result<()>,
) -> Result<()> {
    let n = p.len();
    let tol = 1e-15;
    for k in 0..n {
        if 1.0 - p[k] <= half + tol {
            visit(BallCandidate::Point(k))?;
            continue;
        }
        let others: Vec<usize> = (0..n).filter(|&i| i != k).collect();
        let mut stack: Vec<(usize, u64, f64)> = vec![(0, 0, 0.0)];
        while let Some((start, mask, mass)) = stack.pop() {
            let rest = half - mass;
            if rest <= tol {
                visit(BallCandidate::Donors {
                    k,
                    mask,
                    partial: None,
                })?;
            } else {
                for (b, &j) in others.iter().enumerate() {
                    if mask >> b & 1 == 0 && p[j] > rest {
                        let partial = Some((j, rest));
                        visit(BallCandidate::Donors { k, mask, partial })?;
                    }
                }
            }
            for (b, &i) in others.iter().enumerate().skip(start) {
                if mass + p[i] <= half + tol {
                    stack.push((b + 1, mask | 1 << b, mass + p[i]));
                }
            }
        }
    }
    Ok(())
}
