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
pub fn concave_at_most_zero(h: &impl Fn(f64) -> f64, xs: &[f64]) -> bool {
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
pub const LOCATE_ABOVE: usize = 5;

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
