//! Maximum likelihood by expectation-maximisation: the iterative Bayesian
//! update `p_g <- p_g sum_y (n_y / m) W[g][y] / q_y(p)` (docs/theory.md §13),
//! which never decreases the log-likelihood `sum_y n_y ln q_y(p)`, accelerated
//! by SQUAREM (Varadhan and Roland 2008) kept inside the simplex, and finished
//! where it is slow by Newton's method on the estimate's face ([`super::newton`]).
//!
//! Every fit is certified by its likelihood gap `max_g G_g - m` with
//! `G = W (n / q)` (docs/theory.md §13): the log-likelihood is concave, so the
//! maximum exceeds the estimate's by at most that many nats.

use super::FrequencySettings;
use super::newton;
use ndarray::{Array1, Array2};

/// EM's fixed point and how it got there.
pub(crate) struct Fit {
    pub(crate) estimate: Array1<f64>,
    pub(crate) iterations: usize,
    /// Whether the likelihood gap met [`gap_target`].
    pub(crate) converged: bool,
    /// `max_g G_g - m`: the maximum log-likelihood exceeds the estimate's by at
    /// most this (nats).
    pub(crate) gap: f64,
    /// `sum_y n_y ln q_y` at the estimate.
    pub(crate) log_likelihood: f64,
}

impl Fit {
    /// The fit ending at `estimate` with likelihood gap `gap`, certified where
    /// that meets [`gap_target`].
    fn at(model: &Model<'_>, estimate: Array1<f64>, (iterations, gap): (usize, f64)) -> Self {
        Fit {
            log_likelihood: model.likelihood(&estimate),
            converged: gap <= gap_target(model.m),
            estimate,
            iterations,
            gap,
        }
    }
}

/// The likelihood gap certified for `m` rows: `max(1e-6, 1e-12 m)` nats, far
/// below the 1.92 nats of a 95 % likelihood-ratio interval.
pub(crate) fn gap_target(m: f64) -> f64 {
    (1e-12 * m).max(1e-6)
}

/// EM iterations at most before Newton takes over: SQUAREM meets the target
/// within a few dozen where the maximiser is interior and the mechanism well
/// conditioned.
const EM_BEFORE_NEWTON: usize = 200;

/// EM iterations without the gap halving after which Newton takes over.
const STALLED: usize = 10;

/// Newton steps allowed after EM: each changes the face by at most a few masses
/// and converges quadratically on the right one.
const NEWTON_STEPS: usize = 200;

/// The mechanism, its transpose and the counts.
pub(super) struct Model<'a> {
    pub(super) w: &'a Array2<f64>,
    /// `W^T` laid out by rows: ndarray's product through a transposed view is
    /// several times slower.
    pub(super) wt: Array2<f64>,
    pub(super) n: &'a Array1<f64>,
    pub(super) m: f64,
}

impl<'a> Model<'a> {
    pub(super) fn new(w: &'a Array2<f64>, n: &'a Array1<f64>) -> Self {
        let wt = w.t().as_standard_layout().into_owned();
        Model {
            w,
            wt,
            n,
            m: n.sum(),
        }
    }

    /// `G = W (n / q)` at `p` (0 weight for outputs nobody released): the
    /// gradient of the log-likelihood; `sum_g p_g G_g = m` on the simplex.
    pub(super) fn gradient(&self, p: &Array1<f64>) -> Array1<f64> {
        let q = self.wt.dot(p);
        let ratio = Array1::from_shape_fn(q.len(), |y| {
            if self.n[y] > 0.0 {
                self.n[y] / q[y]
            } else {
                0.0
            }
        });
        self.w.dot(&ratio)
    }

    /// `sum_y n_y ln q_y` with `q = W^T p`.
    pub(super) fn likelihood(&self, p: &Array1<f64>) -> f64 {
        let q = self.wt.dot(p);
        self.n
            .iter()
            .zip(&q)
            .filter(|(c, _)| **c > 0.0)
            .map(|(c, q)| c * q.ln())
            .sum()
    }

    /// `max_g G_g - m` (at least 0; infinite where a released output has
    /// probability 0).
    pub(super) fn gap_of(&self, gradient: &Array1<f64>) -> f64 {
        let top = gradient.iter().fold(f64::NEG_INFINITY, |a, &g| a.max(g));
        if top.is_nan() {
            return f64::INFINITY;
        }
        (top - self.m).max(0.0)
    }
}

/// The maximum-likelihood estimate from `start` (the unprojected least-squares
/// estimate, where there is one) or the uniform distribution: SQUAREM
/// steps until the likelihood gap is at most [`gap_target`], then, where EM has
/// not got there in [`EM_BEFORE_NEWTON`] iterations or its gap has not halved
/// in [`STALLED`], Newton's method on the face ([`newton::finish`]).
/// `converged` only where the gap meets the target within
/// `settings.max_iterations` (EM iterations and Newton steps together).
pub(crate) fn maximum_likelihood(
    w: &Array2<f64>,
    n: &Array1<f64>,
    settings: &FrequencySettings,
    start: Option<&Array1<f64>>,
) -> Fit {
    let model = Model::new(w, n);
    let target = gap_target(model.m);
    let mut p = starting_point(&model, start, target);
    let mut ll = model.likelihood(&p);
    let cap = settings.max_iterations;
    let em_cap = cap.min(EM_BEFORE_NEWTON);
    let (mut iterations, mut halved) = (0, (f64::INFINITY, 0));
    loop {
        let gradient = model.gradient(&p);
        let gap = model.gap_of(&gradient);
        if gap <= target {
            let left = cap.saturating_sub(iterations);
            return match settled(&model, &p, &gradient, left) {
                Some(done) => Fit::at(&model, done.estimate, (iterations + done.steps, done.gap)),
                None => Fit::at(&model, p, (iterations, gap)),
            };
        }
        if gap <= halved.0 / 2.0 {
            halved = (gap, iterations);
        }
        if iterations >= em_cap || iterations - halved.1 >= STALLED {
            break;
        }
        iterations += 1;
        let first = normalised(&p * &gradient / model.m);
        (p, ll) = squarem(&model, &p, first, ll);
    }
    let done = newton::finish(&model, p, target, (cap - iterations).min(NEWTON_STEPS));
    Fit::at(&model, done.estimate, (iterations + done.steps, done.gap))
}

/// Where EM starts: `start` itself where it is a distribution whose gap meets
/// `target` (a square mechanism's least squares hits `q^` exactly: no
/// distribution is more likely), else nine tenths of its projection onto the
/// simplex and a tenth of the uniform distribution (every mass positive), or
/// the uniform distribution.
fn starting_point(model: &Model<'_>, start: Option<&Array1<f64>>, target: f64) -> Array1<f64> {
    let g = model.w.nrows();
    let uniform = Array1::from_elem(g, 1.0 / g as f64);
    let Some(start) = start.filter(|s| s.iter().all(|v| v.is_finite())) else {
        return uniform;
    };
    if start.iter().all(|&v| v >= 0.0) {
        let p = normalised(start.clone());
        if model.gap_of(&model.gradient(&p)) <= target {
            return p;
        }
    }
    super::inversion::project_to_simplex(start) * 0.9 + uniform * 0.1
}

/// A mass below this that EM leaves where the gradient does not ask for more
/// is a mass EM is still shrinking towards 0.
const SHRINKING: f64 = 1e-6;

/// Inputs up to which a certified EM estimate is always finished by Newton's
/// method (a few steps, each cubic in N): where the maximum has a zero with a
/// gradient of exactly m, EM's masses shrink slowly, and the gap, second order
/// in them, is met while they are still near 1e-5.
const FINISHED_UP_TO: usize = 256;

/// A certified `p` finished on its face by Newton's method, to 1e-3 of the
/// target, where N is at most [`FINISHED_UP_TO`] or some mass is shrinking
/// (those set to exactly 0 first); `None` where not needed or not certified.
fn settled(
    model: &Model<'_>,
    p: &Array1<f64>,
    gradient: &Array1<f64>,
    left: usize,
) -> Option<newton::Finished> {
    let shrinking = |g: usize| p[g] > 0.0 && p[g] < SHRINKING && gradient[g] <= model.m;
    let any = (0..p.len()).any(shrinking);
    if !any && p.len() > FINISHED_UP_TO {
        return None;
    }
    let face = Array1::from_shape_fn(p.len(), |g| if shrinking(g) { 0.0 } else { p[g] });
    let target = gap_target(model.m);
    let done = newton::finish(model, normalised(face), 1e-3 * target, left.min(20));
    let kept =
        done.gap <= target && model.likelihood(&done.estimate) >= model.likelihood(p) - target;
    kept.then_some(done)
}

/// `v / sum v`.
fn normalised(v: Array1<f64>) -> Array1<f64> {
    let s = v.sum();
    v / s
}

/// One EM update.
fn update(model: &Model<'_>, p: &Array1<f64>) -> Array1<f64> {
    normalised(p * &model.gradient(p) / model.m)
}

/// The smallest fraction of its mass a SQUAREM extrapolation leaves an input.
const KEPT: f64 = 1e-2;

/// One SQUAREM step from `p` (log-likelihood `ll`, `p1` its EM update):
/// `r = p1 - p`, `v = F(p1) - 2 p1 + p`, `alpha = -|r| / |v|` (at most -1),
/// the extrapolation `p - 2 alpha r + alpha^2 v` with each mass at least
/// [`KEPT`] of its value (a zero mass would stay zero under every later
/// update), then one EM update from it; the plain double update where that
/// loses likelihood. Returns the point and its likelihood.
fn squarem(model: &Model<'_>, p: &Array1<f64>, p1: Array1<f64>, ll: f64) -> (Array1<f64>, f64) {
    let p2 = update(model, &p1);
    let plain = |p2: Array1<f64>| {
        let l = model.likelihood(&p2);
        (p2, l)
    };
    let r = &p1 - p;
    let v = &p2 - &p1 - &r;
    let (rn, vn) = (r.dot(&r).sqrt(), v.dot(&v).sqrt());
    if vn == 0.0 || !rn.is_finite() {
        return plain(p2);
    }
    let alpha = (-rn / vn).min(-1.0);
    let mut x = p - &(&r * (2.0 * alpha)) + &(&v * (alpha * alpha));
    // Kept inside: no mass below a hundredth of its value (a zero mass would
    // stay zero under every later update).
    x.zip_mut_with(p, |t, &now| *t = t.max(KEPT * now));
    if x.iter().any(|t| !t.is_finite()) {
        return plain(p2);
    }
    let stabilised = update(model, &normalised(x));
    let sll = model.likelihood(&stabilised);
    let (p2, l2) = plain(p2);
    if sll.is_finite() && sll >= ll && sll >= l2 {
        (stabilised, sll)
    } else {
        (p2, l2)
    }
}

/// `sum_y n_y ln q_y` with `q = W^T p` (outputs never released count 0) and
/// the likelihood gap `max_g G_g - m` of `p` (docs/theory.md §13), for an
/// estimate not made by [`maximum_likelihood`].
pub(crate) fn measured(w: &Array2<f64>, n: &Array1<f64>, p: &Array1<f64>) -> (f64, f64) {
    let model = Model::new(w, n);
    (model.likelihood(p), model.gap_of(&model.gradient(p)))
}
