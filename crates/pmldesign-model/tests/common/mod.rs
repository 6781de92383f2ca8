//! Shared helpers for the integration tests of `pmldesign-model` (and, through `#[path]`,
//! of `pmldesign-solver`): the seeded generator, the random priors and mechanisms it draws,
//! the envelope paper's Example 2, and two mechanisms written from the papers.
#![allow(dead_code)]

use ndarray::Array2;
use pmldesign_model::{Mechanism, Prior};

#[path = "rng.rs"]
mod rng;

pub use rng::Rng;

impl Rng {
    /// A random prior on n symbols, every weight in [0.05, 1.05) before normalising.
    pub fn prior(&mut self, n: usize) -> Prior {
        Prior::normalised(self.prior_weights(n)).unwrap()
    }

    /// A random N x M mechanism with about a third of its entries exactly 0 (the first
    /// column of every row is kept positive).
    pub fn mechanism(&mut self, n: usize, m: usize) -> Mechanism {
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|_| {
                let mut r: Vec<f64> = (0..m)
                    .map(|_| {
                        if self.below(3) == 0 {
                            0.0
                        } else {
                            self.unit() + 1e-3
                        }
                    })
                    .collect();
                r[0] += 1e-3;
                let s: f64 = r.iter().sum();
                r.iter().map(|v| v / s).collect()
            })
            .collect();
        Mechanism::from_rows(rows).unwrap()
    }
}

/// \[V\] eq. (7), the mechanism of Example 2, under the uniform prior.
pub fn example2() -> (Mechanism, Prior) {
    let w = Mechanism::from_rows(vec![
        vec![0.0, 0.0, 0.5, 0.5],
        vec![0.0, 0.0, 0.5, 0.5],
        vec![0.0, 0.2, 0.4, 0.4],
        vec![0.2, 0.0, 0.4, 0.4],
    ])
    .unwrap();
    (w, Prior::uniform(4).unwrap())
}

/// The high-privacy extremal mechanism, written from the papers (\[V\] Sec. V-A, \[D\]
/// Example 4, docs/theory.md §5): `W[i][i] = 1 - e^eps (1 - p_i)`, `W[i][j] = e^eps p_j`.
pub fn extremal(p: &Prior, eps: f64) -> Mechanism {
    let e = eps.exp();
    let m = p.masses();
    Mechanism::new(Array2::from_shape_fn((p.len(), p.len()), |(i, j)| {
        if i == j {
            1.0 - e * (1.0 - m[i])
        } else {
            e * m[j]
        }
    }))
    .unwrap()
}

/// k-ary randomized response with LDP level `e_r`, written from the paper (\[V\] eq. (14)).
pub fn randomized_response(k: usize, e_r: f64) -> Mechanism {
    let e = e_r.exp();
    let z = e + k as f64 - 1.0;
    Mechanism::new(Array2::from_shape_fn((k, k), |(x, y)| {
        if x == y { e / z } else { 1.0 / z }
    }))
    .unwrap()
}
