//! The bound of a three-level search's node (module docs of the parent): the
//! fractional-knapsack chains of the free items, and the concave and
//! segment-wise tests that a node's completions stay at or below a threshold.

use super::*;

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
pub(super) struct Chains {
    all: Vec<(Vec<f64>, Vec<f64>)>,
    light: Vec<(Vec<f64>, Vec<f64>)>,
}

impl Chains {
    /// The chains of `items`; items of mass 0 lead the chain when their dual
    /// value is negative ([`super::ratio`]) and are folded into its start:
    /// steps at no weight had read the chain at 0 as the first step's dual
    /// mass, not the least, and its slopes there as 0, so a bound could fall
    /// below the reduced cost of a completion.
    pub(super) fn new(items: &Items, b: f64) -> Self {
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
pub(super) struct Bound<'a> {
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
    pub(super) fn new(search: &'a Search, node: &'a Node, theta: f64) -> Self {
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
        // Sized once: this runs at every node, and regrowing it cost more than
        // the test (under threads, in calls to the allocator's system side).
        let mut xs = Vec::with_capacity(self.light.w.len() + 2);
        xs.push(w0);
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
    pub(super) fn prunable(&self) -> bool {
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
