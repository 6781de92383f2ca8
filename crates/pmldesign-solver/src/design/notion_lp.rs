//! The direct loss LP under any notion (docs/theory.md §4c): the N^2 entries of W,
//! a few auxiliary variables per output, and each column's cone as homogeneous
//! sparse rows `a . (W[:, y], aux_y) <= 0` ([`ColumnForm`], in `cones/notion_form.rs` with
//! the bound its multipliers prove, which `verify/` re-checks).
//!
//! ```text
//! minimise   sum_{x,y} c[x][y] W[x][y]
//! subject to sum_y W[x][y] = 1,   A (W[:, y], aux_y) <= 0 for every y,   W, aux >= 0.
//! ```
//!
//! The lower bound comes from any multipliers `g >= 0` of the cone rows (a dual
//! LP solved second, then clamped to `g >= 0`; docs/theory.md §4c): for every
//! feasible point `c . W >= c . W + g . A(W, aux)`, which is at least
//! `sum_x min_y (c + A^T g)_xy + sum_k min(0, (A^T g)_k) U_k`, where `U_k` bounds
//! the auxiliary variable k over every feasible point ([`ColumnForm::aux_bounds`]).
//! No other repair of the dual is needed: the bound is valid whatever g is.

use crate::cones::notion_form::ColumnForm;
use crate::error::{Result, SolverError};
use good_lp::{Expression, ProblemVariables, Solution, SolverModel, Variable, variable};
use ndarray::Array2;
use std::time::Instant;

fn lp_error(what: &str, e: impl std::fmt::Display) -> SolverError {
    SolverError::Lp(format!("notion loss LP ({what}): {e}"))
}

/// An error in microlp's words (read by `limits::explain` as a stop by the
/// clock) once `deadline` has passed: building the LP of a ball with many
/// vertices can take longer than solving it, and microlp's clock starts after.
fn past(deadline: Option<Instant>) -> Result<()> {
    if deadline.is_some_and(|d| Instant::now() >= d) {
        return Err(lp_error(
            "building",
            "Time limit reached before finding a feasible solution",
        ));
    }
    Ok(())
}

/// The primal LP (module docs) over the cone `form`; returns W. Stops at
/// `deadline` (an error saying so, as microlp words it).
pub(crate) fn solve_primal(
    form: &ColumnForm,
    c: &Array2<f64>,
    deadline: Option<Instant>,
) -> Result<Array2<f64>> {
    let n = c.nrows();
    let mut vars = ProblemVariables::new();
    // Column y's variables: its N entries, then its auxiliaries.
    let cols: Vec<Vec<Variable>> = (0..n)
        .map(|_| {
            (0..form.width())
                .map(|_| vars.add(variable().min(0.0)))
                .collect()
        })
        .collect();
    let objective: Expression = (0..n)
        .flat_map(|x| (0..n).map(move |y| (x, y)))
        .filter(|&(x, y)| c[[x, y]] != 0.0)
        .map(|(x, y)| c[[x, y]] * cols[y][x])
        .sum();
    let solver = crate::lp::backend::guarded_until(vars.len(), deadline);
    let mut model = vars.minimise(objective).using(solver);
    for x in 0..n {
        let s: Expression = cols.iter().map(|col| col[x]).sum();
        model = model.with(s.eq(1.0));
    }
    for col in &cols {
        past(deadline)?;
        for row in &form.rows {
            let e: Expression = row.iter().map(|&(v, a)| a * col[v]).sum();
            model = model.with(e.leq(0.0));
        }
    }
    let sol = model.solve().map_err(|e| lp_error("primal", e))?;
    Ok(Array2::from_shape_fn((n, n), |(x, y)| {
        sol.value(cols[y][x])
    }))
}

/// The dual LP: `max sum alpha` subject to `alpha_x <= c_xy + (A^T g_y)_x`,
/// `(A^T g_y)_k >= 0` for the auxiliaries, `g >= 0`; returns g (outputs x rows).
/// Stops at `deadline`.
pub(crate) fn solve_dual(
    form: &ColumnForm,
    c: &Array2<f64>,
    deadline: Option<Instant>,
) -> Result<Array2<f64>> {
    let n = c.nrows();
    let rows = form.rows.len();
    let mut vars = ProblemVariables::new();
    let alpha: Vec<Variable> = (0..n).map(|_| vars.add(variable())).collect();
    let g: Vec<Vec<Variable>> = (0..n)
        .map(|_| (0..rows).map(|_| vars.add(variable().min(0.0))).collect())
        .collect();
    let objective: Expression = alpha.iter().copied().sum();
    let solver = crate::lp::backend::guarded_until(vars.len(), deadline);
    let mut model = vars.maximise(objective).using(solver);
    // (A^T g_y)_v as an expression, for every variable v of column y.
    let transpose = |gy: &[Variable]| {
        let mut t: Vec<Expression> = vec![Expression::from(0.0); form.width()];
        for (r, row) in form.rows.iter().enumerate() {
            for &(v, a) in row {
                t[v] += a * gy[r];
            }
        }
        t
    };
    for (y, gy) in g.iter().enumerate() {
        past(deadline)?;
        let t = transpose(gy);
        for x in 0..n {
            model = model.with((alpha[x] - t[x].clone()).leq(c[[x, y]]));
        }
        for tk in &t[n..] {
            model = model.with((-tk.clone()).leq(0.0));
        }
    }
    let sol = model.solve().map_err(|e| lp_error("dual", e))?;
    Ok(Array2::from_shape_fn((n, rows), |(y, r)| {
        sol.value(g[y][r])
    }))
}
