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

use super::pass::{Pass, ROUND, Resumable};
use super::segment::{Interval, Smooth, convex_enclosure, segment_max};
use super::staircase::concave_at_most_zero;
use super::{BOUND_TOL, Found, Frame, Items, KEEP_CAP, Searched, SliceUtility};
use super::{Lattice, collect, column_value};
use crate::colgen::oracle::Pricing;
use crate::objective::utility::{Separable, Utility};
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
struct Node {
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
struct Search<'a> {
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

/// A fractional-knapsack chain: cumulative masses `w` (from 0, strictly
/// increasing) and dual masses `l`, in order of `lambda_x / p_x`. It starts at
/// the negative dual values of the items of mass 0 (which every completion may
/// take at no weight) and leaves those items out after that ([`Chains::new`]).
#[derive(Clone, Copy)]
struct Chain<'a> {
    w: &'a [f64],
    l: &'a [f64],
}

impl Chain<'_> {
    /// Its total mass.
    fn total(&self) -> f64 {
        self.w[self.w.len() - 1]
    }

    /// The least dual mass at mass x (clamped to the chain).
    fn at(&self, x: f64) -> f64 {
        let last = self.w.len() - 1;
        if last == 0 {
            return self.l[0];
        }
        let k = self.w.partition_point(|&c| c < x).clamp(1, last);
        let (w0, w1) = (self.w[k - 1], self.w[k]);
        let t = if w1 > w0 {
            ((x - w0) / (w1 - w0)).clamp(0.0, 1.0)
        } else {
            1.0
        };
        self.l[k - 1] + t * (self.l[k] - self.l[k - 1])
    }

    /// Its slopes over `[x1, x2]`: from the segment reaching x1 to the segment
    /// leaving x2 (the slopes increase along the chain).
    fn slopes(&self, x1: f64, x2: f64) -> Interval {
        let last = self.w.len() - 1;
        if last == 0 {
            return Interval::point(0.0);
        }
        let slope = |k: usize| {
            let k = k.clamp(1, last);
            let dw = self.w[k] - self.w[k - 1];
            if dw > 0.0 {
                (self.l[k] - self.l[k - 1]) / dw
            } else {
                0.0
            }
        };
        let k1 = self.w.partition_point(|&c| c < x1);
        let k2 = self.w.partition_point(|&c| c <= x2);
        Interval::between(slope(k1), slope(k2))
    }

    /// Its range over `[0, x]` (convex: its least value at a vertex).
    fn range(&self, x: f64) -> Interval {
        let end = self.at(x);
        let (mut lo, mut hi) = (end.min(self.l[0]), end.max(self.l[0]));
        for k in 1..self.w.len() {
            if self.w[k] >= x {
                break;
            }
            lo = lo.min(self.l[k]);
            hi = hi.max(self.l[k]);
        }
        Interval { lo, hi }
    }
}

/// The chains of the items from each depth on: of all of them (for the
/// support B), and of those lighter than `b` (only they fit in the top set A).
struct Chains {
    all: Vec<(Vec<f64>, Vec<f64>)>,
    light: Vec<(Vec<f64>, Vec<f64>)>,
}

impl Chains {
    /// The chains of `items`; items of mass 0 lead the chain when their dual
    /// value is negative ([`super::ratio`]) and are folded into its start:
    /// steps at no weight had read the chain at 0 as the first step's dual
    /// mass, not the least, and its slopes there as 0, so a bound could fall
    /// below the reduced cost of a completion.
    fn new(items: &Items, b: f64) -> Self {
        let build = |depth: usize, fits: &dyn Fn(f64) -> bool| {
            let mut chain = items.chain(depth).filter(|&i| fits(items.p[i])).peekable();
            let mut start = 0.0;
            while let Some(i) = chain.next_if(|&i| items.p[i] <= 0.0) {
                start += items.lambda[i].min(0.0);
            }
            let (mut w, mut l) = (vec![0.0], vec![start]);
            for i in chain.filter(|&i| items.p[i] > 0.0) {
                w.push(w[w.len() - 1] + items.p[i]);
                l.push(l[l.len() - 1] + items.lambda[i]);
            }
            (w, l)
        };
        let n = items.len();
        Chains {
            all: (0..=n).map(|d| build(d, &|_| true)).collect(),
            light: (0..=n).map(|d| build(d, &|p| p < b)).collect(),
        }
    }

    fn at(list: &[(Vec<f64>, Vec<f64>)], depth: usize) -> Chain<'_> {
        let (w, l) = &list[depth];
        Chain { w, l }
    }
}

/// The bound of one node against a threshold (module docs).
struct Bound<'a> {
    family: &'a ThreeLevel,
    node: &'a Node,
    theta: f64,
    /// The free items' chain (for the support) and that of the free items
    /// lighter than b (for the top set).
    all: Chain<'a>,
    light: Chain<'a>,
    /// Most mass the free items can add to A.
    wa_max: f64,
    /// Largest masses A and M can reach.
    max_a: f64,
    max_m: f64,
}

impl<'a> Bound<'a> {
    fn new(search: &'a Search, node: &'a Node, theta: f64) -> Self {
        let (family, items) = (search.family, search.items);
        let all = Chains::at(&search.chains.all, node.depth);
        let light = Chains::at(&search.chains.light, node.depth);
        let rest = items.suffix_max[node.depth];
        Bound {
            family,
            node,
            theta,
            wa_max: light.total().min(family.b - node.w).max(0.0),
            max_a: node.max_a.max(rest),
            max_m: node.max_m.max(rest),
            all,
            light,
        }
    }

    /// What the relaxed Q needs of a support mass `sm`: `(sm, E_B - 1, the
    /// support's dual mass floor)`.
    fn at_support(&self, sm: f64) -> (f64, f64, f64) {
        let f = self.family;
        (
            sm,
            f.e * (sm - f.b) - 1.0,
            self.node.lb + self.all.at(sm - self.node.s),
        )
    }

    /// The relaxed Q at top mass w (whose added dual mass floor is `phi_a`)
    /// and the support of [`Self::at_support`].
    fn q(&self, w: f64, phi_a: f64, (sm, eb1, floor): (f64, f64, f64)) -> f64 {
        let s = sm + eb1 * w;
        self.family.m(sm, w, self.max_a, self.max_m)
            - self.theta * s
            - floor
            - eb1 * (self.node.la + phi_a)
    }

    /// An enclosure of `dQ/dS` over `S in [s1, s2]` and every W of the node.
    fn dq_ds(&self, s1: f64, s2: f64) -> Option<Interval> {
        let (f, node) = (self.family, self.node);
        let wi = Interval {
            lo: node.w,
            hi: node.w + self.wa_max,
        };
        let theta_term = Interval {
            lo: 1.0 + f.e * wi.lo,
            hi: 1.0 + f.e * wi.hi,
        }
        .scale(self.theta);
        let chain = self.all.slopes(s1 - node.s, s2 - node.s);
        let la = self.light.range(self.wa_max).add(Interval::point(node.la));
        let terms = [
            self.dm_ds(s1, s2, wi)?,
            theta_term.scale(-1.0),
            chain.scale(-1.0),
            la.scale(-f.e),
        ];
        let size: f64 = terms.iter().map(|t| t.lo.abs().max(t.hi.abs())).sum();
        let total = terms.iter().fold(Interval::point(0.0), |s, t| s.add(*t));
        let total = total.widen(16.0 * f64::EPSILON * size);
        total.is_finite().then_some(total)
    }

    /// An enclosure of `dm/dS` over the box `[s1, s2] x wi`: for an
    /// f-information `s' (W f(t1) + (S - W) f(t2) + (1 - S) f(0)) +
    /// s (W f'(t1) t1' + f(t2) + (S - W) f'(t2) t2' - f(0))` with `t1 = E_B / s`
    /// (increasing in S, decreasing in W), `t2 = 1 / s`, `s' = 1 + E W`,
    /// `t1' = E (b - W) / s^2`, `t2' = -s' / s^2`.
    fn dm_ds(&self, s1: f64, s2: f64, wi: Interval) -> Option<Interval> {
        let (e, b) = (self.family.e, self.family.b);
        let Separable::FInformation(f) = self.family.kind else {
            return Some(Interval {
                lo: 0.0,
                hi: e * self.max_a,
            });
        };
        let (eb1, eb2) = (e * (s1 - b), e * (s2 - b));
        let (s_lo, s_hi) = (s1 + (eb1 - 1.0) * wi.lo, s2 + (eb2 - 1.0) * wi.hi);
        let t1 = Interval {
            lo: eb1 / (s1 + (eb1 - 1.0) * wi.hi),
            hi: eb2 / (s2 + (eb2 - 1.0) * wi.lo),
        };
        let t2 = Interval {
            lo: 1.0 / s_hi,
            hi: 1.0 / s_lo,
        };
        let sp = Interval {
            lo: 1.0 + e * wi.lo,
            hi: 1.0 + e * wi.hi,
        };
        let t1p = Interval::between(
            e * (b - wi.hi) / (s_hi * s_hi),
            e * (b - wi.lo) / (s_lo * s_lo),
        );
        let t2p = Interval::between(-sp.hi / (s_lo * s_lo), -sp.lo / (s_hi * s_hi));
        let (d1, f1) = convex_enclosure(f, t1.lo, t1.hi)?;
        let (d2, f2) = convex_enclosure(f, t2.lo, t2.hi)?;
        let f0 = Interval::point(f(0.0));
        let s = Interval { lo: s_lo, hi: s_hi };
        let s_minus_w = Interval::between(s1 - wi.hi, s2 - wi.lo);
        let one_minus_s = Interval::between(1.0 - s2, 1.0 - s1);
        let values = wi.mul(f1).add(s_minus_w.mul(f2)).add(one_minus_s.mul(f0));
        let slopes = wi
            .mul(d1)
            .mul(t1p)
            .add(f2)
            .add(s_minus_w.mul(d2).mul(t2p))
            .sub(f0);
        Some(sp.mul(values).add(s.mul(slopes)))
    }

    /// An enclosure of `dQ/dW` at support mass `sm` over `W in [a, b]`, where
    /// the top set's chain has slopes `chain`: `dm/dW - (E_B - 1) (theta +
    /// chain)` with, for an f-information (`k = E_B - 1`, `t1 = E_B / s`,
    /// `t2 = 1 / s`), `dm/dW = k (W f(t1) + (S - W) f(t2) + (1 - S) f(0)) +
    /// s (f(t1) - f(t2)) - k (W t1 f'(t1) + (S - W) t2 f'(t2))`.
    fn dq_dw(
        &self,
        (sm, eb1, _): (f64, f64, f64),
        w: Interval,
        chain: Interval,
    ) -> Option<Interval> {
        let dm = match self.family.kind {
            Separable::MaxWeighted => Interval::point(0.0),
            Separable::FInformation(f) => {
                let s = Interval {
                    lo: sm + eb1 * w.lo,
                    hi: sm + eb1 * w.hi,
                };
                let eb = eb1 + 1.0;
                let t1 = Interval {
                    lo: eb / s.hi,
                    hi: eb / s.lo,
                };
                let t2 = Interval {
                    lo: 1.0 / s.hi,
                    hi: 1.0 / s.lo,
                };
                let (d1, f1) = convex_enclosure(f, t1.lo, t1.hi)?;
                let (d2, f2) = convex_enclosure(f, t2.lo, t2.hi)?;
                let rest = Interval::between(sm - w.lo, sm - w.hi);
                let g = w
                    .mul(f1)
                    .add(rest.mul(f2))
                    .add(Interval::point((1.0 - sm) * f(0.0)));
                let tilt = w.mul(t1).mul(d1).add(rest.mul(t2).mul(d2));
                g.sub(tilt).scale(eb1).add(s.mul(f1.sub(f2)))
            }
        };
        let terms = [dm, chain.add(Interval::point(self.theta)).scale(-eb1)];
        let size: f64 = terms.iter().map(|t| t.lo.abs().max(t.hi.abs())).sum();
        let total = terms[0].add(terms[1]).widen(16.0 * f64::EPSILON * size);
        total.is_finite().then_some(total)
    }

    /// Whether Q is at most 0 over `S in [s1, s2]` (proven).
    fn range_at_most_zero(&self, s1: f64, s2: f64) -> bool {
        let Some(d) = self.dq_ds(s1, s2) else {
            return false;
        };
        let w0 = self.node.w;
        let width = s2 - s1;
        let (end1, end2) = (self.at_support(s1), self.at_support(s2));
        // h = c1 q(end1) + c2 q(end2) + c0 with c1, c2 >= 0.
        let (c1, c2, c0) = if d.lo >= 0.0 {
            (0.0, 1.0, 0.0)
        } else if d.hi <= 0.0 {
            (1.0, 0.0, 0.0)
        } else {
            // The meeting point of the lines through both ends.
            let span = d.hi - d.lo;
            (-d.lo / span, d.hi / span, -d.hi * d.lo * width / span)
        };
        let h = |w: f64| {
            let phi_a = self.light.at(w - w0);
            let q = |c: f64, end| {
                if c == 0.0 {
                    0.0
                } else {
                    c * self.q(w, phi_a, end)
                }
            };
            q(c1, end1) + q(c2, end2) + c0
        };
        let mut xs = vec![w0];
        xs.extend(
            self.light
                .w
                .iter()
                .filter(|&&c| c > 0.0 && c < self.wa_max)
                .map(|&c| w0 + c),
        );
        if self.wa_max > 0.0 {
            xs.push(w0 + self.wa_max);
        }
        if self.family.concave {
            return concave_at_most_zero(&h, &xs);
        }
        let slope = |a: f64, b: f64| {
            let (w, chain) = (Interval { lo: a, hi: b }, self.light.slopes(a - w0, b - w0));
            let part = |c: f64, end| match c {
                0.0 => Some(Interval::point(0.0)),
                _ => Some(self.dq_dw(end, w, chain)?.scale(c)),
            };
            Some(part(c1, end1)?.add(part(c2, end2)?))
        };
        segments_at_most_zero(&Along { h, slope }, &xs)
    }

    /// Whether no completion of the node beats the threshold (proven).
    fn prunable(&self) -> bool {
        if !self.theta.is_finite() {
            return false;
        }
        let f = self.family;
        let free = self.all.total();
        let range = (
            self.node.s.max(f.b + 1.0 / f.e),
            (self.node.s + free).min(1.0),
        );
        // Near the optimum of a mutual-information design the reduced cost
        // rises toward `S = b + 1/E` (E_B = 1), which sets on a lattice miss.
        let (s_lo, s_hi) = f.lattice.map_or(range, |l| l.narrow(range));
        s_lo > s_hi || self.split(s_lo, s_hi, 0)
    }

    fn split(&self, s1: f64, s2: f64, depth: u32) -> bool {
        if self.range_at_most_zero(s1, s2) {
            return true;
        }
        if depth >= S_SPLITS || s2 - s1 <= 1e-12 {
            return false;
        }
        let mid = 0.5 * (s1 + s2);
        self.split(s1, mid, depth + 1) && self.split(mid, s2, depth + 1)
    }
}

/// A function along W given by its value and a slope enclosure.
struct Along<H, D> {
    h: H,
    slope: D,
}

impl<H: Fn(f64) -> f64, D: Fn(f64, f64) -> Option<Interval>> Smooth for Along<H, D> {
    fn value(&self, w: f64) -> f64 {
        (self.h)(w)
    }

    fn slope(&self, a: f64, b: f64) -> Option<Interval> {
        (self.slope)(a, b)
    }
}

/// Whether g is below 0 on `[xs[0], xs[last]]` (proven), segment by segment
/// from the end values and the slope enclosures, each halved up to
/// [`W_SPLITS`] times; a margin of `1e-13 (1 + max |g|)` covers rounding.
fn segments_at_most_zero(g: &impl Smooth, xs: &[f64]) -> bool {
    let ys: Vec<f64> = xs.iter().map(|&x| g.value(x)).collect();
    let margin = 1e-13 * (1.0 + ys.iter().fold(0.0f64, |m, y| m.max(y.abs())));
    if ys.iter().any(|&y| y > -margin) {
        return false;
    }
    (1..xs.len()).all(|i| {
        let (a, b) = ((xs[i - 1], ys[i - 1]), (xs[i], ys[i]));
        segment_max(g, a, b, -margin, W_SPLITS).is_some_and(|m| m <= -margin)
    })
}

impl ThreeLevel {
    /// A bound on every member's reduced cost: on the slice every coordinate
    /// is in `[0, E]`, so `lambda . v >= min lambda_x / p_x` over the inputs
    /// of mass plus `E min(lambda_x, 0)` for each input of mass 0 (its ratio
    /// would be `-inf` at a dual of `-1e-17`, and every open node's bound
    /// with it).
    fn crude_bound(&self, lambda: &[f64]) -> f64 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FInformation;
    use crate::colgen::oracle::RayOracle;

    /// A dual of `-1e-17` at an input of mass 0 leaves the crude bound finite
    /// (its ratio `lambda_x / p_x` would be `-inf`), and it still bounds the
    /// family's largest reduced cost.
    #[test]
    fn the_crude_bound_is_finite_at_masses_0() {
        let p = [0.4, 0.0, 0.3, 0.2, 0.0, 0.1];
        let family = ThreeLevel::new(&p, 1f64.exp(), 0.1, &FInformation::mutual_information())
            .expect("mutual information is separable");
        let lambda = Array1::from(vec![0.35, -1e-17, 0.3, 0.2, 2e-17, 0.1]);
        let crude = family.crude_bound(lambda.as_slice().unwrap());
        assert!(crude.is_finite(), "{crude}");
        let priced = family.price(&lambda, f64::INFINITY, 0);
        assert!(priced.max_reduced_cost.is_finite());
        assert!(
            priced.max_reduced_cost <= crude,
            "{} > {crude}",
            priced.max_reduced_cost
        );
    }
}
