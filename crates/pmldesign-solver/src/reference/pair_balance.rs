//! Weights on the orbits of a cyclic subset design that even out how often
//! two inputs share a block (docs/theory.md §13, "Cyclic subset designs").
//!
//! Orbit m covers the pairs of difference delta `N_m(delta)` times
//! (`frequency::difference_counts`); a mixture with weights w covers them
//! `sum_m w_m N_m(delta)` times. Where that is the same for every delta the
//! mixture is a weighted 2-design: under the uniform prior its Fisher
//! information is `a I + b 1 1^T`, that of k-subset selection at the same size
//! and boost, and its error is k-subset selection's figure. An LP finds the
//! weights of least spread (`min t` with `|sum_m w_m N_m(delta) - lambda| <= t`);
//! a vertex of it uses at most `k / 2 + 1` orbits. Where the spread is zero to
//! the LP's accuracy, the weights are solved again on that support by least
//! squares, so the pair counts agree to rounding.

use good_lp::{Expression, ProblemVariables, Solution, SolverModel, Variable, variable};
use ndarray::{Array1, Array2};
use pmldesign_model::frequency::difference_counts;
use pmldesign_model::linalg::least_squares;

/// Spread of the pair counts, relative to their mean, below which the LP's
/// weights are solved again for exact balance.
const BALANCED: f64 = 1e-7;

/// Weights below this share of the largest are dropped before the re-solve.
const NEGLIGIBLE: f64 = 1e-10;

/// The weights (summing to 1) of the base `blocks` of a cyclic design over
/// `k` inputs whose pair counts spread least (module docs); `None` where the
/// LP fails, as a degenerate one may.
pub fn even_weights(k: usize, blocks: &[Vec<usize>]) -> Option<Vec<f64>> {
    let counts: Vec<Vec<f64>> = blocks.iter().map(|b| difference_counts(k, b)).collect();
    if counts.is_empty() || k / 2 == 0 {
        return None;
    }
    let mut vars = ProblemVariables::new();
    let w: Vec<Variable> = vars.add_vector(variable().min(0.0), blocks.len());
    let lambda = vars.add(variable().min(0.0));
    let t = vars.add(variable().min(0.0));
    let mut model = vars
        .minimise(t)
        .using(crate::lp::backend::guarded_until(blocks.len() + 2, None));
    model = model.with(w.iter().copied().sum::<Expression>().eq(1.0));
    for delta in 0..k / 2 {
        let covered: Expression = w.iter().zip(&counts).map(|(v, n)| n[delta] * *v).sum();
        model = model.with((covered.clone() - lambda).leq(t));
        model = model.with((covered - lambda).geq(-t));
    }
    let solution = model.solve().ok()?;
    let weights: Vec<f64> = w.iter().map(|v| solution.value(*v).max(0.0)).collect();
    let mean = solution.value(lambda);
    let spread = solution.value(t);
    let weights = match spread <= BALANCED * mean.max(1.0) {
        true => resolved(&counts, &weights).unwrap_or(weights),
        false => weights,
    };
    let total: f64 = weights.iter().sum();
    (total > 0.0).then(|| weights.iter().map(|v| v / total).collect())
}

/// The weights on the support of `weights` that make every pair count equal
/// and sum to 1, by least squares; `None` where one comes out negative or the
/// system is rank deficient.
fn resolved(counts: &[Vec<f64>], weights: &[f64]) -> Option<Vec<f64>> {
    let largest = weights.iter().copied().fold(0.0, f64::max);
    let support: Vec<usize> = (0..weights.len())
        .filter(|&m| weights[m] > NEGLIGIBLE * largest)
        .collect();
    let deltas = counts[0].len();
    // Unknowns: the support's weights, then lambda. Rows: one per delta
    // (`sum_m w_m N_m(delta) - lambda = 0`), then `sum_m w_m = 1`.
    let mut a = Array2::zeros((deltas + 1, support.len() + 1));
    for (j, &m) in support.iter().enumerate() {
        for delta in 0..deltas {
            a[[delta, j]] = counts[m][delta];
        }
        a[[deltas, j]] = 1.0;
    }
    for delta in 0..deltas {
        a[[delta, support.len()]] = -1.0;
    }
    let mut b = Array1::zeros(deltas + 1);
    b[deltas] = 1.0;
    let x = least_squares(&a, &b)?;
    let mut out = vec![0.0; weights.len()];
    for (j, &m) in support.iter().enumerate() {
        if x[j] < 0.0 {
            return None;
        }
        out[m] = x[j];
    }
    Some(out)
}
