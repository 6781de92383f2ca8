//! Hadamard response (Acharya, Sun and Zhang 2019; docs/theory.md §13): k
//! inputs, K outputs (the smallest power of two above k), written out as a
//! matrix since `K <= 2k`.
//!
//! With H the K x K Sylvester-Hadamard matrix, `H[i][j] = (-1)^popcount(i & j)`,
//! input x uses row `x + 1`; its high set `C_x = {y : H[x+1][y] = +1}` holds
//! K/2 outputs and `W(y|x) = (1 + a [y in C_x]) / (K/2 (2 + a))`: an LDP level
//! of `ln(1 + a)`. Output y's PML under a prior p is
//! `ln((1 + a) / (1 + a p(S_y)))` with `S_y = {x : y in C_x}` where that is
//! not empty (0 otherwise), so the binding output has the least `p(S_y)`.

use crate::error::{ModelError, Result};
use crate::mechanism::Mechanism;
use ndarray::{Array2, ArrayView1, ArrayView2};

/// Most inputs [`hadamard_response`] writes out (K = 8192 outputs, 268 MB).
pub const HADAMARD_INPUTS_UP_TO: usize = 4096;

/// K, Hadamard response's outputs for `k` inputs: the smallest power of two
/// with `K >= k + 1`.
pub fn hadamard_outputs(k: usize) -> usize {
    (k + 1).next_power_of_two()
}

/// Whether output `y` is in the high set of input `x` (`H[x+1][y] = +1`).
fn high(x: usize, y: usize) -> bool {
    ((x + 1) & y).count_ones().is_multiple_of(2)
}

/// Hadamard response for `k` inputs with boost `a >= 0` (module docs;
/// `a = e^eps - 1` is eps-LDP exactly); `a = inf` is its limit, each input's
/// high set uniformly (`2 / K` there, 0 elsewhere: no LDP level, and eps-PML
/// where every non-empty `S_y` has mass at least `e^-eps`). An error for no
/// input, more than [`HADAMARD_INPUTS_UP_TO`], or a boost that is NaN or below 0.
pub fn hadamard_response(k: usize, a: f64) -> Result<Mechanism> {
    if k == 0 || k > HADAMARD_INPUTS_UP_TO {
        return Err(ModelError::invalid(
            "inputs",
            k,
            format!("Hadamard response is written out for 1 to {HADAMARD_INPUTS_UP_TO} inputs"),
            "merge categories, or use randomized response",
        ));
    }
    if a.is_nan() || a < 0.0 {
        return Err(ModelError::invalid(
            "boost",
            a,
            "the boost is at least 0 (e^eps - 1 under eps-LDP)",
            "give an epsilon of at least 0",
        ));
    }
    let outputs = hadamard_outputs(k);
    let z = outputs as f64 / 2.0 * (2.0 + a);
    let (low, up) = match a.is_finite() {
        true => (1.0 / z, (1.0 + a) / z),
        // The limit: each input's high set, uniformly.
        false => (0.0, 2.0 / outputs as f64),
    };
    let w = Array2::from_shape_fn((k, outputs), |(x, y)| if high(x, y) { up } else { low });
    Mechanism::new(w)
}

/// The least prior mass `p(S_y)` of a non-empty `S_y` (the inputs whose high
/// set holds output y): the binding output's under PML (module docs). `None`
/// for no input.
pub fn hadamard_least_mass(p: ArrayView1<f64>) -> Option<f64> {
    hadamard_mass_range(p).map(|(least, _)| least)
}

/// The least mass `p(S_y)` of a non-empty `S_y` and the largest of an `S_y`
/// that leaves some input out (every output but 0, whose `S_0` holds every
/// input; the least where none does): where a density notion's upper and lower
/// levels bind (an input in `S_y` has density `ln((1 + a) / (1 + a p(S_y)))`,
/// one outside it `-ln(1 + a p(S_y))`). `None` for no input.
pub fn hadamard_mass_range(p: ArrayView1<f64>) -> Option<(f64, f64)> {
    let k = p.len();
    let (mut least, mut largest) = (None::<f64>, None::<f64>);
    for y in 0..hadamard_outputs(k) {
        let (mass, inside) = (0..k)
            .filter(|&x| high(x, y))
            .fold((0.0, 0), |(m, n), x| (m + p[x], n + 1));
        if inside > 0 {
            least = Some(least.map_or(mass, |l| l.min(mass)));
        }
        if (1..k).contains(&inside) {
            largest = Some(largest.map_or(mass, |l| l.max(mass)));
        }
    }
    least.map(|l| (l, largest.unwrap_or(l)))
}

/// The error per row `m E|p^ - p|^2 -> (k - 1)(k - b) / (k b^2)`, `b = a / (2 + a)`,
/// of Hadamard response under the uniform prior where `k + 1` is a power of two
/// (every row of H but the first used: `J = alpha I + beta 1 1^T` with
/// `alpha = k b^2 / (k - b)`, docs/theory.md §13); `None` for other k or `a <= 0`.
pub fn hadamard_error_uniform(k: usize, a: f64) -> Option<f64> {
    if k == 0 || hadamard_outputs(k) != k + 1 || a.is_nan() || a <= 0.0 {
        return None;
    }
    let (k, b) = (k as f64, a / (2.0 + a));
    Some((k - 1.0) * (k - b) / (k * b * b))
}

/// The Fisher information `J = W diag(1/q) W^T` of a matrix in Hadamard
/// response's form (every entry `c (1 + b H[x+1][y])` for one `c > 0` and one
/// `0 <= b <= 1`, K a power of two with `K >= k + 1`), `None` for any other
/// matrix. Since `H[i][y] H[j][y] = H[i xor j][y]`, with `r_y = 1 / (P + b
/// s_y)`, `s = H p` (p at rows `x + 1`) and `R = H r`,
/// `J[x][z] = c (R_0 + b (R_{x+1} + R_{z+1}) + b^2 R_{(x+1) xor (z+1)})`:
/// two fast Walsh-Hadamard transforms and `O(k^2)` where the general route
/// costs `O(k^2 K)` (about 20 s at 4,096 inputs on two cores).
pub fn hadamard_fisher(m: ArrayView2<f64>, p: ArrayView1<f64>) -> Option<Array2<f64>> {
    let (c, b) = hadamard_form(m)?;
    let (k, outputs) = m.dim();
    let mut s = vec![0.0; outputs];
    for (x, &px) in p.iter().enumerate() {
        s[x + 1] = px;
    }
    walsh_hadamard(&mut s);
    let total: f64 = p.sum();
    let mut r: Vec<f64> = s
        .iter()
        .map(|&s| {
            let q = total + b * s;
            if q > 0.0 { 1.0 / q } else { 0.0 }
        })
        .collect();
    walsh_hadamard(&mut r);
    Some(Array2::from_shape_fn((k, k), |(x, z)| {
        c * (r[0] + b * (r[x + 1] + r[z + 1]) + b * b * r[(x + 1) ^ (z + 1)])
    }))
}

/// Whether `m` has Hadamard response's form ([`hadamard_fisher`] applies).
pub(crate) fn has_hadamard_form(m: ArrayView2<f64>) -> bool {
    hadamard_form(m).is_some()
}

/// `(c, b)` where every entry of `m` is `c (1 + b H[x+1][y])` exactly (as
/// [`hadamard_response`] writes it, or a file read back), K being the
/// smallest power of two above the inputs; `None` otherwise, found at the
/// first entry that differs.
fn hadamard_form(m: ArrayView2<f64>) -> Option<(f64, f64)> {
    let (k, outputs) = m.dim();
    if k < 2 || outputs != hadamard_outputs(k) {
        return None;
    }
    // Output 0 is in every high set; output 1 is in input 0's low set.
    let (up, low) = (m[[0, 0]], m[[0, 1]]);
    if !(low >= 0.0 && up > low) {
        return None;
    }
    let same = m
        .indexed_iter()
        .all(|((x, y), &v)| v == if high(x, y) { up } else { low });
    same.then(|| ((up + low) / 2.0, (up - low) / (up + low)))
}

/// The Walsh-Hadamard transform `v <- H v` in place (`v.len()` a power of two).
fn walsh_hadamard(v: &mut [f64]) {
    let mut h = 1;
    while h < v.len() {
        for block in v.chunks_mut(2 * h) {
            let (left, right) = block.split_at_mut(h);
            for (a, b) in left.iter_mut().zip(right.iter_mut()) {
                (*a, *b) = (*a + *b, *a - *b);
            }
        }
        h *= 2;
    }
}
