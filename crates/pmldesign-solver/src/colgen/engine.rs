//! The LP over extreme rays (docs/theory.md §4), solved by column generation.
//!
//! Primal: `max sum_k theta_k mu(v_k)  s.t.  sum_k theta_k v_k = 1, theta >= 0`.
//! Dual:   `min sum_x lambda_x          s.t.  lambda . v_k >= mu(v_k) for every k`.
//!
//! A restricted master over a working set of columns (N rows) gives lambda; pricing
//! scans every ray for a positive reduced cost `mu(v_k) - lambda . v_k` through a
//! [`RayOracle`], which may stream the rays without storing them. When none is left,
//! `sum lambda` bounds the utility of every mechanism in the cone. Because the rays
//! are normalised by a distribution r (`r . v_k = 1`), `sum theta_k = 1`, so for
//! any lambda `sum lambda + max(0, max_k reduced cost)` is a valid upper bound: the
//! certificate reported with every design.

//!
//! The loop's state between passes is [`crate::colgen::generation`].

use crate::colgen::generation::Generation;
use crate::colgen::oracle::{Column, RayOracle};
use crate::error::Result;
use crate::settings::ColumnGenerationSettings;
use ndarray::Array1;

/// The optimum of the LP over rays.
#[derive(Debug, Clone)]
pub struct RayLpSolution {
    /// `(column, theta)` for the columns of positive weight in the optimum
    /// (the all-ones column included when used).
    pub weights: Vec<(Column, f64)>,
    /// Primal objective `sum theta_k mu(v_k)`.
    pub value: f64,
    /// The dual vector lambda of the pass with the best bound.
    pub dual: Array1<f64>,
    /// `sum lambda + max(0, max_k reduced cost)`: an upper bound on the utility.
    pub upper_bound: f64,
    /// Largest reduced cost over every ray under that lambda.
    pub max_reduced_cost: f64,
    /// Pricing passes.
    pub iterations: usize,
    /// Rays priced in total.
    pub rays_priced: u64,
    /// False when the time limit stopped the loop before the gap tolerance was
    /// reached (or no entering ray was left).
    pub converged: bool,
}

/// Progress of column generation, reported after every pricing pass.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Pricing passes so far.
    pub iterations: usize,
    /// Objective of the restricted master (a lower bound on the optimum).
    pub lower_bound: f64,
    /// `sum lambda + max(0, max reduced cost)` (an upper bound).
    pub upper_bound: f64,
    /// Rays priced so far.
    pub rays_priced: u64,
}

/// An upper bound on the utility known before the loop, and the dual vector
/// that proves it, if any: `bound r` for a bound `B` on `mu(v) / r . v` over
/// the cone (`I <= eps` under eps-PML, the two-point bounds under LIP, ALIP and
/// LDP; docs/theory.md §4 and §4d).
#[derive(Debug, Clone)]
pub struct APriori {
    /// The bound (`INFINITY` if none).
    pub bound: f64,
    /// Its dual, the centre of the master's dual box (docs/theory.md §4).
    pub dual: Option<Array1<f64>>,
}

impl APriori {
    /// No bound known.
    pub fn none() -> Self {
        APriori {
            bound: f64::INFINITY,
            dual: None,
        }
    }

    /// The bound `bound` on `mu(v) / r . v` for the rays' normalising
    /// distribution `r`, with its dual `bound r`.
    pub fn per_unit(bound: f64, r: ndarray::ArrayView1<f64>) -> Self {
        APriori {
            bound,
            dual: bound.is_finite().then(|| &r * bound),
        }
    }
}

/// Column generation over the rays behind `oracle`, started from `seeds` (columns
/// of the cone known to be good, such as a design's structured baselines; none
/// for a plain LP over rays). `ones_value` is `mu(1)` for the
/// all-ones column, which lies in every PML cone and makes the restricted problems
/// feasible and bounded from the first step. `a_priori` is an upper bound on the
/// utility known in advance: the loop stops when the master is within the gap
/// tolerance of the best bound. With seeds, its dual centres the master's dual
/// box (`colgen::stabilise`, docs/theory.md §4) when the seeded master is near the bound. `progress` is
/// called after every pass.
pub fn solve_with_oracle(
    oracle: &dyn RayOracle,
    seeds: Vec<Column>,
    ones_value: f64,
    a_priori: APriori,
    settings: &ColumnGenerationSettings,
    progress: &mut dyn FnMut(Progress),
) -> Result<RayLpSolution> {
    Generation::new(oracle, seeds, ones_value, a_priori, settings).run(progress)
}

/// The upper bound certified by any vector lambda: `sum lambda + max(0, max reduced
/// cost)` over every ray and the all-ones column (see the module docs). One full,
/// parallel pricing pass; a search may stop proving at a reduced cost of `tol`
/// (at least 1e-13 relative), which the bound then includes.
pub fn dual_bound(oracle: &dyn RayOracle, ones_value: f64, lambda: &Array1<f64>, tol: f64) -> f64 {
    let tol = tol.max(1e-13 * (1.0 + lambda.sum().abs()));
    let pricing = oracle.price(lambda, tol, 0);
    let ones_rc = ones_value - lambda.sum();
    lambda.sum() + pricing.max_reduced_cost.max(ones_rc).max(0.0)
}
