//! Pointwise maximal cost (PMC) of a mechanism (\[D\] Thm 1; `docs/theory.md` §2):
//! with `i(x; y) = ln(W[x][y] / q_y)`, the PMC of an output is `-min_x i(x; y) =
//! ln(q_y / min_x W[x][y])`, the lower side of the information density.
//!
//! ```
//! use pmldesign_model::{Prior, measures};
//! // [D] Example 3: randomized response with e_r = 1 on p = (0.5, 0.3, 0.2).
//! let p = Prior::new(vec![0.5, 0.3, 0.2])?;
//! let e = 1.0f64.exp();
//! let w = pmldesign_model::Mechanism::from_rows(vec![
//!     vec![e / (e + 2.0), 1.0 / (e + 2.0), 1.0 / (e + 2.0)],
//!     vec![1.0 / (e + 2.0), e / (e + 2.0), 1.0 / (e + 2.0)],
//!     vec![1.0 / (e + 2.0), 1.0 / (e + 2.0), e / (e + 2.0)],
//! ])?;
//! assert!((measures::pmc(&w, &p) - (1.0 + 0.5 * (e - 1.0)).ln()).abs() < 1e-12);
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

use crate::linalg::column_extremes;
use crate::mechanism::Mechanism;
use crate::prior::Prior;
use crate::uncertainty::UncertaintySet;
use ndarray::ArrayView1;

/// PMC of one output with likelihood column `c` under the prior (or vertex) `r`
/// (\[D\] Thm 1): `ln(r . c / min_x c_x)`, the minimum over the x with `r_x > 0`.
/// `None` when the output has probability 0; infinite when `c` has a zero where
/// `r` has mass.
pub fn column_pmc(column: ArrayView1<f64>, r: ArrayView1<f64>) -> Option<f64> {
    let q = r.dot(&column);
    if q <= 0.0 {
        return None;
    }
    let min = column
        .iter()
        .zip(r.iter())
        .filter(|(_, rx)| **rx > 0.0)
        .map(|(c, _)| *c)
        .fold(f64::INFINITY, f64::min);
    Some(if min <= 0.0 {
        f64::INFINITY
    } else {
        (q / min).ln().max(0.0)
    })
}

/// PMC of every output (\[D\] Thm 1), `None` for outputs of probability 0.
pub fn pmc_per_outcome(mechanism: &Mechanism, prior: &Prior) -> Vec<Option<f64>> {
    mechanism
        .columns()
        .map(|c| column_pmc(c, prior.masses()))
        .collect()
}

/// The smallest eps for which W is eps-PMC w.r.t. p: `max_y PMC(y)`.
pub fn pmc(mechanism: &Mechanism, prior: &Prior) -> f64 {
    pmc_per_outcome(mechanism, prior)
        .into_iter()
        .flatten()
        .fold(0.0, f64::max)
}

/// Worst-case PMC over a set of priors: `max_y ln(max_{Q in S} Q . c / min_x c_x)`,
/// the supremum of \[D\] Thm 1 over the set (the minimum runs over every x, as the
/// set's full-support priors see every input). `Q . c` is linear in Q, so the
/// maximum is at a vertex; for the ball it is the greedy transfer of beta/2 onto
/// the largest entry (the mirror of \[E\] App. D).
pub fn worst_case_pmc(mechanism: &Mechanism, set: &UncertaintySet) -> f64 {
    let w = mechanism.matrix();
    set.max_output_probabilities(w)
        .into_iter()
        .zip(column_extremes(w))
        .filter_map(|(q, (_, min))| {
            if q <= 0.0 {
                return None;
            }
            Some(if min <= 0.0 {
                f64::INFINITY
            } else {
                (q / min).ln().max(0.0)
            })
        })
        .fold(0.0, f64::max)
}

/// `max_{Q in S} Q . c` for a non-negative column: exact for every set.
pub fn max_output_probability(set: &UncertaintySet, c: ArrayView1<f64>) -> f64 {
    set.max_output_probability(c)
}
