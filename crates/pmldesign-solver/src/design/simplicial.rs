//! Simplicial decomposition for estimation designs (docs/theory.md §13): the
//! restricted problem over every column the design LPs have generated, solved
//! to optimality before the next LP prices the linearisation.
//!
//! A mechanism is a mixture `W = [a_1 c_1, ..., a_n c_n]` of columns scaled to
//! `p . c_j = 1`, with weights `a >= 0` such that `sum_j a_j c_j = 1` (each row
//! sums to 1; then `sum_j a_j = 1`). Its Fisher information `J(a) = sum_j a_j
//! c_j c_j^T` is linear in a, so `f(a) = tr(J(a)^-1)` is convex over the
//! polytope of weights. A mechanism with too many outputs to weight column by
//! column (the start: k-subset selection has C(k, d)) enters whole, as one
//! element whose Fisher information is its own and whose row sums are 1.
//!
//! The restricted problem is solved by a barrier method with equality-constrained
//! Newton steps (Boyd and Vandenberghe, Convex Optimization, §11.3 and §10.2):
//! `min t f(a) - sum log a_j` subject to the row sums, with t raised 20-fold
//! until the barrier's bound `n / t` on `f(a) - min f` is below the target.
//! Where Frank-Wolfe mixes whole LP solutions, moving weight between columns
//! of different LPs reaches the optimum over the columns found, so the
//! linearisation's bound meets f after far fewer LPs.

use crate::error::Result;
use faer::Side;
use faer::linalg::solvers::Solve;
use ndarray::{Array1, Array2, ArrayView1, Axis, Slice};
use pmldesign_model::frequency::{fisher_information, inverse_fisher};
use pmldesign_model::{Mechanism, ModelError};

/// Newton steps per value of t, at most.
const NEWTON_STEPS: usize = 50;

/// The barrier's weight t grows by this factor between centring passes.
const GROWTH: f64 = 20.0;

/// A pass ends once half the squared Newton decrement is below this: the
/// barrier problem is then solved to about this, in its own units.
const DECREMENT: f64 = 1e-10;

/// The relative rounding of the barrier's value: a decrement below this
/// fraction of `t f` cannot be told from noise.
const ROUNDING: f64 = 1e-12;

/// Elements whose weight is below this fraction of the largest leave the
/// restricted problem before the next LP's columns enter (they return if an
/// LP prices them again).
pub(crate) const PRUNE: f64 = 1e-10;

/// After a solve, elements below the square root of its relative precision
/// (`n / (t f)`), and at most this fraction of the largest weight, are taken
/// as inactive: on the barrier's path `a_j s_j = 1 / t`, so an element whose
/// rate falls short of the others' by `s_j` keeps a weight of order `1 / (t
/// s_j)`, which a second solve without them sets to 0.
const INACTIVE: f64 = 1e-6;

/// The restricted problem's tolerance is never finer than this fraction of f:
/// past it rounding in `tr(J^-1)` decides.
const FLOOR: f64 = 1e-13;

/// Eigenvalues of the row sums' normal matrix below this fraction of the
/// largest count as 0 ([`solve_semidefinite`]).
const RANK: f64 = 1e-12;

/// The row sums' distance from 1 that [`Pool::restore_sums`] reaches, or
/// refuses the move: a thousandth of what a mechanism is checked to.
const SUMS: f64 = 1e-12;

/// Refinements of the move that restores the row sums, at most.
const RESTORE_PASSES: usize = 3;

/// Two columns scaled to `p . c = 1` are the same where no entry differs by more.
const SAME_SHAPE: f64 = 1e-13;

/// A mechanism kept whole: its matrix and Fisher information.
#[derive(Clone)]
struct Block {
    mechanism: Mechanism,
    fisher: Array2<f64>,
}

/// The columns and whole mechanisms, with weights, whose mixture is the point
/// (module docs).
#[derive(Clone)]
pub struct Pool {
    p: Array1<f64>,
    /// Columns scaled to `p . c = 1`.
    columns: Vec<Array1<f64>>,
    blocks: Vec<Block>,
    /// Columns' weights, then blocks'.
    pub weights: Vec<f64>,
}

/// The barrier problem over a pool at the weight t.
struct Barrier<'a> {
    pool: &'a Pool,
    t: f64,
}

impl Pool {
    /// The mixture of one mechanism, kept whole.
    pub fn start(m: Mechanism, p: ArrayView1<f64>) -> Self {
        Pool {
            p: p.to_owned(),
            columns: Vec::new(),
            blocks: vec![Block {
                fisher: fisher_information(&m, p),
                mechanism: m,
            }],
            weights: vec![1.0],
        }
    }

    /// Whether the restricted problem can weight columns over `p`: every mass
    /// positive, so every column of a mechanism has `p . c > 0`.
    pub(crate) fn applies(p: ArrayView1<f64>) -> bool {
        p.iter().all(|&m| m > 0.0)
    }

    /// The prior the columns are scaled by.
    pub(crate) fn p(&self) -> &Array1<f64> {
        &self.p
    }

    fn len(&self) -> usize {
        self.weights.len()
    }

    /// `J(a)` of weights `a` (columns', then blocks').
    fn fisher_at(&self, a: &[f64]) -> Array2<f64> {
        let k = self.p.len();
        let nc = self.columns.len();
        // sum_j a_j c_j c_j^T as one product (C diag(a)) C^T.
        let c = self.column_matrix();
        let weighted = &c * &ArrayView1::from(&a[..nc]).insert_axis(Axis(0));
        let mut j = match nc {
            0 => Array2::zeros((k, k)),
            _ => weighted.dot(&c.t()),
        };
        for (b, w) in self.blocks.iter().zip(&a[self.columns.len()..]) {
            j.scaled_add(*w, &b.fisher);
        }
        j
    }

    /// The columns side by side (k x n).
    fn column_matrix(&self) -> Array2<f64> {
        let mut c = Array2::zeros((self.p.len(), self.columns.len()));
        for (j, col) in self.columns.iter().enumerate() {
            c.column_mut(j).assign(col);
        }
        c
    }

    /// `J` at the pool's weights.
    pub(crate) fn fisher(&self) -> Array2<f64> {
        self.fisher_at(&self.weights)
    }

    /// `f = tr(J^-1)` at the pool's weights, infinite where J is singular.
    pub(crate) fn f(&self) -> f64 {
        self.trace_inverse(&self.weights)
    }

    /// `tr(J(a)^-1)`, infinite where J is singular.
    fn trace_inverse(&self, a: &[f64]) -> f64 {
        inverse_fisher(&self.fisher_at(a)).map_or(f64::INFINITY, |i| i.diag().sum())
    }

    /// The row sums of each element as the columns of a k x n matrix: the
    /// column itself, or 1 for a mechanism.
    fn sums(&self) -> Array2<f64> {
        let k = self.p.len();
        let mut v = Array2::ones((k, self.len()));
        for (j, c) in self.columns.iter().enumerate() {
            v.column_mut(j).assign(c);
        }
        v
    }

    /// `m` enters with a `share` of the weight (the rest scaled by `1 - share`),
    /// each column of it on its own; a column the pool holds already gains weight.
    pub fn add(&mut self, m: &Mechanism, share: f64) {
        let matrix = m.matrix();
        self.add_columns(matrix.columns().into_iter().map(|c| c.to_owned()), share);
    }

    /// Columns enter, each with weight `share` times its mass `p . c` (the
    /// masses of a mechanism's columns sum to 1), the rest scaled by
    /// `1 - share`; where the rows no longer sum to 1, the Newton steps
    /// restore them ([`Pool::solve`]).
    pub(crate) fn add_columns(&mut self, columns: impl Iterator<Item = Array1<f64>>, share: f64) {
        let nc = self.columns.len();
        let mut col_w: Vec<f64> = self.weights[..nc]
            .iter()
            .map(|w| w * (1.0 - share))
            .collect();
        let block_w: Vec<f64> = self.weights[nc..]
            .iter()
            .map(|w| w * (1.0 - share))
            .collect();
        for c in columns {
            let mass = self.p.dot(&c);
            if mass <= 0.0 {
                continue;
            }
            let shape = &c / mass;
            let same = |s: &Array1<f64>| {
                s.iter()
                    .zip(&shape)
                    .all(|(a, b)| (a - b).abs() <= SAME_SHAPE * a.abs().max(1.0))
            };
            match self.columns.iter().position(same) {
                Some(j) => col_w[j] += share * mass,
                None => {
                    self.columns.push(shape);
                    col_w.push(share * mass);
                }
            }
        }
        col_w.extend(block_w);
        self.weights = col_w;
    }

    /// The elements of weight below `below` of the largest removed, and the
    /// rest moved (by the least change in `sum (da_j / a_j)^2`) so that the rows
    /// sum to 1 again; nothing removed where that move would not keep every
    /// weight positive.
    pub(crate) fn prune(&mut self, below: f64) {
        let most = self.weights.iter().fold(0.0f64, |m, w| m.max(*w));
        let keep: Vec<bool> = self.weights.iter().map(|w| *w > below * most).collect();
        if keep.iter().all(|k| *k) {
            return;
        }
        let nc = self.columns.len();
        let mut trial = Pool {
            p: self.p.clone(),
            columns: (0..nc)
                .filter(|&j| keep[j])
                .map(|j| self.columns[j].clone())
                .collect(),
            blocks: (0..self.blocks.len())
                .filter(|&b| keep[nc + b])
                .map(|b| self.blocks[b].clone())
                .collect(),
            weights: (0..self.len())
                .filter(|&i| keep[i])
                .map(|i| self.weights[i])
                .collect(),
        };
        if trial.restore_sums() {
            *self = trial;
        }
    }

    /// The least weighted move `da` (`sum (da_j / a_j)^2`) that makes the rows
    /// sum to 1 within [`SUMS`], refined while it gains; false (and nothing
    /// changed) where a weight would not stay positive or the elements cannot
    /// give those sums (their row sums do not span the residual).
    pub(crate) fn restore_sums(&mut self) -> bool {
        let v = self.sums();
        let mut a = Array1::from(self.weights.clone());
        let residual = |a: &Array1<f64>| Array1::ones(self.p.len()) - v.dot(a);
        let largest = |r: &Array1<f64>| r.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let mut r = residual(&a);
        for _ in 0..RESTORE_PASSES {
            if largest(&r) <= SUMS {
                break;
            }
            // da = A^2 V^T (V A^2 V^T)^-1 r, A = diag(a).
            let scaled = &v * &a.mapv(|w| w * w);
            let s = scaled.dot(&v.t());
            let Some(nu) = solve_semidefinite(&s, &r.clone().insert_axis(Axis(1))) else {
                return false;
            };
            let moved = &a + &scaled.t().dot(&nu.column(0));
            let left = residual(&moved);
            if moved.iter().any(|w| *w <= 0.0) || largest(&left) >= largest(&r) {
                break;
            }
            (a, r) = (moved, left);
        }
        if largest(&r) > SUMS {
            return false;
        }
        self.weights = a.to_vec();
        true
    }

    /// The restricted problem solved (module docs), then solved again without
    /// the elements it leaves inactive ([`INACTIVE`]), so that the mechanism
    /// has no output of negligible probability; where that costs more than
    /// the solve's precision (an element was active after all), the first
    /// solution stays.
    pub fn solve(&mut self, first: f64, target: f64, stop: &dyn Fn() -> bool) {
        let Some(precision) = self.centre(first, target, stop) else {
            return;
        };
        let solved = self.clone();
        let f = self.f();
        self.prune(precision.sqrt().min(INACTIVE));
        // Warm: from one pass below the t the first solve reached.
        self.centre(precision * f * GROWTH, target, stop);
        if self.f() > f + precision * f {
            *self = solved;
        }
    }

    /// The restricted problem solved until the barrier's bound on `f - min f`
    /// is below `target` (never finer than [`FLOOR`] of f), starting at t =
    /// n / `first`; `stop` is asked between Newton steps. The weights move only
    /// where f decreases. The precision reached, `n / (t f)`.
    pub(crate) fn centre(
        &mut self,
        first: f64,
        target: f64,
        stop: &dyn Fn() -> bool,
    ) -> Option<f64> {
        let before = self.f();
        if !before.is_finite() {
            return None;
        }
        let target = target.max(FLOOR * before);
        let n = self.len() as f64;
        let mut b = Barrier {
            pool: self,
            t: n / first.max(target),
        };
        let mut a = b.pool.weights.clone();
        'passes: loop {
            for _ in 0..NEWTON_STEPS {
                if stop() {
                    break 'passes;
                }
                match b.newton(&a, stop) {
                    Some((next, decrement)) => {
                        a = next;
                        // Past the barrier's own rounding no step can show a
                        // decrease: the pass is done.
                        let noise = ROUNDING * b.t * b.pool.trace_inverse(&a);
                        if 0.5 * decrement <= DECREMENT.max(noise) {
                            break;
                        }
                    }
                    None => break,
                }
            }
            if n / b.t <= target {
                break;
            }
            b.t *= GROWTH;
        }
        let precision = n / (b.t * before);
        if self.trace_inverse(&a) < before {
            self.weights = a;
        }
        Some(precision)
    }

    /// The row sums' multipliers at the restricted optimum for the weight `c`
    /// (`J^-2`): lambda with `lambda . v_e = <c, F_e>` for every element e
    /// of positive weight (its row sums `v_e`: the column, or 1 for a whole
    /// mechanism; `F_e` its Fisher information), by least squares weighted by
    /// the weights. At the optimum of the restricted problem these hold
    /// exactly (each element's rate equals its cost); `None` where the
    /// system is singular.
    pub(crate) fn multipliers(&self, c: &Array2<f64>) -> Option<Array1<f64>> {
        let k = self.p.len();
        let v = self.sums();
        let nc = self.columns.len();
        let mut rates = Array1::zeros(self.len());
        for (j, col) in self.columns.iter().enumerate() {
            rates[j] = col.dot(&c.dot(col));
        }
        for (b, block) in self.blocks.iter().enumerate() {
            rates[nc + b] = (c * &block.fisher).sum();
        }
        let a = Array1::from(self.weights.clone());
        let scaled = &v * &a;
        let normal = scaled.dot(&v.t());
        let right = scaled.dot(&rates).insert_axis(Axis(1));
        let lambda = solve_semidefinite(&normal, &right)?.column(0).to_owned();
        (lambda.len() == k).then_some(lambda)
    }

    /// The mixture as a mechanism (its rows sum to 1 to rounding: every Newton
    /// step keeps the row sums), columns of one shape merged.
    pub fn mechanism(&self) -> Result<Mechanism> {
        let k = self.p.len();
        let nc = self.columns.len();
        let mut parts: Vec<Array2<f64>> = Vec::new();
        if nc > 0 {
            let mut cols = Array2::zeros((k, nc));
            for (j, (c, w)) in self.columns.iter().zip(&self.weights).enumerate() {
                cols.column_mut(j).assign(&(c * *w));
            }
            parts.push(cols);
        }
        for (b, w) in self.blocks.iter().zip(&self.weights[nc..]) {
            parts.push(&b.mechanism.matrix() * *w);
        }
        let views: Vec<_> = parts.iter().map(|m| m.view()).collect();
        let joined = ndarray::concatenate(Axis(1), &views).map_err(|e| {
            ModelError::invalid("mechanism", e, "the mixture is empty", "keep one element")
        })?;
        super::estimation::merge_proportional(joined)
    }
}

impl Barrier<'_> {
    /// `t f(a) - sum log a_j` (infinite outside the domain).
    fn value(&self, a: &[f64]) -> f64 {
        if a.iter().any(|w| *w <= 0.0) {
            return f64::INFINITY;
        }
        self.t * self.pool.trace_inverse(a) - a.iter().map(|w| w.ln()).sum::<f64>()
    }

    /// One damped Newton step from `a` (Boyd and Vandenberghe §10.2, with the
    /// row sums' residual in the step): the new weights and the squared
    /// decrement, or `None` where no step decreases the barrier or `stop`
    /// says so during the line search (each of its trials costs a Fisher
    /// information and its inverse, and a search that finds no decrease tries
    /// some forty steps).
    fn newton(&self, a: &[f64], stop: &dyn Fn() -> bool) -> Option<(Vec<f64>, f64)> {
        let pool = self.pool;
        let inv = inverse_fisher(&pool.fisher_at(a))?;
        let (grad, hess) = derivatives(pool, &inv);
        let n = a.len();
        let g = Array1::from_shape_fn(n, |i| self.t * grad[i] - 1.0 / a[i]);
        let mut h = hess * self.t;
        for i in 0..n {
            h[[i, i]] += 1.0 / (a[i] * a[i]);
        }
        let v = pool.sums();
        let av = Array1::from(a.to_vec());
        let r = Array1::ones(pool.p.len()) - v.dot(&av);
        // H [z Z] = [g V^T]; (V Z) nu = -V z - r; d = -(z + Z nu).
        let mut rhs = Array2::zeros((n, 1 + v.nrows()));
        rhs.column_mut(0).assign(&g);
        rhs.slice_axis_mut(Axis(1), Slice::from(1..)).assign(&v.t());
        let sol = solve_spd(&h, &rhs)?;
        let z = sol.column(0);
        let zz = sol.slice_axis(Axis(1), Slice::from(1..));
        let s = v.dot(&zz);
        let rhs_nu = (-v.dot(&z) - &r).insert_axis(Axis(1));
        let nu = solve_semidefinite(&s, &rhs_nu)?;
        let d = -(&z + &zz.dot(&nu.column(0)));
        let slope = g.dot(&d);
        let decrement = -slope - r.dot(&nu.column(0));
        let mut step = 1.0f64;
        for (w, dw) in a.iter().zip(&d) {
            if *dw < 0.0 {
                step = step.min(-0.99 * w / dw);
            }
        }
        let here = self.value(a);
        if r.iter().any(|x| x.abs() > SUMS) {
            // Infeasible start (Boyd and Vandenberghe §10.3): the step within
            // the weights' domain, which shrinks the row sums' residual by
            // its length, whatever it does to the barrier.
            let next: Vec<f64> = a.iter().zip(&d).map(|(w, dw)| w + step * dw).collect();
            return Some((next, decrement.max(0.0)));
        }
        while step > 1e-12 && !stop() {
            let next: Vec<f64> = a.iter().zip(&d).map(|(w, dw)| w + step * dw).collect();
            if self.value(&next) <= here + 0.25 * step * slope.min(0.0) {
                return Some((next, decrement.max(0.0)));
            }
            step *= 0.5;
        }
        None
    }
}

/// The gradient and Hessian of `f(a) = tr(J(a)^-1)` over the pool's elements,
/// from `inv = J^-1`: `df/da_e = -tr(J^-2 F_e)` and `d2f/da_e da_g = 2 tr(J^-1
/// F_e J^-1 F_g J^-1)`, which for two columns is `2 (c_e^T J^-1 c_g)(c_e^T
/// J^-2 c_g)`.
fn derivatives(pool: &Pool, inv: &Array2<f64>) -> (Array1<f64>, Array2<f64>) {
    let nc = pool.columns.len();
    let n = pool.len();
    let inv2 = inv.dot(inv);
    let c = pool.column_matrix();
    let x = c.t().dot(&inv.dot(&c));
    let y = c.t().dot(&inv2.dot(&c));
    let mut grad = Array1::zeros(n);
    let mut hess = Array2::zeros((n, n));
    for i in 0..nc {
        grad[i] = -y[[i, i]];
        for j in 0..nc {
            hess[[i, j]] = 2.0 * x[[i, j]] * y[[i, j]];
        }
    }
    for (bi, b) in pool.blocks.iter().enumerate() {
        let e = nc + bi;
        grad[e] = -(&inv2 * &b.fisher).sum();
        // c^T J^-2 F J^-1 c for each column, and tr(J^-1 F J^-1 F' J^-1).
        let m = inv2.dot(&b.fisher).dot(inv);
        let mc = m.dot(&c);
        for j in 0..nc {
            let h = 2.0 * c.column(j).dot(&mc.column(j));
            hess[[j, e]] = h;
            hess[[e, j]] = h;
        }
        let left = inv.dot(&b.fisher).dot(inv);
        for (bj, other) in pool.blocks.iter().enumerate() {
            let right = other.fisher.dot(inv);
            hess[[e, nc + bj]] = 2.0 * (&left * &right.t()).sum();
        }
    }
    (grad, hess)
}

/// `h^-1 rhs` for a symmetric positive definite `h` (faer's Cholesky), `None`
/// where it does not factorise.
fn solve_spd(h: &Array2<f64>, rhs: &Array2<f64>) -> Option<Array2<f64>> {
    let n = h.nrows();
    let mat = faer::Mat::<f64>::from_fn(n, n, |i, j| 0.5 * (h[[i, j]] + h[[j, i]]));
    let llt = mat.llt(Side::Lower).ok()?;
    let b = faer::Mat::<f64>::from_fn(n, rhs.ncols(), |i, j| rhs[[i, j]]);
    let x = llt.solve(&b);
    let out = Array2::from_shape_fn((n, rhs.ncols()), |(i, j)| x[(i, j)]);
    out.iter().all(|v| v.is_finite()).then_some(out)
}

/// `s^+ rhs` for a symmetric positive semidefinite `s`, by its eigenvalues
/// (faer), those below [`RANK`] of the largest taken as 0: the row sums of
/// fewer elements than inputs are dependent, and the system is then singular
/// but consistent. `None` where the answer is not finite.
fn solve_semidefinite(s: &Array2<f64>, rhs: &Array2<f64>) -> Option<Array2<f64>> {
    let n = s.nrows();
    let mat = faer::Mat::<f64>::from_fn(n, n, |i, j| 0.5 * (s[[i, j]] + s[[j, i]]));
    let eig = mat.self_adjoint_eigen(Side::Lower).ok()?;
    let (u, values) = (eig.U(), eig.S().column_vector());
    let largest = (0..n).fold(0.0f64, |m, i| m.max(values[i].abs()));
    let u = Array2::from_shape_fn((n, n), |(i, j)| u[(i, j)]);
    let inverse = Array1::from_shape_fn(n, |i| match values[i] > RANK * largest {
        true => 1.0 / values[i],
        false => 0.0,
    });
    let projected = u.t().dot(rhs) * &inverse.insert_axis(Axis(1));
    let out = u.dot(&projected);
    out.iter().all(|v| v.is_finite()).then_some(out)
}
