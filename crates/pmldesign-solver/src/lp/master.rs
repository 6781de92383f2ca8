//! A small dense primal simplex for the restricted master problem of column
//! generation, `max c^T theta  s.t.  V theta = 1, theta >= 0`, with N rows (the
//! alphabet) and up to a few thousand columns.
//!
//! The [`Master`] keeps its basis between pricing passes: column generation adds
//! columns and re-optimises from the previous optimal basis, which stays primal
//! feasible, so each pass costs a few pivots instead of a cold solve. It returns
//! the basis dual directly (the lambda that pricing needs).
//!
//! Start: the all-ones column (which every working set holds at index 0) with
//! unit "artificial" columns for rows 2..N, all fixed at zero: the basis
//! `[1, e_2, .., e_N]` is nonsingular and feasible. Artificials never enter and
//! leave as soon as a pivot touches them, so every basic solution is feasible for
//! the real problem. That start is a vertex with N - 1 basic zeros; when the
//! caller knows N columns with positive weights ([`Master::start_from`]) the
//! master starts there instead and solves with a slightly perturbed right-hand
//! side, so that degenerate vertices do not stall it; [`Master::finish`] removes
//! the perturbation by dual simplex pivots.
//!
//! Pricing is multiple and partial: the best of a shortlist from the last
//! pricing step, then the pool in steps of a quarter (at least 1024 columns)
//! from where the last step stopped; only a scan of the whole pool that finds
//! nothing declares optimality. A Harris ratio test (the largest pivot among
//! the rows that block within a tiny tolerance) keeps the basis well
//! conditioned; Bland's rule after a long run of degenerate pivots, and a
//! growing optimality tolerance if the run goes on (reduced costs that are
//! rounding noise). The basis is factorised by a dense LU with the pivots since
//! in product form ([`crate::lp::basis`]), refactorised periodically; on a
//! numerically singular basis the master gives up (`None`): column generation
//! then rebuilds the master on the last optimum's support and the newest
//! columns ([`crate::colgen::engine`]), and falls back to microlp if that fails
//! as well. The deadline and Ctrl-C are checked before every pivot.

use crate::lp::basis::{Column, Factor, dot};
use crate::settings::Interrupt;
use ndarray::{Array1, ArrayView1};
use rayon::prelude::*;
use std::time::Instant;

/// Solution of the master: weights of the columns and the basis dual.
#[derive(Debug, Clone)]
pub struct MasterSolution {
    /// theta, one per column.
    pub theta: Vec<f64>,
    /// The dual lambda (`lambda . v_k >= c_k` for every column at optimality).
    pub dual: Array1<f64>,
    /// `c^T theta`.
    pub value: f64,
    /// Whether `V theta = 1` (the true right-hand side) holds to rounding with
    /// theta >= 0 (the Harris ratio test or a perturbed right-hand side can leave
    /// basic values slightly negative; theta is clamped and this is false then:
    /// the dual is still valid, and [`Master::finish`] restores feasibility).
    pub feasible: bool,
}

/// Basis entry: a real column or an artificial (unit vector of a row).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Var {
    Column(usize),
    Artificial(usize),
}

/// Largest negative basic value accepted as zero in the final solution.
const FEASIBILITY_TOLERANCE: f64 = 1e-10;

/// How far below zero the Harris ratio test lets a basic value go, in exchange
/// for a larger pivot. Tighter, the test is left one candidate row and takes
/// tiny pivots: over a master of a few thousand near-parallel columns (a
/// sampled start at 256 labels) the basis then grows singular within a few
/// thousand pivots, its refactorised values off by far more than this. A final
/// basic value below -[`FEASIBILITY_TOLERANCE`] marks the solution infeasible
/// for the true right-hand side, and [`Master::finish`] restores it.
const HARRIS_TOLERANCE: f64 = 1e-9;
/// Degenerate pivots in a row after which the optimality tolerance grows tenfold.
const STALL_PIVOTS: usize = 2000;
/// Degenerate pivots in a row after which Bland's rule takes over.
const BLAND_AFTER: usize = 1000;
/// Reduced costs at or below this (relative) count as zero.
const OPTIMALITY_TOLERANCE: f64 = 1e-11;

/// Pivots after which [`Master::optimise`] gives up (the caller rebuilds the
/// master on the last optimum's support and the newest columns): a warm solve
/// takes a few hundred, and a longer one is cycling through degenerate bases
/// (the Harris ratio test lets basic values dip below zero, resetting the
/// degenerate run before Bland's rule takes over). A cap far above a warm
/// solve's pivots lets a stall run for seconds before the rebuild ends it, and
/// a fixed cap cuts short the genuine solves of larger masters (N = 192 and
/// up), so the cap grows with the rows.
const MAX_PIVOTS: usize = 30_000;
/// ... or this many per row, where that is more.
const MAX_PIVOTS_PER_ROW: usize = 500;

/// Relative size of the right-hand side perturbation against degeneracy.
const PERTURBATION: f64 = 1e-7;
/// Columns kept from a pricing scan for the pivots that follow it.
const SHORTLIST: usize = 48;
/// Columns priced per partial pricing step: at least this many, and a quarter
/// of the pool when that is more (`Master::entering`).
pub const PARTIAL_PRICING: usize = 1024;
/// Pivots (etas) between refactorisations of the basis: at least this many, and
/// more for large bases ([`Master::refactor_every`]).
const REFACTOR_EVERY: usize = 64;

/// Smallest pivot element the ratio test accepts.
const PIVOT_TOLERANCE: f64 = 1e-7;

/// The restricted master with a warm basis (module docs).
#[derive(Debug, Clone)]
pub struct Master {
    n: usize,
    /// The columns, each `n` entries, one after another.
    v: Vec<f64>,
    c: Vec<f64>,
    in_basis: Vec<bool>,
    basis: Vec<Var>,
    /// The basis, factorised with the pivots since in product form.
    factor: Factor,
    /// The right-hand side: ones, or ones perturbed (see [`Master::start_from`]).
    rhs: Array1<f64>,
    x: Array1<f64>,
    /// Where the next partial pricing step starts in the pool.
    cursor: usize,
    /// When [`Master::optimise`] stops pivoting and returns its current basis.
    deadline: Option<Instant>,
    /// Ctrl-C: stops the simplex as its deadline would.
    interrupt: Interrupt,
}

impl Master {
    /// A master over the all-ones column with value `ones_value` in dimension `n`.
    pub fn new(n: usize, ones_value: f64) -> Self {
        let v = vec![1.0; n];
        let basis: Vec<Var> = std::iter::once(Var::Column(0))
            .chain((1..n).map(Var::Artificial))
            .collect();
        let factor = Factor::new(n, |j| match basis[j] {
            Var::Column(_) => Column::Dense(&v),
            Var::Artificial(i) => Column::Unit(i),
        })
        .expect("[1, e_2, .., e_N] is nonsingular");
        let mut x = Array1::zeros(n);
        if n > 0 {
            x[0] = 1.0;
        }
        Master {
            n,
            v,
            c: vec![ones_value],
            in_basis: vec![true],
            basis,
            factor,
            rhs: Array1::ones(n),
            x,
            cursor: 0,
            deadline: None,
            interrupt: Interrupt::default(),
        }
    }

    /// Adds a column `v` with objective coefficient `c`; returns its index.
    pub fn push(&mut self, v: ArrayView1<f64>, c: f64) -> usize {
        self.v.extend(v.iter());
        self.c.push(c);
        self.in_basis.push(false);
        self.c.len() - 1
    }

    /// Changes column j's objective coefficient; the basis stays (primal
    /// feasible) and the next [`Master::optimise`] re-optimises from it.
    pub fn set_cost(&mut self, j: usize, c: f64) {
        self.c[j] = c;
    }

    /// Keeps the columns with `keep[j]` and every basic one, in order; the basis
    /// (and its factorisation) is unchanged, its columns re-indexed. Returns the
    /// old index of each column kept. Column generation retires columns this way
    /// that stayed out of the basis for many passes, so that pricing the master
    /// costs what its live columns cost.
    pub fn retain(&mut self, keep: &[bool]) -> Vec<usize> {
        let mut map = vec![usize::MAX; self.c.len()];
        let mut kept = Vec::new();
        let (mut v, mut c, mut in_basis) = (Vec::new(), Vec::new(), Vec::new());
        for (j, slot) in map.iter_mut().enumerate() {
            if keep.get(j).copied().unwrap_or(true) || self.in_basis[j] {
                *slot = kept.len();
                kept.push(j);
                v.extend_from_slice(self.col(j));
                c.push(self.c[j]);
                in_basis.push(self.in_basis[j]);
            }
        }
        for b in &mut self.basis {
            if let Var::Column(j) = b {
                *j = map[*j];
            }
        }
        (self.v, self.c, self.in_basis) = (v, c, in_basis);
        self.cursor = 0;
        kept
    }

    /// Moves the basis to the given columns if they form a feasible basis
    /// (`V_B x = 1` with `x >= 0`, and a well-conditioned factorisation);
    /// otherwise the basis is left as it was. Whether it moved.
    pub fn start_from(&mut self, columns: &[usize]) -> bool {
        if columns.len() != self.n || columns.iter().any(|&j| j >= self.c.len()) {
            return false;
        }
        let saved = (self.basis.clone(), self.factor.clone(), self.x.clone());
        self.basis = columns.iter().map(|&j| Var::Column(j)).collect();
        if self.refactor().is_some() && self.x.iter().all(|&x| x >= 0.0) {
            self.in_basis.iter_mut().for_each(|b| *b = false);
            for &j in columns {
                self.in_basis[j] = true;
            }
            // Against stalling on degenerate vertices, solve with the right-hand
            // side perturbed (distinct tiny shifts per row, so that no basic value
            // is zero by coincidence); `finish` removes the perturbation.
            let rhs = Array1::from_shape_fn(self.n, |i| {
                1.0 + PERTURBATION * (1.0 + ((i * 7919) % 1009) as f64 / 1009.0)
            });
            let x = self.solve(rhs.to_vec());
            if x.iter().all(|&v| v > 0.0) {
                self.rhs = rhs;
                self.x = Array1::from(x);
            }
            return true;
        }
        (self.basis, self.factor, self.x) = saved;
        false
    }

    /// Drops the perturbation of the right-hand side and re-optimises: a few
    /// dual simplex pivots make the (dual feasible) basis primal feasible for the
    /// true right-hand side, then the primal simplex confirms optimality. `None`
    /// on a singular basis, after too many pivots, or at the deadline.
    pub fn finish(&mut self) -> Option<MasterSolution> {
        self.rhs = Array1::ones(self.n);
        self.refactor()?;
        for _ in 0..10 * self.n + 100 {
            let (r, xr) = self
                .x
                .iter()
                .copied()
                .enumerate()
                .min_by(|a, b| a.1.total_cmp(&b.1))?;
            if xr >= -FEASIBILITY_TOLERANCE {
                return self.optimise();
            }
            if self.interrupt.or_past(self.deadline) {
                return None;
            }
            if self.factor.etas() >= self.refactor_every() {
                self.refactor()?;
            }
            let j = self.dual_entering(r)?;
            let d = self.solve(self.col(j).to_vec());
            let step = xr / d[r];
            self.pivot(r, j, step, d);
        }
        None
    }

    /// The dual ratio test on row `r` (basic value below zero): among columns
    /// that raise x_r (alpha < 0), the one whose reduced cost (<= 0) reaches
    /// zero first keeps the duals feasible; ties to the lowest index.
    fn dual_entering(&self, r: usize) -> Option<usize> {
        let lambda = self.basis_dual();
        let row = self.factor.inverse_row(r, self.n);
        let (lam, row) = (lambda.as_slice()?, row.as_slice());
        let (j, _) = (0..self.c.len())
            .into_par_iter()
            .filter(|&j| !self.in_basis[j])
            .filter_map(|j| {
                let alpha = dot(row, self.col(j));
                (alpha < -PIVOT_TOLERANCE).then(|| {
                    let rc = (self.c[j] - dot(lam, self.col(j))).min(0.0);
                    (j, rc / alpha)
                })
            })
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)))?;
        Some(j)
    }

    /// Basis change: column `j` enters on row `r` with value `step`, along the
    /// direction `d = B^-1 v_j`.
    fn pivot(&mut self, r: usize, j: usize, step: f64, d: Vec<f64>) {
        for (x, di) in self.x.iter_mut().zip(&d) {
            *x -= step * di;
        }
        self.x[r] = step;
        self.factor.update(r, d);
        if let Var::Column(old) = self.basis[r] {
            self.in_basis[old] = false;
        }
        self.basis[r] = Var::Column(j);
        self.in_basis[j] = true;
    }

    /// `B^-1 a`.
    fn solve(&self, mut a: Vec<f64>) -> Vec<f64> {
        self.factor.ftran(&mut a);
        a
    }

    /// Column `j` of V.
    fn col(&self, j: usize) -> &[f64] {
        &self.v[j * self.n..(j + 1) * self.n]
    }

    /// The basis dual `lambda = B^-T c_B`.
    fn basis_dual(&self) -> Array1<f64> {
        let mut cb: Vec<f64> = self.basis.iter().map(|&b| self.cost(b)).collect();
        self.factor.btran(&mut cb);
        Array1::from(cb)
    }

    fn cost(&self, var: Var) -> f64 {
        match var {
            Var::Column(j) => self.c[j],
            Var::Artificial(_) => 0.0,
        }
    }

    /// Pivots between refactorisations: a refactorisation costs O(N^3) and a
    /// solve O(N^2) plus O(N) per eta, so a large basis is refactorised every
    /// N/2 pivots (the final solution always comes from a fresh one).
    fn refactor_every(&self) -> usize {
        REFACTOR_EVERY.max(self.n / 2)
    }

    /// Factorises the basis afresh and recomputes the basic values; `None` on
    /// a numerically singular basis.
    fn refactor(&mut self) -> Option<()> {
        let factor = Factor::new(self.n, |i| match self.basis[i] {
            Var::Column(j) => Column::Dense(self.col(j)),
            Var::Artificial(row) => Column::Unit(row),
        })?;
        self.factor = factor;
        let x = self.solve(self.rhs.to_vec());
        if x.iter().any(|x| !x.is_finite()) {
            return None;
        }
        self.x = Array1::from(x);
        for (xi, b) in self.x.iter_mut().zip(&self.basis) {
            if matches!(b, Var::Artificial(_)) {
                *xi = 0.0;
            }
        }
        Some(())
    }

    /// Makes [`Master::optimise`] and [`Master::finish`] stop at `deadline` or
    /// Ctrl-C (`interrupt`) with their current basis: a degenerate stretch at N
    /// in the hundreds can pivot for a minute, far past a design's time limit.
    pub fn set_deadline(&mut self, deadline: Option<Instant>, interrupt: &Interrupt) {
        self.deadline = deadline;
        self.interrupt = interrupt.clone();
    }

    /// Re-optimises from the current basis over every column pushed so far. `None`
    /// if the iteration limit is hit or the basis degenerates numerically.
    pub fn optimise(&mut self) -> Option<MasterSolution> {
        let scale = 1.0 + self.c.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let mut degenerate_run = 0;
        let mut tolerance = OPTIMALITY_TOLERANCE;
        let mut shortlist: Vec<usize> = Vec::new();
        let mut lambda = self.basis_dual();
        for _ in 0..MAX_PIVOTS_PER_ROW.saturating_mul(self.n).max(MAX_PIVOTS) {
            if self.interrupt.or_past(self.deadline) {
                // Not optimal, but primal feasible (the basis moves only to
                // feasible ones): its weights are a mechanism, and its dual,
                // like any vector, certifies the bound it prices to.
                return self.solution(lambda);
            }
            if self.factor.etas() >= self.refactor_every() {
                // A numerically singular basis: give up (the caller rebuilds the
                // master on fewer columns or falls back to another solver).
                self.refactor()?;
                lambda = self.basis_dual();
            }
            let bland = degenerate_run > BLAND_AFTER;
            let threshold = tolerance * scale;
            let Some(j) = self.entering(&lambda, threshold, bland, &mut shortlist) else {
                return self.solution(lambda);
            };
            let d = self.solve(self.col(j).to_vec());
            let (r, step) = self.leaving(&d, bland)?;
            degenerate_run = if step <= 1e-12 { degenerate_run + 1 } else { 0 };
            if degenerate_run > 0 && degenerate_run % STALL_PIVOTS == 0 {
                // Stalling on reduced costs that are rounding noise of the basis
                // (two nearly equal columns swapping in and out): loosen.
                tolerance = (tolerance * 10.0).min(1e-8);
            }
            self.pivot(r, j, step, d);
            lambda = self.basis_dual();
        }
        None
    }

    /// The entering column with a reduced cost above `threshold`, by multiple
    /// and partial pricing: the best of `shortlist` (kept from the last pricing
    /// step), re-priced; when that has nothing left, the pool in steps of
    /// [`PARTIAL_PRICING`] columns (or a quarter of the pool) from where the
    /// last step stopped, until a step finds candidates: the best of them
    /// enters and the others become the shortlist. Only a scan of the whole
    /// pool that finds none declares optimality. Bland: the lowest index with a
    /// positive reduced cost.
    fn entering(
        &mut self,
        lambda: &Array1<f64>,
        threshold: f64,
        bland: bool,
        shortlist: &mut Vec<usize>,
    ) -> Option<usize> {
        let lam = lambda.as_slice().expect("contiguous");
        let best = |a: &(usize, f64), b: &(usize, f64)| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0));
        let pool = self.c.len();
        if bland {
            return (0..pool)
                .into_par_iter()
                .with_min_len(256)
                .filter_map(|j| self.priced(j, lam, threshold))
                .find_first(|_| true)
                .map(|(j, _)| j);
        }
        let listed = shortlist
            .iter()
            .filter_map(|&j| self.priced(j, lam, threshold))
            .max_by(best);
        if let Some((j, _)) = listed {
            return Some(j);
        }
        let step = PARTIAL_PRICING.max(pool / 4);
        let mut scanned = 0;
        while scanned < pool {
            let start = if self.cursor < pool { self.cursor } else { 0 };
            let end = (start + step).min(pool);
            let mut found: Vec<(usize, f64)> = (start..end)
                .into_par_iter()
                .with_min_len(256)
                .filter_map(|j| self.priced(j, lam, threshold))
                .collect();
            scanned += end - start;
            self.cursor = end;
            if !found.is_empty() {
                if found.len() > SHORTLIST {
                    found.select_nth_unstable_by(SHORTLIST, |a, b| best(b, a));
                    found.truncate(SHORTLIST);
                }
                let entering = found.iter().copied().max_by(best);
                *shortlist = found.into_iter().map(|(j, _)| j).collect();
                return entering.map(|(j, _)| j);
            }
        }
        shortlist.clear();
        None
    }

    /// Column `j` and its reduced cost under `lam`, if it is out of the basis
    /// and prices above `threshold`.
    fn priced(&self, j: usize, lam: &[f64], threshold: f64) -> Option<(usize, f64)> {
        if self.in_basis[j] {
            return None;
        }
        let rc = self.c[j] - dot(lam, self.col(j));
        (rc > threshold).then_some((j, rc))
    }

    /// The leaving row and the step along the direction `d = B^-1 v_j`, by the
    /// Harris ratio test (artificials are fixed at zero and block any move). Pass
    /// 1: the longest step that keeps every basic value above -HARRIS_TOLERANCE.
    /// Pass 2: among the rows that block within it, the largest pivot, so that the
    /// basis stays well conditioned (Bland: the smallest ratio, ties to the lowest
    /// variable).
    fn leaving(&self, d: &[f64], bland: bool) -> Option<(usize, f64)> {
        // Pivots are judged relative to the direction's scale: entries of d
        // below it are rounding noise of an ill-conditioned basis.
        let pivot_tol = PIVOT_TOLERANCE * d.iter().fold(1.0f64, |m, x| m.max(x.abs()));
        let ratio = |i: usize, tolerance: f64| -> Option<f64> {
            match self.basis[i] {
                Var::Artificial(_) if d[i].abs() > pivot_tol => Some(0.0),
                Var::Column(_) if d[i] > pivot_tol => Some((self.x[i].max(0.0) + tolerance) / d[i]),
                _ => None,
            }
        };
        let bound = (0..self.n)
            .filter_map(|i| ratio(i, HARRIS_TOLERANCE))
            .fold(f64::INFINITY, f64::min);
        // Unbounded cannot happen: every column has r . v = 1 with r > 0.
        let candidates = (0..self.n)
            .filter_map(|i| ratio(i, 0.0).map(|s| (i, s)))
            .filter(|&(_, s)| s <= bound);
        if bland {
            candidates.min_by(|a, b| {
                a.1.total_cmp(&b.1)
                    .then(self.basis[a.0].order().cmp(&self.basis[b.0].order()))
            })
        } else {
            candidates.max_by(|a, b| d[a.0].abs().total_cmp(&d[b.0].abs()))
        }
    }

    /// The optimal solution of the current basis: the basic values and the dual
    /// from a fresh factorisation decide whether the primal is feasible to
    /// FEASIBILITY_TOLERANCE. `lambda` is the running dual, kept when no pivot
    /// happened since the last refactorisation.
    fn solution(&mut self, lambda: Array1<f64>) -> Option<MasterSolution> {
        let lambda = if self.factor.etas() > 0 {
            self.refactor()?;
            self.basis_dual()
        } else {
            lambda
        };
        let mut theta = vec![0.0; self.c.len()];
        let mut feasible = true;
        // The values for the true right-hand side (all ones).
        let x = self.solve(vec![1.0; self.n]);
        for (&b, &xi) in self.basis.iter().zip(&x) {
            match b {
                Var::Column(j) => {
                    feasible &= xi >= -FEASIBILITY_TOLERANCE;
                    theta[j] = xi.max(0.0);
                }
                // An artificial left at a positive value: `V theta != 1`.
                Var::Artificial(_) => feasible &= xi.abs() <= FEASIBILITY_TOLERANCE,
            }
        }
        let value = theta.iter().zip(&self.c).map(|(t, c)| t * c).sum();
        Some(MasterSolution {
            theta,
            dual: lambda,
            value,
            feasible,
        })
    }
}

impl Var {
    /// Bland's order: artificials first, then columns by index.
    fn order(self) -> (usize, usize) {
        match self {
            Var::Artificial(i) => (0, i),
            Var::Column(j) => (1, j),
        }
    }
}
