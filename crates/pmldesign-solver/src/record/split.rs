//! The split of eps across the columns of `compose`: a coordinate search over the
//! simplex of splits that maximises the record's utility ([`super::outcome::utility`]),
//! moving a share of eps from one column to another, halving the share when no
//! move helps, within [`SPLIT_BUDGET`] splits.

use super::modes::{self, Cache, Columns};
use super::outcome::utility;
use super::{RecordProblem, SPLIT_BUDGET};
use crate::error::Result;

/// The smallest share of eps a column keeps.
const FLOOR: f64 = 0.02;

/// The first share of eps moved; the search stops below [`LAST_STEP`].
const FIRST_STEP: f64 = 0.25;
const LAST_STEP: f64 = 1.0 / 64.0;

/// The best split found, from the equal one.
pub(super) fn search(p: &RecordProblem) -> Result<Columns> {
    let k = p.sample.columns().len();
    let eps = p.epsilon;
    let mut cache = Cache::default();
    let mut split = vec![eps / k as f64; k];
    let mut best = modes::compose(p, &split, &mut cache)?;
    let mut score = utility(&p.sample, &best.designs).value;
    let mut tried = 1;
    let mut step = FIRST_STEP;
    while step >= LAST_STEP && tried < SPLIT_BUDGET {
        let mut improved = false;
        for (from, to) in pairs(k) {
            let Some(candidate) = moved(&split, from, to, step * eps, FLOOR * eps) else {
                continue;
            };
            if tried >= SPLIT_BUDGET {
                break;
            }
            tried += 1;
            let columns = modes::compose(p, &candidate, &mut cache)?;
            let value = utility(&p.sample, &columns.designs).value;
            if value > score * (1.0 + 1e-9) {
                (split, best, score, improved) = (candidate, columns, value, true);
            }
        }
        if !improved {
            step /= 2.0;
        }
    }
    Ok(best)
}

/// Every ordered pair of distinct columns.
fn pairs(k: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..k).flat_map(move |a| (0..k).filter(move |&b| b != a).map(move |b| (a, b)))
}

/// `split` with `amount` moved from column `from` to `to`, if `from` keeps at least
/// `floor`; the last level is what the others leave of eps, so the sum stays eps.
fn moved(split: &[f64], from: usize, to: usize, amount: f64, floor: f64) -> Option<Vec<f64>> {
    if split[from] - amount < floor {
        return None;
    }
    let total: f64 = split.iter().sum();
    let mut out = split.to_vec();
    out[from] -= amount;
    out[to] += amount;
    let last = out.len() - 1;
    out[last] = total - out[..last].iter().sum::<f64>();
    (out[last] > 0.0).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_keep_the_sum_and_the_floor() {
        let s = moved(&[0.5, 0.5], 0, 1, 0.25, 0.02).unwrap();
        assert_eq!(s.iter().sum::<f64>(), 1.0);
        assert!(moved(&[0.03, 0.97], 0, 1, 0.25, 0.02).is_none());
        assert_eq!(pairs(3).count(), 6);
    }
}
