//! Heuristic pricing by sets of exact mass (docs/theory.md §4e). Under eps-PML
//! for a known prior p, the column `1_S / p(S)` is a ray of the cone whenever
//! `p(S) >= t = e^-eps`, and every input of S then has information density
//! `ln(1 / p(S))`: with `p(S)` within a factor `1 + tol` of t, within `tol` of
//! eps. A fractional exact cover by such sets has mutual information within
//! `tol` of eps, the a-priori bound ([T] Prop. 5.35), so the master certifies
//! itself against that bound without a proof by branch and bound. Under
//! eps-LDP the staircase on a set S of mass near the best top mass `P*` of
//! §4d is worth nearly the a-priori bound per unit, and a fractional cover
//! of the inputs, each `P*` of the time, by such sets reaches it the same way.
//!
//! For a dual lambda, each candidate fills a set greedily by increasing
//! `lambda_x / p_x` (perturbed differently per candidate), then brings its mass
//! into the target window by one move or two disjoint moves (an input added,
//! removed, or swapped), found by a meet-in-the-middle search over sorted moves.
//! The sets of positive reduced cost enter; when none does, the pass is left to
//! the exact oracle, whose bound is then the pass's. A pass that returns sets
//! proves no bound (its `max_reduced_cost` is infinite), so the loop's bound is
//! always one the exact oracle or the a-priori bound certified. Only the
//! loop's passes (`price_with`) try sets; `price`, which bounds a dual, is the
//! exact oracle's.

use crate::colgen::oracle::{Column, PassControl, Pricing, RayOracle};
use crate::objective::utility::Separable;
use crate::pricing::branch_bound::{SliceUtility, column_value as slice_utility};
use ndarray::Array1;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Candidate sets built per pass (at most, and at most N / 2).
const CANDIDATES: usize = 256;
/// Moves sampled for the two-move search, at first and at most (doubled
/// between): all of them when there are fewer.
const MOVES_FIRST: usize = 4096;
const MOVES_MOST: usize = 65_536;

/// The ray a set stands for.
#[derive(Clone, Copy, Debug)]
enum SetRay {
    /// eps-PML for a known prior: `1_S / p(S)`.
    Indicator,
    /// eps-LDP: the staircase `(1 + (e - 1) 1_S) / (1 + (e - 1) p(S))`.
    Staircase { e: f64 },
}

/// The exact oracle with sets of exact mass priced first.
pub(crate) struct ExactMass<'a> {
    inner: Box<dyn RayOracle + Send + 'a>,
    /// The reference prior p with the utility on the slice `p . c = 1`.
    slice: SliceUtility,
    /// The ray of a set.
    ray: SetRay,
    /// The masses a set may have: a narrow window tried first, then a wide
    /// one (each `[lo, hi]`).
    windows: [(f64, f64); 2],
    /// Passes so far: each pass perturbs its candidates differently.
    passes: AtomicU64,
    /// When candidates stop being built (the loop's deadline).
    deadline: Option<Instant>,
}

impl<'a> ExactMass<'a> {
    /// `inner` with sets of mass within `tol` (relative) of `e^-epsilon`
    /// priced first, for the separable utility `kind` under the known prior
    /// `p`; past `deadline` no candidate is built.
    pub(crate) fn new(
        inner: Box<dyn RayOracle + Send + 'a>,
        p: &[f64],
        epsilon: f64,
        (tol, kind): (f64, Separable),
        deadline: Option<Instant>,
    ) -> Self {
        // Raised by a relative 1e-14 so that rounding in `p(S)` never takes a
        // set outside the cone.
        let t = (-epsilon).exp() * (1.0 + 1e-14);
        ExactMass {
            inner,
            slice: slice_utility(p, kind),
            ray: SetRay::Indicator,
            windows: [(t, t * (1.0 + tol / 100.0)), (t, t * (1.0 + tol))],
            passes: AtomicU64::new(0),
            deadline,
        }
    }

    /// `inner` (the eps-LDP staircases, `e = e^eps`) with staircases priced
    /// first whose top sets weigh within a loss of `tol` (relative to the
    /// best value per unit, a hundredth of it first) of the best top mass,
    /// for the f-information `f` under the reference `p`. `inner` back when
    /// the best top mass is not inside (0, 1) or its value is not positive.
    pub(crate) fn staircases(
        inner: Box<dyn RayOracle + Send + 'a>,
        p: &[f64],
        e: f64,
        (tol, f): (f64, fn(f64) -> f64),
        deadline: Option<Instant>,
    ) -> Result<Self, Box<dyn RayOracle + Send + 'a>> {
        let value = staircase_value(e, f);
        let (best, top) = maximum(&value);
        if !(top > 0.0 && best > 0.0 && best < 1.0) {
            return Err(inner);
        }
        let window = |loss: f64| within(&value, best, top - loss);
        Ok(ExactMass {
            inner,
            slice: slice_utility(p, Separable::FInformation(f)),
            ray: SetRay::Staircase { e },
            windows: [window(top * tol / 100.0), window(top * tol)],
            passes: AtomicU64::new(0),
            deadline,
        })
    }

    /// The column of the set `members`, priced under `lambda`.
    fn priced(&self, members: &[bool], lambda: &Array1<f64>) -> (f64, Column) {
        let p = &self.slice.p;
        let mass: f64 = (0..p.len()).filter(|&x| members[x]).map(|x| p[x]).sum();
        let (top, rest) = match self.ray {
            SetRay::Indicator => (1.0 / mass, 0.0),
            SetRay::Staircase { e } => {
                let s = 1.0 + (e - 1.0) * mass;
                (e / s, 1.0 / s)
            }
        };
        let vector = Array1::from_iter(members.iter().map(|&m| if m { top } else { rest }));
        self.slice.priced(vector, lambda)
    }

    /// Sets of positive reduced cost (above `tol`) under `lambda`, best first.
    fn sets(&self, lambda: &Array1<f64>, tol: f64, keep: usize) -> Vec<(f64, Column)> {
        let p = &self.slice.p;
        let pass = self.passes.fetch_add(1, Ordering::Relaxed);
        let count = CANDIDATES.min(p.len() / 2).max(1);
        let found: Vec<Option<Vec<bool>>> = (0..count)
            .into_par_iter()
            .map(|k| {
                if self.deadline.is_some_and(|d| Instant::now() >= d) {
                    return None;
                }
                let salt = mix(pass.wrapping_mul(1 << 20) ^ k as u64);
                let spread = 0.3 * (k % 8) as f64 / 8.0;
                let order = fill_order(p, lambda, spread, salt);
                exact_set(p, self.windows, &order, salt)
            })
            .collect();
        let mut out: Vec<(f64, Column)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for members in found.into_iter().flatten() {
            if !seen.insert(members.clone()) {
                continue;
            }
            let (rc, c) = self.priced(&members, lambda);
            if rc > tol {
                out.push((rc, c));
            }
        }
        out.sort_by(|a, b| b.0.total_cmp(&a.0));
        out.truncate(keep);
        out
    }
}

impl RayOracle for ExactMass<'_> {
    fn dimension(&self) -> usize {
        self.inner.dimension()
    }

    /// The exact oracle alone: a bound (`engine::dual_bound`, a design's
    /// verification) is never one of these passes.
    fn price(&self, lambda: &Array1<f64>, tol: f64, keep: usize) -> Pricing {
        self.inner.price(lambda, tol, keep)
    }

    /// Sets of exact mass first; the exact oracle when none enters.
    fn price_with(
        &self,
        lambda: &Array1<f64>,
        tol: f64,
        keep: usize,
        control: &PassControl,
    ) -> Pricing {
        let entering = match control.interrupt.or_past(self.deadline) {
            true => Vec::new(),
            false => self.sets(lambda, tol, keep.max(1)),
        };
        if entering.is_empty() {
            return self.inner.price_with(lambda, tol, keep, control);
        }
        Pricing {
            max_reduced_cost: f64::INFINITY,
            priced: entering.len() as u64,
            entering,
        }
    }

    fn start(&self) -> Vec<Column> {
        self.inner.start()
    }
}

/// SplitMix64's finaliser: a fixed perturbation per (pass, candidate, input),
/// so that the same dual gives the same sets at any thread count.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A number in [-1, 1) from `mix(salt, x)`.
fn jitter(salt: u64, x: usize) -> f64 {
    (mix(salt ^ (x as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)) >> 11) as f64 / (1u64 << 52) as f64
        - 1.0
}

/// The inputs by increasing `lambda_x / p_x`, each score scaled by
/// `e^(spread u)` with u in [-1, 1) fixed by `salt` (spread 0: no perturbation,
/// ties broken by index).
pub fn fill_order(p: &[f64], lambda: &Array1<f64>, spread: f64, salt: u64) -> Vec<usize> {
    let score: Vec<f64> = (0..p.len())
        .map(|x| lambda[x] / p[x] * (spread * jitter(salt, x)).exp())
        .collect();
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| score[a].total_cmp(&score[b]).then(a.cmp(&b)));
    order
}

/// The maximiser of `g` over (0, 1) by golden-section search, with its value
/// (g concave near its maximum, as the staircase's value per unit is).
pub fn maximum(g: &dyn Fn(f64) -> f64) -> (f64, f64) {
    let r = 0.5 * (5f64.sqrt() - 1.0);
    let (mut a, mut b) = (0.0, 1.0);
    for _ in 0..200 {
        let (c, d) = (b - r * (b - a), a + r * (b - a));
        if g(c) < g(d) {
            a = c;
        } else {
            b = d;
        }
    }
    let w = 0.5 * (a + b);
    (w, g(w))
}

/// The widest interval `[lo, hi]` around `best` on which `g` stays at least
/// `floor`, each end found by bisection (g unimodal around `best`).
pub fn within(g: &dyn Fn(f64) -> f64, best: f64, floor: f64) -> (f64, f64) {
    let end = |mut inside: f64, mut outside: f64| {
        for _ in 0..200 {
            let mid = 0.5 * (inside + outside);
            if g(mid) >= floor {
                inside = mid;
            } else {
                outside = mid;
            }
        }
        inside
    };
    (end(best, 0.0), end(best, 1.0))
}

/// A move: inputs added and removed (`usize::MAX` for none) and the change of mass.
#[derive(Clone, Copy)]
struct Move {
    change: f64,
    add: usize,
    remove: usize,
}

impl Move {
    fn touches(&self, other: &Move) -> bool {
        let mine = [self.add, self.remove];
        [other.add, other.remove]
            .iter()
            .any(|i| *i != usize::MAX && mine.contains(i))
    }

    fn apply(&self, members: &mut [bool]) {
        if self.add != usize::MAX {
            members[self.add] = true;
        }
        if self.remove != usize::MAX {
            members[self.remove] = false;
        }
    }
}

/// A set of mass in the wide window (`windows[1]`): the inputs of `order`
/// taken while they fit under the narrow window's lower end, then one move or
/// two disjoint moves into the narrow window, else the wide one (`None` when
/// none is found).
pub fn exact_set(
    p: &[f64],
    windows: [(f64, f64); 2],
    order: &[usize],
    salt: u64,
) -> Option<Vec<bool>> {
    let [(lo, hi), (wide_lo, wide_hi)] = windows;
    let mut members = vec![false; p.len()];
    let mut mass = 0.0;
    for &x in order {
        if mass + p[x] <= lo {
            members[x] = true;
            mass += p[x];
        }
    }
    let moves = sampled_moves(p, &members, salt);
    let (a, b) = two_moves(&moves, lo - mass, hi - mass)
        .or_else(|| two_moves(&moves, wide_lo - mass, wide_hi - mass))?;
    a.apply(&mut members);
    if let Some(b) = b {
        b.apply(&mut members);
    }
    let mass: f64 = (0..p.len()).filter(|&x| members[x]).map(|x| p[x]).sum();
    (mass >= wide_lo && mass <= wide_hi).then_some(members)
}

/// The value per unit (`p . v = 1`) of the eps-LDP staircase whose top set
/// weighs W, `W f(e / s) + (1 - W) f(1 / s)` with `s = 1 + (e - 1) W`, for the
/// f-information `f`.
pub fn staircase_value(e: f64, f: fn(f64) -> f64) -> impl Fn(f64) -> f64 {
    move |w: f64| {
        let s = 1.0 + (e - 1.0) * w;
        w * f(e / s) + (1.0 - w) * f(1.0 / s)
    }
}

/// Every single add and remove, and swaps (an input in for one out): all of
/// them up to [`MOVES_MOST`], else that many drawn by `salt`; sorted by change.
fn sampled_moves(p: &[f64], members: &[bool], salt: u64) -> Vec<Move> {
    const NONE: usize = usize::MAX;
    let (ins, outs): (Vec<usize>, Vec<usize>) = (0..p.len()).partition(|&x| members[x]);
    let mut moves: Vec<Move> = outs
        .iter()
        .map(|&b| Move {
            change: p[b],
            add: b,
            remove: NONE,
        })
        .chain(ins.iter().map(|&a| Move {
            change: -p[a],
            add: NONE,
            remove: a,
        }))
        .collect();
    let pairs = ins.len() * outs.len();
    let budget = MOVES_FIRST.max(MOVES_MOST.min(pairs));
    if pairs <= budget {
        for &b in &outs {
            moves.extend(ins.iter().map(|&a| Move {
                change: p[b] - p[a],
                add: b,
                remove: a,
            }));
        }
    } else {
        moves.extend((0..budget).map(|k| {
            let r = mix(salt ^ (k as u64).wrapping_mul(0xA24B_AED4_963E_E407));
            let b = outs[(r % outs.len() as u64) as usize];
            let a = ins[((r >> 32) % ins.len() as u64) as usize];
            Move {
                change: p[b] - p[a],
                add: b,
                remove: a,
            }
        }));
    }
    moves.sort_by(|x, y| x.change.total_cmp(&y.change));
    moves
}

/// One move with change in `[lo, hi]`, else two disjoint ones whose changes
/// add up to it (`moves` sorted by change).
fn two_moves(moves: &[Move], lo: f64, hi: f64) -> Option<(Move, Option<Move>)> {
    let first = |v: f64| moves.partition_point(|m| m.change < v);
    let at = first(lo);
    if at < moves.len() && moves[at].change <= hi {
        return Some((moves[at], None));
    }
    for a in moves {
        let from = first(lo - a.change);
        for b in moves[from..]
            .iter()
            .take_while(|b| b.change <= hi - a.change)
        {
            if !std::ptr::eq(a, b) && !a.touches(b) {
                return Some((*a, Some(*b)));
            }
        }
    }
    None
}
