//! Tests of `pricing::quadratic::relaxation`.

use ndarray::{Array1, Array2, ArrayView1};
use pmldesign_solver::internals::pricing::quadratic::relaxation::*;

/// Every two-level ray of a small LDP cone and every vertex of a small
/// PML slice: the bounds hold, and are exact for the uniform prior.
#[test]
fn bounds_hold_over_every_ray() {
    let n = 6;
    let p = Array1::from(vec![0.3, 0.2, 0.15, 0.15, 0.12, 0.08]);
    let b = Array2::from_shape_fn((n, n), |(i, j)| ((i * 7 + j * 3) % 5) as f64 - 2.0);
    let c = b.t().dot(&b) + Array2::<f64>::eye(n);
    let lambda = Array1::from_shape_fn(n, |x| 3.0 + x as f64);
    let a = 1.5f64;
    let mut best: f64 = f64::NEG_INFINITY;
    for mask in 0..(1u32 << n) {
        let bits = Array1::from_shape_fn(n, |x| f64::from((mask >> x) & 1));
        let v = (&bits * a + 1.0) / (1.0 + a * p.dot(&bits));
        best = best.max(v.dot(&c.dot(&v)) - lambda.dot(&v));
    }
    let majorants = Majorant::of(&c, p.view());
    assert!(!majorants.is_empty());
    for m in &majorants {
        let bound = m.bound_ldp(p.view(), a, &lambda, 64);
        assert!(bound >= best - 1e-9, "{bound} < {best}");
    }
    let e = 2.0;
    let mut best_pml: f64 = f64::NEG_INFINITY;
    for mask in 0..(1u32 << n) {
        for f in 0..n {
            let mut v = Array1::from_shape_fn(n, |x| e * f64::from((mask >> x) & 1));
            v[f] = 0.0;
            let rest = 1.0 - p.dot(&v);
            if rest < 0.0 || rest > e * p[f] {
                continue;
            }
            v[f] = rest / p[f];
            best_pml = best_pml.max(v.dot(&c.dot(&v)) - lambda.dot(&v));
        }
    }
    for m in &majorants {
        assert!(m.bound_pml(p.view(), e, &lambda) >= best_pml - 1e-9);
    }
}

/// Every vertex of the slice `lo <= v <= hi`, `p . v = 1`: each input at an
/// end of its range but one, which takes the mass left where it fits.
fn box_vertices(p: ArrayView1<f64>, lo: f64, hi: &Array1<f64>) -> Vec<Array1<f64>> {
    let n = p.len();
    let mut out = Vec::new();
    for mask in 0..(1u32 << n) {
        for f in 0..n {
            let mut v = Array1::from_shape_fn(n, |x| match (mask >> x) & 1 {
                1 => hi[x],
                _ => lo,
            });
            v[f] = 0.0;
            let rest = 1.0 - p.dot(&v);
            if rest < lo * p[f] - 1e-12 || rest > hi[f] * p[f] + 1e-12 {
                continue;
            }
            v[f] = rest / p[f];
            out.push(v);
        }
    }
    out
}

/// Every vertex of small PMC, LIP and ALIP slices (all inputs at a bound
/// but one): the box bound holds over each, and the box vertex is the
/// best vertex for a linear objective.
#[test]
fn the_box_bound_holds_over_every_vertex() {
    let n = 6;
    let p = Array1::from(vec![0.3, 0.2, 0.15, 0.15, 0.12, 0.08]);
    let b = Array2::from_shape_fn((n, n), |(i, j)| ((i * 5 + j * 3) % 7) as f64 - 3.0);
    let c = b.t().dot(&b) + Array2::<f64>::eye(n);
    let lambda = Array1::from_shape_fn(n, |x| 2.0 + 0.5 * x as f64);
    let majorants = Majorant::of(&c, p.view());
    assert!(!majorants.is_empty());
    // (lo, upper level): PMC at 0.7 (no upper level), LIP at 0.9, ALIP (0.4, 1.3).
    for (lo, top) in [
        ((-0.7f64).exp(), f64::INFINITY),
        ((-0.9f64).exp(), 0.9f64.exp()),
        ((-0.4f64).exp(), 1.3f64.exp()),
    ] {
        let hi = p.mapv(|px| top.min((1.0 - lo * (1.0 - px)) / px));
        let (mut best, mut best_linear) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        for v in box_vertices(p.view(), lo, &hi) {
            best = best.max(v.dot(&c.dot(&v)) - lambda.dot(&v));
            best_linear = best_linear.max(-lambda.dot(&v));
        }
        assert!(best.is_finite());
        for m in &majorants {
            let bound = m.bound_box(p.view(), lo, &hi, &lambda);
            assert!(bound >= best - 1e-9, "{bound} < {best}");
        }
        let g = -&lambda;
        let v = box_vertex(p.view(), g.view(), lo, &hi);
        assert!((p.dot(&v) - 1.0).abs() < 1e-12);
        assert!(
            (g.dot(&v) - best_linear).abs() < 1e-9,
            "{} vs {best_linear}",
            g.dot(&v)
        );
    }
}

/// Every vertex of the slices of a small ball within Proposition 2 (one
/// input at the minimum m, others at m or at `e (1 + h m)`, one free), over
/// a fine grid of m: the ball's bound holds over each.
#[test]
fn the_ball_bound_holds_over_its_slices() {
    let n = 5;
    let p = Array1::from(vec![0.3, 0.25, 0.2, 0.15, 0.1]);
    let b = Array2::from_shape_fn((n, n), |(i, j)| ((i * 3 + j * 5) % 7) as f64 - 3.0);
    let c = b.t().dot(&b) + Array2::<f64>::eye(n);
    let lambda = Array1::from_shape_fn(n, |x| 1.0 + 0.7 * x as f64);
    let (e, h) = (1.6, 0.05);
    let mut best = f64::NEG_INFINITY;
    for k in 0..=400 {
        let m = k as f64 / 400.0;
        let hi = box_tops(p.view(), e * (1.0 + h * m), m);
        for v in box_vertices(p.view(), m, &hi) {
            best = best.max(v.dot(&c.dot(&v)) - lambda.dot(&v));
        }
    }
    assert!(best.is_finite());
    for m in Majorant::of(&c, p.view()) {
        let bound = m.bound_ball(p.view(), (e, h), &lambda, 64);
        assert!(bound >= best - 1e-9, "{bound} < {best}");
    }
}

#[test]
fn uniform_prior_with_exchangeable_form_is_exact_at_two_levels() {
    let n = 5;
    let p = Array1::from_elem(n, 0.2);
    let c = Array2::<f64>::eye(n) * 3.0 - 0.4;
    let lambda = Array1::from_elem(n, 1.0);
    let e = 2.5;
    let mut best: f64 = f64::NEG_INFINITY;
    for mask in 1..(1u32 << n) {
        let bits = Array1::from_shape_fn(n, |x| f64::from((mask >> x) & 1));
        let v = &bits / p.dot(&bits);
        if v.iter().all(|&x| x <= e + 1e-12) {
            best = best.max(v.dot(&c.dot(&v)) - lambda.dot(&v));
        }
    }
    let bound = Majorant::of(&c, p.view())
        .iter()
        .map(|m| m.bound_pml(p.view(), e, &lambda))
        .fold(f64::INFINITY, f64::min);
    assert!(bound >= best - 1e-9);
    // e * 0.2 = 0.5: two inputs at e are a vertex, and the bound is met.
    assert!(
        bound <= best + 1e-6 * best.abs().max(1.0),
        "{bound} vs {best}"
    );
}
