//! Optimised unary encoding (OUE, Wang et al. 2017) and the error of the
//! maximum-likelihood estimate through it, computed without its `2^k` outputs
//! (docs/theory.md §13).
//!
//! Input x releases a bit per input, its own 1 with probability 1/2 and every
//! other 1 with probability `r = 1 / (2 + a)`, independently: an LDP level of
//! `ln(1 + a)`. Writing S for the set of ones and `P0(S) = r^|S| (1 - r)^(k - |S|)`,
//! `W(S|x) = P0(S) (1 + a [x in S]) / (1 + a r)`, so `q(S) = P0(S) (1 + a p(S)) /
//! (1 + a r)` and, with `1 / (1 + a p(S)) = int_0^1 prod_{l in S} t^(a p_l) dt`,
//!
//! `J = (1 / (1 + a r)) int_0^1 Pi(t) (rho rho^T + diag(sigma - rho^2)) dt`,
//!
//! where `Pi = prod_l (1 - r + r z_l)`, `z_l = t^(a p_l)`, and `rho_i`, `sigma_i`
//! are the factors of input i with `z_i` multiplied by `1 + a` and `(1 + a)^2`:
//! a rank-one term and a diagonal at each quadrature node.

use super::quadrature::tanh_sinh;
use ndarray::{Array1, Array2, ArrayView1};

/// The Fisher information of OUE with boost `a > 0` (`1 + a = e^eps`) under `p`.
pub fn unary_fisher(p: ArrayView1<f64>, a: f64) -> Array2<f64> {
    let k = p.len();
    let r = 1.0 / (2.0 + a);
    let mut j = Array2::<f64>::zeros((k, k));
    let mut diagonal = Array1::<f64>::zeros(k);
    for (t, w) in tanh_sinh() {
        let z: Vec<f64> = p.iter().map(|&m| t.powf(a * m)).collect();
        let base = |zl: f64| 1.0 - r + r * zl;
        let pi: f64 = z.iter().map(|&zl| base(zl)).product();
        if pi == 0.0 {
            continue;
        }
        let rho: Vec<f64> = z
            .iter()
            .map(|&zl| base((1.0 + a) * zl) / base(zl))
            .collect();
        let weight = w * pi;
        for x in 0..k {
            let sigma = base((1.0 + a).powi(2) * z[x]) / base(z[x]);
            diagonal[x] += weight * (sigma - rho[x] * rho[x]);
            let row = weight * rho[x];
            for y in 0..k {
                j[[x, y]] += row * rho[y];
            }
        }
    }
    j.diag_mut().zip_mut_with(&diagonal, |v, d| *v += d);
    j.mapv_inplace(|v| v / (1.0 + a * r));
    j
}

/// The error per row of the maximum-likelihood estimate through OUE,
/// `tr(J^-1) - |p|^2`; `None` where J is singular.
pub fn unary_error(p: ArrayView1<f64>, a: f64) -> Option<f64> {
    let inv = super::inverse_fisher(&unary_fisher(p, a))?;
    Some((inv.diag().sum() - p.dot(&p)).max(0.0))
}
