//! Maximum likelihood by expectation-maximisation: the iterative Bayesian
//! update `p_g <- p_g sum_y (n_y / m) W[g][y] / q_y(p)` (docs/theory.md §13),
//! which never decreases the log-likelihood `sum_y n_y ln q_y(p)`, accelerated
//! by SQUAREM (Varadhan and Roland 2008).

use super::FrequencySettings;
use ndarray::{Array1, Array2};

/// EM's fixed point and how it got there.
pub(crate) struct Fit {
    pub(crate) estimate: Array1<f64>,
    pub(crate) iterations: usize,
    pub(crate) converged: bool,
}

/// A total log-likelihood gain at or below this over an iteration also stops
/// EM: near a maximum on the simplex's boundary steps shrink slower than
/// geometrically, and the distance estimate below never falls.
const LIKELIHOOD_GAIN: f64 = 1e-10;

/// EM from the uniform distribution, each iteration one SQUAREM step (two EM
/// updates extrapolated, then one more from the extrapolation, kept only if
/// the likelihood did not fall), until its estimated distance to the fixed
/// point is at most `settings.tolerance` (largest entry; steps shrink by a
/// rate r estimated from the last two, so about `step r / (1 - r)` is left,
/// Aitken), or the log-likelihood grows by at most [`LIKELIHOOD_GAIN`], or
/// the cap.
pub(crate) fn maximum_likelihood(
    w: &Array2<f64>,
    n: &Array1<f64>,
    settings: &FrequencySettings,
) -> Fit {
    let g = w.nrows();
    // `W^T` laid out by rows: ndarray's product through a transposed view
    // is several times slower.
    let wt = w.t().as_standard_layout().into_owned();
    let (w, n) = (&Model { w, wt: &wt }, n);
    let mut p = Array1::from_elem(g, 1.0 / g as f64);
    let mut ll = likelihood(w.wt, n, &p);
    let mut last_step = f64::INFINITY;
    for i in 1..=settings.max_iterations {
        let next = squarem(w, n, &p, ll);
        let next_ll = likelihood(w.wt, n, &next);
        let step = (&next - &p).iter().fold(0.0f64, |a, d| a.max(d.abs()));
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
        let gain = next_ll - ll;
        p = next;
        ll = next_ll;
        if step == 0.0 || left <= settings.tolerance || (i > 1 && gain <= LIKELIHOOD_GAIN) {
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

/// The mechanism and its transpose.
struct Model<'a> {
    w: &'a Array2<f64>,
    wt: &'a Array2<f64>,
}

/// One EM update.
fn update(w: &Model<'_>, n: &Array1<f64>, p: &Array1<f64>) -> Array1<f64> {
    let m: f64 = n.sum();
    let q = w.wt.dot(p);
    let ratio = Array1::from_shape_fn(
        q.len(),
        |y| {
            if n[y] > 0.0 { n[y] / (m * q[y]) } else { 0.0 }
        },
    );
    let next = p * &w.w.dot(&ratio);
    &next / next.sum()
}

/// One SQUAREM step from `p` (log-likelihood `ll`): `r = F(p) - p`,
/// `v = F(F(p)) - 2 F(p) + p`, `alpha = -|r| / |v|` (at most -1), the
/// extrapolation `p - 2 alpha r + alpha^2 v` clamped to the simplex, then one
/// EM update from it; the plain double update where that loses likelihood.
fn squarem(w: &Model<'_>, n: &Array1<f64>, p: &Array1<f64>, ll: f64) -> Array1<f64> {
    let p1 = update(w, n, p);
    let p2 = update(w, n, &p1);
    let r = &p1 - p;
    let v = &p2 - &p1 - &r;
    let (rn, vn) = (r.dot(&r).sqrt(), v.dot(&v).sqrt());
    if vn == 0.0 || !rn.is_finite() {
        return p2;
    }
    let alpha = (-rn / vn).min(-1.0);
    let mut x = p - &(&r * (2.0 * alpha)) + &(&v * (alpha * alpha));
    x.mapv_inplace(|t| t.max(0.0));
    let total = x.sum();
    if total.is_nan() || total <= 0.0 {
        return p2;
    }
    x /= total;
    let stabilised = update(w, n, &x);
    let sll = likelihood(w.wt, n, &stabilised);
    if sll.is_finite() && sll >= ll && sll >= likelihood(w.wt, n, &p2) {
        stabilised
    } else {
        p2
    }
}

/// `sum_y n_y ln q_y` with `q = W^T p` (outputs never released count 0).
pub(crate) fn log_likelihood(w: &Array2<f64>, n: &Array1<f64>, p: &Array1<f64>) -> f64 {
    likelihood(&w.t().as_standard_layout().into_owned(), n, p)
}

/// [`log_likelihood`] given `W^T` (`wt`).
fn likelihood(wt: &Array2<f64>, n: &Array1<f64>, p: &Array1<f64>) -> f64 {
    let q = wt.dot(p);
    n.iter()
        .zip(&q)
        .filter(|(c, _)| **c > 0.0)
        .map(|(c, q)| c * q.ln())
        .sum()
}
