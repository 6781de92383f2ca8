//! The largest value of a smooth function along one segment of the
//! fractional-knapsack chain, bounded from its end values and an enclosure of
//! its derivative (docs/theory.md §4b, "Two-level families").
//!
//! Interval arithmetic on the function itself overestimates by O(width) and
//! needs many halvings near ties; here a segment whose derivative keeps one sign
//! is bounded exactly by an end value, and a segment with a turning point by the
//! meeting point of the two lines through its ends with the extreme slopes, an
//! overestimate of O(width^2) that halving shrinks fourfold.

/// A closed interval `[lo, hi]` of reals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// The lower end.
    pub lo: f64,
    /// The upper end.
    pub hi: f64,
}

impl Interval {
    /// The interval between `a` and `b`, in either order.
    pub fn between(a: f64, b: f64) -> Self {
        Interval {
            lo: a.min(b),
            hi: a.max(b),
        }
    }

    /// The single point x.
    pub(super) fn point(x: f64) -> Self {
        Interval { lo: x, hi: x }
    }

    pub(super) fn is_finite(&self) -> bool {
        self.lo.is_finite() && self.hi.is_finite()
    }

    pub(super) fn add(self, o: Self) -> Self {
        Interval {
            lo: self.lo + o.lo,
            hi: self.hi + o.hi,
        }
    }

    pub(super) fn sub(self, o: Self) -> Self {
        self.add(o.scale(-1.0))
    }

    pub(super) fn scale(self, k: f64) -> Self {
        Interval::between(k * self.lo, k * self.hi)
    }

    /// The product; an unbounded end times zero is zero (the values are
    /// real, only their bound is infinite).
    pub(super) fn mul(self, o: Self) -> Self {
        let times = |x: f64, y: f64| if x == 0.0 || y == 0.0 { 0.0 } else { x * y };
        let c = [
            times(self.lo, o.lo),
            times(self.lo, o.hi),
            times(self.hi, o.lo),
            times(self.hi, o.hi),
        ];
        Interval {
            lo: c.iter().copied().fold(f64::INFINITY, f64::min),
            hi: c.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }

    /// Widened by `margin` on both sides (rounding of the terms).
    pub(super) fn widen(self, margin: f64) -> Self {
        Interval {
            lo: self.lo - margin,
            hi: self.hi + margin,
        }
    }
}

/// Relative step of the secants that bound a convex function's slope.
const SECANT_STEP: f64 = 1e-7;

/// Enclosures of a convex f over `[x1, x2]` (`0 <= x1 <= x2`), from f at the
/// ends and just outside them (four values).
///
/// - `slope`: f' is non-decreasing, so it lies between the secant just left of
///   x1 and the secant just right of x2, widened by their rounding; the lower
///   end is `-inf` where the left secant would leave `[0, inf)` (f can be
///   infinitely steep at 0).
/// - `range`: f is at most its larger end value and at least the left value
///   plus the least slope times the width.
///
/// `None` if a value is not a number.
pub fn convex_enclosure(f: fn(f64) -> f64, x1: f64, x2: f64) -> Option<(Interval, Interval)> {
    let (f1, f2) = (f(x1), f(x2));
    let secant = |a: f64, fa: f64, b: f64, fb: f64| {
        let noise = 4.0 * f64::EPSILON * (fa.abs() + fb.abs()) / (b - a);
        ((fb - fa) / (b - a), noise)
    };
    let h1 = SECANT_STEP * x1;
    let lo = if h1 > 0.0 && x1 - h1 > 0.0 {
        let (left, noise) = secant(x1 - h1, f(x1 - h1), x1, f1);
        left - noise
    } else {
        f64::NEG_INFINITY
    };
    let h2 = SECANT_STEP * x2.max(f64::MIN_POSITIVE.sqrt());
    let (right, noise) = secant(x2, f2, x2 + h2, f(x2 + h2));
    let slope = Interval {
        lo,
        hi: right + noise,
    };
    if slope.lo.is_nan() || !slope.hi.is_finite() {
        return None;
    }
    let noise = 4.0 * f64::EPSILON * (f1.abs() + f2.abs());
    let drop = if x2 > x1 {
        slope.lo.min(0.0) * (x2 - x1)
    } else {
        0.0
    };
    let range = Interval {
        lo: f1 + drop - noise,
        hi: f1.max(f2) + noise,
    };
    Some((slope, range))
}

/// A function on a segment: its value at a point and an enclosure of its
/// derivative over a sub-segment (`None`: not available there).
pub trait Smooth {
    /// The value at `w`.
    fn value(&self, w: f64) -> f64;
    /// An enclosure of the derivative over `[a, b]`.
    fn slope(&self, a: f64, b: f64) -> Option<Interval>;
}

/// An upper bound on `g` over `[a, b]` given its end values, halved while the
/// bound is above `threshold` and `depth` allows; `None` where the slope is
/// unavailable.
pub fn segment_max(
    g: &impl Smooth,
    (a, ga): (f64, f64),
    (b, gb): (f64, f64),
    threshold: f64,
    depth: u32,
) -> Option<f64> {
    let d = g.slope(a, b)?;
    let width = b - a;
    let bound = if d.lo >= 0.0 {
        gb
    } else if d.hi <= 0.0 {
        ga
    } else if d.is_finite() {
        // The lines from (a, ga) with slope d.hi and into (b, gb) with slope d.lo
        // meet at a + tau; g lies below both.
        let tau = ((gb - ga - d.lo * width) / (d.hi - d.lo)).clamp(0.0, width);
        (ga + d.hi * tau).max(ga).max(gb)
    } else if d.hi.is_finite() {
        ga + d.hi * width
    } else if d.lo.is_finite() {
        gb - d.lo * width
    } else {
        f64::INFINITY
    };
    if bound <= threshold || depth == 0 || b - a <= 1e-15 {
        return Some(bound);
    }
    let m = 0.5 * (a + b);
    let gm = g.value(m);
    let left = segment_max(g, (a, ga), (m, gm), threshold, depth - 1)?;
    let right = segment_max(g, (m, gm), (b, gb), threshold, depth - 1)?;
    Some(left.max(right))
}
