//! The metric-privacy level of a mechanism (docs/theory.md §9): the smallest eps
//! with `W[x][y] <= e^(eps d(x, x')) W[x'][y]` for every x, x', y (libqif's
//! `smallest_epsilon`), a property of W and d alone, free of the prior.

use crate::mechanism::Mechanism;
use ndarray::ArrayView2;

/// `max ln(W[x][y] / W[x'][y]) / d(x, x')` over the pairs where the ratio
/// exceeds 1; infinite where `W[x'][y] = 0 < W[x][y]`, or where the rows of a
/// pair at distance 0 differ. 0 for a constant mechanism. With the discrete
/// metric this is the LDP parameter.
pub fn metric_level(mechanism: &Mechanism, d: ArrayView2<f64>) -> f64 {
    let n = mechanism.inputs();
    let mut level: f64 = 0.0;
    for col in mechanism.columns() {
        for x in 0..n {
            for x2 in (0..n).filter(|&x2| x2 != x) {
                let (a, b) = (col[x], col[x2]);
                if a <= b || a.is_nan() {
                    continue;
                }
                if b <= 0.0 || d[[x, x2]] <= 0.0 {
                    return f64::INFINITY;
                }
                level = level.max((a / b).ln() / d[[x, x2]]);
            }
        }
    }
    level
}
