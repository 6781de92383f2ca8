//! The two-level families (docs/theory.md §4b): a set A at `top(p(A))`, the
//! rest at `level(p(A))` (family L of \[E\] Prop 2 and the LDP staircase).

use super::*;
use crate::colgen::oracle::Pricing;
use crate::objective::utility::{Separable, Utility};

pub(crate) mod chain_line;

/// How the two values of a [`TwoLevel`] ray depend on the weight W of the top set.
#[derive(Debug, Clone, Copy)]
pub enum Levels {
    /// eps-LDP staircase: `E` on A, 1 elsewhere, normalised: `top = E / s`,
    /// `level = 1 / s`, `s = 1 + (E - 1) W`.
    Staircase {
        /// `e^eps`.
        e: f64,
    },
    /// \[E\] Prop 2, family L: `top = E (1 - W + b) / (1 - W + E b)` and
    /// `level = (E (1 - W + b) - (E - 1)) / (1 - W + E b)`, both decreasing in W.
    BallLevel {
        /// `e^eps`.
        e: f64,
        /// `beta / 2`.
        b: f64,
    },
}

impl Levels {
    /// `(top, level)` at weight w.
    fn at(&self, w: f64) -> (f64, f64) {
        match *self {
            Levels::Staircase { e } => {
                let s = 1.0 + (e - 1.0) * w;
                (e / s, 1.0 / s)
            }
            Levels::BallLevel { e, b } => {
                let d = 1.0 - w + e * b;
                (e * (1.0 - w + b) / d, (e * (1.0 - w + b) - (e - 1.0)) / d)
            }
        }
    }

    /// `(d top / dW, d level / dW)` at weight w; both are monotone in W.
    fn slopes(&self, w: f64) -> (f64, f64) {
        match *self {
            Levels::Staircase { e } => {
                let s = 1.0 + (e - 1.0) * w;
                (-e * (e - 1.0) / (s * s), -(e - 1.0) / (s * s))
            }
            Levels::BallLevel { e, b } => {
                let u = 1.0 - w + e * b;
                (
                    -e * (e - 1.0) * b / (u * u),
                    -(e - 1.0) * (e * b + 1.0) / (u * u),
                )
            }
        }
    }

    /// The largest weight of a member (its level stays positive and below top).
    fn max_weight(&self) -> f64 {
        match *self {
            Levels::Staircase { .. } => 1.0,
            Levels::BallLevel { e, b } => (1.0 / e + b).min(1.0),
        }
    }
}

/// A member of a two-level family: the search over sets A.
pub struct TwoLevelMember<'a> {
    /// The family searched.
    pub family: &'a TwoLevel,
    /// The dual weights' sum, `sum_x lambda_x`.
    pub lambda_sum: f64,
    /// The family's [`TwoLevel::reach`].
    pub reach: f64,
}

impl TwoLevelMember<'_> {
    /// The reduced cost at weight w and dual mass l (largest masses in and out).
    fn cost(&self, w: f64, l: f64, max_in: f64, max_out: f64) -> f64 {
        let (top, level) = self.family.levels.at(w);
        let mu = match self.family.kind {
            Separable::FInformation(f) => w * f(top) + (1.0 - w) * f(level),
            Separable::MaxWeighted => (top * max_in).max(level * max_out),
        };
        mu - level * self.lambda_sum - (top - level) * l
    }

    /// An upper bound of the reduced cost over `w in [a, b]` with `l >= l_min`,
    /// by interval arithmetic (top and level decrease in w).
    fn interval_bound(&self, a: f64, b: f64, l_min: f64, max_in: f64, max_out: f64) -> f64 {
        let (top_hi, level_hi) = self.family.levels.at(a);
        let (top_lo, level_lo) = self.family.levels.at(b);
        let mu = match self.family.kind {
            Separable::FInformation(f) => {
                let ft = f(top_lo).max(f(top_hi));
                let fl = f(level_lo).max(f(level_hi));
                (a * ft).max(b * ft) + ((1.0 - a) * fl).max((1.0 - b) * fl)
            }
            Separable::MaxWeighted => (top_hi * max_in).max(level_hi * max_out),
        };
        let lam = self.lambda_sum;
        let level_term = (-level_lo * lam).max(-level_hi * lam);
        let (gap_lo, gap_hi) = ((top_lo - level_hi).max(0.0), top_hi - level_lo);
        mu + level_term + (-gap_lo * l_min).max(-gap_hi * l_min)
    }

    /// The bound on one chain segment from (a, la) to (b, lb), split in halves
    /// while it is above `threshold`.
    #[allow(clippy::too_many_arguments)]
    fn segment_bound(
        &self,
        (a, la): (f64, f64),
        (b, lb): (f64, f64),
        max_in: f64,
        max_out: f64,
        threshold: f64,
        depth: u32,
    ) -> f64 {
        let bound = self.interval_bound(a, b, la.min(lb), max_in, max_out);
        if bound <= threshold || depth >= MAX_SPLIT_DEPTH || b - a <= 1e-13 {
            return bound;
        }
        let m = 0.5 * (a + b);
        let lm = 0.5 * (la + lb);
        let left = self.segment_bound((a, la), (m, lm), max_in, max_out, threshold, depth + 1);
        let right = self.segment_bound((m, lm), (b, lb), max_in, max_out, threshold, depth + 1);
        left.max(right)
    }
}

impl TwoLevelMember<'_> {
    /// `Some(E)` when a node can be judged against a finite `threshold` by the
    /// concave test of [`staircase`].
    fn concave_staircase(&self, threshold: f64) -> Option<f64> {
        match self.family.levels {
            Levels::Staircase { e } if self.family.concave && threshold.is_finite() => Some(e),
            _ => None,
        }
    }

    /// The bound of a range whose least dual mass at W is `floor(W)` (convex),
    /// sampled at `xs`: the threshold itself if no member beats it, else
    /// infinity (the node must be searched).
    fn concave_test(
        &self,
        e: f64,
        threshold: f64,
        max_in: f64,
        max_out: f64,
        xs: &[f64],
        floor: &dyn Fn(f64) -> f64,
    ) -> f64 {
        let lam = self.lambda_sum;
        let h = |w: f64| {
            let s = 1.0 + (e - 1.0) * w;
            let m = match self.family.kind {
                Separable::FInformation(f) => s * (w * f(e / s) + (1.0 - w) * f(1.0 / s)),
                Separable::MaxWeighted => (e * max_in).max(max_out),
            };
            m - threshold * s - lam - (e - 1.0) * floor(w)
        };
        if staircase::concave_at_most_zero(&h, xs) {
            threshold
        } else {
            f64::INFINITY
        }
    }
}

impl Family for TwoLevelMember<'_> {
    fn window(&self) -> (f64, f64) {
        (0.0, self.reach)
    }

    /// A two-level bound costs a chain walk over the items (about 3 ms at
    /// N = 1024): a round of 1024 nodes in each of a pass's four searches ran
    /// a pricing pass 7 s past its deadline (LDP, N = 1024, eps = 0.4,
    /// `--time-limit 10`), so past 128 items a round shrinks in proportion.
    fn round_nodes(&self, items: usize) -> u64 {
        (ROUND * 128 / items.max(1) as u64).clamp(16, ROUND)
    }

    fn reduced_cost(&self, node: &Node, taken: usize, n: usize, max_out: f64) -> Option<f64> {
        if taken == 0 || taken == n || node.w >= self.family.weight_limit() {
            return None;
        }
        let (top, level) = self.family.levels.at(node.w);
        // Family L's level must stay positive (the staircase's always is, and
        // its ratio top / level = e^eps can exceed any tolerance).
        let ball = matches!(self.family.levels, Levels::BallLevel { .. });
        if ball && level <= BOUND_TOL * top || level >= top * (1.0 - BOUND_TOL) {
            return None;
        }
        Some(self.cost(node.w, node.l, node.max_in, max_out))
    }

    fn box_bound(
        &self,
        w: (f64, f64),
        floor: DualFloor,
        max_in: f64,
        max_out: f64,
        threshold: f64,
    ) -> f64 {
        let (a, b) = (w.0.max(0.0), w.1.min(self.reach));
        if a > b {
            return f64::NEG_INFINITY;
        }
        let xs = floor.breaks(a, b);
        if let Some(e) = self.concave_staircase(threshold) {
            return self.concave_test(e, threshold, max_in, max_out, &xs, &|w| floor.at(w));
        }
        let points = xs.iter().map(|&w| (w, floor.at(w)));
        let fallback = || {
            // The tree narrows the range as it descends: split little here.
            let l_min = floor.at(a).min(floor.at(b));
            let depth = MAX_SPLIT_DEPTH - 2;
            self.segment_bound((a, l_min), (b, l_min), max_in, max_out, threshold, depth)
        };
        let masses = (max_in, max_out);
        self.polyline_bound(points, masses, threshold, BOX_SPLITS)
            .unwrap_or_else(fallback)
    }

    /// Where the concave test applies, a node it proves at `floor` is
    /// bounded by `floor` (one test instead of the whole chain's bound).
    fn open_bound(&self, node: &Node, items: &Items, floor: f64) -> f64 {
        if self.concave_staircase(floor).is_some() && self.bound(node, items, floor) <= floor {
            return floor;
        }
        self.bound(node, items, f64::INFINITY)
    }

    fn bound(&self, node: &Node, items: &Items, threshold: f64) -> f64 {
        let w_max = self.reach;
        let rest = items.suffix_max[node.depth];
        let (max_in, max_out) = (node.max_in.max(rest), node.max_out.max(rest));
        if let Some(e) = self.concave_staircase(threshold) {
            let cap = items.len() + 1 - node.depth.min(items.len());
            let (mut ws, mut ls) = (Vec::with_capacity(cap), Vec::with_capacity(cap));
            for (w, l) in chain_walk(node, items, w_max) {
                ws.push(w);
                ls.push(l);
            }
            if ws.len() < 2 {
                return self.cost(ws[0], ls[0], max_in, max_out);
            }
            let chain = |w: f64| {
                let k = ws.partition_point(|&x| x < w).clamp(1, ws.len() - 1);
                let (w0, w1) = (ws[k - 1], ws[k]);
                if w1 > w0 {
                    ls[k - 1] + (ls[k] - ls[k - 1]) * (w - w0) / (w1 - w0)
                } else {
                    ls[k - 1].min(ls[k])
                }
            };
            return self.concave_test(e, threshold, max_in, max_out, &ws, &chain);
        }
        let masses = (max_in, max_out);
        let chain = chain_walk(node, items, w_max);
        if let Some(b) = self.polyline_bound(chain, masses, threshold, CHAIN_SPLITS) {
            return b;
        }
        // No slope enclosure somewhere on the chain: interval arithmetic.
        let mut vertices = chain_walk(node, items, w_max);
        let mut start = vertices.next().unwrap_or((node.w, node.l));
        let mut best = self.cost(start.0, start.1, max_in, max_out);
        for end in vertices {
            if best > threshold {
                break;
            }
            let seg = self.segment_bound(start, end, max_in, max_out, threshold, 0);
            best = best.max(seg);
            start = end;
        }
        best
    }
}

/// The vertices of the fractional-knapsack chain from `node`, up to weight
/// `w_max` (cut there), at strictly increasing weights: the free items of mass
/// 0 ([`super::ratio`]) lower the first vertex by their negative dual values
/// and are left out after it. A step at no weight had made the dual mass 0 / 0
/// (a NaN, which the bounds then passed over, pruning sets with an entering
/// reduced cost), and a first vertex repeated at one weight is read as the
/// higher of its two dual masses by a chain interpolated between vertices.
fn chain_walk<'a>(
    node: &Node,
    items: &'a Items,
    w_max: f64,
) -> impl Iterator<Item = (f64, f64)> + 'a {
    let mut chain = items.chain(node.depth).peekable();
    let mut first = (node.w, node.l);
    // Masses 0 of negative dual value lead the chain (ratio -inf).
    while let Some(i) = chain.next_if(|&i| items.p[i] <= 0.0) {
        first.1 += items.lambda[i].min(0.0);
    }
    let mut at = first;
    let rest = chain.filter(|&i| items.p[i] > 0.0).map_while(move |i| {
        let (w0, l0) = at;
        if w0 >= w_max {
            return None;
        }
        let w1 = (w0 + items.p[i]).min(w_max);
        at = (w1, l0 + items.lambda[i] * (w1 - w0) / items.p[i]);
        Some(at)
    });
    std::iter::once(first).chain(rest)
}

impl TwoLevelMember<'_> {
    /// An upper bound on the reduced cost along the polyline through `points`:
    /// its vertices exactly, its segments by [`Self::line_bound`]. Above a
    /// finite threshold it stops early (segments refined while above it);
    /// with an infinite threshold it bounds the whole polyline, refining the
    /// segments that could exceed its best vertex. `None` where a slope cannot
    /// be enclosed.
    fn polyline_bound(
        &self,
        points: impl Iterator<Item = (f64, f64)>,
        masses: (f64, f64),
        threshold: f64,
        splits: u32,
    ) -> Option<f64> {
        let at = |(w, l): (f64, f64)| self.cost(w, l, masses.0, masses.1);
        let points: Vec<(f64, f64)> = if threshold.is_finite() {
            let mut best = f64::NEG_INFINITY;
            let mut prev: Option<(f64, f64)> = None;
            for q in points {
                best = best.max(at(q));
                if let Some(p) = prev.filter(|_| best <= threshold) {
                    best = best.max(self.line_bound(p, q, masses, threshold, splits)?);
                }
                if best > threshold {
                    break;
                }
                prev = Some(q);
            }
            return Some(best);
        } else {
            points.collect()
        };
        let mut best = points
            .iter()
            .map(|&q| at(q))
            .fold(f64::NEG_INFINITY, f64::max);
        for k in 1..points.len() {
            let seg = self.line_bound(points[k - 1], points[k], masses, best, splits)?;
            best = best.max(seg);
        }
        Some(best)
    }
}

/// A family of two-level rays (a set A at `top`, the rest at `level`, both
/// functions of `W = p(A)`) as a pricing oracle: \[E\] Prop 2's family L or the
/// LDP staircase patterns.
pub struct TwoLevel {
    p: Vec<f64>,
    levels: Levels,
    /// The separable utility whose rays it prices.
    pub kind: Separable,
    /// The staircase's `m(W)` is concave ([`staircase`]).
    concave: bool,
    utility: SliceUtility,
    deadline: Option<Instant>,
    /// Members have `W < cap` (infinite: no cap).
    cap: f64,
    /// The common unit of the masses, if any ([`TwoLevel::reach`]).
    lattice: Option<Lattice>,
}

impl TwoLevel {
    /// The family over reference p for `utility` (`None` without a separable form).
    pub fn new(p: &[f64], levels: Levels, utility: &dyn Utility) -> Option<Self> {
        let kind = utility.separable()?;
        Some(TwoLevel {
            p: p.to_vec(),
            levels,
            kind,
            concave: matches!(kind, Separable::MaxWeighted) || utility.staircase_concave(),
            utility: column_value(p, kind),
            deadline: None,
            cap: f64::INFINITY,
            lattice: Lattice::of(p),
        })
    }

    /// Stops every pricing pass at `deadline`.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    /// Keeps only members with `W < cap` (the staircase rays of the exact ball
    /// past \[E\] Prop 2, whose top set weighs less than `beta/2`).
    pub fn with_cap(mut self, cap: f64) -> Self {
        self.cap = cap;
        self
    }

    /// The largest weight of a member.
    fn max_weight(&self) -> f64 {
        self.levels.max_weight().min(self.cap)
    }

    /// Members weigh less than this: the cap, and for family L the weight
    /// where its level reaches 0. Not 1: a top set of weight 1 leaves only
    /// inputs of mass 0 (unobserved categories at the centre of a ball) at the
    /// level, a member like any other (`top = 1`); `taken < n` keeps the rest
    /// nonempty.
    fn weight_limit(&self) -> f64 {
        match self.levels {
            Levels::Staircase { .. } => self.cap.min(1.0),
            Levels::BallLevel { e, b } => (1.0 / e + b).min(self.cap),
        }
    }

    /// The largest weight a set below [`Self::max_weight`] can have: on a
    /// lattice of masses the bound need not look past it (near the optimum of
    /// a mutual-information design the reduced cost rises toward that end,
    /// where the rays meet a box cut's at its top end, [`Lattice`]).
    pub fn reach(&self) -> f64 {
        let w_max = self.max_weight();
        self.lattice.map_or(w_max, |l| l.narrow((0.0, w_max)).1)
    }

    fn ray(&self, a: &[usize]) -> Array1<f64> {
        let w: f64 = a.iter().map(|&x| self.p[x]).sum();
        let (top, level) = self.levels.at(w);
        let mut v = Array1::from_elem(self.p.len(), level);
        for &x in a {
            v[x] = top;
        }
        v
    }
}

impl Searched for TwoLevel {
    fn dimension(&self) -> usize {
        self.p.len()
    }

    fn seed_budget(&self) -> u64 {
        SEED_BUDGET_TWO_LEVEL
    }

    fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    fn price_in(&self, lambda: &Array1<f64>, tol: f64, keep: usize, pass: &Pass) -> Pricing {
        let lam = lambda.to_vec();
        let lambda_sum = lam.iter().sum();
        let suffix = halves::suffix_items(self.p.len(), tol, lambda_sum);
        let items = Items::new(&self.p, &lam, None, suffix);
        let member = TwoLevelMember {
            family: self,
            lambda_sum,
            reach: self.reach(),
        };
        let results = if items.len() <= 6 + suffix {
            let tree = Suffix::new(&items);
            let job = |_| {
                Job::root(
                    &member,
                    Cow::Borrowed(&items),
                    Cow::Borrowed(&tree),
                    tol,
                    keep,
                )
            };
            pass.run(tol, 1, job, None)
        } else {
            self.split_search(&member, &items, tol, keep, pass)
        };
        let results = results.into_iter().map(|found| (0, found)).collect();
        collect(results, tol, keep, |_, set| {
            Some(self.utility.priced(self.ray(set), lambda))
        })
    }
}

impl TwoLevel {
    /// The search split at the first six items, so that the cores share it.
    fn split_search(
        &self,
        member: &TwoLevelMember,
        items: &Items,
        tol: f64,
        keep: usize,
        pass: &Pass,
    ) -> Vec<Found> {
        let splits = 6;
        let suffix = Suffix::new(items);
        pass.run(
            tol,
            1usize << splits,
            |mask| {
                let mut node = Node::root();
                let mut stack = Vec::new();
                for i in 0..splits {
                    let (take, leave) = node.children(items);
                    node = if mask >> i & 1 == 1 {
                        stack.push(i);
                        take
                    } else {
                        leave
                    };
                }
                let search =
                    Search::new(Cow::Borrowed(items), (tol, keep), (node, mask != 0, stack))
                        .with_round(member.round_nodes(items.len()));
                Job {
                    family: member,
                    suffix: Cow::Borrowed(&suffix),
                    search,
                }
            },
            // A subtree the clock stopped before it started proves nothing (an
            // infinite bound; the pass then certifies none, and the best
            // earlier one stands). Building each of the 64 to bound its root
            // would take seconds past the deadline at hundreds of inputs.
            Some(&|_| Found::unstarted(keep, f64::INFINITY)),
        )
    }
}
