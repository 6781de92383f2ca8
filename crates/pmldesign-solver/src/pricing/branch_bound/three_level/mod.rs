//! The three-level rays of the exact l1 ball past \[E\] Prop 2 (docs/theory.md
//! §4b, "The exact ball past Proposition 2"): a set A at `top`, a set M at
//! `level`, the rest Z (nonempty) at 0, with `W = p(A) < b = beta/2` and
//! `S = p(A) + p(M)`. The ray is the LDP staircase of ratio `E_B = E (S - b)` on
//! the support `B = A + M`: with `u = 1_B + (E_B - 1) 1_A` and `s = p . u =
//! S + (E_B - 1) W`, the ray is `u / s`, and it exists when `E_B > 1`.
//!
//! Its reduced cost exceeds a threshold t iff
//!
//! `Q = m(S, W) - t s - lambda(B) - (E_B - 1) lambda(A) > 0`,
//! `m = mu(u) = s (W f(E_B / s) + (S - W) f(1 / s) + (1 - S) f(0))`
//!
//! (`max(E_B M_A, M_M)` for MAP). A node of the search has assigned its first
//! items to A, M or Z; over its completions, with `Phi` the fractional-knapsack
//! chain of the free items' dual mass, `lambda(B) >= lambda(B0) + Phi(S - S0)`
//! and `lambda(A) >= lambda(A0) + Phi(W - W0)`. For a fixed S the resulting bound
//! is concave in W ([`crate::Utility::three_level_concave`]), so the concave test
//! of the LDP staircase applies; over a range of S it is bounded by the lines
//! through its two ends with the extreme slopes in S (enclosed by interval
//! arithmetic), whose meeting point is again concave in W. Ranges of S are
//! halved while the test fails. Where m is not concave in W (total variation,
//! squared Hellinger), each segment of the top set's chain is bounded the same
//! way in W, from its end values and an enclosure of `dQ/dW`
//! ([`segment_max`]).

mod bound;

use super::pass::{Pass, ROUND, Resumable};
use super::segment::{Interval, Smooth, convex_enclosure, segment_max};
use super::staircase::concave_at_most_zero;
use super::{BOUND_TOL, Found, Frame, Items, KEEP_CAP, Searched, SliceUtility};
use super::{Lattice, collect, column_value};
use crate::colgen::oracle::Pricing;
use crate::objective::utility::{Separable, Utility};
use bound::{Bound, Chains};
use ndarray::Array1;
use std::time::Instant;

/// Most halvings of a node's range of support masses S.
const S_SPLITS: u32 = 4;
/// Items assigned before the search splits across cores (`3^k` prefixes).
const SPLIT_ITEMS: usize = 4;
/// Bisection steps for the bound of a node left open.
const OPEN_STEPS: u32 = 20;
/// Most halvings of a chain segment in W where m is not concave.
const W_SPLITS: u32 = 4;

/// The three-level family of the exact ball as a pricing oracle.
pub struct ThreeLevel {
    p: Vec<f64>,
    e: f64,
    b: f64,
    kind: Separable,
    /// Whether m is concave in W ([`crate::Utility::three_level_concave`]).
    concave: bool,
    utility: SliceUtility,
    deadline: Option<Instant>,
    /// The common unit of the masses, if any: it narrows the range of support
    /// masses S a node's completions can have ([`Bound::prunable`]).
    lattice: Option<Lattice>,
}

impl ThreeLevel {
    /// The family over the estimate p for `E = e^eps` and `b = beta/2`; `None`
    /// when `utility` has no separable form.
    pub fn new(p: &[f64], e: f64, b: f64, utility: &dyn Utility) -> Option<Self> {
        let kind = utility.separable()?;
        Some(ThreeLevel {
            p: p.to_vec(),
            e,
            b,
            kind,
            concave: matches!(kind, Separable::MaxWeighted) || utility.three_level_concave(),
            utility: column_value(p, kind),
            deadline: None,
            lattice: Lattice::of(p),
        })
    }

    /// Stops every pricing pass at `deadline`.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    /// `(E_B, s)` for support mass `sm` and top mass w.
    fn shape(&self, sm: f64, w: f64) -> (f64, f64) {
        let eb = self.e * (sm - self.b);
        (eb, sm + (eb - 1.0) * w)
    }

    /// `m = mu(u)` (largest masses in A and M for MAP).
    fn m(&self, sm: f64, w: f64, max_a: f64, max_m: f64) -> f64 {
        let (eb, s) = self.shape(sm, w);
        match self.kind {
            Separable::FInformation(f) => {
                s * (w * f(eb / s) + (sm - w) * f(1.0 / s) + (1.0 - sm) * f(0.0))
            }
            Separable::MaxWeighted => (eb * max_a).max(max_m),
        }
    }

    /// The ray with A at top and M at level, if it is one.
    fn ray(&self, a: &[usize], m: &[usize]) -> Option<Array1<f64>> {
        let w: f64 = a.iter().map(|&x| self.p[x]).sum();
        let sm = w + m.iter().map(|&x| self.p[x]).sum::<f64>();
        let (eb, s) = self.shape(sm, w);
        if a.is_empty() || m.is_empty() || eb <= 1.0 || w >= self.b {
            return None;
        }
        let mut v = Array1::zeros(self.p.len());
        for &x in a {
            v[x] = eb / s;
        }
        for &x in m {
            v[x] = 1.0 / s;
        }
        Some(v)
    }
}

/// A node: the first `depth` items assigned to A, M or Z.
#[derive(Debug, Clone, Copy, Default)]
pub struct Node {
    depth: usize,
    /// `p(A)`, `lambda(A)`.
    w: f64,
    la: f64,
    /// `p(B)`, `lambda(B)`.
    s: f64,
    lb: f64,
    /// Largest masses in A and in M.
    max_a: f64,
    max_m: f64,
    /// Items in A, in M; whether some item is in Z.
    n_a: usize,
    n_m: usize,
    has_z: bool,
}

/// Where an item goes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Side {
    A,
    M,
    Z,
}

impl Node {
    fn child(&self, items: &Items, side: Side) -> Node {
        let i = self.depth;
        let (p, l) = (items.p[i], items.lambda[i]);
        let mut c = Node {
            depth: i + 1,
            ..*self
        };
        match side {
            Side::A => {
                (c.w, c.la, c.s, c.lb) = (c.w + p, c.la + l, c.s + p, c.lb + l);
                (c.max_a, c.n_a) = (c.max_a.max(p), c.n_a + 1);
            }
            Side::M => {
                (c.s, c.lb) = (c.s + p, c.lb + l);
                (c.max_m, c.n_m) = (c.max_m.max(p), c.n_m + 1);
            }
            Side::Z => c.has_z = true,
        }
        c
    }
}

/// The search of one prefix of assignments.
pub struct Search<'a> {
    family: &'a ThreeLevel,
    items: &'a Items,
    tol: f64,
    keep: usize,
    frames: Vec<Frame<Node>>,
    /// Node count at which the search next waits for the end of its round.
    checkpoint: u64,
    /// Positions on the path: `k` in A, `k + n` in M.
    stack: Vec<usize>,
    found: Found,
    /// The crude bound on every member's reduced cost.
    crude: f64,
    chains: &'a Chains,
}

impl<'a> Search<'a> {
    /// The reduced cost of the node's sets with the free items in Z.
    fn reduced_cost(&self, node: &Node) -> Option<f64> {
        let f = self.family;
        let z = node.has_z || node.depth < self.items.len();
        let (eb, s) = f.shape(node.s, node.w);
        if node.n_a == 0 || node.n_m == 0 || !z || eb <= 1.0 + BOUND_TOL {
            return None;
        }
        let m = f.m(node.s, node.w, node.max_a, node.max_m);
        Some((m - node.lb - (eb - 1.0) * node.la) / s)
    }

    fn offer(&mut self, rc: f64) {
        let (stack, items, dim) = (&self.stack, self.items, self.family.p.len());
        self.found.offer(rc, self.tol, || {
            let n = items.len();
            let shift = |k: usize| if k < n { 0 } else { dim };
            stack
                .iter()
                .flat_map(|&k| items.inputs(k % n).map(move |x| x + shift(k)))
                .collect()
        });
    }

    /// Depth-first branch and bound: runs until the search ends (true) or,
    /// unless `stopped`, waits for the end of its round.
    fn walk(&mut self, stopped: bool) -> bool {
        while let Some(frame) = self.frames.pop() {
            match frame {
                Frame::Visit(node, fresh) => {
                    if fresh && let Some(rc) = self.reduced_cost(&node) {
                        self.offer(rc);
                    }
                    if node.depth == self.items.len() {
                        continue;
                    }
                    self.found.nodes += 1;
                    if self.found.nodes >= self.checkpoint && !stopped {
                        self.checkpoint = (self.found.nodes / ROUND + 1) * ROUND;
                        self.frames.push(Frame::Expand(node));
                        return false;
                    }
                    self.expand(node, stopped);
                }
                Frame::Expand(node) => self.expand(node, stopped),
                Frame::Push(k) => self.stack.push(k),
                Frame::Pop => {
                    self.stack.pop();
                }
            }
        }
        true
    }

    /// Bounds a counted node and queues its children (A, M, then Z); a stopped
    /// search keeps the node's bound open instead.
    fn expand(&mut self, node: Node, stopped: bool) {
        if stopped {
            let open = self.open_bound(&node);
            self.found.open = self.found.open.max(open);
            return;
        }
        let threshold = self.found.threshold(self.tol, self.keep);
        if Bound::new(self, &node, threshold).prunable() {
            return;
        }
        let (i, n) = (node.depth, self.items.len());
        self.frames
            .push(Frame::Visit(node.child(self.items, Side::Z), false));
        self.frames.push(Frame::Pop);
        self.frames
            .push(Frame::Visit(node.child(self.items, Side::M), true));
        self.frames.push(Frame::Push(i + n));
        if node.w + self.items.p[i] < self.family.b {
            self.frames.push(Frame::Pop);
            self.frames
                .push(Frame::Visit(node.child(self.items, Side::A), true));
            self.frames.push(Frame::Push(i));
        }
    }

    /// A bound on the reduced cost of every completion of a node left open:
    /// the least threshold the node's test proves, by bisection up to the
    /// crude bound (valid for every member).
    fn open_bound(&self, node: &Node) -> f64 {
        let proven = |t: f64| Bound::new(self, node, t).prunable();
        let mut lo = self.found.best.max(self.tol);
        if lo.is_finite() && proven(lo) {
            return f64::NEG_INFINITY;
        }
        let mut hi = self.crude;
        if !lo.is_finite() || lo >= hi {
            return hi;
        }
        for _ in 0..OPEN_STEPS {
            let mid = 0.5 * (lo + hi);
            if proven(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi
    }
}

impl Resumable for Search<'_> {
    fn advance(&mut self, stopped: bool) -> bool {
        self.walk(stopped)
    }

    fn found(&self) -> &Found {
        &self.found
    }

    fn into_found(self) -> Found {
        self.found
    }
}

impl ThreeLevel {
    /// A bound on every member's reduced cost: on the slice every coordinate
    /// is in `[0, E]`, so `lambda . v >= min lambda_x / p_x` over the inputs
    /// of mass plus `E min(lambda_x, 0)` for each input of mass 0 (its ratio
    /// would be `-inf` at a dual of `-1e-17`, and every open node's bound
    /// with it).
    pub fn crude_bound(&self, lambda: &[f64]) -> f64 {
        let (mut rho, mut unweighted) = (f64::INFINITY, 0.0);
        for (p, l) in self.p.iter().zip(lambda) {
            if *p > 0.0 {
                rho = rho.min(l / p);
            } else {
                unweighted += self.e * l.min(0.0);
            }
        }
        let mu = match self.kind {
            Separable::FInformation(f) => f(0.0) + (f(self.e) - f(0.0)) / self.e,
            Separable::MaxWeighted => self.e * self.p.iter().copied().fold(0.0, f64::max),
        };
        let bound = mu - rho - unweighted;
        bound + 1e-9 * (1.0 + bound.abs())
    }

    /// The assignments of the first items (at most [`SPLIT_ITEMS`]) with W < b.
    fn prefixes(&self, items: &Items) -> Vec<(Node, Vec<usize>)> {
        let n = items.len();
        let mut out = vec![(Node::default(), Vec::new())];
        for i in 0..SPLIT_ITEMS.min(n) {
            let mut next = Vec::new();
            for (node, stack) in out {
                for side in [Side::A, Side::M, Side::Z] {
                    if side == Side::A && node.w + items.p[i] >= self.b {
                        continue;
                    }
                    let mut s = stack.clone();
                    match side {
                        Side::A => s.push(i),
                        Side::M => s.push(i + n),
                        Side::Z => {}
                    }
                    next.push((node.child(items, side), s));
                }
            }
            out = next;
        }
        out
    }
}

impl Searched for ThreeLevel {
    fn dimension(&self) -> usize {
        self.p.len()
    }

    fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    fn seed_budget(&self) -> u64 {
        super::SEED_BUDGET_TWO_LEVEL
    }

    fn price_in(&self, lambda: &Array1<f64>, tol: f64, keep: usize, pass: &Pass) -> Pricing {
        let lam = lambda.to_vec();
        let suffix = super::halves::suffix_items(self.p.len(), tol, lam.iter().sum());
        let items = Items::new(&self.p, &lam, None, suffix);
        let crude = self.crude_bound(&lam);
        let chains = Chains::new(&items, self.b);
        let prefixes = self.prefixes(&items);
        let keep = keep.min(KEEP_CAP);
        let found = pass.run(
            tol,
            prefixes.len(),
            |k| {
                let (node, stack) = prefixes[k].clone();
                Search {
                    family: self,
                    items: &items,
                    tol,
                    keep,
                    frames: vec![Frame::Visit(node, true)],
                    checkpoint: ROUND,
                    stack,
                    found: Found::new(keep),
                    crude,
                    chains: &chains,
                }
            },
            None,
        );
        let results = found.into_iter().map(|f| (0, f)).collect();
        let n = self.p.len();
        let mut best = collect(results, tol, keep, |_, set| {
            let a: Vec<usize> = set.iter().copied().filter(|&x| x < n).collect();
            let m: Vec<usize> = set.iter().filter(|&&x| x >= n).map(|&x| x - n).collect();
            Some(self.utility.priced(self.ray(&a, &m)?, lambda))
        });
        best.max_reduced_cost = best.max_reduced_cost.min(crude.max(tol));
        best
    }
}
