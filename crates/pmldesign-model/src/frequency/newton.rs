//! The maximum-likelihood estimate finished by Newton's method on a face of the
//! simplex (an active-set method; docs/theory.md §13). EM converges slowly
//! where the maximiser lies on a face (masses that should be 0 shrink by a
//! factor `G_g / m` close to 1 per update) or the mechanism is ill conditioned;
//! Newton's method on the free masses, with masses leaving at 0 and entering
//! where their gradient exceeds m, converges quadratically once the face is
//! right, and the likelihood gap certifies where it stops.

use super::em::Model;
use faer::Side;
use faer::linalg::solvers::Solve;
use ndarray::{Array1, Array2};

/// Where Newton's method stopped.
pub(super) struct Finished {
    pub(super) estimate: Array1<f64>,
    pub(super) gap: f64,
    pub(super) steps: usize,
}

/// Armijo's sufficient-increase fraction of the line search.
const ARMIJO: f64 = 1e-4;

/// Newton steps from `p` until the likelihood gap is at most `target` or
/// `cap` steps, or no step gains likelihood.
pub(super) fn finish(model: &Model<'_>, mut p: Array1<f64>, target: f64, cap: usize) -> Finished {
    let mut ll = model.likelihood(&p);
    let mut steps = 0;
    loop {
        let gradient = model.gradient(&p);
        let gap = model.gap_of(&gradient);
        if gap <= target || steps >= cap {
            return Finished {
                estimate: p,
                gap,
                steps,
            };
        }
        steps += 1;
        let Some(d) = direction(model, &p, &gradient) else {
            return Finished {
                estimate: p,
                gap,
                steps,
            };
        };
        match line_search(model, &p, &d, (ll, &gradient)) {
            Some((next, next_ll)) => (p, ll) = (next, next_ll),
            None => {
                return Finished {
                    estimate: p,
                    gap,
                    steps,
                };
            }
        }
    }
}

/// The Newton direction over the free masses (positive ones, and zero ones whose
/// gradient exceeds m, leaving out those that would turn negative), zero on the
/// rest; `None` where no free set gives an ascent direction.
fn direction(model: &Model<'_>, p: &Array1<f64>, gradient: &Array1<f64>) -> Option<Array1<f64>> {
    let rows: Vec<usize> = (0..p.len())
        .filter(|&i| p[i] > 0.0 || gradient[i] > model.m)
        .collect();
    let hessian = hessian(model, p, &rows);
    // Positions in `rows` of the masses still free.
    let mut free: Vec<usize> = (0..rows.len()).collect();
    for _ in 0..rows.len() + 1 {
        let d = on_face(&hessian, (gradient, model.m), (&rows, &free))?;
        let blocked: Vec<usize> = (0..free.len())
            .filter(|&k| p[rows[free[k]]] <= 0.0 && d[k] < 0.0)
            .collect();
        if blocked.is_empty() {
            let mut full = Array1::zeros(p.len());
            for (k, &at) in free.iter().enumerate() {
                full[rows[at]] = d[k];
            }
            return (gradient.dot(&full) > 0.0).then_some(full);
        }
        free = (0..free.len())
            .filter(|k| !blocked.contains(k))
            .map(|k| free[k])
            .collect();
    }
    None
}

/// `-grad^2 LL = sum_y (n_y / q_y^2) w_y w_y^T` over the inputs `rows`
/// (positive semidefinite; the free masses only, a quarter of the work where
/// half the masses are 0).
fn hessian(model: &Model<'_>, p: &Array1<f64>, rows: &[usize]) -> Array2<f64> {
    let q = model.wt.dot(p);
    let mut scaled = model.w.select(ndarray::Axis(0), rows);
    for (y, mut col) in scaled.columns_mut().into_iter().enumerate() {
        let s = if model.n[y] > 0.0 && q[y] > 0.0 {
            model.n[y].sqrt() / q[y]
        } else {
            0.0
        };
        col.mapv_inplace(|v| v * s);
    }
    scaled.dot(&scaled.t())
}

/// The Newton step over `free`: `(H + mu I) d = G - lambda 1` with `sum d = 0`
/// (H restricted to `free`, mu a 1e-12 relative ridge where H is singular: the
/// inputs not identifiable).
fn on_face(
    hessian: &Array2<f64>,
    (gradient, m): (&Array1<f64>, f64),
    (rows, free): (&[usize], &[usize]),
) -> Option<Array1<f64>> {
    let f = free.len();
    if f < 2 {
        return None;
    }
    let top = free.iter().fold(0.0f64, |a, &i| a.max(hessian[[i, i]]));
    let mu = 1e-12 * top.max(f64::MIN_POSITIVE);
    let h = faer::Mat::<f64>::from_fn(f, f, |a, b| {
        hessian[[free[a], free[b]]] + if a == b { mu } else { 0.0 }
    });
    let llt = h.llt(Side::Lower).ok()?;
    // The reduced gradient G - m (small near the maximum; G itself is near m,
    // and `H^-1 G - lambda H^-1 1` would cancel to nothing).
    let rhs = faer::Mat::<f64>::from_fn(f, 2, |a, c| {
        if c == 0 {
            gradient[rows[free[a]]] - m
        } else {
            1.0
        }
    });
    let sol = llt.solve(&rhs);
    let (su, sv) = (0..f).fold((0.0, 0.0), |(u, v), a| (u + sol[(a, 0)], v + sol[(a, 1)]));
    if sv.is_nan() || sv <= 0.0 {
        return None;
    }
    let lambda = su / sv;
    let d = Array1::from_shape_fn(f, |a| sol[(a, 0)] - lambda * sol[(a, 1)]);
    d.iter().all(|v| v.is_finite()).then_some(d)
}

/// The step along the projection arc `P(p + t d)` (negative masses set to 0,
/// then normalised: many masses may leave at once), t halved from 1 until the
/// log-likelihood rises by Armijo's fraction of `G . (P(p + t d) - p)` (up to
/// rounding of `ll`). `None` where no step gains.
fn line_search(
    model: &Model<'_>,
    p: &Array1<f64>,
    d: &Array1<f64>,
    (ll, gradient): (f64, &Array1<f64>),
) -> Option<(Array1<f64>, f64)> {
    let rounding = 8.0 * f64::EPSILON * ll.abs();
    let mut t = 1.0f64;
    for _ in 0..60 {
        let mut next = p + &(d * t);
        next.mapv_inplace(|v| v.max(0.0));
        let next = &next / next.sum();
        let rise = gradient.dot(&(&next - p));
        let next_ll = model.likelihood(&next);
        if next_ll.is_finite() && rise > 0.0 && next_ll >= ll + ARMIJO * rise - rounding {
            return Some((next, next_ll));
        }
        t /= 2.0;
    }
    None
}
