//! From LP weights to a private mechanism: the support's weights recomputed
//! exactly by least squares, rows repaired when no exact basis exists, and the
//! columns mixed with their means until the measured levels meet the target.

use crate::error::Result;
use ndarray::{Array1, Array2, ArrayView1};
use pmldesign_model::linalg::{least_squares, nonnegative_least_squares_until};
use pmldesign_model::measures::NotionLevels;
use pmldesign_model::{Mechanism, Notion, UncertaintySet};

/// Brings a mechanism whose measured levels exceed the notion by more than half
/// the certificate's tolerance (the LP's rounding, grown by near-singular bases
/// at large N) back to at most the target: the columns are mixed with their
/// means under the reference prior, `c <- (1 - g) c + g q_y 1`, with the
/// smallest `g = 10^-14, .., 10^-6` that does it. Mixing keeps rows summing to 1
/// and lowers every information-density level over any prior (a mediant with
/// the ratio 1); it costs about `g U` of utility (more for Hellinger at zero
/// entries), which the certificate's gap reports. Excesses within half the
/// tolerance are left (they are reported as they are). Weights far off (a
/// time-limit stop whose last LP did not finish: N = 200 at `--time-limit 1`
/// measured 0.694 against 0.69 in about one run in ten) take coarser mixing,
/// up to `g = 1`, the constant mechanism, which meets every notion: a
/// certified mechanism with an honest gap, never an error. Inputs past a
/// numerical limit ([`crate::limits::numerical_limit`], `loss` for a loss design) keep
/// the fine steps only, and their failed check names the limit.
pub fn meet_target(
    mechanism: Mechanism,
    set: &UncertaintySet,
    notion: &Notion,
    reference: ArrayView1<f64>,
    loss: bool,
) -> Result<Mechanism> {
    let excess = |m: &Mechanism| NotionLevels::measure_notion(m, set, notion).excess(notion);
    if excess(&mechanism) <= 0.5 * crate::tolerance::PML_TOLERANCE {
        return Ok(mechanism);
    }
    let fine = (6..=14).rev().map(|k| 10f64.powi(-k));
    let within_limits = crate::limits::numerical_limit(set, notion, loss).is_none();
    let coarse = COARSE_MIX.iter().copied().filter(|_| within_limits);
    for g in fine.chain(coarse) {
        let mut w = mechanism.matrix().to_owned();
        mix_with_means(&mut w, reference, g);
        let mixed = Mechanism::new(w)?;
        if excess(&mixed) <= 0.0 {
            return Ok(mixed);
        }
    }
    Ok(mechanism)
}

/// Mixing weights past `10^-6`, for weights far off ([`meet_target`]).
const COARSE_MIX: [f64; 7] = [1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 0.5, 1.0];

/// Share of each column's mean mixed into a repaired mechanism by
/// `Optimum::settled` (a design mixes only as much as its notion needs,
/// [`meet_target`]).
pub const REPAIR_MIX: f64 = 1e-6;

/// Makes LP weights that no exact basis reproduces (nearly collinear columns)
/// into a mechanism: every row is divided by its sum (exact to rounding). Its
/// levels may then exceed their targets by that rounding, until the columns
/// are mixed with their means, `c <- (1 - g) c + g q_y 1`: that keeps rows
/// summing to 1 and lowers every information-density level (PML, PMC, LDP)
/// over any prior, at a cost of about `g U` of utility, which the certificate's
/// gap reports. A design mixes with the least `g` its notion needs
/// ([`meet_target`]; a fixed `g = 1e-6` cost mutual-information designs at
/// N = 32 up to 7.8e-6).
pub fn repair(w: &mut Array2<f64>) {
    for mut row in w.rows_mut() {
        let sum = row.sum();
        if sum > 0.0 {
            row /= sum;
        }
    }
}

/// Mixes every column with its mean under the reference prior,
/// `c <- (1 - g) c + g q_y 1`: rows keep their sums, and every
/// information-density level moves toward 0 over every prior (a mediant of the
/// old ratio and 1).
pub fn mix_with_means(w: &mut Array2<f64>, reference: ArrayView1<f64>, g: f64) {
    let q = reference.dot(&*w);
    for (mut column, qy) in w.columns_mut().into_iter().zip(q.iter()) {
        column.mapv_inplace(|c| (1.0 - g) * c + g * qy);
    }
}

/// Recomputes the weights of the LP's support exactly: the columns (sorted by
/// decreasing LP weight) are fitted to `sum_k theta_k v_k = 1` by least squares,
/// dropping the lightest column while the fit is not exact and positive. LP solvers
/// leave rays with weights near 1e-12 beside the true basis; this removes them.
/// Each step is a dense QR, so `stop(i)` is asked before step i (a deadline or
/// an interrupt): once it says stop, `None`, and the caller keeps the
/// LP's weights.
pub fn polish(
    candidates: &[(Array1<f64>, f64)],
    n: usize,
    stop: &dyn Fn(usize) -> bool,
) -> Option<(Vec<Array1<f64>>, Array1<f64>)> {
    let ones = Array1::<f64>::ones(n);
    let mut k = candidates.len().min(n);
    let mut step = 0;
    while k > 0 {
        if stop(step) {
            return None;
        }
        step += 1;
        let v = stacked(candidates[..k].iter().map(|c| &c.0), n);
        if let Some(theta) = least_squares(&v, &ones)
            && theta.iter().all(|&t| t > 0.0)
            && row_residual(&v, &theta) <= 1e-13
        {
            return Some((candidates[..k].iter().map(|c| c.0.clone()).collect(), theta));
        }
        k -= 1;
    }
    polish_nonnegative(candidates, n, &|i| stop(step + i))
}

/// The columns side by side: an n x k matrix.
pub fn stacked<'a>(
    columns: impl ExactSizeIterator<Item = &'a Array1<f64>>,
    n: usize,
) -> Array2<f64> {
    let mut v = Array2::zeros((n, columns.len()));
    for (j, c) in columns.enumerate() {
        v.column_mut(j).assign(c);
    }
    v
}

/// `max_x |(V theta)_x - 1|`: how far the weights are from rows summing to 1.
fn row_residual(v: &Array2<f64>, theta: &Array1<f64>) -> f64 {
    v.dot(theta)
        .iter()
        .fold(0.0f64, |m, r| m.max((r - 1.0).abs()))
}

/// The fallback of [`polish`] (weights from a perturbed master, whose support
/// solves no square system exactly): non-negative least squares over every
/// candidate, accepted if it meets `V theta = 1` to 1e-13.
fn polish_nonnegative(
    candidates: &[(Array1<f64>, f64)],
    n: usize,
    stop: &dyn Fn(usize) -> bool,
) -> Option<(Vec<Array1<f64>>, Array1<f64>)> {
    let v = stacked(candidates.iter().map(|c| &c.0), n);
    let theta = nonnegative_least_squares_until(&v, &Array1::ones(n), stop)?;
    if row_residual(&v, &theta) > 1e-13 {
        return None;
    }
    let kept: Vec<usize> = (0..theta.len()).filter(|&j| theta[j] > 0.0).collect();
    let support = kept.iter().map(|&j| candidates[j].0.clone()).collect();
    Some((support, kept.iter().map(|&j| theta[j]).collect()))
}
