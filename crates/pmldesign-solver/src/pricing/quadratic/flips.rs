//! Local search over the LDP rays by single flips (docs/theory.md §13,
//! "Pricing the linearisation past enumeration"). An LDP ray is a binary
//! vector b, `v = (1 + a b) / (1 + a p . b)`; the gradient ascent moves to the
//! best vertex of the linearisation, which can stop where flipping one input's
//! level still raises the reduced cost `v^T C v - lambda . v`. Each flip's
//! change is read from `C u` in O(1) (`u = 1 + a b`), and `C u` follows an
//! accepted flip in O(N).

use ndarray::{Array1, Array2, ArrayView1};

/// Sweeps of the search at most, per input.
const SWEEPS_PER_INPUT: usize = 2;

/// The reduced cost of the unnormalised ray u, from `q = u^T C u`,
/// `l = lambda . u` and `s = p . u`.
fn reduced(q: f64, l: f64, s: f64) -> f64 {
    q / (s * s) - l / s
}

/// The state of the search: the unnormalised ray and its sums.
struct Ray {
    u: Array1<f64>,
    cu: Array1<f64>,
    q: f64,
    l: f64,
    s: f64,
}

/// The ray reached from the LDP ray `v` (levels `1` and `1 + a` up to scale) by
/// best-improving single flips, normalised to `p . v = 1`, or `None` where no
/// flip raises the reduced cost under `lambda`.
pub fn flip_search(
    c: &Array2<f64>,
    p: ArrayView1<f64>,
    lambda: &Array1<f64>,
    (v, a): (&Array1<f64>, f64),
) -> Option<Array1<f64>> {
    let n = v.len();
    let (lo, hi) = v
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &t| {
            (l.min(t), h.max(t))
        });
    let mid = 0.5 * (lo + hi);
    let u = v.mapv(|t| if hi > lo && t > mid { 1.0 + a } else { 1.0 });
    let cu = c.dot(&u);
    let mut r = Ray {
        q: u.dot(&cu),
        l: lambda.dot(&u),
        s: p.dot(&u),
        u,
        cu,
    };
    let mut current = reduced(r.q, r.l, r.s);
    let mut moved = false;
    for _ in 0..SWEEPS_PER_INPUT * n {
        let Some((x, value)) = best_flip(c, p, lambda, &r, a) else {
            break;
        };
        if value <= current + 1e-14 * current.abs().max(1.0) {
            break;
        }
        let d = flip_step(r.u[x], a);
        r.q += 2.0 * d * r.cu[x] + d * d * c[[x, x]];
        r.l += d * lambda[x];
        r.s += d * p[x];
        r.u[x] += d;
        r.cu.scaled_add(d, &c.column(x));
        (current, moved) = (value, true);
    }
    moved.then(|| {
        let s = p.dot(&r.u);
        r.u / s
    })
}

/// The change of `u_x` a flip makes: down from `1 + a`, up from 1.
fn flip_step(ux: f64, a: f64) -> f64 {
    match ux > 1.0 + 0.5 * a {
        true => -a,
        false => a,
    }
}

/// The flip of the largest reduced cost and that cost (`None` where every
/// flip leaves the slice: `p . u` at 0).
fn best_flip(
    c: &Array2<f64>,
    p: ArrayView1<f64>,
    lambda: &Array1<f64>,
    r: &Ray,
    a: f64,
) -> Option<(usize, f64)> {
    let mut best: Option<(usize, f64)> = None;
    for x in 0..r.u.len() {
        let d = flip_step(r.u[x], a);
        let s = r.s + d * p[x];
        if s <= 0.0 {
            continue;
        }
        let q = r.q + 2.0 * d * r.cu[x] + d * d * c[[x, x]];
        let value = reduced(q, r.l + d * lambda[x], s);
        if value.is_finite() && best.is_none_or(|(_, b)| value > b) {
            best = Some((x, value));
        }
    }
    best
}
