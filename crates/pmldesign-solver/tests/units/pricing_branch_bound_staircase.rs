//! Tests of `pricing::branch_bound::staircase`.

use pmldesign_solver::internals::pricing::branch_bound::staircase::*;

#[test]
fn concave_functions_are_judged_exactly() {
    // -(x - 0.3)^2 + c: at most 0 iff c <= 0 (proven for c well below 0).
    for c in [-1e-7, -1e-3, 1e-9, 1e-3] {
        let h = |x: f64| -(x - 0.3) * (x - 0.3) + c;
        assert_eq!(concave_at_most_zero(&h, &[0.0, 1.0]), c <= 0.0, "c = {c}");
    }
    // A maximum at the end of the range.
    let h = |x: f64| x.ln() - 1e-9;
    assert!(concave_at_most_zero(&h, &[0.5, 1.0]));
    // A kink, and the maximum far from the first samples (rounding noise in
    // narrow chords must not prune it).
    let h = |x: f64| -(x - 0.4556).abs() - 0.1 * x * x + 0.1 * 0.4556 * 0.4556 + 1e-7;
    assert!(!concave_at_most_zero(&h, &[0.33, 0.3300000001, 0.48]));
}

#[test]
fn locating_the_maximum_first_judges_like_every_sample() {
    // Concave h (a parabola minus a convex polyline, like Q(W, Phi(W)))
    // sampled at many points: the located test proves exactly where the
    // maximum is below 0, and never where it is above.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut unit = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    for case in 0..2000 {
        let n = 6 + case % 40;
        let mut xs: Vec<f64> = (0..n).map(|_| unit()).collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        let kinks: Vec<(f64, f64)> = (0..4).map(|_| (unit(), 2.0 * unit())).collect();
        let (c, a) = (unit(), 0.01 + unit());
        let shape = |x: f64| {
            let poly: f64 = kinks.iter().map(|&(k, s)| s * (x - k).max(0.0)).sum();
            -a * (x - c) * (x - c) - 0.3 * x - poly
        };
        let lo = xs[0];
        let hi = xs[xs.len() - 1];
        let top = (0..=20_000)
            .map(|i| shape(lo + (hi - lo) * i as f64 / 20_000.0))
            .fold(f64::NEG_INFINITY, f64::max);
        let shift = top + [-1e-3, -1e-6, 1e-6, 1e-3][case % 4];
        let h = |x: f64| shape(x) - shift;
        let proven = concave_at_most_zero(&h, &xs);
        // The maximum sits at top - shift (to the grid's resolution).
        let max = top - shift;
        if max > 1e-7 {
            assert!(!proven, "case {case}: proven with a maximum {max}");
        }
        if max < -1e-4 {
            assert!(proven, "case {case}: not proven with a maximum {max}");
        }
    }
}
