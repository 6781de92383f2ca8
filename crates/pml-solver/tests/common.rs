//! Shared helpers for the solver's integration tests.
#![allow(dead_code)]

use ndarray::ArrayView2;
use pml_model::Prior;
use rand::rngs::StdRng;
use rand::{Rng as _, SeedableRng};

/// The seeded xorshift64* generator shared with `pml-model`'s tests (`Rng(seed)`, with
/// `unit`, `below`, `prior` and `mechanism`).
#[path = "../../pml-model/tests/common/mod.rs"]
mod model;

#[allow(unused_imports)] // not every test file draws from it
pub use model::Rng;

/// A seeded generator.
pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// A random prior on n symbols with every mass at least `floor / n`.
pub fn random_prior(rng: &mut StdRng, n: usize, floor: f64) -> Prior {
    let w: Vec<f64> = (0..n).map(|_| floor + rng.random::<f64>()).collect();
    Prior::normalised(w).unwrap()
}

/// True when the matrices are equal up to a permutation of columns, within tol.
pub fn same_up_to_column_order(a: ArrayView2<f64>, b: ArrayView2<f64>, tol: f64) -> bool {
    if a.dim() != b.dim() {
        return false;
    }
    let mut used = vec![false; b.ncols()];
    a.columns().into_iter().all(|ca| {
        let found = (0..b.ncols()).find(|&j| {
            !used[j]
                && ca
                    .iter()
                    .zip(b.column(j))
                    .all(|(x, y)| (x - y).abs() <= tol)
        });
        found.map(|j| used[j] = true).is_some()
    })
}
