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
//! Pricing is multiple (the best of a shortlist from the last full scan, which
//! alone declares optimality); a Harris ratio test (the largest pivot among the
//! rows that block within a tiny tolerance) keeps the basis well conditioned;
//! Bland's rule after a long run of degenerate pivots, and a growing optimality
//! tolerance if the run goes on (reduced costs that are rounding noise). The
//! explicit basis inverse is refactorised periodically and the dual updated by
//! each pivot in between; on a numerically singular basis it gives up (`None`):
//! column generation then rebuilds the master on the last optimum's support and
//! the newest columns ([`crate::colgen::engine`]), and falls back to microlp if that
//! fails as well.

use crate::settings::Interrupt;
use ndarray::{Array1, Array2, ArrayView1};
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
    #[allow(dead_code)] // read by the unit tests
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
/// for a larger pivot; the final solution accepts the same and clamps.
const HARRIS_TOLERANCE: f64 = 1e-11;
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
/// degenerate run before Bland's rule takes over). Measured at N = 128, known
/// prior, gap 1e-6: with 200k, one run in four spent 10 s per stall (21 s
/// instead of 3.3 s). Larger masters need more: at N = 192 a cap of 30k made
/// the design take 47 s instead of 24 s, so the cap grows with the rows.
const MAX_PIVOTS: usize = 30_000;
/// ... or this many per row, where that is more.
const MAX_PIVOTS_PER_ROW: usize = 500;

/// Relative size of the right-hand side perturbation against degeneracy.
const PERTURBATION: f64 = 1e-7;
/// Columns kept from a full pricing scan for the pivots that follow it.
const SHORTLIST: usize = 48;
/// Pivots between refactorisations of the basis inverse: at least this many, and
/// more for large bases ([`Master::refactor_every`]).
const REFACTOR_EVERY: usize = 64;
/// Largest entry of an acceptable basis inverse (the columns are O(1)).
const MAX_INVERSE_ENTRY: f64 = 1e13;
/// Rows from which basis updates and refactorisations are split over cores.
const PARALLEL_ROWS: usize = 512;

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
    binv: Array2<f64>,
    /// The right-hand side: ones, or ones perturbed (see [`Master::start_from`]).
    rhs: Array1<f64>,
    x: Array1<f64>,
    pivots: usize,
    /// When [`Master::optimise`] stops pivoting and returns its current basis.
    deadline: Option<Instant>,
    /// Ctrl-C: stops the simplex as its deadline would.
    interrupt: Interrupt,
}

impl Master {
    /// A master over the all-ones column with value `ones_value` in dimension `n`.
    pub fn new(n: usize, ones_value: f64) -> Self {
        Master {
            n,
            v: vec![1.0; n],
            c: vec![ones_value],
            in_basis: vec![true],
            basis: std::iter::once(Var::Column(0))
                .chain((1..n).map(Var::Artificial))
                .collect(),
            binv: invert(
                &std::iter::once(Array1::ones(n))
                    .chain((1..n).map(|i| unit(n, i)))
                    .collect::<Vec<_>>(),
            )
            .expect("[1, e_2, .., e_N] is nonsingular"),
            rhs: Array1::ones(n),
            x: {
                let mut x = Array1::zeros(n);
                x[0] = 1.0;
                x
            },
            pivots: 0,
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

    /// Keeps the columns with `keep[j]` and every basic one, in order; the basis
    /// (and its inverse) is unchanged, its columns re-indexed. Returns the old
    /// index of each column kept. Column generation retires columns this way
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
        kept
    }

    /// Moves the basis to the given columns if they form a feasible basis
    /// (`V_B x = 1` with `x >= 0`, and a well-conditioned inverse); otherwise the
    /// basis is left as it was. Whether it moved.
    pub fn start_from(&mut self, columns: &[usize]) -> bool {
        if columns.len() != self.n || columns.iter().any(|&j| j >= self.c.len()) {
            return false;
        }
        let saved = (self.basis.clone(), self.binv.clone(), self.x.clone());
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
            let x = self.binv.dot(&rhs);
            if x.iter().all(|&v| v > 0.0) {
                self.rhs = rhs;
                self.x = x;
            }
            return true;
        }
        (self.basis, self.binv, self.x) = saved;
        false
    }

    /// Drops the perturbation of the right-hand side and re-optimises: a few
    /// dual simplex pivots make the (dual feasible) basis primal feasible for the
    /// true right-hand side, then the primal simplex confirms optimality.
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
            if self.pivots >= self.refactor_every() {
                self.refactor()?;
            }
            let lambda = self.basis_dual();
            let row = self.binv.row(r).to_owned();
            let (lam, row) = (lambda.as_slice()?, row.as_slice()?);
            // Dual ratio test: among columns that raise x_r (alpha < 0), the one
            // whose reduced cost (<= 0) reaches zero first keeps the duals feasible.
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
            let d = self.binv.dot(&ArrayView1::from(self.col(j)));
            let step = xr / d[r];
            self.pivot(r, j, step, &d);
        }
        None
    }

    /// Basis change: column `j` enters on row `r` with value `step`, along the
    /// direction `d = B^-1 v_j`.
    fn pivot(&mut self, r: usize, j: usize, step: f64, d: &Array1<f64>) {
        self.x.scaled_add(-step, d);
        self.x[r] = step;
        let row_r = self.binv.row(r).to_owned() / d[r];
        let update = |(i, row): (usize, &mut [f64])| {
            let f = d[i];
            if i == r {
                row.copy_from_slice(row_r.as_slice().expect("contiguous"));
            } else if f != 0.0 {
                for (x, y) in row.iter_mut().zip(row_r.iter()) {
                    *x -= f * y;
                }
            }
        };
        let n = self.n;
        // Built by `invert` and updated in place: always contiguous.
        let all = self.binv.as_slice_mut().expect("contiguous");
        if n >= PARALLEL_ROWS {
            all.par_chunks_exact_mut(n).enumerate().for_each(update);
        } else {
            all.chunks_exact_mut(n).enumerate().for_each(update);
        }
        if let Var::Column(old) = self.basis[r] {
            self.in_basis[old] = false;
        }
        self.basis[r] = Var::Column(j);
        self.in_basis[j] = true;
        self.pivots += 1;
    }

    fn column(&self, var: Var) -> Array1<f64> {
        match var {
            Var::Column(j) => Array1::from(self.col(j).to_vec()),
            Var::Artificial(i) => unit(self.n, i),
        }
    }

    /// Column `j` of V.
    fn col(&self, j: usize) -> &[f64] {
        &self.v[j * self.n..(j + 1) * self.n]
    }

    /// The basis dual `lambda = B^-T c_B`.
    fn basis_dual(&self) -> Array1<f64> {
        let cb: Array1<f64> = self.basis.iter().map(|&b| self.cost(b)).collect();
        self.binv.t().dot(&cb)
    }

    fn cost(&self, var: Var) -> f64 {
        match var {
            Var::Column(j) => self.c[j],
            Var::Artificial(_) => 0.0,
        }
    }

    /// Pivots between refactorisations: a refactorisation costs O(N^3) and a pivot
    /// O(N^2), so a large basis is refactorised every N/2 pivots (the inverse is
    /// checked at each, and the final solution always comes from a fresh one).
    fn refactor_every(&self) -> usize {
        REFACTOR_EVERY.max(self.n / 2)
    }

    /// Recomputes the basis inverse and the basic values from scratch.
    fn refactor(&mut self) -> Option<()> {
        let cols: Vec<Array1<f64>> = self.basis.iter().map(|&b| self.column(b)).collect();
        let binv = invert(&cols)?;
        // A basis this ill-conditioned gives duals that are rounding noise.
        if binv
            .iter()
            .any(|x| !x.is_finite() || x.abs() > MAX_INVERSE_ENTRY)
        {
            return None;
        }
        self.binv = binv;
        self.x = self.binv.dot(&self.rhs);
        for (xi, b) in self.x.iter_mut().zip(&self.basis) {
            if matches!(b, Var::Artificial(_)) {
                *xi = 0.0;
            }
        }
        self.pivots = 0;
        Some(())
    }

    /// Re-optimises from the current basis over every column pushed so far. `None`
    /// if the iteration limit is hit or the basis degenerates numerically.
    /// Makes [`Master::optimise`] stop at `deadline` or Ctrl-C (`interrupt`)
    /// with its current basis: a degenerate stretch at N in the hundreds can
    /// pivot for a minute, far past a design's time limit.
    pub fn set_deadline(&mut self, deadline: Option<Instant>, interrupt: &Interrupt) {
        self.deadline = deadline;
        self.interrupt = interrupt.clone();
    }

    pub fn optimise(&mut self) -> Option<MasterSolution> {
        let scale = 1.0 + self.c.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let mut degenerate_run = 0;
        let mut tolerance = OPTIMALITY_TOLERANCE;
        let mut shortlist: Vec<usize> = Vec::new();
        // The dual, fresh after each refactorisation and updated by every pivot in
        // between (`lambda += rc_j * row r of the new inverse`).
        let mut lambda = self.basis_dual();
        for k in 0..MAX_PIVOTS_PER_ROW.saturating_mul(self.n).max(MAX_PIVOTS) {
            let late = || self.interrupt.or_past(self.deadline);
            if k % 32 == 31 && late() {
                // Not optimal, but primal feasible (the basis moves only to
                // feasible ones): its weights are a mechanism, and its dual,
                // like any vector, certifies the bound it prices to.
                return self.solution(lambda);
            }
            if self.pivots >= self.refactor_every() {
                // A numerically singular basis: give up (the caller rebuilds the
                // master on fewer columns or falls back to another solver).
                self.refactor()?;
                lambda = self.basis_dual();
            }
            let bland = degenerate_run > BLAND_AFTER;
            let threshold = tolerance * scale;
            let Some((j, rc_j)) = self.entering(&lambda, threshold, bland, &mut shortlist) else {
                return self.solution(lambda);
            };
            let d = self.binv.dot(&ArrayView1::from(self.col(j)));
            let (r, step) = self.leaving(&d, bland)?;
            degenerate_run = if step <= 1e-12 { degenerate_run + 1 } else { 0 };
            if degenerate_run > 0 && degenerate_run % STALL_PIVOTS == 0 {
                // Stalling on reduced costs that are rounding noise of the basis
                // inverse (two nearly equal columns swapping in and out): loosen.
                tolerance = (tolerance * 10.0).min(1e-8);
            }
            self.pivot(r, j, step, &d);
            lambda.scaled_add(rc_j, &self.binv.row(r));
        }
        None
    }

    /// The entering column and its reduced cost above `threshold`, by multiple
    /// pricing: the most positive reduced cost on `shortlist` (from the last full
    /// scan), re-priced; a full scan (split over cores, the master's main cost:
    /// N x columns) only when the list has nothing left, so that optimality is
    /// always declared by a full scan. Bland: the lowest index with a positive
    /// reduced cost.
    fn entering(
        &self,
        lambda: &Array1<f64>,
        threshold: f64,
        bland: bool,
        shortlist: &mut Vec<usize>,
    ) -> Option<(usize, f64)> {
        let lam = lambda.as_slice().expect("contiguous");
        let rc = |j: usize| self.c[j] - dot(lam, self.col(j));
        let best = |a: &(usize, f64), b: &(usize, f64)| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0));
        if !bland {
            let listed = shortlist
                .iter()
                .filter(|&&j| !self.in_basis[j])
                .map(|&j| (j, rc(j)))
                .filter(|&(_, r)| r > threshold)
                .max_by(best);
            if listed.is_some() {
                return listed;
            }
        }
        let scan = (0..self.c.len())
            .into_par_iter()
            .with_min_len(256)
            .filter(|&j| !self.in_basis[j])
            .map(|j| (j, rc(j)))
            .filter(|&(_, r)| r > threshold);
        if bland {
            return scan.find_first(|_| true);
        }
        let mut all: Vec<(usize, f64)> = scan.collect();
        if all.len() > SHORTLIST {
            all.select_nth_unstable_by(SHORTLIST, |a, b| best(b, a));
            all.truncate(SHORTLIST);
        }
        let entering = all.iter().copied().max_by(best);
        *shortlist = all.into_iter().map(|(j, _)| j).collect();
        entering
    }

    /// The leaving row and the step along the direction `d = B^-1 v_j`, by the
    /// Harris ratio test (artificials are fixed at zero and block any move). Pass
    /// 1: the longest step that keeps every basic value above -HARRIS_TOLERANCE.
    /// Pass 2: among the rows that block within it, the largest pivot, so that the
    /// basis stays well conditioned (Bland: the smallest ratio, ties to the lowest
    /// variable).
    fn leaving(&self, d: &Array1<f64>, bland: bool) -> Option<(usize, f64)> {
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
    /// from a fresh inverse decide whether the primal is feasible to
    /// FEASIBILITY_TOLERANCE. `lambda` is the running dual, kept when no pivot
    /// happened since the last refactorisation.
    fn solution(&mut self, lambda: Array1<f64>) -> Option<MasterSolution> {
        let lambda = if self.pivots > 0 {
            self.refactor()?;
            self.basis_dual()
        } else {
            lambda
        };
        let mut theta = vec![0.0; self.c.len()];
        let mut feasible = true;
        // The values for the true right-hand side (all ones).
        let x = self.binv.sum_axis(ndarray::Axis(1));
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

/// `a . b`, with four accumulators so that the loop vectorises.
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0; 4];
    let (a4, b4) = (a.chunks_exact(4), b.chunks_exact(4));
    let tail: f64 = a4
        .remainder()
        .iter()
        .zip(b4.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a4.zip(b4) {
        for k in 0..4 {
            acc[k] += x[k] * y[k];
        }
    }
    acc[0] + acc[1] + acc[2] + acc[3] + tail
}

fn unit(n: usize, i: usize) -> Array1<f64> {
    let mut e = Array1::zeros(n);
    e[i] = 1.0;
    e
}

/// Inverts the matrix with the given columns by Gauss-Jordan with partial pivoting.
fn invert(columns: &[Array1<f64>]) -> Option<Array2<f64>> {
    // Gauss-Jordan with partial pivoting on the augmented rows [A | I].
    let n = columns.len();
    let w = 2 * n;
    let mut m = vec![0.0; n * w];
    for (j, c) in columns.iter().enumerate() {
        for (i, &cij) in c.iter().enumerate() {
            m[i * w + j] = cij;
        }
        m[j * w + n + j] = 1.0;
    }
    for col in 0..n {
        let piv =
            (col..n).max_by(|&i, &k| m[i * w + col].abs().total_cmp(&m[k * w + col].abs()))?;
        if m[piv * w + col].abs() < 1e-14 {
            return None;
        }
        if piv != col {
            for k in 0..w {
                m.swap(piv * w + k, col * w + k);
            }
        }
        let p = m[col * w + col];
        // Entries left of `col` are already eliminated in the pivot row.
        let pivot_row: Vec<f64> = m[col * w + col..(col + 1) * w]
            .iter()
            .map(|x| x / p)
            .collect();
        // Each row on its own (the same arithmetic in any order): split over
        // cores when the basis is large.
        let eliminate = |(i, row): (usize, &mut [f64])| {
            if i == col {
                row[col..].copy_from_slice(&pivot_row);
                return;
            }
            let f = row[col];
            if f != 0.0 {
                for (x, y) in row[col..].iter_mut().zip(&pivot_row) {
                    *x -= f * y;
                }
            }
        };
        if n >= PARALLEL_ROWS {
            m.par_chunks_exact_mut(w).enumerate().for_each(eliminate);
        } else {
            m.chunks_exact_mut(w).enumerate().for_each(eliminate);
        }
    }
    Some(Array2::from_shape_fn((n, n), |(i, j)| m[i * w + n + j]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn small_master() {
        // Columns normalised by p = (1/2, 1/2): ones, (2, 0), (0, 2), (1.5, 0.5).
        let v = [
            array![1.0, 1.0],
            array![2.0, 0.0],
            array![0.0, 2.0],
            array![1.5, 0.5],
        ];
        let c = [0.0, 1.0, 1.0, 0.6];
        let mut m = Master::new(2, c[0]);
        for (vk, ck) in v.iter().zip(&c).skip(1) {
            m.push(vk.view(), *ck);
        }
        let s = m.optimise().unwrap();
        assert!((s.value - 1.0).abs() < 1e-12);
        assert!((s.theta[1] - 0.5).abs() < 1e-12 && (s.theta[2] - 0.5).abs() < 1e-12);
        for (vk, ck) in v.iter().zip(&c) {
            assert!(s.dual.dot(vk) >= ck - 1e-12);
        }
        assert!((s.dual.sum() - s.value).abs() < 1e-12);
    }

    /// A perturbed start (spike basis) and `finish` reach the same optimum as the
    /// plain start, with `V theta = 1` exact for the true right-hand side, on a
    /// degenerate master (integer-valued columns, many ties).
    #[test]
    fn perturbed_start_finishes_on_the_true_right_hand_side() {
        let n = 6;
        let mut seed = 7u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % 4
        };
        // Columns with r = uniform: entries in {0, .., 3}, scaled to mean 1.
        let mut columns: Vec<(Array1<f64>, f64)> = (0..n)
            .map(|y| {
                let mut v = Array1::from_elem(n, 0.5);
                v[y] = 1.0 + 0.5 * (n - 1) as f64;
                (v, 0.0)
            })
            .collect();
        for _ in 0..60 {
            let raw: Array1<f64> = (0..n).map(|_| next() as f64).collect();
            if raw.sum() == 0.0 {
                continue;
            }
            let v = &raw * (n as f64 / raw.sum());
            let value = v.iter().copied().fold(0.0, f64::max) / n as f64;
            columns.push((v, value));
        }
        let solve = |start: bool| {
            let mut m = Master::new(n, 1.0 / n as f64);
            for (v, c) in &columns {
                m.push(v.view(), *c);
            }
            if start {
                assert!(m.start_from(&(1..=n).collect::<Vec<_>>()));
            }
            let s = m.optimise().unwrap();
            if start { m.finish().unwrap() } else { s }
        };
        let (plain, perturbed) = (solve(false), solve(true));
        assert!((plain.value - perturbed.value).abs() < 1e-12);
        assert!(perturbed.feasible);
        let mut row_sums = Array1::<f64>::ones(n) * perturbed.theta[0];
        for (k, (v, c)) in columns.iter().enumerate() {
            row_sums.scaled_add(perturbed.theta[k + 1], v);
            assert!(perturbed.dual.dot(v) >= c - 1e-12);
        }
        assert!(
            row_sums.iter().all(|&x| (x - 1.0).abs() < 1e-12),
            "{row_sums}"
        );
    }
}
