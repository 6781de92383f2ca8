//! Maximum likelihood by expectation-maximisation: the iterative Bayesian
//! update `p_g <- p_g sum_y (n_y / m) W[g][y] / q_y(p)` (docs/theory.md §13),
//! which never decreases the log-likelihood `sum_y n_y ln q_y(p)`.

use super::FrequencySettings;
use ndarray::{Array1, Array2};

/// EM's fixed point and how it got there.
pub(crate) struct Fit {
    pub(crate) estimate: Array1<f64>,
    pub(crate) iterations: usize,
    pub(crate) converged: bool,
}

/// EM from the uniform distribution until the log-likelihood per row grows
/// by at most `settings.tolerance` in an iteration, or the cap.
pub(crate) fn maximum_likelihood(
    w: &Array2<f64>,
    n: &Array1<f64>,
    settings: &FrequencySettings,
) -> Fit {
    let g = w.nrows();
    let m: f64 = n.sum();
    let mut p = Array1::from_elem(g, 1.0 / g as f64);
    let mut last = log_likelihood(w, n, &p) / m;
    for i in 1..=settings.max_iterations {
        let q = w.t().dot(&p);
        let ratio = Array1::from_shape_fn(q.len(), |y| if n[y] > 0.0 { n[y] / (m * q[y]) } else { 0.0 });
        let next = &p * &w.dot(&ratio);
        p = &next / next.sum();
        let now = log_likelihood(w, n, &p) / m;
        if now - last <= settings.tolerance {
            return Fit {
                estimate: p,
                iterations: i,
                converged: true,
            };
        }
        last = now;
    }
    Fit {
        estimate: p,
        iterations: settings.max_iterations,
        converged: false,
    }
}

/// `sum_y n_y ln q_y` with `q = W^T p` (outputs never released count 0).
pub(crate) fn log_likelihood(w: &Array2<f64>, n: &Array1<f64>, p: &Array1<f64>) -> f64 {
    let q = w.t().dot(p);
    n.iter()
        .zip(&q)
        .filter(|(c, _)| **c > 0.0)
        .map(|(c, q)| c * q.ln())
        .sum()
}
