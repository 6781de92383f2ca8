//! Maximal leakage of a mechanism (Issa et al.; `docs/theory.md` §2): the PML of the
//! whole mechanism at its worst prior, a property of W alone.

use crate::mechanism::Mechanism;

/// Maximal leakage `ln sum_y max_x W[x][y]` (Issa et al.; the PML of the whole
/// mechanism averaged in the worst way, independent of a full-support prior).
pub fn maximal_leakage(mechanism: &Mechanism) -> f64 {
    mechanism
        .columns()
        .map(|c| c.iter().copied().fold(0.0, f64::max))
        .sum::<f64>()
        .ln()
        .max(0.0)
}
