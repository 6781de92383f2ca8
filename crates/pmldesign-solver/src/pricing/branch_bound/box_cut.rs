//! The box-cut family (docs/theory.md §4b): the vertices of
//! `{c : lo <= c_x <= hi, p . c = 1}`, a set U at `hi`, one free coordinate f,
//! the rest at `lo`.

use super::*;
use crate::colgen::oracle::Pricing;
use crate::objective::utility::{Separable, Utility};

/// The box-cut family for one free coordinate f.
#[derive(Clone, Copy)]
struct BoxCutMember<'a> {
    cut: &'a BoxCut,
    p_f: f64,
    lambda_f: f64,
    lambda_sum: f64,
    /// The weights a member can have ([`BoxCut::member`]).
    window: (f64, f64),
}

impl BoxCutMember<'_> {
    /// The free coordinate's value when the set at `hi` weighs w, snapped to an
    /// end of `[lo, hi]` within rounding (as [`BoxCut::ray`] builds the column):
    /// f can be infinitely steep there (Hellinger at 0).
    fn free_value(&self, w: f64) -> f64 {
        let (t, at) = self.cut.free_value(w, self.p_f);
        match at {
            End::Lo => self.cut.lo,
            End::Hi => self.cut.hi,
            End::Inside => t,
        }
    }

    /// The reduced cost as a function of (W, L), given the largest masses at `hi`
    /// and at `lo` (docs/theory.md): convex in W along any line, decreasing in L.
    fn cost(&self, w: f64, l: f64, max_hi: f64, max_lo: f64) -> f64 {
        self.at_weight(w, max_hi, max_lo) - (self.cut.hi - self.cut.lo) * l
    }

    /// The part of [`Self::cost`] that depends on W alone (the dual mass at
    /// `hi` enters with the factor `hi - lo`).
    fn at_weight(&self, w: f64, max_hi: f64, max_lo: f64) -> f64 {
        let c = self.cut;
        let t = self.free_value(w);
        let dual = c.lo * self.lambda_sum + (t - c.lo) * self.lambda_f;
        let mu = match c.kind {
            Separable::FInformation(f) => {
                let (f_lo, f_hi) = c.f_ends;
                f_lo + (f_hi - f_lo) * w + self.p_f * (f(t) - f_lo)
            }
            Separable::MaxWeighted => (c.hi * max_hi).max(c.lo * max_lo).max(t * self.p_f),
        };
        mu - dual
    }
}

impl Family for BoxCutMember<'_> {
    fn window(&self) -> (f64, f64) {
        self.window
    }

    fn reduced_cost(&self, node: &Node, taken: usize, n: usize, max_out: f64) -> Option<f64> {
        let (w_lo, w_hi) = self.window();
        if node.w < w_lo - BOUND_TOL || node.w > w_hi + BOUND_TOL {
            return None;
        }
        // [E] Prop 2's family Z needs a zero (n items besides f, all taken: none).
        if self.cut.needs_zero && taken == n {
            return None;
        }
        Some(self.cost(node.w, node.l, node.max_in, max_out))
    }

    fn box_bound(&self, w: (f64, f64), floor: DualFloor, max_in: f64, max_out: f64, _: f64) -> f64 {
        // Decreasing in L and convex in W along each of the two floors: the
        // smaller of their largest values at the ends of the range.
        let (w_lo, w_hi) = self.window();
        let (a, b) = (w.0.max(w_lo), w.1.min(w_hi));
        if a > b {
            return f64::NEG_INFINITY;
        }
        let k = self.cut.hi - self.cut.lo;
        let (ga, gb) = (
            self.at_weight(a, max_in, max_out),
            self.at_weight(b, max_in, max_out),
        );
        let flat = (ga - k * floor.l_min).max(gb - k * floor.l_min);
        let sloped = |x: f64, g: f64| g - k * (floor.slope * x + floor.offset);
        flat.min(sloped(a, ga).max(sloped(b, gb)))
    }

    fn bound(&self, node: &Node, items: &Items, _threshold: f64) -> f64 {
        let (w_lo, w_hi) = self.window();
        let rest = items.suffix_max[node.depth];
        let (max_hi, max_lo) = (node.max_in.max(rest), node.max_out.max(rest));
        let g = |w: f64, l: f64| self.cost(w, l, max_hi, max_lo);
        let (mut w0, mut l0) = (node.w, node.l);
        let mut best = if w0 >= w_lo {
            g(w0, l0)
        } else {
            f64::NEG_INFINITY
        };
        for i in items.chain(node.depth) {
            let (p, lam) = (items.p[i], items.lambda[i]);
            let (w1, l1) = (w0 + p, l0 + lam);
            let at = |w: f64| l0 + lam * (w - w0) / p;
            if w0 < w_lo && w1 >= w_lo {
                best = best.max(g(w_lo, at(w_lo)));
            }
            if w1 > w_hi {
                if w0 < w_hi {
                    best = best.max(g(w_hi, at(w_hi)));
                }
                break;
            }
            if w1 >= w_lo {
                best = best.max(g(w1, l1));
            }
            (w0, l0) = (w1, l1);
        }
        best
    }
}

/// Where a box cut's free coordinate sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Lo,
    Inside,
    Hi,
}

/// The vertices of `{c : lo <= c_x <= hi, p . c = 1}` as a pricing oracle: a set U
/// at `hi`, one free coordinate, the rest at `lo` (docs/theory.md).
pub struct BoxCut {
    pub(super) p: Vec<f64>,
    lo: f64,
    hi: f64,
    /// Members must keep a coordinate at `lo` (\[E\] Prop 2's family Z).
    needs_zero: bool,
    kind: Separable,
    /// `(f(lo), f(hi))` for an f-information (evaluated once: pricing's hot path).
    f_ends: (f64, f64),
    utility: SliceUtility,
    /// The common unit of the masses, if any: it narrows every member's window.
    lattice: Option<Lattice>,
    deadline: Option<Instant>,
}

impl BoxCut {
    /// The box cut of `p` between `lo < hi` (finite), priced for `utility`, whose
    /// separable form is `kind`.
    pub fn new(
        p: &[f64],
        lo: f64,
        hi: f64,
        needs_zero: bool,
        utility: &dyn Utility,
    ) -> Option<Self> {
        let kind = utility.separable()?;
        if !(hi.is_finite() && hi > lo && lo >= 0.0) {
            return None;
        }
        Some(BoxCut {
            p: p.to_vec(),
            lo,
            hi,
            needs_zero,
            kind,
            f_ends: match kind {
                Separable::FInformation(f) => (f(lo), f(hi)),
                Separable::MaxWeighted => (0.0, 0.0),
            },
            utility: column_value(p, kind),
            lattice: Lattice::of(p),
            deadline: None,
        })
    }

    /// The member of free coordinate f for duals `lambda` (summing to
    /// `lambda_sum`), its window of weights narrowed to the lattice if any.
    fn member(&self, f: usize, lambda: &[f64], lambda_sum: f64) -> BoxCutMember<'_> {
        let top = (1.0 - self.lo) / (self.hi - self.lo);
        let window = ((top - self.p[f]).max(0.0), top);
        BoxCutMember {
            cut: self,
            p_f: self.p[f],
            lambda_f: lambda[f],
            lambda_sum,
            window: self.lattice.map_or(window, |l| l.narrow(window)),
        }
    }

    /// Stops every pricing pass at `deadline` (its bound then covers the open nodes).
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    /// The free coordinate's value when the set at `hi` weighs w, and whether
    /// it is at an end of `[lo, hi]` within the rounding of its terms (relative
    /// to their size, not to `hi`, which can be huge at large eps).
    fn free_value(&self, w: f64, p_f: f64) -> (f64, End) {
        let t = self.lo + (1.0 - self.lo - (self.hi - self.lo) * w) / p_f;
        let tol = BOUND_TOL * (self.lo + (1.0 + self.lo + (self.hi - self.lo) * w) / p_f);
        let at = if t <= self.lo + tol {
            End::Lo
        } else if t >= self.hi - tol {
            End::Hi
        } else {
            End::Inside
        };
        (t, at)
    }

    /// The ray of set `u` with free coordinate f, or `None` if it is no vertex.
    ///
    /// A free coordinate within rounding of an end is put at that end, and the
    /// ray normalised exactly, unless that would raise the set at `hi` above
    /// `hi` (a measured level above the target, by up to about 1e-12: the
    /// design then had to mix its columns, at a cost of up to 1e-8 in mutual
    /// information). Then the ray keeps every coordinate in `[lo, hi]`: f stays
    /// free just above `lo`, or, at `hi`, the rounding moves to the heaviest
    /// coordinate at `lo` (a neighbouring vertex of the same slice).
    pub fn ray(&self, u: &[usize], f: usize) -> Option<Array1<f64>> {
        let (lo, hi) = (self.lo, self.hi);
        let w: f64 = u.iter().map(|&x| self.p[x]).sum();
        let (t, at) = self.free_value(w, self.p[f]);
        let raised = |w: f64| (1.0 - lo * (1.0 - w)) / w;
        // U and f together, at the level that normalises them.
        let (w_uf, top_uf) = (w + self.p[f], raised(w + self.p[f]));
        let mut v = Array1::from_elem(self.p.len(), lo);
        match at {
            End::Inside => {}
            End::Lo if u.is_empty() => return None,
            End::Lo if raised(w) <= hi => {
                // U alone, at the level that normalises it.
                u.iter().for_each(|&x| v[x] = raised(w));
                return Some(v);
            }
            End::Lo => {}
            End::Hi if top_uf <= hi => {
                u.iter().chain([&f]).for_each(|&x| v[x] = top_uf);
                return Some(v);
            }
            End::Hi => {
                u.iter().chain([&f]).for_each(|&x| v[x] = hi);
                let g = (0..v.len())
                    .filter(|x| *x != f && !u.contains(x))
                    .max_by(|&a, &b| self.p[a].total_cmp(&self.p[b]))?;
                v[g] = lo + (1.0 - lo - (hi - lo) * w_uf) / self.p[g];
                return Some(v);
            }
        }
        u.iter().for_each(|&x| v[x] = hi);
        v[f] = t.clamp(lo, hi);
        Some(v)
    }
}

impl Searched for BoxCut {
    fn dimension(&self) -> usize {
        self.p.len()
    }

    fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    fn price_in(&self, lambda: &Array1<f64>, tol: f64, keep: usize, pass: &Pass) -> Pricing {
        let lambda = lambda.to_vec();
        let lambda_sum: f64 = lambda.iter().sum();
        let n = self.p.len();
        let suffix = halves::suffix_items(n - 1, tol, lambda_sum);
        // A member whose free coordinate is heavier than the lightest `suffix`
        // inputs meets those in the middle: one tree serves them all.
        let all = Items::new(&self.p, &lambda, None, suffix);
        let shared = Suffix::new(&all);
        // A free coordinate of mass 0 is not free: the slice leaves it at
        // an end, and that vertex (U at `hi` weighing `W*`) is the end of the
        // window of every free coordinate of positive mass outside U. Its
        // member is not searched (its free value was `0 / 0`).
        let massless = |f: usize| self.p[f] <= 0.0;
        let make = |f: usize| {
            let items = Items::new(&self.p, &lambda, Some(f), suffix);
            let member = self.member(f, &lambda, lambda_sum);
            let tree = if all.index[all.start..].contains(&f) && !massless(f) {
                Cow::Owned(Suffix::new(&items))
            } else {
                Cow::Borrowed(&shared)
            };
            let mut job = Job::root(member, Cow::Owned(items), tree, tol, keep);
            if massless(f) {
                job.search.frames.clear();
            }
            job
        };
        // Every member's root bound over the chain of all inputs, f among them:
        // their zonotope holds the member's (a lower floor of dual mass), and
        // the heaviest mass bounds the member's (docs/theory.md §4b).
        let unstarted = |f: usize| {
            if massless(f) {
                return Found::unstarted(keep, f64::NEG_INFINITY);
            }
            let member = self.member(f, &lambda, lambda_sum);
            Found::unstarted(keep, member.bound(&Node::root(), &all, tol))
        };
        let found = pass.run(tol, n, make, Some(&unstarted));
        let results = found.into_iter().enumerate().collect();
        let lambda = Array1::from(lambda);
        collect(results, tol, keep, |f, set| {
            Some(self.utility.priced(self.ray(set, f)?, &lambda))
        })
    }
}
