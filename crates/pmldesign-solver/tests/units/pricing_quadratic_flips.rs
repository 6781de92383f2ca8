//! Tests of `pricing::quadratic::flips`.

use crate::common::Rng;
use ndarray::{Array1, Array2};
use pmldesign_solver::internals::pricing::quadratic::flips::flip_search;

/// The reduced cost `v^T C v - lambda . v` of the LDP ray of the bits `mask`.
fn reduced(c: &Array2<f64>, p: &Array1<f64>, lambda: &Array1<f64>, a: f64, mask: u32) -> f64 {
    let u = Array1::from_shape_fn(p.len(), |x| 1.0 + a * f64::from((mask >> x) & 1));
    let v = &u / p.dot(&u);
    v.dot(&c.dot(&v)) - lambda.dot(&v)
}

/// The bits of an LDP ray (its inputs above the midpoint of its two values).
fn bits(v: &Array1<f64>) -> u32 {
    let lo = v.fold(f64::INFINITY, |m, t| m.min(*t));
    let hi = v.fold(f64::NEG_INFINITY, |m, t| m.max(*t));
    v.iter()
        .enumerate()
        .filter(|&(_, &t)| hi > lo && t > 0.5 * (lo + hi))
        .fold(0, |m, (x, _)| m | (1 << x))
}

/// Over pseudo-random instances and every start: the search ends on the
/// slice, at a ray no single flip improves, above its start, and returns
/// nothing only where the start is already such a ray.
#[test]
fn ends_at_a_ray_no_flip_improves() {
    let n = 7;
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut next = || rng.unit();
    for _ in 0..20 {
        let raw = Array1::from_shape_fn(n, |_| 0.05 + next());
        let p = &raw / raw.sum();
        let b = Array2::from_shape_fn((n, n), |_| next() - 0.5);
        let c = b.t().dot(&b);
        let lambda = Array1::from_shape_fn(n, |_| 2.0 * next());
        let a = 0.5 + 3.0 * next();
        for start in 0..(1u32 << n) {
            let u = Array1::from_shape_fn(n, |x| 1.0 + a * f64::from((start >> x) & 1));
            let v = &u / p.dot(&u);
            let before = reduced(&c, &p, &lambda, a, start);
            let end = match flip_search(&c, p.view(), &lambda, (&v, a)) {
                Some(w) => {
                    assert!((p.dot(&w) - 1.0).abs() < 1e-12);
                    bits(&w)
                }
                None => bits(&v),
            };
            let at = reduced(&c, &p, &lambda, a, end);
            let tol = 1e-12 * at.abs().max(1.0);
            assert!(at >= before - tol, "below the start");
            for x in 0..n {
                let flipped = reduced(&c, &p, &lambda, a, end ^ (1 << x));
                assert!(
                    flipped <= at + 1e-9 * at.abs().max(1.0),
                    "flip {x} improves"
                );
            }
        }
    }
}
