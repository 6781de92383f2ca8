//! The restricted master's fallbacks through `good_lp`: its primal and dual as
//! LPs, used when the dense master cannot finish.

use crate::colgen::oracle::Column;
use crate::error::{Result, SolverError};
use good_lp::{Expression, ProblemVariables, variable};
use good_lp::{Solution, SolverModel};
use ndarray::{Array1, ArrayView1};
use std::time::Instant;

fn dot_expr(coefs: ArrayView1<f64>, vars: &[good_lp::Variable]) -> Expression {
    coefs
        .iter()
        .zip(vars)
        .filter(|(c, _)| **c != 0.0)
        .map(|(c, v)| *c * *v)
        .sum()
}

/// The restricted dual, retried with the right-hand sides perturbed by growing
/// relative amounts (1e-12 .. 1e-8) when microlp reports a numerical failure on a
/// degenerate problem (ties between many rays). A perturbed lambda still yields a
/// valid bound, and the certificate checks the final gap.
pub(crate) fn restricted_dual(
    working: &[Column],
    deadline: Option<Instant>,
) -> Result<Array1<f64>> {
    let mut last = None;
    for perturbation in [0.0, 1e-12, 1e-10, 1e-8] {
        match solve_restricted_dual(working, perturbation, deadline) {
            Ok(l) => return Ok(l),
            Err(e) => last = Some(e),
        }
    }
    Err(last.expect("at least one attempt"))
}

/// A deterministic pseudo-random number in [-1, 1] for index k (SplitMix64).
fn jitter(k: usize) -> f64 {
    let mut z = (k as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

fn solve_restricted_dual(
    working: &[Column],
    perturbation: f64,
    deadline: Option<Instant>,
) -> Result<Array1<f64>> {
    let n = working[0].vector.len();
    // lambda = plus - minus with both parts non-negative: microlp is less fragile
    // with non-negative variables than with free or boxed ones on these degenerate
    // problems.
    let mut vars = ProblemVariables::new();
    let plus: Vec<_> = (0..n).map(|_| vars.add(variable().min(0.0))).collect();
    let minus: Vec<_> = (0..n).map(|_| vars.add(variable().min(0.0))).collect();
    let both =
        |coefs: ArrayView1<f64>| -> Expression { dot_expr(coefs, &plus) - dot_expr(coefs, &minus) };
    let ones = Array1::<f64>::ones(n);
    let solver = crate::lp::backend::guarded_until(vars.len(), deadline);
    let mut model = vars.minimise(both(ones.view())).using(solver);
    for (k, c) in working.iter().enumerate() {
        let rhs = c.value + perturbation * jitter(k) * (1.0 + c.value.abs());
        model = model.with(both(c.vector.view()).geq(rhs));
    }
    let sol = model
        .solve()
        .map_err(|e| SolverError::Lp(format!("restricted dual: {e}")))?;
    let out: Array1<f64> = plus
        .iter()
        .zip(&minus)
        .map(|(a, b)| sol.value(*a) - sol.value(*b))
        .collect();
    if out.iter().any(|x| !x.is_finite()) {
        return Err(SolverError::Lp(format!("restricted dual returned {out}")));
    }
    Ok(out)
}

/// The restricted primal by microlp: theta, one per working column.
pub(crate) fn solve_restricted_primal(
    working: &[Column],
    deadline: Option<Instant>,
) -> Result<Vec<f64>> {
    let n = working[0].vector.len();
    let mut vars = ProblemVariables::new();
    let theta: Vec<_> = working
        .iter()
        .map(|_| vars.add(variable().min(0.0)))
        .collect();
    let objective: Expression = working.iter().zip(&theta).map(|(c, t)| c.value * *t).sum();
    let solver = crate::lp::backend::guarded_until(vars.len(), deadline);
    let mut model = vars.maximise(objective).using(solver);
    for x in 0..n {
        let row: Expression = working
            .iter()
            .zip(&theta)
            .filter(|(c, _)| c.vector[x] != 0.0)
            .map(|(c, t)| c.vector[x] * *t)
            .sum();
        model = model.with(row.eq(1.0));
    }
    let sol = model
        .solve()
        .map_err(|e| SolverError::Lp(format!("restricted primal: {e}")))?;
    Ok(theta.iter().map(|t| sol.value(*t).max(0.0)).collect())
}
