//! Tests of `pricing::branch_bound::segment`.

use pmldesign_solver::internals::pricing::branch_bound::segment::*;

struct Poly;

impl Smooth for Poly {
    /// `-(w - 0.3)^2 + 0.1 w`: a turning point inside `[0, 1]`.
    fn value(&self, w: f64) -> f64 {
        -(w - 0.3) * (w - 0.3) + 0.1 * w
    }

    fn slope(&self, a: f64, b: f64) -> Option<Interval> {
        Some(Interval::between(
            -2.0 * (a - 0.3) + 0.1,
            -2.0 * (b - 0.3) + 0.1,
        ))
    }
}

#[test]
fn the_bound_covers_the_maximum_and_converges() {
    let g = Poly;
    let exact = g.value(0.35);
    let coarse = segment_max(&g, (0.0, g.value(0.0)), (1.0, g.value(1.0)), 1e9, 0).unwrap();
    let fine = segment_max(&g, (0.0, g.value(0.0)), (1.0, g.value(1.0)), 0.03, 30).unwrap();
    assert!(coarse >= exact && fine >= exact);
    assert!(fine - exact < 1e-10, "{fine} vs {exact}");
}

#[test]
fn monotone_segments_are_bounded_by_an_end() {
    let g = Poly;
    let b = segment_max(&g, (0.5, g.value(0.5)), (0.9, g.value(0.9)), 1e9, 0).unwrap();
    assert_eq!(b, g.value(0.5));
}

#[test]
fn secants_enclose_the_slope_of_t_ln_t() {
    let f: fn(f64) -> f64 = |t| t * t.ln();
    let (s, _) = convex_enclosure(f, 0.5, 2.0).unwrap();
    assert!(s.lo <= 0.5f64.ln() + 1.0 && s.hi >= 2f64.ln() + 1.0);
    assert!(s.lo > 0.5f64.ln() + 1.0 - 1e-6 && s.hi < 2f64.ln() + 1.0 + 1e-6);
    let (_, r) = convex_enclosure(f, 0.2, 0.5).unwrap();
    let min = -(-1.0f64).exp();
    assert!(r.lo <= min && r.hi >= (0.2 * 0.2f64.ln()).max(0.5 * 0.5f64.ln()));
    assert_eq!(
        convex_enclosure(f, 0.0, 1.0).unwrap().0.lo,
        f64::NEG_INFINITY
    );
}
