//! The d-subset mechanism (k-subset selection: Wang et al. 2016, Ye and Barg
//! 2018) and the error of the maximum-likelihood estimate through it, computed
//! without its `C(k, d)` outputs (docs/theory.md §13).
//!
//! Each input x releases a set S of d inputs with `W(S|x) = (1 + a [x in S]) / Z`,
//! `Z = C(k, d) (1 + a d / k)`: an LDP level of `ln(1 + a)`. Under a prior p,
//! `q(S) = (1 + a p(S)) / Z`, so the Fisher information is
//!
//! `J_ij = (1 / Z) sum_S (1 + a [i in S]) (1 + a [j in S]) / (1 + a p(S))`.
//!
//! With `1 / (1 + a p(S)) = int_0^1 prod_{l in S} t^(a p_l) dt`, each sum over S
//! is an elementary symmetric polynomial `e_d` of `z_l = t^(a p_l)`, with the
//! weights of i and j multiplied by `1 + a`, integrated by [`super::quadrature`].
//! Inputs of equal mass have equal rows and columns of J, so one pair per pair
//! of mass groups is computed: `O(G k d)` per node for G distinct masses.

use super::quadrature::tanh_sinh;
use ndarray::{Array1, Array2, ArrayView1};

/// `ln C(n, r)`.
fn ln_binomial(n: usize, r: usize) -> f64 {
    (1..=r).map(|i| ((n - r + i) as f64 / i as f64).ln()).sum()
}

/// The error per row `m E|p^ - p|^2 -> (k - 1)^2 (k + a d)^2 / (a^2 d (k - d) k)`
/// of the d-subset mechanism under the uniform prior, where `J` is `alpha I +
/// beta 1 1^T` with `alpha = a^2 d (k - d) / (k (k - 1) (1 + a d / k)^2)`.
pub fn subset_error_uniform(k: usize, d: usize, a: f64) -> f64 {
    let (k, d) = (k as f64, d as f64);
    (k - 1.0).powi(2) * (k + a * d).powi(2) / (a * a * d * (k - d) * k)
}

/// The subset size that minimises [`subset_error_uniform`] at `a` (Ye and
/// Barg's optimum lies next to `k / (e^eps + 1)`, `1 + a = e^eps`).
pub fn best_subset_size_uniform(k: usize, a: f64) -> usize {
    (1..k)
        .min_by(|&x, &y| subset_error_uniform(k, x, a).total_cmp(&subset_error_uniform(k, y, a)))
        .unwrap_or(1)
}

/// The Fisher information of the d-subset mechanism with boost `a > 0` under
/// the prior `p` (k masses, `1 <= d < k`).
pub fn subset_fisher(p: ArrayView1<f64>, d: usize, a: f64) -> Array2<f64> {
    let k = p.len();
    let groups = MassGroups::new(p);
    // z scaled by lambda with lambda^d = 1 / C(k, d): e_d then carries 1 / C(k, d).
    let lambda = (-ln_binomial(k, d) / d as f64).exp();
    let g = groups.reps.len();
    let mut pair = Array2::<f64>::zeros((g, g));
    let mut diag = Array1::<f64>::zeros(g);
    for (t, w) in tanh_sinh() {
        let z: Vec<f64> = groups
            .order
            .iter()
            .map(|&x| lambda * t.powf(a * p[x]))
            .collect();
        let node = SymmetricSums::new(&z, d);
        for (gi, &i) in groups.reps.iter().enumerate() {
            diag[gi] += w * node.diagonal(&z, i, a);
            node.pairs(&z, i, &groups.partner, a, |gj, within, v| {
                if within == (gj == gi) {
                    pair[[gi, gj]] += w * v;
                }
            });
        }
    }
    let scale = 1.0 / (1.0 + a * d as f64 / k as f64);
    let mut j = Array2::<f64>::zeros((k, k));
    for (si, &x) in groups.order.iter().enumerate() {
        for (sj, &y) in groups.order.iter().enumerate() {
            let (gx, gy) = (groups.of[si], groups.of[sj]);
            let v = if si == sj {
                diag[gx]
            } else {
                pair[[gx.min(gy), gx.max(gy)]]
            };
            j[[x, y]] = scale * v;
        }
    }
    j
}

/// The error per row of the maximum-likelihood estimate through the d-subset
/// mechanism, `tr(J^-1) - |p|^2`; `None` where J is singular.
pub fn subset_error(p: ArrayView1<f64>, d: usize, a: f64) -> Option<f64> {
    let inv = super::inverse_fisher(&subset_fisher(p, d, a))?;
    Some((inv.diag().sum() - p.dot(&p)).max(0.0))
}

/// The inputs sorted by mass, and the groups of equal mass in that order.
pub struct MassGroups {
    /// Input at each sorted position.
    pub order: Vec<usize>,
    /// Group of each sorted position.
    of: Vec<usize>,
    /// First sorted position of each group.
    pub reps: Vec<usize>,
    /// For each sorted position j, the pair it stands for: `Some((h, false))`
    /// where j is the first of group h (its pairs with earlier groups),
    /// `Some((h, true))` where it is the second (the pair within group h).
    pub partner: Vec<Option<(usize, bool)>>,
}

impl MassGroups {
    /// The groups of `p`: inputs sorted by mass (ties by index), equal masses grouped.
    pub fn new(p: ArrayView1<f64>) -> Self {
        let mut order: Vec<usize> = (0..p.len()).collect();
        order.sort_by(|&x, &y| p[x].total_cmp(&p[y]).then(x.cmp(&y)));
        let (mut of, mut reps, mut partner) = (Vec::new(), Vec::new(), Vec::new());
        for (s, &x) in order.iter().enumerate() {
            let new_group = s == 0 || p[order[s - 1]] != p[x];
            if new_group {
                reps.push(s);
            }
            let g = reps.len() - 1;
            of.push(g);
            let second = !new_group && reps[g] + 1 == s;
            partner.push((new_group || second).then_some((g, second)));
        }
        MassGroups {
            order,
            of,
            reps,
            partner,
        }
    }
}

/// Prefix and suffix products `prod (1 + z_l x)` truncated to degree d, at
/// one quadrature node: every sum is of positive terms, so no cancellation.
struct SymmetricSums {
    d: usize,
    prefix: Vec<Vec<f64>>,
    suffix: Vec<Vec<f64>>,
}

impl SymmetricSums {
    fn new(z: &[f64], d: usize) -> Self {
        let k = z.len();
        let one = |_: usize| {
            let mut v = vec![0.0; d + 1];
            v[0] = 1.0;
            v
        };
        let mut prefix = vec![one(0)];
        for l in 0..k.saturating_sub(1) {
            let mut next = prefix[l].clone();
            times_linear(&mut next, z[l]);
            prefix.push(next);
        }
        let mut suffix = vec![one(0); k];
        for l in (0..k.saturating_sub(1)).rev() {
            let mut next = suffix[l + 1].clone();
            times_linear(&mut next, z[l + 1]);
            suffix[l] = next;
        }
        SymmetricSums { d, prefix, suffix }
    }

    /// `e_d` with `z_i` multiplied by `(1 + a)^2`: `e_d(R) + (1 + a)^2 z_i e_{d-1}(R)`.
    fn diagonal(&self, z: &[f64], i: usize, a: f64) -> f64 {
        let [e0, e1, _] = top_coefficients(&self.prefix[i], &self.suffix[i], self.d);
        e0 + (1.0 + a).powi(2) * z[i] * e1
    }

    /// For each later position j standing for a pair, `e_d` with `z_i` and
    /// `z_j` multiplied by `1 + a`, reported with j's group and whether j is
    /// its group's second.
    fn pairs(
        &self,
        z: &[f64],
        i: usize,
        partner: &[Option<(usize, bool)>],
        a: f64,
        mut report: impl FnMut(usize, bool, f64),
    ) {
        let d = self.d;
        let mut between = self.prefix[i].clone();
        for j in i + 1..z.len() {
            if let Some((h, within)) = partner[j] {
                let [e0, e1, e2] = top_coefficients(&between, &self.suffix[j], d);
                let b = 1.0 + a;
                let mut v = e0 + b * (z[i] + z[j]) * e1;
                if d >= 2 {
                    v += b * b * z[i] * z[j] * e2;
                }
                report(h, within, v);
            }
            times_linear(&mut between, z[j]);
        }
    }
}

/// `poly <- poly * (1 + z x)`, truncated to its degree.
fn times_linear(poly: &mut [f64], z: f64) {
    for r in (1..poly.len()).rev() {
        poly[r] += z * poly[r - 1];
    }
}

/// The coefficients of `x^d`, `x^(d-1)` and `x^(d-2)` in `u * v` (0 for a
/// negative power), each summed over `u`'s index upwards: three sums side by
/// side in one pass, so the processor overlaps their additions.
pub fn top_coefficients(u: &[f64], v: &[f64], d: usize) -> [f64; 3] {
    let (u, v) = (&u[..=d], &v[..=d]);
    let (mut c0, mut c1, mut c2) = (0.0, 0.0, 0.0);
    for s in 0..d.saturating_sub(1) {
        c0 += u[s] * v[d - s];
        c1 += u[s] * v[d - 1 - s];
        c2 += u[s] * v[d - 2 - s];
    }
    if d >= 1 {
        c0 += u[d - 1] * v[1];
        c1 += u[d - 1] * v[0];
    }
    c0 += u[d] * v[0];
    [c0, c1, c2]
}
