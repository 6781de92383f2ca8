//! Closed-form mechanisms of the papers (docs/theory.md §5): test vectors for the LP and the
//! randomized-response baselines.

use ndarray::Array2;
use pmldesign_model::{Mechanism, ModelError, Prior, Result, measures, notion::check_epsilon};

fn build(matrix: Array2<f64>) -> Result<Mechanism> {
    Mechanism::new(matrix)
}

/// The high-privacy extremal mechanism (\[V\] Sec. V-A, \[D\] Ex. 4), optimal for every
/// sub-convex utility in region 1, `eps < -ln(1 - p_min)`:
/// `W[i][i] = 1 - e^eps (1 - p_i)`, `W[i][j] = e^eps p_j`. Every output has PML eps.
pub fn high_privacy(prior: &Prior, epsilon: f64) -> Result<Mechanism> {
    check_epsilon(epsilon)?;
    let limit = measures::privacy_thresholds(prior)[1];
    if epsilon >= limit {
        return Err(ModelError::invalid(
            "epsilon",
            epsilon,
            format!("the high-privacy closed form needs region 1, eps < -ln(1 - p_min) = {limit}"),
            "use the LP design for larger eps",
        ));
    }
    let p = prior.masses();
    let e = epsilon.exp();
    let n = p.len();
    build(Array2::from_shape_fn((n, n), |(i, j)| {
        if i == j {
            1.0 - e * (1.0 - p[i])
        } else {
            e * p[j]
        }
    }))
}

/// The optimal binary mechanism for the l1 ball (\[E\] Thm 5): with `p1 >= p2`,
/// `beta < 2 p2` and `eps <= -ln(p1 - beta/2)`,
/// `W = 1/(1 + beta e^eps) [[e^eps(1-p1+beta/2), 1-e^eps(1-p1-beta/2)],
///                          [1-e^eps(p1-beta/2),   e^eps(p1+beta/2)]]`.
/// Rows follow the prior's order (the row of the larger mass is the formula's first).
pub fn binary_l1(prior: &Prior, beta: f64, epsilon: f64) -> Result<Mechanism> {
    check_epsilon(epsilon)?;
    let p = prior.masses();
    if p.len() != 2 {
        return Err(ModelError::invalid(
            "prior",
            p.len(),
            "Theorem 5 is for binary secrets",
            "pass a prior on 2 symbols",
        ));
    }
    let (big, small) = if p[0] >= p[1] { (0, 1) } else { (1, 0) };
    let (p1, p2) = (p[big], p[small]);
    if !(beta > 0.0 && beta < 2.0 * p2) {
        return Err(ModelError::invalid(
            "beta",
            beta,
            format!("Theorem 5 needs 0 < beta < 2 p2 = {}", 2.0 * p2),
            format!("pass beta in (0, {})", 2.0 * p2),
        ));
    }
    let limit = -(p1 - beta / 2.0).ln();
    if epsilon > limit {
        return Err(ModelError::invalid(
            "epsilon",
            epsilon,
            format!("Theorem 5 needs eps <= -ln(p1 - beta/2) = {limit}"),
            "larger eps allows the identity",
        ));
    }
    let e = epsilon.exp();
    let h = beta / 2.0;
    let z = 1.0 + beta * e;
    let formula = [
        [e * (1.0 - p1 + h) / z, (1.0 - e * (1.0 - p1 - h)) / z],
        [(1.0 - e * (p1 - h)) / z, e * (p1 + h) / z],
    ];
    let mut w = Array2::zeros((2, 2));
    for (r, &x) in [big, small].iter().enumerate() {
        w[[x, 0]] = formula[r][0];
        w[[x, 1]] = formula[r][1];
    }
    build(w)
}

/// A k-singular mechanism on n symbols (doubly stochastic, entries 0 or 1/k): the
/// circulant `W[x][y] = 1/k` iff `(y - x) mod n < k`. Optimal for a uniform prior at
/// `eps = ln(n/k)` with mutual information `ln(n/k)` (docs/theory.md §5).
pub fn k_singular(n: usize, k: usize) -> Result<Mechanism> {
    if k == 0 || k > n {
        return Err(ModelError::invalid(
            "k",
            k,
            format!("needs 1 <= k <= n = {n}"),
            "pick k between 1 and the alphabet size",
        ));
    }
    build(Array2::from_shape_fn((n, n), |(x, y)| {
        if (y + n - x) % n < k {
            1.0 / k as f64
        } else {
            0.0
        }
    }))
}

/// k-ary randomized response with LDP parameter `e_r` (docs/theory.md §5): diagonal
/// `e^e_r / (e^e_r + n - 1)`, elsewhere `1 / (e^e_r + n - 1)`. `e_r = inf` is the
/// identity.
pub fn randomized_response(n: usize, ldp_epsilon: f64) -> Result<Mechanism> {
    if ldp_epsilon.is_nan() || ldp_epsilon < 0.0 {
        return Err(ModelError::invalid(
            "ldp epsilon",
            ldp_epsilon,
            "must be >= 0",
            "pass a non-negative LDP parameter",
        ));
    }
    if ldp_epsilon.is_infinite() {
        return Ok(Mechanism::identity(n));
    }
    // Divide through by e^e_r to stay finite for large e_r.
    let off = (-ldp_epsilon).exp();
    let z = 1.0 + (n as f64 - 1.0) * off;
    build(Array2::from_shape_fn((n, n), |(x, y)| {
        if x == y { 1.0 / z } else { off / z }
    }))
}

/// Exact worst-case PML of k-ary randomized response when the smallest mass any prior
/// of the set can give one symbol is `m` (\[T\] Prop 5.30, Ex. 5.31):
/// `-ln(m + e^-e_r (1 - m))`. For a known prior `m = p_min`.
pub fn randomized_response_pml(min_symbol_mass: f64, ldp_epsilon: f64) -> f64 {
    measures::ldp_to_pml(ldp_epsilon, min_symbol_mass)
}

/// The LDP parameter of randomized response whose worst-case PML is exactly eps
/// (inverse of [`randomized_response_pml`]): `e^-e_r = (e^-eps - m) / (1 - m)` when
/// `e^-eps > m`; otherwise no noise is needed and the result is infinite.
pub fn calibrated_randomized_response(min_symbol_mass: f64, epsilon: f64) -> f64 {
    let m = min_symbol_mass;
    let x = (-epsilon).exp();
    if x > m {
        -((x - m) / (1.0 - m)).ln()
    } else {
        f64::INFINITY
    }
}
