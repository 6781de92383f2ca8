//! Whether released counts can plausibly come from the fitted model: the
//! likelihood-ratio (G) test of the counts against the fitted output
//! distribution `q = W^T p^`, on the chi-square distribution.

use serde::{Deserialize, Serialize};

/// Below this p-value the counts are reported as unlikely under the mechanism.
pub const UNLIKELY_FIT: f64 = 1e-6;

/// The G test of released counts against a fitted output distribution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FitTest {
    /// `G = 2 sum_y n_y ln(n_y / (m q_y))` over the outputs counted (infinite
    /// when an output of fitted probability 0 was counted).
    pub statistic: f64,
    /// The outputs the mechanism can release, less 1, less the free
    /// parameters fitted (the groups estimated, less 1); at least 0.
    pub degrees_of_freedom: usize,
    /// `P(chi2 >= G)` on those degrees of freedom; `None` with none, where
    /// the fitted model reproduces any counts and the test has no power.
    pub p_value: Option<f64>,
}

impl FitTest {
    /// Whether the counts are unlikely under the mechanism (p below
    /// [`UNLIKELY_FIT`]).
    pub fn unlikely(&self) -> bool {
        self.p_value.is_some_and(|p| p < UNLIKELY_FIT)
    }

    /// What the test says when it says something (the CLI's and Python's
    /// `fit.note`, and their warning): the counts are unlikely under the
    /// mechanism, or the test has no power.
    pub fn note(&self) -> Option<String> {
        if self.unlikely() {
            let g = if self.statistic.is_finite() {
                format!("{:.6}", self.statistic)
            } else {
                "inf".to_string()
            };
            return Some(format!(
                "the released counts are unlikely under this mechanism (G = {g} on {} degrees of freedom, p = {:.3e} < {UNLIKELY_FIT:e}): the data may have been released through another design; estimate with the design that released them",
                self.degrees_of_freedom,
                self.p_value.unwrap_or(0.0)
            ));
        }
        self.p_value.is_none().then(|| {
            "the mechanism has as many free outputs as estimated masses: any counts fit it, so the goodness-of-fit test has no power".to_string()
        })
    }
}

/// The G test of `counts` (one per output) against `fitted` (the model's
/// output distribution, one per output) with `groups` estimated masses (their
/// sum fixed at 1). Outputs the model cannot release and nobody released do
/// not count towards the degrees of freedom.
pub fn goodness_of_fit(counts: &[u64], fitted: &[f64], groups: usize) -> FitTest {
    let m: u64 = counts.iter().sum();
    let mut statistic = 0.0;
    let mut cells = 0usize;
    for (&n, &q) in counts.iter().zip(fitted) {
        if n == 0 && q <= 0.0 {
            continue;
        }
        cells += 1;
        if n == 0 {
            continue;
        }
        let n = n as f64;
        statistic += if q > 0.0 {
            2.0 * n * (n / (m as f64 * q)).ln()
        } else {
            f64::INFINITY
        };
    }
    // Rounding may leave a perfect fit a hair below 0.
    let statistic = statistic.max(0.0);
    let degrees_of_freedom = cells.saturating_sub(groups.max(1));
    let p_value = (degrees_of_freedom > 0).then(|| chi_square_tail(statistic, degrees_of_freedom));
    FitTest {
        statistic,
        degrees_of_freedom,
        p_value,
    }
}

/// `P(chi2_k >= x)`: the upper regularised incomplete gamma `Q(k/2, x/2)`.
pub fn chi_square_tail(x: f64, k: usize) -> f64 {
    if !x.is_finite() {
        return 0.0;
    }
    if x <= 0.0 {
        return 1.0;
    }
    statrs::function::gamma::checked_gamma_ur(k as f64 / 2.0, x / 2.0).unwrap_or(0.0)
}
