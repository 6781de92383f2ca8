//! Pricing by branch and bound (docs/theory.md, "Pricing by branch and bound"):
//! the largest reduced cost `mu(v) - lambda . v` over the extreme rays of a cone,
//! found without enumerating the rays.
//!
//! Two shapes of ray family cover the structured cones:
//!
//! - **Box cut** ([`BoxCut`]): the vertices of `{c : lo <= c_x <= hi, p . c = 1}`,
//!   a set U at `hi`, one free coordinate f, the rest at `lo`. Family Z of the
//!   known prior (`lo = 0`, `hi = e^eps`), family Z of \[E\] Prop 2 (`hi = e^eps'`,
//!   with a zero required), and the PMC/ALIP/LIP cones of a known prior.
//! - **Two levels** ([`TwoLevel`]): a set A at `top(p(A))`, the rest at
//!   `level(p(A))`. Family L of \[E\] Prop 2 and the LDP staircase patterns.
//!
//! For a fixed free coordinate (box cut) the reduced cost of a set depends on the
//! set only through its weight `W = p(S)` and dual mass `L = lambda(S)`, and it
//! decreases in L. A node of the search fixes some items in or out; the pairs
//! (W, L) its completions can reach lie in a zonotope whose lower boundary is the
//! fractional-knapsack chain of the free items in order of `lambda_x / p_x`. The
//! node's bound is the largest reduced cost on that chain: exact at the chain's
//! vertices and window ends for the box cut (the cost is convex along each
//! segment), and by interval arithmetic on adaptively split segments for two
//! levels. A node whose bound is at most the pruning threshold is dropped; a
//! search stopped by its deadline keeps the largest open bound, so every pass
//! returns a valid upper bound on the largest reduced cost.

use crate::colgen::oracle::{Column, PassControl, Pricing, RayOracle, Tiebreak, TopK};
use crate::objective::utility::Separable;
use halves::Suffix;
use lattice::Lattice;
use ndarray::Array1;
use pass::{Pass, ROUND, Resumable};
use std::borrow::Cow;
use std::time::Instant;

pub(crate) mod box_cut;
pub(crate) mod halves;
pub(crate) mod lattice;
mod pass;
pub(crate) mod segment;
pub(crate) mod staircase;
pub(crate) mod three_level;
pub(crate) mod two_level;
mod union;
pub use box_cut::BoxCut;
pub use three_level::ThreeLevel;
pub use two_level::{Levels, TwoLevel};
pub use union::Union;

/// Tolerance deciding whether a free coordinate sits at an end of its range.
const BOUND_TOL: f64 = 1e-12;
/// Deepest split of a chain segment in the two-level interval bound.
const MAX_SPLIT_DEPTH: u32 = 6;
/// Most halvings of a chain segment in the two-level slope bound (whose
/// overestimate shrinks fourfold per halving, [`segment`]).
const CHAIN_SPLITS: u32 = 12;
/// Most halvings of a range of the met-in-the-middle tree (the tree narrows it).
const BOX_SPLITS: u32 = 6;
/// Most candidates a search keeps: the master takes a few hundred columns a
/// pass, and a short list prunes far more nodes than a long one.
const KEEP_CAP: usize = 32;
/// Nodes a pricing pass visits before it stops with the entering rays found.
const PASS_BUDGET: u64 = 500_000;

/// Nodes a seeding pass of a two-level family visits (its nodes cost about
/// ten times a box cut's, and the seed is only a start).
const SEED_BUDGET_TWO_LEVEL: u64 = 100_000;

/// Nodes after which even a pass that has found no entering ray stops; its
/// bound then covers the open nodes, and the design reports that gap honestly.
const LAST_PASS_BUDGET: u64 = 50_000_000;

/// True when a pass at entering tolerance `tol`, for duals summing to `scale`,
/// works toward a proof to a relative 1e-8 or finer (an exact design), where
/// near-ties make the proof the hard part.
fn fine_proof(tol: f64, scale: f64) -> bool {
    tol.is_finite() && tol <= 1e-8 * (1.0 + scale.abs())
}

/// The order of the fractional-knapsack chain, `lambda_x / p_x`. A mass 0 (a
/// category never observed, at the centre of a ball) adds its dual value at no
/// weight: first in the chain when that is negative, last when positive, and
/// anywhere (0) when it is 0. Plain division gave NaN for the last, sorted
/// before everything, and among the branched items it broke the merge of
/// `Items::chain` (every comparison with NaN is false): the chain then left
/// the lower boundary of the dual masses, and a bound could fall below the
/// reduced cost of a completion.
pub fn ratio(lambda: f64, p: f64) -> f64 {
    if p > 0.0 {
        lambda / p
    } else if lambda < 0.0 {
        f64::NEG_INFINITY
    } else if lambda > 0.0 {
        f64::INFINITY
    } else {
        0.0
    }
}

/// The inputs of mass 0 (`zeros`) as the items of a search. Such an input
/// adds its dual value to a set at no weight and changes no mass, so for any
/// placement of the other inputs its best level is fixed by the sign of its
/// dual value: the highest level of the ray when negative (it lowers the dual
/// mass most), the lowest when positive (at 0 either). Branching on each of
/// them was `2^z` (`3^z` for three levels) leaves that no bound could tell
/// apart, so they are placed as a group. The only reason to place one elsewhere is a set
/// that must not be empty (a ray's top set, its rest, the zeros of \[E\]
/// Prop 2's family Z, the middle and bottom sets of a three-level ray): at
/// most two sets besides its best, each needing one input, and the cheapest
/// to move are those whose dual value is nearest 0 (an exchange argument:
/// moving any other input to its best level, or swapping it with one nearer
/// 0, never lowers the reduced cost). So the negative ones are two singletons
/// (nearest 0) and one group of the rest, the others likewise: at most six
/// items, whose best completion is the best over all placements. A group
/// keeps mass 0 and the sum of its dual values.
pub fn zero_groups(zeros: &[usize], lambda: &[f64]) -> Vec<Vec<usize>> {
    let (mut neg, mut rest): (Vec<usize>, Vec<usize>) =
        zeros.iter().partition(|&&x| lambda[x] < 0.0);
    // Nearest 0 first, ties by index.
    neg.sort_by(|&a, &b| lambda[b].total_cmp(&lambda[a]).then(a.cmp(&b)));
    rest.sort_by(|&a, &b| lambda[a].total_cmp(&lambda[b]).then(a.cmp(&b)));
    let mut groups = Vec::new();
    for side in [neg, rest] {
        let mut it = side.into_iter();
        groups.extend(it.by_ref().take(2).map(|x| vec![x]));
        let tail: Vec<usize> = it.collect();
        if !tail.is_empty() {
            groups.push(tail);
        }
    }
    groups
}

/// Items of a search in the order `lambda_x / p_x` ascending ([`ratio`]),
/// with suffix sums. The inputs of mass 0 are grouped ([`zero_groups`]).
#[derive(Clone)]
pub struct Items {
    /// Input index of each position (the first of a group).
    index: Vec<usize>,
    /// The other inputs of each position's group (empty for most).
    more: Vec<Vec<usize>>,
    /// Mass of each position (its group's total).
    pub p: Vec<f64>,
    /// Dual weight of each position (its group's total).
    pub lambda: Vec<f64>,
    /// `sum_{k >= i} p_k`.
    suffix_mass: Vec<f64>,
    /// `max_{k >= i} p_k` (0 past the end).
    suffix_max: Vec<f64>,
    /// Position of the first item met in the middle ([`Suffix`]).
    pub start: usize,
}

impl Items {
    /// The inputs but `skip`: the lightest `suffix` last (met in the middle,
    /// where their fine weights matter, [`halves::suffix_items`]), the others
    /// first (branched on, where their weights hit the window); each part in
    /// order of `lambda_x / p_x`.
    pub fn new(p: &[f64], lambda: &[f64], skip: Option<usize>, suffix: usize) -> Self {
        let kept = |x: &usize| Some(*x) != skip;
        let zeros: Vec<usize> = (0..p.len()).filter(|&x| p[x] <= 0.0).filter(kept).collect();
        let groups = zero_groups(&zeros, lambda);
        let group_lambda = |g: &[usize]| g.iter().map(|&x| lambda[x]).sum::<f64>();
        // Each entry: (mass, dual value, its inputs).
        let mut entries: Vec<(f64, f64, Vec<usize>)> = (0..p.len())
            .filter(|&x| p[x] > 0.0)
            .filter(kept)
            .map(|x| (p[x], lambda[x], vec![x]))
            .chain(groups.into_iter().map(|g| (0.0, group_lambda(&g), g)))
            .collect();
        entries.sort_by(|a, b| b.0.total_cmp(&a.0));
        let start = entries.len() - entries.len().min(suffix);
        let by_ratio = |a: &(f64, f64, Vec<usize>), b: &(f64, f64, Vec<usize>)| {
            ratio(a.1, a.0).total_cmp(&ratio(b.1, b.0))
        };
        entries[..start].sort_by(by_ratio);
        entries[start..].sort_by(by_ratio);
        let pv: Vec<f64> = entries.iter().map(|e| e.0).collect();
        let lv: Vec<f64> = entries.iter().map(|e| e.1).collect();
        let (index, more) = entries
            .into_iter()
            .map(|(_, _, mut g)| {
                let first = g.remove(0);
                (first, g)
            })
            .unzip();
        let k = pv.len();
        let mut suffix_mass = vec![0.0; k + 1];
        let mut suffix_max = vec![0.0f64; k + 1];
        for i in (0..k).rev() {
            suffix_mass[i] = suffix_mass[i + 1] + pv[i];
            suffix_max[i] = suffix_max[i + 1].max(pv[i]);
        }
        Items {
            index,
            more,
            p: pv,
            lambda: lv,
            suffix_mass,
            suffix_max,
            start,
        }
    }

    fn len(&self) -> usize {
        self.p.len()
    }

    /// The inputs of position i (several for a group of masses 0).
    fn inputs(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::once(self.index[i]).chain(self.more[i].iter().copied())
    }

    /// The positions from `depth` on in order of `lambda_x / p_x`: the
    /// fractional-knapsack chain (both parts are sorted; merged here).
    fn chain(&self, depth: usize) -> Chain<'_> {
        Chain {
            items: self,
            a: depth.min(self.start),
            b: depth.max(self.start),
        }
    }
}

/// The merge of the two sorted parts of [`Items`] (see [`Items::chain`]).
struct Chain<'a> {
    items: &'a Items,
    a: usize,
    b: usize,
}

impl Iterator for Chain<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let it = self.items;
        let ratio = |i: usize| ratio(it.lambda[i], it.p[i]);
        let take_a = self.a < it.start && (self.b >= it.len() || ratio(self.a) <= ratio(self.b));
        if take_a {
            self.a += 1;
            Some(self.a - 1)
        } else if self.b < it.len() {
            self.b += 1;
            Some(self.b - 1)
        } else {
            None
        }
    }
}

/// A node of the search: the first `depth` items decided.
#[derive(Debug, Clone, Copy)]
pub struct Node {
    depth: usize,
    /// `p(S)` of the items taken.
    w: f64,
    /// `lambda(S)` of the items taken.
    l: f64,
    /// Largest mass taken.
    max_in: f64,
    /// Largest mass left out.
    max_out: f64,
}

/// What one search found: the best candidates (sets of inputs, or masks), the
/// largest reduced cost seen and the largest bound of the nodes left open.
struct Found<T = Vec<usize>> {
    top: TopK<T>,
    best: f64,
    open: f64,
    nodes: u64,
}

impl<T: Tiebreak> Found<T> {
    /// Records a candidate of reduced cost `rc`, kept when it enters (above
    /// `tol`) and beats the worst kept one; `set` builds it only then.
    fn offer(&mut self, rc: f64, tol: f64, set: impl FnOnce() -> T) {
        self.best = self.best.max(rc);
        if rc > tol && rc > self.top.threshold() {
            self.top.push(rc, set());
        }
    }

    fn new(keep: usize) -> Self {
        Found {
            top: TopK::new(keep),
            best: f64::NEG_INFINITY,
            open: f64::NEG_INFINITY,
            nodes: 0,
        }
    }

    /// A search the clock stopped before it started: nothing found, and
    /// `open` the bound that stands for what it would have found.
    fn unstarted(keep: usize, open: f64) -> Self {
        Found {
            open,
            ..Found::new(keep)
        }
    }
}

impl<T: Tiebreak> Found<T> {
    /// Nodes whose bound is at most this are dropped: the entry tolerance, or
    /// the worst kept candidate once `keep` are kept. A tolerance of `+inf` asks
    /// for the largest reduced cost itself: then nodes that cannot beat it are
    /// dropped.
    fn threshold(&self, tol: f64, keep: usize) -> f64 {
        let kept = if keep == 0 {
            f64::NEG_INFINITY
        } else {
            self.top.threshold()
        };
        if tol == f64::INFINITY {
            self.best.max(kept)
        } else {
            tol.max(kept)
        }
    }
}

/// A step of a depth-first search kept on an explicit stack, so that the
/// search can stop at the end of a round and resume ([`pass`]).
#[derive(Debug, Clone, Copy)]
enum Frame<N> {
    /// A node reached (`fresh`: its set differs from its parent's).
    Visit(N, bool),
    /// A node counted: bound it, then branch.
    Expand(N),
    /// The item `k` enters the set on the path.
    Push(usize),
    /// The last item on the path leaves it.
    Pop,
}

/// The state of the depth-first search of one family member.
pub struct Search<'a> {
    items: Cow<'a, Items>,
    tol: f64,
    keep: usize,
    frames: Vec<Frame<Node>>,
    stack: Vec<usize>,
    found: Found,
    /// Node count at which the search next waits for the end of its round.
    checkpoint: u64,
    /// Nodes per round ([`Family::round_nodes`]).
    round: u64,
    /// The node the search starts from: its bound covers every node the
    /// search may leave open ([`Search::abandon`]).
    start: Node,
}

impl<'a> Search<'a> {
    /// A search from `node`, with the items on `stack` taken.
    fn new(
        items: Cow<'a, Items>,
        (tol, keep): (f64, usize),
        (node, fresh, stack): (Node, bool, Vec<usize>),
    ) -> Self {
        let keep = keep.min(KEEP_CAP);
        Search {
            items,
            tol,
            keep,
            frames: vec![Frame::Visit(node, fresh)],
            stack,
            found: Found::new(keep),
            checkpoint: ROUND,
            round: ROUND,
            start: node,
        }
    }

    /// The search with rounds of `round` nodes.
    fn with_round(mut self, round: u64) -> Self {
        self.round = round.max(1);
        self.checkpoint = self.round;
        self
    }

    /// Stops the search at once, its open nodes bounded by the bound of its
    /// start (one evaluation) instead of each its own: a pass the clock has
    /// stopped need not be tight, and walking the open nodes of a deep
    /// two-level search costs seconds at thousands of inputs.
    fn abandon(&mut self, family: &impl Family) {
        if !self.frames.is_empty() {
            let bound = family.bound(&self.start, &self.items, f64::INFINITY);
            self.found.open = self.found.open.max(bound);
            self.frames.clear();
        }
    }

    /// Nodes whose bound is at most this are dropped ([`Found::threshold`]).
    fn threshold(&self) -> f64 {
        self.found.threshold(self.tol, self.keep)
    }

    /// Records a set (the items on the stack) of reduced cost `rc`.
    fn offer(&mut self, rc: f64) {
        self.offer_with(rc, |_| {});
    }

    /// Records the set on the stack plus the positions `more` adds.
    fn offer_with(&mut self, rc: f64, more: impl FnOnce(&mut Vec<usize>)) {
        let (stack, items) = (&self.stack, &*self.items);
        self.found.offer(rc, self.tol, || {
            let mut positions = stack.clone();
            more(&mut positions);
            positions.iter().flat_map(|&i| items.inputs(i)).collect()
        });
    }

    /// Counts a node; true when the search waits for the end of its round.
    fn round_over(&mut self) -> bool {
        self.found.nodes += 1;
        let over = self.found.nodes >= self.checkpoint;
        if over {
            self.checkpoint = (self.found.nodes / self.round + 1) * self.round;
        }
        over
    }
}

/// A family searched by `Search::walk`: its window of weights, the reduced cost of a
/// set and the bound of a node.
pub trait Family: Sync {
    /// The weights `p(S)` a member can have (closed).
    fn window(&self) -> (f64, f64);
    /// The reduced cost of the set on the stack (weight, dual mass, largest mass
    /// in, largest mass out), or `None` when it is no member.
    fn reduced_cost(&self, node: &Node, taken: usize, n: usize, max_out: f64) -> Option<f64>;
    /// An upper bound on the reduced cost of every completion of `node`, exact
    /// enough to stop above `threshold`.
    fn bound(&self, node: &Node, items: &Items, threshold: f64) -> f64;
    /// An upper bound on the reduced cost of every completion of a node that a
    /// stopped search leaves open, where a bound at most `floor` (the largest
    /// reduced cost the search has seen, or its tolerance, both of which the
    /// pass reports anyway) need not be told apart from `floor`. By default
    /// the node's full bound.
    fn open_bound(&self, node: &Node, items: &Items, floor: f64) -> f64 {
        let _ = floor;
        self.bound(node, items, f64::INFINITY)
    }
    /// Nodes a search over `items` items visits between two looks at the
    /// clock and the budget: `ROUND`, fewer where a bound costs much.
    fn round_nodes(&self, items: usize) -> u64 {
        let _ = items;
        ROUND
    }
    /// An upper bound on the reduced cost of every set of weight in `[w1, w2]`,
    /// dual mass at least `l_min` and largest masses in and out at most
    /// `max_in`, `max_out`.
    fn box_bound(
        &self,
        w: (f64, f64),
        floor: DualFloor,
        max_in: f64,
        max_out: f64,
        threshold: f64,
    ) -> f64;
}

impl<T: Family> Family for &T {
    fn window(&self) -> (f64, f64) {
        (**self).window()
    }

    fn reduced_cost(&self, node: &Node, taken: usize, n: usize, max_out: f64) -> Option<f64> {
        (**self).reduced_cost(node, taken, n, max_out)
    }

    fn bound(&self, node: &Node, items: &Items, threshold: f64) -> f64 {
        (**self).bound(node, items, threshold)
    }

    fn open_bound(&self, node: &Node, items: &Items, floor: f64) -> f64 {
        (**self).open_bound(node, items, floor)
    }

    fn box_bound(
        &self,
        w: (f64, f64),
        floor: DualFloor,
        max_in: f64,
        max_out: f64,
        threshold: f64,
    ) -> f64 {
        (**self).box_bound(w, floor, max_in, max_out, threshold)
    }
}

/// What is known of the dual mass L of the sets in a box: `L >= l_min` and
/// `L >= slope W + offset`. Dual values nearly proportional to the masses make
/// the second far tighter than the first over a range of weights.
#[derive(Debug, Clone, Copy)]
pub struct DualFloor {
    l_min: f64,
    slope: f64,
    offset: f64,
}

impl DualFloor {
    /// The least dual mass at weight w.
    fn at(&self, w: f64) -> f64 {
        self.l_min.max(self.slope * w + self.offset)
    }

    /// The ends of `[a, b]` with the floor's kink between them if it falls
    /// inside: the floor is linear between consecutive breaks.
    fn breaks(&self, a: f64, b: f64) -> Vec<f64> {
        let kink = (self.l_min - self.offset) / self.slope;
        if kink > a && kink < b {
            vec![a, kink, b]
        } else {
            vec![a, b]
        }
    }
}

/// A search of one family member: the member and its search state.
struct Job<'a, F> {
    family: F,
    /// The tree of the last items, met in the middle.
    suffix: Cow<'a, Suffix>,
    search: Search<'a>,
}

impl<'a, F: Family + Send> Job<'a, F> {
    /// The search of `family` from the root of `items`.
    fn root(
        family: F,
        items: Cow<'a, Items>,
        suffix: Cow<'a, Suffix>,
        tol: f64,
        keep: usize,
    ) -> Self {
        let round = family.round_nodes(items.len());
        let search =
            Search::new(items, (tol, keep), (Node::root(), true, Vec::new())).with_round(round);
        Job {
            family,
            suffix,
            search,
        }
    }
}

impl<F: Family + Send> Resumable for Job<'_, F> {
    fn advance(&mut self, stopped: bool) -> bool {
        self.search.walk(&self.family, &self.suffix, stopped)
    }

    fn abandon(&mut self) {
        self.search.abandon(&self.family);
    }

    fn found(&self) -> &Found {
        &self.search.found
    }

    fn into_found(self) -> Found {
        self.search.found
    }
}

impl Search<'_> {
    /// Depth-first branch and bound over the items: runs until the search ends
    /// (true) or, unless `stopped`, waits for the end of its round.
    fn walk(&mut self, family: &impl Family, suffix: &Suffix, stopped: bool) -> bool {
        while let Some(frame) = self.frames.pop() {
            match frame {
                Frame::Visit(node, fresh) => {
                    if !self.visit(family, suffix, &node, fresh) {
                        continue;
                    }
                    if self.round_over() && !stopped {
                        self.frames.push(Frame::Expand(node));
                        return false;
                    }
                    self.expand(family, node, stopped);
                }
                Frame::Expand(node) => self.expand(family, node, stopped),
                Frame::Push(k) => self.stack.push(k),
                Frame::Pop => {
                    self.stack.pop();
                }
            }
        }
        true
    }

    /// Offers the set of a node reached; true when the node is to be counted
    /// and expanded (it is not past the window, a leaf or met in the middle).
    fn visit(&mut self, family: &impl Family, suffix: &Suffix, node: &Node, fresh: bool) -> bool {
        let n = self.items.len();
        if node.w > family.window().1 + BOUND_TOL {
            return false;
        }
        if node.depth == self.items.start {
            suffix.complete(family, self, node);
            return false;
        }
        if fresh {
            let max_out = node.max_out.max(self.items.suffix_max[node.depth]);
            if let Some(rc) = family.reduced_cost(node, self.stack.len(), n, max_out) {
                self.offer(rc);
            }
        }
        node.depth < n
    }

    /// Bounds a counted node and queues its children; a stopped search keeps
    /// the node's full bound open instead (no early stop at a threshold).
    fn expand(&mut self, family: &impl Family, node: Node, stopped: bool) {
        let items = &*self.items;
        if stopped {
            let floor = self.found.best.max(self.tol);
            let bound = family.open_bound(&node, items, floor);
            self.found.open = self.found.open.max(bound);
            return;
        }
        let threshold = self.threshold();
        if family.bound(&node, items, threshold) <= threshold {
            return;
        }
        let (w_lo, w_hi) = family.window();
        let (take, leave) = node.children(items);
        if leave.w + items.suffix_mass[leave.depth] >= w_lo - BOUND_TOL {
            self.frames.push(Frame::Visit(leave, false));
        }
        if take.w <= w_hi + BOUND_TOL {
            self.frames.push(Frame::Pop);
            self.frames.push(Frame::Visit(take, true));
            self.frames.push(Frame::Push(node.depth));
        }
    }
}

impl Node {
    /// The two children of a node over `items`: the next item taken, then left out.
    fn children(&self, items: &Items) -> (Node, Node) {
        let i = self.depth;
        let (p, l) = (items.p[i], items.lambda[i]);
        let take = Node {
            depth: i + 1,
            w: self.w + p,
            l: self.l + l,
            max_in: self.max_in.max(p),
            max_out: self.max_out,
        };
        let leave = Node {
            depth: i + 1,
            max_out: self.max_out.max(p),
            ..*self
        };
        (take, leave)
    }

    fn root() -> Self {
        Node {
            depth: 0,
            w: 0.0,
            l: 0.0,
            max_in: 0.0,
            max_out: 0.0,
        }
    }
}

/// `mu(c)` on the slice `p . c = 1` from the separable form (also the value of
/// the sets of exact mass, `pricing/exact_mass.rs`).
pub(crate) struct SliceUtility {
    /// The reference prior.
    pub(crate) p: Vec<f64>,
    kind: Separable,
}

impl SliceUtility {
    /// The column of ray v with its value, and its reduced cost under lambda.
    pub(crate) fn priced(&self, v: Array1<f64>, lambda: &Array1<f64>) -> (f64, Column) {
        let value = self.value(&v);
        (value - lambda.dot(&v), Column { vector: v, value })
    }

    fn value(&self, v: &Array1<f64>) -> f64 {
        let pairs = self.p.iter().zip(v);
        match self.kind {
            Separable::FInformation(f) => pairs.map(|(a, c)| a * f(*c)).sum(),
            Separable::MaxWeighted => pairs.map(|(a, c)| a * c).fold(0.0, f64::max),
        }
    }
}

pub(crate) fn column_value(p: &[f64], kind: Separable) -> SliceUtility {
    SliceUtility {
        p: p.to_vec(),
        kind,
    }
}

/// Merges the searches: the largest reduced cost (an upper bound when nodes were
/// left open or pruned at the tolerance) and the best `keep` columns, built and
/// re-priced from their vectors by `column`.
fn collect(
    results: Vec<(usize, Found)>,
    tol: f64,
    keep: usize,
    column: impl Fn(usize, &[usize]) -> Option<(f64, Column)>,
) -> Pricing {
    let mut best = f64::NEG_INFINITY;
    let mut nodes = 0;
    let mut top: TopK<Column> = TopK::new(keep);
    for (member, found) in results {
        best = best.max(found.best).max(found.open);
        nodes += found.nodes;
        for (_, set) in found.top.into_sorted() {
            if let Some((rc, c)) = column(member, &set) {
                top.push(rc, c);
            }
        }
    }
    // Nodes were dropped only at or below max(tol, a kept candidate's cost).
    if tol.is_finite() {
        best = best.max(tol);
    }
    Pricing {
        max_reduced_cost: best,
        entering: top
            .into_sorted()
            .into_iter()
            .filter(|(rc, _)| *rc > tol)
            .collect(),
        priced: nodes,
    }
}

/// A family priced within a shared [`Pass`] (its deadline and node budget).
trait Searched: Send + Sync {
    /// Dimension N.
    fn dimension(&self) -> usize;
    /// When every pass must stop.
    fn deadline(&self) -> Option<Instant>;
    /// One pricing pass, counting its nodes into `pass`.
    fn price_in(&self, lambda: &Array1<f64>, tol: f64, keep: usize, pass: &Pass) -> Pricing;
    /// Nodes a seeding pass visits (a heuristic start, not a proof).
    fn seed_budget(&self) -> u64 {
        PASS_BUDGET
    }
}

/// A family alone prices in a pass of its own.
impl<T: Searched> RayOracle for T {
    fn dimension(&self) -> usize {
        Searched::dimension(self)
    }

    fn price(&self, lambda: &Array1<f64>, tol: f64, keep: usize) -> Pricing {
        self.price_with(lambda, tol, keep, &PassControl::default())
    }

    fn price_with(
        &self,
        lambda: &Array1<f64>,
        tol: f64,
        keep: usize,
        control: &PassControl,
    ) -> Pricing {
        let pass = Pass::new(self.deadline(), self.seed_budget(), control);
        self.price_in(lambda, tol, keep, &pass)
    }
}
