//! Exact pricing over the slice of the line metric's cone (docs/theory.md §9):
//! `{v > 0 : v_x <= e^eps v_(x+1), v_(x+1) <= e^eps v_x, r . v = 1}`.
//!
//! The slice has dimension N - 1 and N - 1 pairs of adjacent inequalities, of which
//! at most one per pair can be tight (eps > 0), so at a vertex every step is tight:
//! `v_x = m e^(eps s_x)` with `s` a walk of steps +-1 (`2^(N-1)` vertices, the extreme
//! rays of the cone). The least ratio `a . v / r . v` over them is found by
//! Dinkelbach's iteration: for the current ratio lambda, the walk minimising
//! `(a - lambda r) . e^(eps s)` (a dynamic programme over (x, s), O(N^2)) either
//! certifies lambda (its value is `>= 0`) or gives a vertex of smaller ratio.

use crate::colgen::oracle::Column;
use ndarray::{Array1, ArrayView1};

/// Column generation prices over the line's slice only while `eps (N - 1)` is at
/// most this: `e^(eps s)` then stays far inside the doubles.
pub const MAX_WALK_EXPONENT: f64 = 300.0;

/// The line metric's slice for the normaliser r (module docs).
pub struct LineSlice {
    /// The normaliser r (a prior: positive, summing to 1).
    pub r: Array1<f64>,
    /// The level eps per unit of distance.
    pub epsilon: f64,
}

impl LineSlice {
    /// The slice, when the walks' range allows exact pricing ([`MAX_WALK_EXPONENT`]).
    pub fn new(r: Array1<f64>, epsilon: f64) -> Option<Self> {
        let n = r.len() as f64;
        (epsilon > 0.0 && epsilon * (n - 1.0) <= MAX_WALK_EXPONENT && r.iter().all(|&p| p > 0.0))
            .then_some(LineSlice { r, epsilon })
    }

    /// A minimiser of `a . v` over the slice (module docs).
    pub fn minimise(&self, a: ArrayView1<f64>) -> Array1<f64> {
        let r = &self.r;
        let mut v = Array1::ones(r.len()) / r.sum();
        let mut lambda = a.dot(&v);
        for _ in 0..200 {
            let b = &a - &(r * lambda);
            let w = self.best_walk(b.view());
            let scale = a.mapv(f64::abs).dot(&w) + 1e-300;
            if b.dot(&w) >= -1e-15 * scale {
                break;
            }
            let next = &w / r.dot(&w);
            let value = a.dot(&next);
            if value >= lambda {
                break;
            }
            (v, lambda) = (next, value);
        }
        v
    }

    /// The walk `w_x = e^(eps s_x)`, `s_0 = 0`, steps +-1, minimising `b . w`.
    fn best_walk(&self, b: ArrayView1<f64>) -> Array1<f64> {
        let n = b.len();
        let width = 2 * n - 1; // s in -(n-1)..=(n-1), index s + n - 1
        let level = |i: usize| (self.epsilon * (i as f64 - (n - 1) as f64)).exp();
        // cost[i]: the least cost of positions x..n-1 with s_x at index i.
        let mut cost: Vec<f64> = (0..width).map(|i| b[n - 1] * level(i)).collect();
        let mut up = vec![vec![false; width]; n];
        for x in (0..n - 1).rev() {
            let mut next = vec![f64::INFINITY; width];
            for i in 0..width {
                let down = if i > 0 { cost[i - 1] } else { f64::INFINITY };
                let rise = if i + 1 < width {
                    cost[i + 1]
                } else {
                    f64::INFINITY
                };
                up[x][i] = rise < down;
                next[i] = b[x] * level(i) + rise.min(down);
            }
            cost = next;
        }
        let mut w = Array1::zeros(n);
        let mut i = n - 1;
        for x in 0..n {
            w[x] = level(i);
            if x + 1 < n {
                i = if up[x][i] { i + 1 } else { i - 1 };
            }
        }
        w
    }

    /// The N columns of the truncated geometric mechanism, normalised: in the
    /// cone, and their weights solving `V theta = 1` are all positive (the
    /// mechanism's rows sum to 1), a nondegenerate first basis.
    pub fn start(&self, value: &dyn Fn(ArrayView1<f64>) -> f64) -> Vec<Column> {
        let n = self.r.len();
        let a = (-self.epsilon).exp();
        (0..n)
            .map(|z| {
                let g = Array1::from_shape_fn(n, |x| a.powi(x.abs_diff(z) as i32));
                let v = &g / self.r.dot(&g);
                Column {
                    value: value(v.view()),
                    vector: v,
                }
            })
            .collect()
    }
}
