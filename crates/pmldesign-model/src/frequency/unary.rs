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
    Factors::of(p, a).fisher()
}

/// The error per row of the maximum-likelihood estimate through OUE,
/// `tr(J^-1) - |p|^2`; `None` where J is singular. With `J = D + R R^T`
/// (the quadrature's factors) and `M = I + R^T D^-1 R`, Woodbury's identity gives
/// `tr(J^-1) = tr(D^-1) - tr(M^-1 R^T D^-2 R)`: `O(k T^2)` for T quadrature
/// nodes, where inverting J costs `O(k^3)` (seconds at k = 4,096).
pub fn unary_error(p: ArrayView1<f64>, a: f64) -> Option<f64> {
    let factors = Factors::of(p, a);
    if factors
        .diagonal
        .iter()
        .any(|&d| !(d > 0.0 && d.is_finite()))
    {
        return super::trace_of_inverse(&factors.fisher()).map(|t| (t - p.dot(&p)).max(0.0));
    }
    let Factors { diagonal, ranks } = factors;
    let mut scaled = ranks.clone();
    for (mut row, d) in scaled.rows_mut().into_iter().zip(&diagonal) {
        row.mapv_inplace(|v| v / d);
    }
    let mut m = ranks.t().dot(&scaled);
    m.diag_mut().mapv_inplace(|v| v + 1.0);
    let g = scaled.t().dot(&scaled);
    let inv = super::inverse_fisher(&m)?;
    let correction: f64 = inv.iter().zip(&g).map(|(a, b)| a * b).sum();
    let trace = diagonal.iter().map(|d| 1.0 / d).sum::<f64>() - correction;
    Some((trace - p.dot(&p)).max(0.0))
}

/// OUE's Fisher information as a diagonal and one rank-one term per
/// quadrature node, `J = diag(D) + R R^T`: the node's weight times the
/// product `Pi` over inputs, its `rho`, and the diagonal `sigma - rho^2`,
/// each over `1 + a r` (module docs). Nodes where `Pi` underflows to 0 add
/// nothing and are left out.
struct Factors {
    diagonal: Array1<f64>,
    ranks: Array2<f64>,
}

impl Factors {
    fn of(p: ArrayView1<f64>, a: f64) -> Self {
        let k = p.len();
        let r = 1.0 / (2.0 + a);
        let scale = 1.0 / (1.0 + a * r);
        let base = |zl: f64| 1.0 - r + r * zl;
        let mut diagonal = Array1::<f64>::zeros(k);
        let mut columns: Vec<Vec<f64>> = Vec::new();
        for (t, w) in tanh_sinh() {
            let z: Vec<f64> = p.iter().map(|&m| t.powf(a * m)).collect();
            let pi: f64 = z.iter().map(|&zl| base(zl)).product();
            if pi == 0.0 {
                continue;
            }
            let weight = w * pi * scale;
            let root = weight.sqrt();
            let mut column = Vec::with_capacity(k);
            for x in 0..k {
                let rho = base((1.0 + a) * z[x]) / base(z[x]);
                let sigma = base((1.0 + a).powi(2) * z[x]) / base(z[x]);
                diagonal[x] += weight * (sigma - rho * rho);
                column.push(root * rho);
            }
            columns.push(column);
        }
        let ranks = Array2::from_shape_fn((k, columns.len()), |(x, c)| columns[c][x]);
        Factors { diagonal, ranks }
    }

    /// `J = diag(D) + R R^T`, written out.
    fn fisher(&self) -> Array2<f64> {
        let mut j = self.ranks.dot(&self.ranks.t());
        j.diag_mut().zip_mut_with(&self.diagonal, |v, d| *v += d);
        j
    }
}
