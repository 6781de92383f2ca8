//! The LP over extreme rays (THEORY 4), solved by column generation.
//!
//! Primal: `max sum_k theta_k mu(v_k)  s.t.  sum_k theta_k v_k = 1, theta >= 0`.
//! Dual:   `min sum_x lambda_x          s.t.  lambda . v_k >= mu(v_k) for every k`.
//!
//! A restricted dual over a working set of rays gives lambda; pricing scans every
//! ray for a positive reduced cost `mu(v_k) - lambda . v_k`. When none is left,
//! `sum lambda` bounds the utility of every mechanism in the cone. Because the rays
//! are normalised by a distribution r (`r . v_k = 1`), `sum theta_k = 1`, so for
//! any lambda `sum lambda + max(0, max_k reduced cost)` is a valid upper bound: the
//! certificate reported with every design.

use crate::error::{Result, SolverError};
use crate::rays::RaySet;
use good_lp::{Expression, ProblemVariables, Solution, SolverModel, microlp, variable};
use ndarray::{Array1, ArrayView1};
use rayon::prelude::*;

/// Settings of the column-generation loop.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnGenerationSettings {
    /// Rays added to the working set per pricing pass.
    pub batch: usize,
    /// Pricing passes before giving up.
    pub max_iterations: usize,
    /// A ray enters only if its reduced cost exceeds this (relative to `1 + |bound|`).
    pub pricing_tolerance: f64,
}

impl Default for ColumnGenerationSettings {
    fn default() -> Self {
        ColumnGenerationSettings {
            batch: 32,
            max_iterations: 10_000,
            pricing_tolerance: 1e-11,
        }
    }
}

/// The optimum of the LP over rays.
#[derive(Debug, Clone)]
pub struct RayLpSolution {
    /// `(ray index, theta_k)` for the rays in the optimal combination.
    pub weights: Vec<(usize, f64)>,
    /// Weight on the all-ones column (a non-extreme member of every cone), if used.
    pub ones_weight: f64,
    /// Primal objective `sum theta_k mu(v_k)`.
    pub value: f64,
    /// The dual vector lambda.
    pub dual: Array1<f64>,
    /// `sum lambda + max(0, max_k reduced cost)`: an upper bound on the utility.
    pub upper_bound: f64,
    /// Largest reduced cost over every ray in the final pricing pass.
    pub max_reduced_cost: f64,
    /// Pricing passes.
    pub iterations: usize,
    /// Rays priced in total.
    pub rays_priced: u64,
}

/// Solves the LP over `rays` with column values `mu[k] = mu(v_k)`; `ones_value` is
/// `mu(1)` for the all-ones column, which lies in every PML cone and makes the
/// restricted problems feasible and bounded from the first step.
pub fn solve(
    rays: &RaySet,
    mu: &[f64],
    ones_value: f64,
    settings: &ColumnGenerationSettings,
) -> Result<RayLpSolution> {
    let n = rays.dimension();
    let ones = Array1::<f64>::ones(n);
    let mut in_working = vec![false; rays.len()];
    // Seed: the rays of largest mu.
    let mut order: Vec<usize> = (0..rays.len()).collect();
    let seed = (2 * n).min(order.len());
    if seed > 0 && seed < order.len() {
        order.select_nth_unstable_by(seed - 1, |&a, &b| mu[b].total_cmp(&mu[a]));
    }
    let mut working: Vec<usize> = order[..seed].to_vec();
    for &k in &working {
        in_working[k] = true;
    }
    let mut iterations = 0;
    let mut rays_priced = 0u64;
    loop {
        iterations += 1;
        if iterations > settings.max_iterations {
            return Err(SolverError::Lp(format!(
                "column generation did not converge in {} pricing passes",
                settings.max_iterations
            )));
        }
        let lambda = restricted_dual(rays, mu, ones_value, &working, ones.view())?;
        let bound = lambda.sum();
        let tol = settings.pricing_tolerance * (1.0 + bound.abs());
        let (max_rc, mut candidates) = price(rays, mu, &lambda, tol);
        rays_priced += rays.len() as u64;
        candidates.retain(|&(_, k)| !in_working[k]);
        if candidates.is_empty() {
            let (weights, ones_weight, value) =
                solve_restricted_primal(rays, mu, ones_value, &working)?;
            return Ok(RayLpSolution {
                weights,
                ones_weight,
                value,
                upper_bound: bound + max_rc.max(0.0),
                dual: lambda,
                max_reduced_cost: max_rc,
                iterations,
                rays_priced,
            });
        }
        let take = settings.batch.max(1).min(candidates.len());
        if take < candidates.len() {
            candidates.select_nth_unstable_by(take - 1, |a, b| b.0.total_cmp(&a.0));
        }
        for &(_, k) in &candidates[..take] {
            in_working[k] = true;
            working.push(k);
        }
    }
}

/// The upper bound certified by any vector lambda: `sum lambda + max(0, max reduced
/// cost)` over every ray and the all-ones column (see the module docs). One full,
/// parallel pricing pass.
pub fn dual_bound(rays: &RaySet, mu: &[f64], ones_value: f64, lambda: &Array1<f64>) -> f64 {
    let (max_rc, _) = price(rays, mu, lambda, f64::INFINITY);
    let ones_rc = ones_value - lambda.sum();
    lambda.sum() + max_rc.max(ones_rc).max(0.0)
}

/// Reduced costs `mu_k - lambda . v_k` over every ray, in parallel: the largest, and
/// the rays above `tol`.
fn price(rays: &RaySet, mu: &[f64], lambda: &Array1<f64>, tol: f64) -> (f64, Vec<(f64, usize)>) {
    let l = lambda.as_slice().expect("contiguous");
    (0..rays.len())
        .into_par_iter()
        .with_min_len(4096)
        .fold(
            || (f64::NEG_INFINITY, Vec::new()),
            |(mx, mut v), k| {
                let r = rays.ray(k);
                let rc = mu[k] - r.iter().zip(l).map(|(a, b)| a * b).sum::<f64>();
                if rc > tol {
                    v.push((rc, k));
                }
                (mx.max(rc), v)
            },
        )
        .reduce(
            || (f64::NEG_INFINITY, Vec::new()),
            |(m1, mut v1), (m2, v2)| {
                v1.extend(v2);
                (m1.max(m2), v1)
            },
        )
}

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
fn restricted_dual(
    rays: &RaySet,
    mu: &[f64],
    ones_value: f64,
    working: &[usize],
    ones: ArrayView1<f64>,
) -> Result<Array1<f64>> {
    let mut last = None;
    for perturbation in [0.0, 1e-12, 1e-10, 1e-8] {
        match solve_restricted_dual(rays, mu, ones_value, working, ones, perturbation) {
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
    rays: &RaySet,
    mu: &[f64],
    ones_value: f64,
    working: &[usize],
    ones: ArrayView1<f64>,
    perturbation: f64,
) -> Result<Array1<f64>> {
    let n = rays.dimension();
    // lambda = plus - minus with both parts non-negative: microlp is less fragile
    // with non-negative variables than with free or boxed ones on these degenerate
    // problems.
    let mut vars = ProblemVariables::new();
    let plus: Vec<_> = (0..n).map(|_| vars.add(variable().min(0.0))).collect();
    let minus: Vec<_> = (0..n).map(|_| vars.add(variable().min(0.0))).collect();
    let both =
        |coefs: ArrayView1<f64>| -> Expression { dot_expr(coefs, &plus) - dot_expr(coefs, &minus) };
    let mut model = vars.minimise(both(ones)).using(microlp);
    model = model.with(both(ones).geq(ones_value));
    for &k in working {
        let rhs = mu[k] + perturbation * jitter(k) * (1.0 + mu[k].abs());
        model = model.with(both(rays.ray(k)).geq(rhs));
    }
    let sol = model
        .solve()
        .map_err(|e| SolverError::Lp(format!("restricted dual: {e}")))?;
    let lambda_values: Vec<f64> = plus
        .iter()
        .zip(&minus)
        .map(|(a, b)| sol.value(*a) - sol.value(*b))
        .collect();
    let out = Array1::from(lambda_values);
    if out.iter().any(|x| !x.is_finite()) {
        return Err(SolverError::Lp(format!("restricted dual returned {out}")));
    }
    Ok(out)
}

type PrimalSolution = (Vec<(usize, f64)>, f64, f64);

fn solve_restricted_primal(
    rays: &RaySet,
    mu: &[f64],
    ones_value: f64,
    working: &[usize],
) -> Result<PrimalSolution> {
    let n = rays.dimension();
    let mut vars = ProblemVariables::new();
    let theta: Vec<_> = working
        .iter()
        .map(|_| vars.add(variable().min(0.0)))
        .collect();
    let theta_ones = vars.add(variable().min(0.0));
    let objective: Expression = working
        .iter()
        .zip(&theta)
        .map(|(&k, t)| mu[k] * *t)
        .sum::<Expression>()
        + ones_value * theta_ones;
    let mut model = vars.maximise(objective).using(microlp);
    for x in 0..n {
        let row: Expression = working
            .iter()
            .zip(&theta)
            .filter(|(k, _)| rays.ray(**k)[x] != 0.0)
            .map(|(&k, t)| rays.ray(k)[x] * *t)
            .sum::<Expression>()
            + theta_ones;
        model = model.with(row.eq(1.0));
    }
    let sol = model
        .solve()
        .map_err(|e| SolverError::Lp(format!("restricted primal: {e}")))?;
    let weights: Vec<(usize, f64)> = working
        .iter()
        .zip(&theta)
        .map(|(&k, t)| (k, sol.value(*t)))
        .filter(|(_, t)| *t > 0.0)
        .collect();
    let ones_weight = sol.value(theta_ones).max(0.0);
    let value = weights.iter().map(|(k, t)| mu[*k] * t).sum::<f64>() + ones_value * ones_weight;
    Ok((weights, ones_weight, value))
}
