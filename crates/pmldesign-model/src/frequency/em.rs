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

/// EM from the uniform distribution until its estimated distance to the
/// fixed point is at most `settings.tolerance` (largest entry): steps shrink
/// geometrically near the fixed point, by a rate r estimated from the last
/// two, so what is left is about `step r / (1 - r)` (Aitken). Or the cap.
pub(crate) fn maximum_likelihood(
    w: &Array2<f64>,
    n: &Array1<f64>,
    settings: &FrequencySettings,
) -> Fit {
    let g = w.nrows();
    let m: f64 = n.sum();
    let mut p = Array1::from_elem(g, 1.0 / g as f64);
    let mut last_step = f64::INFINITY;
    for i in 1..=settings.max_iterations {
        let q = w.t().dot(&p);
        let ratio =
            Array1::from_shape_fn(
                q.len(),
                |y| {
                    if n[y] > 0.0 { n[y] / (m * q[y]) } else { 0.0 }
                },
            );
        let next = &p * &w.dot(&ratio);
        let next = &next / next.sum();
        let step = (&next - &p).iter().fold(0.0f64, |a, d| a.max(d.abs()));
        p = next;
        // No rate before the second step.
        let rate = if last_step.is_finite() {
            (step / last_step).min(1.0)
        } else {
            1.0
        };
        let left = if rate < 1.0 {
            step * rate / (1.0 - rate)
        } else {
            f64::INFINITY
        };
        if step == 0.0 || left <= settings.tolerance {
            return Fit {
                estimate: p,
                iterations: i,
                converged: true,
            };
        }
        last_step = step;
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
