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
//! the real problem. Dantzig pricing; a Harris ratio test (the largest pivot
//! among the rows that block within a tiny tolerance) keeps the basis well
//! conditioned; Bland's rule after a long run of degenerate pivots, and a
//! growing optimality tolerance if the run goes on (reduced costs that are
//! rounding noise). The explicit basis inverse is refactorised periodically; on
//! a numerically singular basis it gives up (`None`): column generation then
//! rebuilds the master on the last optimum's support and the newest columns
//! ([`crate::ray_lp`]), and falls back to microlp if that fails as well.

use ndarray::{Array1, Array2};

/// Solution of the master: weights of the columns and the basis dual.
#[derive(Debug, Clone)]
pub struct MasterSolution {
    /// theta, one per column.
    pub theta: Vec<f64>,
    /// The dual lambda (`lambda . v_k >= c_k` for every column at optimality).
    pub dual: Array1<f64>,
    /// `c^T theta`.
    pub value: f64,
    /// Whether `V theta = 1` holds to rounding with theta >= 0 (the Harris ratio
    /// test can leave basic values slightly negative; theta is clamped and this
    /// is false then: the dual is still valid).
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

/// Pivots between refactorisations of the basis inverse.
const REFACTOR_EVERY: usize = 64;
/// Largest entry of an acceptable basis inverse (the columns are O(1)).
const MAX_INVERSE_ENTRY: f64 = 1e13;
/// Smallest pivot element the ratio test accepts.
const PIVOT_TOLERANCE: f64 = 1e-7;

/// The restricted master with a warm basis (module docs).
#[derive(Debug, Clone)]
pub struct Master {
    n: usize,
    v: Vec<Array1<f64>>,
    c: Vec<f64>,
    in_basis: Vec<bool>,
    basis: Vec<Var>,
    binv: Array2<f64>,
    x: Array1<f64>,
    pivots: usize,
}

impl Master {
    /// A master over the all-ones column with value `ones_value` in dimension `n`.
    pub fn new(n: usize, ones_value: f64) -> Self {
        Master {
            n,
            v: vec![Array1::ones(n)],
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
            x: {
                let mut x = Array1::zeros(n);
                x[0] = 1.0;
                x
            },
            pivots: 0,
        }
    }

    /// Adds a column `v` with objective coefficient `c`; returns its index.
    pub fn push(&mut self, v: Array1<f64>, c: f64) -> usize {
        self.v.push(v);
        self.c.push(c);
        self.in_basis.push(false);
        self.v.len() - 1
    }

    fn column(&self, var: Var) -> Array1<f64> {
        match var {
            Var::Column(j) => self.v[j].clone(),
            Var::Artificial(i) => unit(self.n, i),
        }
    }

    fn cost(&self, var: Var) -> f64 {
        match var {
            Var::Column(j) => self.c[j],
            Var::Artificial(_) => 0.0,
        }
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
        self.x = self.binv.sum_axis(ndarray::Axis(1));
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
    pub fn optimise(&mut self) -> Option<MasterSolution> {
        let n = self.n;
        let scale = 1.0 + self.c.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let mut degenerate_run = 0;
        let mut tolerance = OPTIMALITY_TOLERANCE;
        for _ in 0..200_000 {
            if self.pivots >= REFACTOR_EVERY && self.refactor().is_none() {
                // A numerically singular basis: give up (the caller rebuilds the
                // master on fewer columns or falls back to another solver).
                return None;
            }
            let cb: Array1<f64> = self.basis.iter().map(|&b| self.cost(b)).collect();
            let lambda = self.binv.t().dot(&cb);
            // Entering column: most positive reduced cost (Bland: lowest index).
            let bland = degenerate_run > BLAND_AFTER;
            let mut entering: Option<(usize, f64)> = None;
            for (j, vj) in self.v.iter().enumerate() {
                if self.in_basis[j] {
                    continue;
                }
                let rc = self.c[j] - lambda.dot(vj);
                if rc > tolerance * scale {
                    match entering {
                        None => entering = Some((j, rc)),
                        Some((_, best)) if !bland && rc > best => entering = Some((j, rc)),
                        _ => {}
                    }
                    if bland {
                        break;
                    }
                }
            }
            let Some((j, _)) = entering else {
                // Optimal; the basic values from a fresh inverse decide whether
                // the primal is feasible to FEASIBILITY_TOLERANCE.
                if self.pivots > 0 {
                    self.refactor()?;
                }
                let mut theta = vec![0.0; self.v.len()];
                let mut feasible = true;
                for (&b, &xi) in self.basis.iter().zip(&self.x) {
                    if let Var::Column(jj) = b {
                        feasible &= xi >= -FEASIBILITY_TOLERANCE;
                        theta[jj] = xi.max(0.0);
                    }
                }
                let value = theta.iter().zip(&self.c).map(|(t, c)| t * c).sum();
                return Some(MasterSolution {
                    theta,
                    dual: lambda,
                    value,
                    feasible,
                });
            };
            let d = self.binv.dot(&self.v[j]);
            // Pivots are judged relative to the direction's scale: entries of d
            // below it are rounding noise of an ill-conditioned basis.
            let pivot_tol = PIVOT_TOLERANCE * d.iter().fold(1.0f64, |m, x| m.max(x.abs()));
            // Harris ratio test; artificials are fixed at zero and block any move.
            // Pass 1: the longest step that keeps every basic value above
            // -HARRIS_TOLERANCE. Pass 2: among the rows that block within it, the
            // largest pivot, so that the basis stays well conditioned.
            let ratio = |i: usize, tolerance: f64| -> Option<f64> {
                match self.basis[i] {
                    Var::Artificial(_) if d[i].abs() > pivot_tol => Some(0.0),
                    Var::Column(_) if d[i] > pivot_tol => {
                        Some((self.x[i].max(0.0) + tolerance) / d[i])
                    }
                    _ => None,
                }
            };
            let bound = (0..n)
                .filter_map(|i| ratio(i, HARRIS_TOLERANCE))
                .fold(f64::INFINITY, f64::min);
            // Unbounded cannot happen: every column has r . v = 1 with r > 0.
            let candidates = (0..n)
                .filter_map(|i| ratio(i, 0.0).map(|s| (i, s)))
                .filter(|&(_, s)| s <= bound);
            let (r, step) = if bland {
                // Bland's rule: the smallest ratio, ties to the lowest variable.
                candidates.min_by(|a, b| {
                    a.1.total_cmp(&b.1)
                        .then(self.basis[a.0].order().cmp(&self.basis[b.0].order()))
                })?
            } else {
                candidates.max_by(|a, b| d[a.0].abs().total_cmp(&d[b.0].abs()))?
            };
            degenerate_run = if step <= 1e-12 { degenerate_run + 1 } else { 0 };
            if degenerate_run > 0 && degenerate_run % STALL_PIVOTS == 0 {
                // Stalling on reduced costs that are rounding noise of the basis
                // inverse (two nearly equal columns swapping in and out): loosen.
                tolerance = (tolerance * 10.0).min(1e-8);
            }
            // Update x and the inverse by the pivot on row r.
            self.x.scaled_add(-step, &d);
            self.x[r] = step;
            let pivot = d[r];
            let row_r = self.binv.row(r).to_owned() / pivot;
            for i in 0..n {
                let f = d[i];
                if i != r && f != 0.0 {
                    self.binv.row_mut(i).scaled_add(-f, &row_r);
                }
            }
            self.binv.row_mut(r).assign(&row_r);
            if let Var::Column(old) = self.basis[r] {
                self.in_basis[old] = false;
            }
            self.basis[r] = Var::Column(j);
            self.in_basis[j] = true;
            self.pivots += 1;
        }
        None
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

fn unit(n: usize, i: usize) -> Array1<f64> {
    let mut e = Array1::zeros(n);
    e[i] = 1.0;
    e
}

/// Inverts the matrix with the given columns by Gauss-Jordan with partial pivoting.
fn invert(columns: &[Array1<f64>]) -> Option<Array2<f64>> {
    let n = columns.len();
    let mut a = Array2::zeros((n, n));
    for (j, c) in columns.iter().enumerate() {
        a.column_mut(j).assign(c);
    }
    let mut inv = Array2::<f64>::eye(n);
    for col in 0..n {
        let piv = (col..n).max_by(|&i, &j| a[[i, col]].abs().total_cmp(&a[[j, col]].abs()))?;
        if a[[piv, col]].abs() < 1e-14 {
            return None;
        }
        if piv != col {
            for m in [&mut a, &mut inv] {
                for j in 0..n {
                    m.swap([piv, j], [col, j]);
                }
            }
        }
        let p = a[[col, col]];
        for j in 0..n {
            a[[col, j]] /= p;
            inv[[col, j]] /= p;
        }
        for i in 0..n {
            if i != col {
                let f = a[[i, col]];
                if f != 0.0 {
                    for j in 0..n {
                        a[[i, j]] -= f * a[[col, j]];
                        inv[[i, j]] -= f * inv[[col, j]];
                    }
                }
            }
        }
    }
    Some(inv)
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
            m.push(vk.clone(), *ck);
        }
        let s = m.optimise().unwrap();
        assert!((s.value - 1.0).abs() < 1e-12);
        assert!((s.theta[1] - 0.5).abs() < 1e-12 && (s.theta[2] - 0.5).abs() < 1e-12);
        for (vk, ck) in v.iter().zip(&c) {
            assert!(s.dual.dot(vk) >= ck - 1e-12);
        }
        assert!((s.dual.sum() - s.value).abs() < 1e-12);
    }
}
