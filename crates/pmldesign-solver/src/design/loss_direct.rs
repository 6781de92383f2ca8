//! The direct loss LP over the N^2 entries of W with the cone in sparse form
//! (the `loss` module's docs): the primal, the dual as a second LP, repaired to
//! exact feasibility, and the cleaning of the primal's solution.

use crate::cones::sparse::Constraints;
use crate::error::{Result, SolverError};
use crate::solution::loss::DirectDual;
use crate::verify::loss::{DualPoint, direct_alpha};
use good_lp::{Expression, ProblemVariables, Variable, variable};
use good_lp::{Solution, SolverModel};
use ndarray::Array2;
use pmldesign_model::{Mechanism, UncertaintySet};
use std::time::Instant;

/// Relative tightening of `E` in the direct primal LP (see the module docs).
pub const PRIMAL_MARGIN: f64 = 1e-9;

/// Entries of an LP solution at or below this are set to 0 before the rows are
/// renormalised.
pub const ENTRY_CUTOFF: f64 = 1e-13;

fn lp_error(what: &str, e: impl std::fmt::Display) -> SolverError {
    SolverError::Lp(format!("loss LP ({what}): {e}"))
}

/// The primal LP with `E` replaced by `e_lp`; returns W.
pub fn solve_primal(
    cons: &Constraints,
    c: &Array2<f64>,
    e_lp: f64,
    deadline: Option<Instant>,
) -> Result<Array2<f64>> {
    let n = c.nrows();
    let mut vars = ProblemVariables::new();
    let w: Vec<Vec<Variable>> = (0..n)
        .map(|_| (0..n).map(|_| vars.add(variable().min(0.0))).collect())
        .collect();
    let m: Vec<Variable> = (0..n).map(|_| vars.add(variable().min(0.0))).collect();
    let t: Vec<Variable> = if cons.uses_t() {
        (0..n).map(|_| vars.add(variable().min(0.0))).collect()
    } else {
        Vec::new()
    };
    let objective: Expression = (0..n)
        .flat_map(|x| (0..n).map(move |y| (x, y)))
        .filter(|&(x, y)| c[[x, y]] != 0.0)
        .map(|(x, y)| c[[x, y]] * w[x][y])
        .sum();
    let solver = crate::lp::backend::guarded_until(vars.len(), deadline);
    let mut model = vars.minimise(objective).using(solver);
    for row in &w {
        let s: Expression = row.iter().copied().sum();
        model = model.with(s.eq(1.0));
    }
    for y in 0..n {
        for row in &w {
            model = model.with((row[y] - e_lp * m[y]).leq(0.0));
        }
        for l in &cons.functionals {
            let mut expr: Expression = (0..n)
                .filter(|&x| l[x] != 0.0)
                .map(|x| -l[x] * w[x][y])
                .sum();
            expr += m[y];
            if cons.uses_t() {
                expr -= cons.h * t[y];
            }
            model = model.with(expr.leq(0.0));
        }
        if cons.uses_t() {
            for row in &w {
                model = model.with((t[y] - row[y]).leq(0.0));
            }
        }
    }
    let sol = model.solve().map_err(|e| lp_error("primal", e))?;
    Ok(Array2::from_shape_fn((n, n), |(x, y)| sol.value(w[x][y])))
}

/// Cleans the LP's W into a certified-grade mechanism: negatives and entries at or
/// below [`ENTRY_CUTOFF`] to 0, rows renormalised, then each column that still
/// exceeds eps lifted on its own ([`lift_columns`]), and only if some column
/// exceeds eps after that (rounding), mixed with the uniform constant mechanism.
pub(crate) fn clean(mut w: Array2<f64>, set: &UncertaintySet, epsilon: f64) -> Result<Mechanism> {
    w.mapv_inplace(|v| if v > ENTRY_CUTOFF { v } else { 0.0 });
    normalise_rows(&mut w)?;
    let e = epsilon.exp();
    if lift_columns(&mut w, set, epsilon, e) {
        normalise_rows(&mut w)?;
    }
    let n = w.nrows();
    // With the uniform row mixed in at weight lambda, column y is fixed when
    // (1 - lambda) v_y <= lambda (E - 1) / N.
    let ratio = violations(&w, set, epsilon, e)
        .map(|(_, v)| 2.0 * v * n as f64 / (e - 1.0))
        .fold(0.0, f64::max);
    if ratio > 0.0 {
        let lambda = ratio / (1.0 + ratio);
        w.mapv_inplace(|v| (1.0 - lambda) * v + lambda / n as f64);
    }
    Ok(Mechanism::new(w)?)
}

/// Each row divided by its sum; an error for a zero row.
fn normalise_rows(w: &mut Array2<f64>) -> Result<()> {
    for mut row in w.outer_iter_mut() {
        let s = row.sum();
        if s <= 0.0 {
            return Err(SolverError::Lp(
                "loss LP (primal): a row of the solution is zero".to_string(),
            ));
        }
        row /= s;
    }
    Ok(())
}

/// The columns over eps with their violation `v_y = max c - E min_Q Q . c > 0`.
fn violations<'a>(
    w: &'a Array2<f64>,
    set: &'a UncertaintySet,
    epsilon: f64,
    e: f64,
) -> impl Iterator<Item = (usize, f64)> + 'a {
    w.columns()
        .into_iter()
        .enumerate()
        .filter_map(move |(y, col)| {
            let over = set.column_worst_case_pml(col).is_some_and(|l| l > epsilon);
            let max = col.iter().copied().fold(0.0, f64::max);
            let v = max - e * set.min_output_probability(col);
            (over && v > 0.0).then_some((y, v))
        })
}

/// Adds `delta_y = 2 v_y / (E - 1)` to every entry of each column over eps, and
/// returns whether any was. Every `Q` sums to 1, so column y then satisfies
/// `max c + delta <= E (min_Q Q . c + delta)`; every row grows by the same
/// `sum delta`, so renormalising scales all columns alike and keeps them private.
/// An interior-point solution leaves many near-empty columns slightly over eps:
/// lifting only those costs far less than mixing every column with the uniform row.
fn lift_columns(w: &mut Array2<f64>, set: &UncertaintySet, epsilon: f64, e: f64) -> bool {
    let lifts: Vec<(usize, f64)> = violations(w, set, epsilon, e).collect();
    for &(y, v) in &lifts {
        let delta = 2.0 * v / (e - 1.0);
        w.column_mut(y).mapv_inplace(|x| x + delta);
    }
    !lifts.is_empty()
}

/// The dual LP (with the true `E`):
///
/// ```text
/// maximise   sum_x alpha_x
/// subject to alpha_x - gamma_xy + sum_k sigma_ky l_k[x] + rho_xy <= c_xy,
///            E sum_x gamma_xy <= sum_k sigma_ky,
///            h sum_k sigma_ky <= sum_x rho_xy      (Proposition 2 only),
///            gamma, sigma, rho >= 0, alpha free.
/// ```
pub fn solve_dual(
    cons: &Constraints,
    c: &Array2<f64>,
    deadline: Option<Instant>,
) -> Result<DualPoint> {
    let n = c.nrows();
    let kk = cons.functionals.len();
    let mut vars = ProblemVariables::new();
    let alpha: Vec<Variable> = (0..n).map(|_| vars.add(variable())).collect();
    let gamma: Vec<Vec<Variable>> = (0..n)
        .map(|_| (0..n).map(|_| vars.add(variable().min(0.0))).collect())
        .collect();
    let sigma: Vec<Vec<Variable>> = (0..kk)
        .map(|_| (0..n).map(|_| vars.add(variable().min(0.0))).collect())
        .collect();
    let rho: Vec<Vec<Variable>> = if cons.uses_t() {
        (0..n)
            .map(|_| (0..n).map(|_| vars.add(variable().min(0.0))).collect())
            .collect()
    } else {
        Vec::new()
    };
    let objective: Expression = alpha.iter().copied().sum();
    let solver = crate::lp::backend::guarded_until(vars.len(), deadline);
    let mut model = vars.maximise(objective).using(solver);
    for x in 0..n {
        for y in 0..n {
            let mut expr: Expression = alpha[x] - gamma[x][y];
            for (k, l) in cons.functionals.iter().enumerate() {
                if l[x] != 0.0 {
                    expr += l[x] * sigma[k][y];
                }
            }
            if cons.uses_t() {
                expr += rho[x][y];
            }
            model = model.with(expr.leq(c[[x, y]]));
        }
    }
    for y in 0..n {
        let sig: Expression = sigma.iter().map(|s| s[y]).sum();
        let gam: Expression = gamma.iter().map(|g| g[y]).sum();
        model = model.with((cons.e * gam - sig.clone()).leq(0.0));
        if cons.uses_t() {
            let r: Expression = rho.iter().map(|r| r[y]).sum();
            model = model.with((cons.h * sig - r).leq(0.0));
        }
    }
    let sol = model.solve().map_err(|e| lp_error("dual", e))?;
    let grid = |v: &[Vec<Variable>], rows: usize| {
        Array2::from_shape_fn((rows, n), |(i, y)| sol.value(v[i][y]))
    };
    Ok(DualPoint {
        gamma: grid(&gamma, n),
        sigma: grid(&sigma, kk),
        rho: if cons.uses_t() {
            grid(&rho, n)
        } else {
            Array2::zeros((n, n))
        },
    })
}

/// Repairs a dual point to exact feasibility, with the lower bound it proves
/// over the labels that are the columns of `c`,
/// `sum_x min_y (c_xy + gamma_xy - sum_k sigma_ky l_k[x] - rho_xy)`.
///
/// Weak duality: for feasible (W, m, t) and multipliers `>= 0` with
/// `E sum_x gamma_xy <= sum_k sigma_ky` and `h sum_k sigma_ky <= sum_x rho_xy`,
/// `c . W >= sum_x alpha_x` whenever `alpha_x` is at most every such term. The
/// multipliers are clamped to `>= 0`; sigma, then gamma, are scaled down per output
/// where a coupling constraint is violated (scaling down keeps the earlier ones).
pub fn repaired(cons: &Constraints, c: &Array2<f64>, mut dual: DualPoint) -> DirectDual {
    let relu = |v: f64| if v.is_finite() && v > 0.0 { v } else { 0.0 };
    dual.gamma.mapv_inplace(relu);
    dual.sigma.mapv_inplace(relu);
    dual.rho.mapv_inplace(relu);
    // The factor below 1 absorbs the rounding of the sums, so that the coupling
    // constraints hold in floating point too.
    let shrink = |have: f64, need: f64| have / need * (1.0 - 1e-12);
    for y in 0..c.ncols() {
        if cons.uses_t() {
            let need = cons.h * dual.sigma.column(y).sum();
            let have = dual.rho.column(y).sum();
            if need > have * (1.0 - 1e-12) {
                let s = shrink(have, need);
                dual.sigma.column_mut(y).mapv_inplace(|v| v * s);
            }
        }
        let need = cons.e * dual.gamma.column(y).sum();
        let have = dual.sigma.column(y).sum();
        if need > have * (1.0 - 1e-12) {
            let s = shrink(have, need);
            dual.gamma.column_mut(y).mapv_inplace(|v| v * s);
        }
    }
    let rows = |a: &Array2<f64>| a.outer_iter().map(|r| r.to_vec()).collect();
    let alpha = direct_alpha(&cons.functionals, c, &dual);
    DirectDual {
        bound: alpha.iter().sum(),
        alpha,
        gamma: rows(&dual.gamma),
        sigma: rows(&dual.sigma),
        rho: rows(&dual.rho),
    }
}
