//! A sharper test for the LDP staircase family (docs/theory.md §4b). A member
//! is `v = u / s` with `u = 1 + (E - 1) 1_A` and `s = p . u = 1 + (E - 1) W`, so
//! its reduced cost exceeds a threshold t iff
//!
//! `Q(W, L) = m(W) - t s(W) - Lambda - (E - 1) L > 0`,  `m(W) = mu(u_A)`,
//!
//! where `m(W) = s (W f(E / s) + (1 - W) f(1 / s))` for an f-information and
//! `max(E M_A, M_rest)` for MAP accuracy. When m is concave in W (mutual
//! information, total variation, chi-square: [`crate::Utility::staircase_concave`];
//! MAP, where it is constant), `Q(W, Phi(W))` is concave over a node's whole
//! chain, `Phi` being the convex fractional-knapsack chain of the dual mass, so
//! its maximum is bracketed by sampling and chord extensions: a node is pruned
//! when that bound is at most 0. No interval splitting, no loss of accuracy
//! near ties.

/// Whether `h`, concave on `[xs[0], xs[last]]`, is below 0 there: `xs` are
/// sorted sample points (at least two). Between samples a concave function lies
/// below the extensions of the neighbouring chords; the interval with the
/// largest such bound is split until every bound is below 0 (true), a sample
/// is above 0, or the budget or the resolution runs out (false: not proven).
/// Chords narrower than 1e-9 of the range are not used: their slopes are
/// rounding noise.
pub(super) fn concave_at_most_zero(h: &impl Fn(f64) -> f64, mut xs: Vec<f64>) -> bool {
    let mut ys: Vec<f64> = xs.iter().map(|&x| h(x)).collect();
    let min_width = 1e-9 * (xs[xs.len() - 1] - xs[0]).max(f64::MIN_POSITIVE);
    let margin = 1e-13 * (1.0 + ys.iter().fold(0.0f64, |m, y| m.max(y.abs())));
    for _ in 0..MAX_SAMPLES {
        if ys.iter().any(|&y| y > -margin) {
            return false;
        }
        let chord = |j: usize| -> Option<(f64, f64, f64)> {
            (j + 1 < xs.len() && xs[j + 1] - xs[j] >= min_width)
                .then(|| (xs[j], ys[j], (ys[j + 1] - ys[j]) / (xs[j + 1] - xs[j])))
        };
        let interval = |i: usize| {
            let left = i.checked_sub(1).and_then(chord);
            min_of_lines(xs[i], xs[i + 1], left, chord(i + 1))
        };
        let (worst, i) = (0..xs.len() - 1)
            .map(|i| (interval(i), i))
            .fold((f64::NEG_INFINITY, 0), |a, b| if b.0 > a.0 { b } else { a });
        if worst <= -margin {
            return true;
        }
        if xs[i + 1] - xs[i] < min_width {
            return false;
        }
        let m = 0.5 * (xs[i] + xs[i + 1]);
        xs.insert(i + 1, m);
        ys.insert(i + 1, h(m));
    }
    false
}

/// Samples a test may take.
const MAX_SAMPLES: usize = 40;

/// `max over x in [u, v] of min(line1(x), line2(x))` for lines given by a point
/// and a slope (either may be missing; with neither there is no bound).
fn min_of_lines(u: f64, v: f64, a: Option<(f64, f64, f64)>, b: Option<(f64, f64, f64)>) -> f64 {
    let at = |l: (f64, f64, f64), x: f64| l.1 + l.2 * (x - l.0);
    match (a, b) {
        (None, None) => f64::INFINITY,
        (Some(l), None) | (None, Some(l)) => at(l, u).max(at(l, v)),
        (Some(l1), Some(l2)) => {
            let f = |x: f64| at(l1, x).min(at(l2, x));
            let mut best = f(u).max(f(v));
            let ds = l1.2 - l2.2;
            if ds != 0.0 {
                let x = (at(l2, 0.0) - at(l1, 0.0)) / ds;
                if x > u && x < v {
                    best = best.max(f(x));
                }
            }
            best
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concave_functions_are_judged_exactly() {
        // -(x - 0.3)^2 + c: at most 0 iff c <= 0 (proven for c well below 0).
        for c in [-1e-7, -1e-3, 1e-9, 1e-3] {
            let h = |x: f64| -(x - 0.3) * (x - 0.3) + c;
            assert_eq!(
                concave_at_most_zero(&h, vec![0.0, 1.0]),
                c <= 0.0,
                "c = {c}"
            );
        }
        // A maximum at the end of the range.
        let h = |x: f64| x.ln() - 1e-9;
        assert!(concave_at_most_zero(&h, vec![0.5, 1.0]));
        // A kink, and the maximum far from the first samples (rounding noise in
        // narrow chords must not prune it).
        let h = |x: f64| -(x - 0.4556).abs() - 0.1 * x * x + 0.1 * 0.4556 * 0.4556 + 1e-7;
        assert!(!concave_at_most_zero(&h, vec![0.33, 0.3300000001, 0.48]));
    }
}
