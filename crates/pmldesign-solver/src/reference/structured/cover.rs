//! Cyclic covers (docs/theory.md §5b): lay the inputs on a circle of
//! circumference 1, input x on an arc `I_x` of length `p_x` (the reference
//! masses, or `1/N` each), and release one of L arcs `A_j = [j/L, (j+k)/L)`.
//! Every point of the circle lies in exactly k arcs, so
//! `W[x][j] = |I_x ∩ A_j| / (k p_x)` has rows summing to 1, every output has
//! probability `1/L` under the reference, and an input whose arc lies inside
//! `A_j` has likelihood ratio `L/k`: information density `ln(L/k)`. With
//! `k/L` just above `e^-eps` and masses small beside it, the mutual
//! information approaches eps, the a-priori bound for eps-PML. Over `1/N` each
//! with `L = N` these are the cyclic k-subsets of k-subset selection
//! (Ye and Barg 2018; Wang et al. 2016) once mixed with the uniform mechanism.

use ndarray::{Array2, ArrayView1};

/// The cover of L arcs of length `k/L` (`1 <= k <= L`) over the circle laid
/// out by `masses` in index order.
pub fn cover(masses: ArrayView1<f64>, l: usize, k: usize) -> Array2<f64> {
    let n = masses.len();
    let (lf, tau) = (l as f64, k as f64 / l as f64);
    let mut w = Array2::zeros((n, l));
    let mut before = 0.0;
    for x in 0..n {
        let (a, p) = (before, masses[x]);
        before += p;
        for j in 0..l {
            let s = j as f64 / lf;
            w[[x, j]] = if p > 0.0 {
                circle_overlap(a, a + p, s, s + tau) / (p * k as f64)
            } else if contains(s, tau, a) {
                1.0 / k as f64
            } else {
                0.0
            };
        }
        let sum: f64 = w.row(x).sum();
        if sum > 0.0 {
            w.row_mut(x).mapv_inplace(|v| v / sum);
        }
    }
    w
}

/// Length of `[a, b) ∩ [s, e)` on the circle of circumference 1
/// (`0 <= a, s < 1`, both lengths at most 1).
fn circle_overlap(a: f64, b: f64, s: f64, e: f64) -> f64 {
    [-1.0, 0.0, 1.0]
        .iter()
        .map(|shift| (b.min(e + shift) - a.max(s + shift)).max(0.0))
        .sum()
}

/// Whether the point u lies in the arc `[s, s + tau)` on the circle.
fn contains(s: f64, tau: f64, u: f64) -> bool {
    let d = (u - s).rem_euclid(1.0);
    d < tau
}

/// The cover of L groups by arcs of k consecutive groups (`1 <= k < L`):
/// `W[x][j] = 1/k` when x's group is one of `j, j+1, .., j+k-1` (mod L), so
/// every input lies in exactly k arcs and output j has probability `m_j / k`,
/// with `m_j` the mass of its arc. Every input of arc j has information
/// density `-ln m_j`: with the groups balanced (many inputs each) and `k/L`
/// just above `e^-eps`, the mutual information approaches eps without the
/// split inputs of [`cover`].
pub fn group_cover(group: &[usize], l: usize, k: usize) -> Array2<f64> {
    let mut w = Array2::zeros((group.len(), l));
    for (x, &g) in group.iter().enumerate() {
        for s in 0..k {
            w[[x, (g + l - s) % l]] = 1.0 / k as f64;
        }
    }
    w
}

/// For `l` groups of masses `g`, the shortest arc k whose every window of k
/// consecutive groups has mass at least `t`, and the information of that cover,
/// `sum_j (m_j / k)(-ln m_j)`; `None` if only the whole circle does.
pub fn shortest_arc(g: &[f64], t: f64) -> Option<(usize, f64)> {
    let l = g.len();
    // Prefix sums over the circle read twice: window (j, k) is c[j + k] - c[j].
    let mut c = vec![0.0; 2 * l + 1];
    for i in 0..2 * l {
        c[i + 1] = c[i] + g[i % l];
    }
    let start = ((t * l as f64).floor() as usize).max(1);
    (start..l).find_map(|k| {
        let arcs = (0..l).map(|j| c[j + k] - c[j]);
        let fits = arcs.clone().all(|m| m >= t);
        fits.then(|| (k, arcs.map(|m| -m * m.ln()).sum::<f64>() / k as f64))
    })
}
