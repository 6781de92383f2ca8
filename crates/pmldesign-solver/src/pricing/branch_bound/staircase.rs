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
///
/// Past [`LOCATE_ABOVE`] samples the test first locates the largest sample by
/// bisection on the sign of the steps between neighbours (a concave function's
/// steps change sign once) and tests only the samples around it: a chord
/// rising toward the window from the left (or falling away from it on the
/// right) bounds h outside the window by its end value, which the test then
/// requires below 0. Where such a chord cannot be found (steps of rounding
/// size, chords narrower than the resolution) every sample is tested.
pub(super) fn concave_at_most_zero(h: &impl Fn(f64) -> f64, xs: &[f64]) -> bool {
    let n = xs.len();
    let min_width = 1e-9 * (xs[n - 1] - xs[0]).max(f64::MIN_POSITIVE);
    if n > LOCATE_ABOVE {
        let mut ys: Vec<Option<f64>> = vec![None; n];
        let mut y = |k: usize| *ys[k].get_or_insert_with(|| h(xs[k]));
        // The first k whose step to k + 1 does not rise (n - 1 if none).
        let (mut lo, mut hi) = (0, n - 1);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if y(mid + 1) <= y(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        let width = |k: usize| xs[k + 1] - xs[k];
        // A chord (a, a + 1) that rises, or (b - 1, b) that falls, wide
        // enough to trust its slope.
        let mut a = lo.saturating_sub(1);
        while a > 0 && !(width(a) >= min_width && y(a + 1) >= y(a)) {
            a -= 1;
        }
        let mut b = (lo + 1).min(n - 1);
        while b < n - 1 && !(width(b - 1) >= min_width && y(b - 1) >= y(b)) {
            b += 1;
        }
        let (y0, y1) = (y(0), y(n - 1));
        let window = with_room((a..=b).map(&mut y), b - a + 1);
        let margin = margin_of(window.iter().chain([&y0, &y1]));
        return bracketed(h, &xs[a..=b], window, min_width, margin);
    }
    let ys = with_room(xs.iter().map(|&x| h(x)), n);
    let margin = margin_of(ys.iter());
    bracketed(h, xs, ys, min_width, margin)
}

/// The `len` values in a vector with room for the samples [`bracketed`] adds:
/// the test runs at every node of a search, and regrowing the vector there cost
/// more than the test itself.
fn with_room(values: impl Iterator<Item = f64>, len: usize) -> Vec<f64> {
    let mut v = Vec::with_capacity(len + MAX_SAMPLES);
    v.extend(values);
    v
}

/// The rounding allowance of a test whose samples take the values `ys`.
fn margin_of<'a>(ys: impl Iterator<Item = &'a f64>) -> f64 {
    1e-13 * (1.0 + ys.fold(0.0f64, |m, y| m.max(y.abs())))
}

/// [`concave_at_most_zero`] over the samples `xs` with their values `ys`.
fn bracketed(
    h: &impl Fn(f64) -> f64,
    xs: &[f64],
    mut ys: Vec<f64>,
    min_width: f64,
    margin: f64,
) -> bool {
    let mut xs = with_room(xs.iter().copied(), xs.len());
    ys.reserve(MAX_SAMPLES);
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

/// Samples past which [`concave_at_most_zero`] locates the maximum first.
const LOCATE_ABOVE: usize = 5;

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
}
