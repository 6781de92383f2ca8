//! Tolerances every check shares: how far a measured level may exceed its
//! target, and the gaps at which a design counts as optimal (docs/theory.md §4).

/// Allowed excess of the worst-case PML (or of any measured notion level) over the
/// target (floating-point rounding of the LP's weights: about 1e-15 in practice).
pub const PML_TOLERANCE: f64 = 1e-12;

/// Allowed relative gap between the utility and its LP dual bound.
pub const GAP_TOLERANCE: f64 = 1e-7;

/// A design is reported optimal when its certified gap is at most this relative
/// to the utility, or at most [`OPTIMALITY_ABSOLUTE_GAP`] (docs/theory.md).
pub const OPTIMALITY_GAP: f64 = 1e-9;

/// The absolute gap that counts as optimal for utilities near 0.
pub const OPTIMALITY_ABSOLUTE_GAP: f64 = 1e-15;

/// How far the measured utility may exceed its bound, relative to `1 + |U|`:
/// the rounding of the two sums, no more (a bound 1.2e-5 below the
/// utility, relative, from pricing at masses of 2.6e-12, passed the earlier
/// 1e-7 and was reported optimal).
pub const BOUND_ROUNDING: f64 = 1e-9;

/// The gap allowed at relative tolerance `relative` for a utility of `value`:
/// `max(relative |value|, 1e-15)`.
pub fn gap_allowance(relative: f64, value: f64) -> f64 {
    (relative * value.abs()).max(OPTIMALITY_ABSOLUTE_GAP)
}

/// The slack allowed between a stored number (a value or a bound of a design
/// file) and its re-computation: `1e-9 (1 + |x|)`, far above rounding and far
/// below any meaningful change.
pub(crate) fn value_tolerance(x: f64) -> f64 {
    1e-9 * (1.0 + x.abs())
}
