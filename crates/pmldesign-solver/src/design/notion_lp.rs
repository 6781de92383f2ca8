//! The direct loss LP under any notion (docs/theory.md §4c): the N^2 entries of W,
//! a few auxiliary variables per output, and each column's cone as homogeneous
//! sparse rows `a . (W[:, y], aux_y) <= 0` ([`ColumnForm`]).
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

use crate::error::{Result, SolverError};
use good_lp::{Expression, ProblemVariables, Solution, SolverModel, Variable, variable};
use ndarray::Array2;

/// The cone of one column in sparse form: variables `0..n` are the column's
/// entries, `n..n + aux_bounds.len()` its auxiliary variables; every row is
/// `sum coef * var <= 0`.
#[derive(Debug, Clone, Default)]
pub(crate) struct ColumnForm {
    /// N.
    pub n: usize,
    /// `U_k >= aux_k` at every feasible point (entries of W lie in `[0, 1]`).
    pub aux_bounds: Vec<f64>,
    /// The rows, as (variable, coefficient) lists.
    pub rows: Vec<Vec<(usize, f64)>>,
}

impl ColumnForm {
    /// An empty form on N entries.
    pub fn new(n: usize) -> Self {
        ColumnForm {
            n,
            ..ColumnForm::default()
        }
    }

    /// A new auxiliary variable bounded by `bound`; returns its index.
    pub fn aux(&mut self, bound: f64) -> usize {
        self.aux_bounds.push(bound);
        self.n + self.aux_bounds.len() - 1
    }

    /// Adds the row `sum coef * var <= 0`.
    pub fn row(&mut self, terms: Vec<(usize, f64)>) {
        self.rows.push(terms);
    }

    fn width(&self) -> usize {
        self.n + self.aux_bounds.len()
    }
}

fn lp_error(what: &str, e: impl std::fmt::Display) -> SolverError {
    SolverError::Lp(format!("notion loss LP ({what}): {e}"))
}

/// The primal LP (module docs) over the cone `form`; returns W.
pub(crate) fn solve_primal(form: &ColumnForm, c: &Array2<f64>) -> Result<Array2<f64>> {
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
    let solver = crate::lp::backend::guarded(vars.len());
    let mut model = vars.minimise(objective).using(solver);
    for x in 0..n {
        let s: Expression = cols.iter().map(|col| col[x]).sum();
        model = model.with(s.eq(1.0));
    }
    for col in &cols {
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
pub(crate) fn solve_dual(form: &ColumnForm, c: &Array2<f64>) -> Result<Array2<f64>> {
    let n = c.nrows();
    let rows = form.rows.len();
    let mut vars = ProblemVariables::new();
    let alpha: Vec<Variable> = (0..n).map(|_| vars.add(variable())).collect();
    let g: Vec<Vec<Variable>> = (0..n)
        .map(|_| (0..rows).map(|_| vars.add(variable().min(0.0))).collect())
        .collect();
    let objective: Expression = alpha.iter().copied().sum();
    let solver = crate::lp::backend::guarded(vars.len());
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

/// The lower bound that multipliers `g` (clamped to `>= 0`) prove (module docs).
pub(crate) fn dual_bound(form: &ColumnForm, c: &Array2<f64>, g: &Array2<f64>) -> f64 {
    let n = c.nrows();
    let mut reduced = c.clone();
    let mut aux_penalty = 0.0;
    for y in 0..n {
        let mut t = vec![0.0; form.width()];
        for (r, row) in form.rows.iter().enumerate() {
            let gr = g[[y, r]];
            let gr = if gr.is_finite() && gr > 0.0 { gr } else { 0.0 };
            for &(v, a) in row {
                t[v] += a * gr;
            }
        }
        for x in 0..n {
            reduced[[x, y]] += t[x];
        }
        for (k, u) in form.aux_bounds.iter().enumerate() {
            aux_penalty += t[n + k].min(0.0) * u;
        }
    }
    let rows: f64 = reduced
        .outer_iter()
        .map(|r| r.iter().copied().fold(f64::INFINITY, f64::min))
        .sum();
    rows + aux_penalty
}
