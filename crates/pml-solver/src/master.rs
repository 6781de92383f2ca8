//! A small dense primal simplex for the restricted master problem of column
//! generation, `max c^T theta  s.t.  V theta = 1, theta >= 0`, with N rows (the
//! alphabet) and a few hundred columns. It is the fallback when the LP backend
//! fails on a degenerate master, and it returns the basis dual directly.
//!
//! Start: the all-ones column (which every working set holds at index 0) with
//! unit "artificial" columns for rows 2..N, all fixed at zero: the basis
//! `[1, e_2, .., e_N]` is nonsingular and feasible. Artificials never enter and
//! leave as soon as a pivot touches them, so every basic solution is feasible for
//! the real problem. Dantzig pricing, Bland's rule after a run of degenerate
//! pivots, explicit basis inverse refactorised periodically.

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
}

/// Basis entry: a real column or an artificial (unit vector of a row).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Var {
    Column(usize),
    Artificial(usize),
}

/// Solves the master over columns `v[k]` with costs `c[k]`; column 0 must be the
/// all-ones vector. `None` if the iteration limit is hit or the basis degenerates
/// numerically.
pub fn solve(v: &[Array1<f64>], c: &[f64]) -> Option<MasterSolution> {
    let n = v.first()?.len();
    let k = v.len();
    let col = |var: Var| -> Array1<f64> {
        match var {
            Var::Column(j) => v[j].clone(),
            Var::Artificial(i) => {
                let mut e = Array1::zeros(n);
                e[i] = 1.0;
                e
            }
        }
    };
    let cost = |var: Var| match var {
        Var::Column(j) => c[j],
        Var::Artificial(_) => 0.0,
    };
    let mut basis: Vec<Var> = std::iter::once(Var::Column(0))
        .chain((1..n).map(Var::Artificial))
        .collect();
    let mut binv = invert(&basis.iter().map(|&b| col(b)).collect::<Vec<_>>())?;
    let ones = Array1::<f64>::ones(n);
    let mut x = binv.dot(&ones);
    let scale = 1.0 + c.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let mut degenerate_run = 0;
    for iteration in 0..50_000 {
        if iteration % 64 == 63 {
            binv = invert(&basis.iter().map(|&b| col(b)).collect::<Vec<_>>())?;
            x = binv.dot(&ones);
        }
        let cb: Array1<f64> = basis.iter().map(|&b| cost(b)).collect();
        let lambda = binv.t().dot(&cb);
        // Entering column: most positive reduced cost (Bland: lowest index).
        let bland = degenerate_run > 50;
        let mut entering: Option<(usize, f64)> = None;
        for j in 0..k {
            if basis.contains(&Var::Column(j)) {
                continue;
            }
            let rc = c[j] - lambda.dot(&v[j]);
            if rc > 1e-12 * scale {
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
            let mut theta = vec![0.0; k];
            for (i, &b) in basis.iter().enumerate() {
                if let Var::Column(jj) = b {
                    theta[jj] = x[i].max(0.0);
                }
            }
            let value = theta.iter().zip(c).map(|(t, c)| t * c).sum();
            return Some(MasterSolution {
                theta,
                dual: lambda,
                value,
            });
        };
        let d = binv.dot(&v[j]);
        // Ratio test; artificials are fixed at zero and block any move.
        let mut leave: Option<(usize, f64)> = None;
        for i in 0..n {
            let blocks = match basis[i] {
                Var::Artificial(_) => d[i].abs() > 1e-11,
                Var::Column(_) => d[i] > 1e-11,
            };
            if blocks {
                let step = match basis[i] {
                    Var::Artificial(_) => 0.0,
                    Var::Column(_) => x[i].max(0.0) / d[i],
                };
                let better = match leave {
                    None => true,
                    // Ties: Bland keeps the first row; otherwise the larger pivot.
                    Some((li, ls)) => {
                        step < ls - 1e-15
                            || (step <= ls + 1e-15 && !bland && d[i].abs() > d[li].abs())
                    }
                };
                if better {
                    leave = Some((i, step));
                }
            }
        }
        // Unbounded cannot happen: every column has p . v = 1 with p > 0.
        let (r, step) = leave?;
        degenerate_run = if step <= 1e-15 { degenerate_run + 1 } else { 0 };
        // Update x and the inverse by the pivot on row r.
        for i in 0..n {
            if i != r {
                x[i] -= step * d[i];
            }
        }
        x[r] = step;
        let pivot = d[r];
        let row_r = binv.row(r).to_owned() / pivot;
        for i in 0..n {
            if i != r {
                let f = d[i];
                if f != 0.0 {
                    let mut row = binv.row_mut(i);
                    row.scaled_add(-f, &row_r);
                }
            }
        }
        binv.row_mut(r).assign(&row_r);
        basis[r] = Var::Column(j);
    }
    None
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
        let v = vec![
            array![1.0, 1.0],
            array![2.0, 0.0],
            array![0.0, 2.0],
            array![1.5, 0.5],
        ];
        let c = vec![0.0, 1.0, 1.0, 0.6];
        let s = solve(&v, &c).unwrap();
        assert!((s.value - 1.0).abs() < 1e-12);
        assert!((s.theta[1] - 0.5).abs() < 1e-12 && (s.theta[2] - 0.5).abs() < 1e-12);
        for (vk, ck) in v.iter().zip(&c) {
            assert!(s.dual.dot(vk) >= ck - 1e-12);
        }
        assert!((s.dual.sum() - s.value).abs() < 1e-12);
    }
}
