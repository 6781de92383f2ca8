//! The local differential privacy (LDP) parameter of a mechanism (\[D\] Def 6;
//! `docs/theory.md` §3): a property of W alone, free of the prior.

use crate::linalg::column_extremes;
use crate::mechanism::Mechanism;

/// The local-DP parameter of W: `max_y ln(max_x W[x][y] / min_x W[x][y])`, the
/// smallest `e_r` with `W[x][y] <= e^e_r W[x'][y]` for all x, x', y.
///
/// Columns of all zeros are ignored; a column with a zero and a nonzero entry makes
/// it infinite. eps-LDP implies eps-PML for every prior (\[T\] Thm 5.29).
pub fn ldp_parameter(mechanism: &Mechanism) -> f64 {
    column_extremes(mechanism.matrix())
        .into_iter()
        .filter_map(|(max, min)| {
            if max <= 0.0 {
                None
            } else if min <= 0.0 {
                Some(f64::INFINITY)
            } else {
                Some((max / min).ln())
            }
        })
        .fold(0.0, f64::max)
}
