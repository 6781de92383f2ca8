//! Pricing of a quadratic utility `mu(v) = v^T C v / (p . v)` (C positive
//! semidefinite: the linearisation of a design for estimation) over the rays
//! of the eps-PML cone of a known prior or of an l1 ball within Proposition 2,
//! of the eps-LDP cone, and of the eps-PMC, eps-LIP and ALIP cones of a known
//! prior of full support, at any N
//! (docs/theory.md §13, "Pricing the linearisation past enumeration").
//!
//! Entering rays are found by ascent: `v^T C v - lambda . v` is convex on the
//! slice `p . v = 1`, so from a ray v the ray maximising its gradient
//! `2 C v - lambda` is at least as good; the ascent repeats until no ray
//! improves, from the rays the last pass found and from the rays of a few
//! fixed directions. The pass's bound comes from separable majorants
//! ([`relaxation`]), so the bound proves what it states whatever the ascent
//! finds.

pub(crate) mod flips;
pub(crate) mod relaxation;

use crate::colgen::oracle::{Column, PassControl, Pricing, RayOracle, TopK};
use ndarray::{Array1, Array2, ArrayView1};
use pmldesign_model::{ColumnCone, Notion};
use relaxation::{Majorant, box_tops, box_vertex, by_ratio, fill_box, knapsack_vertex};
use std::sync::Mutex;

/// Ascent steps from one start at most.
const ASCENT_STEPS: usize = 50;

/// Alternations of the gradient ascent and the flip search on LDP rays at
/// most ([`QuadraticRays::ascend`]).
const FLIP_ROUNDS: usize = 8;

/// Starts of a pass at effort 1 besides the last pass's rays.
const STARTS: usize = 16;

/// Rays of the last pass kept as starts of the next.
const WARM: usize = 32;

/// Passes of one LP that may return entering rays where its gap tolerance is
/// loose (above [`FINE_GAP`]): past them a pass returns only its bound, and the
/// LP ends with the best mechanism of its working set (a rule on the count, so
/// the result does not depend on the clock).
const ENTERING_PASSES: usize = 40;

/// Gap tolerances at or below which an LP's passes are not capped.
pub(crate) const FINE_GAP: f64 = 1e-6;

/// Work (`pieces x N`) of the LDP and ball bounds: their intervals of `p . b`
/// or of the minimum.
const LDP_BOUND_WORK: usize = 1 << 19;

/// The slice `p . v = 1` of the cones this pricing covers.
#[derive(Debug, Clone)]
enum Slice {
    /// eps-PML for a known prior: `0 <= v <= e`, `e = e^eps`.
    Pml { e: f64 },
    /// eps-LDP: `v = (1 + a b) / (1 + a p . b)`, `a = e^eps - 1`.
    Ldp { a: f64 },
    /// eps-PMC, eps-LIP and ALIP for a known prior of full support:
    /// `lo <= v <= hi`, `lo = e^-eps_l`, `hi_x` the smaller of `e^eps_u` and
    /// the most the slice leaves x, `(1 - lo (1 - p_x)) / p_x`.
    Box { lo: f64, hi: Array1<f64> },
    /// eps-PML of an l1 ball within Proposition 2: `max v <= e (1 + h min v)`,
    /// `e = e^eps'`, `h = beta / 2`; the union over m of the boxes
    /// `m <= v <= e (1 + h m)`.
    Ball { e: f64, h: f64 },
}

/// Levels of the minimum m the ascent tries on a ball's slice (`k / 32`).
const BALL_LEVELS: usize = 32;

/// The box of a density-bounded notion's slice for the known prior `p`
/// ([`Slice::Box`]); `None` without a lower level or where a mass is 0.
fn density_box(notion: &Notion, p: ArrayView1<f64>) -> Option<Slice> {
    let lo = (-notion.lower()?).exp();
    if p.iter().any(|&m| m <= 0.0) {
        return None;
    }
    let top = notion.upper().map_or(f64::INFINITY, f64::exp);
    Some(Slice::Box {
        lo,
        hi: box_tops(p, top, lo),
    })
}

/// The quadratic pricing of `mu(v) = v^T C v / (p . v)` over a cone's rays.
pub(crate) struct QuadraticRays {
    p: Array1<f64>,
    c: Array2<f64>,
    slice: Slice,
    majorants: Vec<Majorant>,
    warm: Mutex<Vec<Array1<f64>>>,
    passes: std::sync::atomic::AtomicUsize,
    entering_passes: usize,
}

impl QuadraticRays {
    /// The pricing over `cone`'s rays normalised by the reference prior `p`,
    /// where the cone is one this pricing covers (module docs), for an LP
    /// solved to the relative gap `gap` ([`ENTERING_PASSES`]).
    pub(crate) fn new(
        cone: &ColumnCone,
        p: ArrayView1<f64>,
        c: &Array2<f64>,
        gap: f64,
    ) -> Option<Self> {
        QuadraticRays::build(cone, p, c, (gap, true))
    }

    /// [`Self::new`], with the majorants where `bounded`.
    fn build(
        cone: &ColumnCone,
        p: ArrayView1<f64>,
        c: &Array2<f64>,
        (gap, bounded): (f64, bool),
    ) -> Option<Self> {
        if cone.normaliser().iter().zip(p.iter()).any(|(a, b)| a != b) {
            return None;
        }
        let slice = match cone {
            ColumnCone::PmlKnownPrior { epsilon, .. } => Slice::Pml { e: epsilon.exp() },
            ColumnCone::Notion {
                notion: Notion::Ldp { epsilon },
                ..
            } if *epsilon > 0.0 => Slice::Ldp {
                a: epsilon.exp_m1(),
            },
            ColumnCone::Notion { notion, priors, .. } if priors.len() == 1 => {
                density_box(notion, p)?
            }
            ColumnCone::PmlL1Ball { beta, .. } if cone.is_proposition_2() => Slice::Ball {
                e: cone.effective_exp_epsilon(),
                h: beta / 2.0,
            },
            _ => return None,
        };
        Some(QuadraticRays {
            p: p.to_owned(),
            c: c.clone(),
            slice,
            majorants: match bounded {
                true => Majorant::of(c, p),
                false => Vec::new(),
            },
            warm: Mutex::new(Vec::new()),
            passes: std::sync::atomic::AtomicUsize::new(0),
            entering_passes: match gap > FINE_GAP {
                true => ENTERING_PASSES,
                false => usize::MAX,
            },
        })
    }

    /// The pricing's ascents alone ([`Self::ascents`]): no majorants (two
    /// N x N eigenvalue problems), so any bound it states is infinite.
    pub(crate) fn ascending(
        cone: &ColumnCone,
        p: ArrayView1<f64>,
        c: &Array2<f64>,
    ) -> Option<Self> {
        QuadraticRays::build(cone, p, c, (1.0, false))
    }

    /// The ray maximising `g . v` over the slice.
    fn vertex(&self, g: ArrayView1<f64>) -> Array1<f64> {
        match &self.slice {
            Slice::Pml { e } => knapsack_vertex(self.p.view(), g, *e),
            Slice::Ldp { a } => ldp_vertex(self.p.view(), g, *a),
            Slice::Box { lo, hi } => box_vertex(self.p.view(), g, *lo, hi),
            Slice::Ball { e, h } => self.ball_vertex(g, *e, *h),
        }
    }

    /// The best of the box vertices ([`box_vertex`]) at the minima
    /// `m = k / 32` of a ball's slice: a ray of the slice, the best one up to
    /// the grid of m.
    fn ball_vertex(&self, g: ArrayView1<f64>, e: f64, h: f64) -> Array1<f64> {
        let p = self.p.view();
        let order = by_ratio(p, g);
        (0..=BALL_LEVELS)
            .map(|k| {
                let m = k as f64 / BALL_LEVELS as f64;
                let v = fill_box(&order, p, m, &box_tops(p, e * (1.0 + h * m), m));
                (g.dot(&v), v)
            })
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map_or_else(|| Array1::ones(p.len()), |(_, v)| v)
    }

    /// `(v^T C v - lambda . v, v^T C v, C v)`.
    fn reduced(&self, v: &Array1<f64>, lambda: &Array1<f64>) -> (f64, f64, Array1<f64>) {
        let cv = self.c.dot(v);
        let mu = v.dot(&cv);
        (mu - lambda.dot(v), mu, cv)
    }

    /// Ascent from `v` (module docs): the last ray reached and its reduced
    /// cost. On LDP rays the gradient's fixed points are searched further by
    /// single flips ([`flips`]), and the gradient resumes from what they find.
    fn ascend(&self, v: Array1<f64>, lambda: &Array1<f64>) -> (f64, Column) {
        let (mut rc, mut v, mut mu) = self.gradient_ascent(v, lambda);
        if let Slice::Ldp { a } = self.slice {
            for _ in 0..FLIP_ROUNDS {
                let Some(w) = flips::flip_search(&self.c, self.p.view(), lambda, (&v, a)) else {
                    break;
                };
                let (rc_w, w, mu_w) = self.gradient_ascent(w, lambda);
                if rc_w <= rc + 1e-14 * rc.abs().max(1.0) {
                    break;
                }
                (rc, v, mu) = (rc_w, w, mu_w);
            }
        }
        (
            rc,
            Column {
                vector: v,
                value: mu,
            },
        )
    }

    /// Steps to the best vertex of the linearisation from `v` while they raise
    /// the reduced cost: the last ray, its reduced cost and `v^T C v`.
    fn gradient_ascent(&self, mut v: Array1<f64>, lambda: &Array1<f64>) -> (f64, Array1<f64>, f64) {
        let (mut rc, mut mu, mut cv) = self.reduced(&v, lambda);
        for _ in 0..ASCENT_STEPS {
            let g = &cv * 2.0 - lambda;
            let w = self.vertex(g.view());
            let (rc_w, mu_w, cw) = self.reduced(&w, lambda);
            if rc_w <= rc + 1e-14 * rc.abs().max(1.0) {
                break;
            }
            (v, rc, mu, cv) = (w, rc_w, mu_w, cw);
        }
        (rc, v, mu)
    }

    /// Ascents from the rays of `count` random directions `u_x p_x` (u
    /// uniform on `[0, 1)`, from the stream `seed`: the inputs in a random
    /// order, whatever lambda): the distinct rays reached whose reduced cost
    /// under `lambda` is positive, best first. Each ascent is independent of
    /// the others, so the rays are the same at any thread count.
    pub(crate) fn ascents(
        &self,
        lambda: &Array1<f64>,
        count: usize,
        seed: u64,
    ) -> Vec<(f64, Array1<f64>)> {
        use rayon::prelude::*;
        let n = self.p.len();
        let mut state = seed | 1;
        let directions: Vec<Array1<f64>> = (0..count)
            .map(|_| Array1::from_shape_fn(n, |x| uniform(&mut state) * self.p[x]))
            .collect();
        let found: Vec<(f64, Column)> = directions
            .into_par_iter()
            .map(|g| self.ascend(self.vertex(g.view()), lambda))
            .collect();
        let mut seen: Vec<Vec<i64>> = Vec::new();
        let mut out: Vec<(f64, Array1<f64>)> = Vec::new();
        for (rc, column) in found {
            let key = crate::colgen::generation::key(&column.vector);
            if rc > 0.0 && rc.is_finite() && !seen.contains(&key) {
                seen.push(key);
                out.push((rc, column.vector));
            }
        }
        out.sort_by(|a, b| b.0.total_cmp(&a.0));
        out
    }

    /// The starts of a pass: the last pass's rays, then the rays of the
    /// directions `-lambda`, `diag C - lambda` and fixed pseudo-random ones.
    fn starts(&self, lambda: &Array1<f64>, count: usize) -> Vec<Array1<f64>> {
        let mut out: Vec<Array1<f64>> = self.warm.lock().map(|w| w.clone()).unwrap_or_default();
        let n = self.p.len();
        out.push(self.vertex((-lambda).view()));
        out.push(self.vertex((&self.c.diag() - lambda).view()));
        let scale = lambda.iter().fold(0.0f64, |m, x| m.max(x.abs())).max(1.0);
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..count {
            let g = Array1::from_shape_fn(n, |x| (uniform(&mut state) - 0.5) * scale - lambda[x]);
            out.push(self.vertex(g.view()));
        }
        out
    }

    /// The pass's certified bound on the largest reduced cost (`+inf` without
    /// a majorant).
    fn bound(&self, lambda: &Array1<f64>) -> f64 {
        let p = self.p.view();
        // Intervals of the LDP and ball bounds (`relaxation::best_first`).
        let pieces = (LDP_BOUND_WORK / p.len().max(1)).clamp(64, 2048);
        let one = |m: &Majorant| match &self.slice {
            Slice::Pml { e } => m.bound_pml(p, *e, lambda),
            Slice::Ldp { a } => m.bound_ldp(p, *a, lambda, pieces),
            Slice::Box { lo, hi } => m.bound_box(p, *lo, hi, lambda),
            Slice::Ball { e, h } => m.bound_ball(p, (*e, *h), lambda, pieces),
        };
        self.majorants.iter().map(one).fold(f64::INFINITY, f64::min)
    }
}

/// The next number of a xorshift stream, uniform on `[0, 1)`.
fn uniform(state: &mut u64) -> f64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state >> 11) as f64 / (1u64 << 53) as f64
}

/// `max g . v` over the LDP rays `v = (1 + a b) / (1 + a p . b)`: the best
/// prefix of the inputs in order of `g / p` (a ratio of linear forms in b is
/// maximised by a threshold on `g_x / p_x`), inputs of mass 0 first where
/// `g > 0` and last otherwise.
fn ldp_vertex(p: ArrayView1<f64>, g: ArrayView1<f64>, a: f64) -> Array1<f64> {
    let n = p.len();
    let key = |x: usize| match p[x] > 0.0 {
        true => g[x] / p[x],
        false if g[x] > 0.0 => f64::INFINITY,
        false => f64::NEG_INFINITY,
    };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| key(y).total_cmp(&key(x)).then(x.cmp(&y)));
    let total = g.sum();
    let (mut num, mut den) = (total, 1.0);
    let (mut best, mut best_len) = (num / den, 0);
    for (i, &x) in order.iter().enumerate() {
        num += a * g[x];
        den += a * p[x];
        if num / den > best {
            (best, best_len) = (num / den, i + 1);
        }
    }
    let mut v = Array1::ones(n);
    for &x in &order[..best_len] {
        v[x] = 1.0 + a;
    }
    let mass = p.dot(&v);
    v / mass
}

impl RayOracle for QuadraticRays {
    fn dimension(&self) -> usize {
        self.p.len()
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
        use rayon::prelude::*;
        let count = STARTS * usize::try_from(control.effort.min(4)).unwrap_or(1);
        let starts = self.starts(lambda, count);
        let priced = starts.len() as u64;
        let found: Vec<(f64, Column)> = starts
            .into_par_iter()
            .map(|v| match control.stop() {
                true => (
                    f64::NEG_INFINITY,
                    Column {
                        value: 0.0,
                        vector: v,
                    },
                ),
                false => self.ascend(v, lambda),
            })
            .collect();
        let mut top = TopK::new(keep.max(WARM));
        let mut seen: Vec<Vec<i64>> = Vec::new();
        let mut best = f64::NEG_INFINITY;
        for (rc, column) in found {
            best = best.max(rc);
            let key = crate::colgen::generation::key(&column.vector);
            if rc.is_finite() && !seen.contains(&key) {
                seen.push(key);
                top.push(rc, column);
            }
        }
        let ranked = top.into_sorted();
        if let Ok(mut w) = self.warm.lock() {
            *w = ranked
                .iter()
                .take(WARM)
                .map(|(_, c)| c.vector.clone())
                .collect();
        }
        let pass = self
            .passes
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let entering: Vec<(f64, Column)> = ranked
            .into_iter()
            .filter(|(rc, _)| *rc > tol && pass < self.entering_passes)
            .take(keep)
            .collect();
        Pricing {
            max_reduced_cost: self.bound(lambda).max(best),
            entering,
            priced,
        }
    }
}
