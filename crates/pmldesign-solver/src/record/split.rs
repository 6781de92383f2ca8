//! The split of eps across the columns of `compose`: a coordinate search over the
//! simplex of splits that maximises the record's utility ([`super::outcome::utility`]),
//! moving a share of eps from one column to another, halving the share when no
//! move helps, within [`SPLIT_BUDGET`] splits and half the record's time
//! limit. Shares are whole numbers of
//! eps/[`UNITS`], so that the levels print as the fractions they are.

use super::modes::{self, Cache, Columns};
use super::outcome::utility;
use super::{RecordProblem, SPLIT_BUDGET};
use crate::error::Result;

/// eps in units: a share is a whole number of eps/UNITS.
const UNITS: u32 = 1024;

/// The smallest share a column keeps, in units (about 2 % of eps).
pub const FLOOR: u32 = 20;

/// The first share moved, in units; the search stops below [`LAST_STEP`].
const FIRST_STEP: u32 = 256;
const LAST_STEP: u32 = 16;

/// The best split found, from the (nearly) equal one.
pub(super) fn search(p: &RecordProblem) -> Result<Columns> {
    let k = p.sample.columns().len();
    let mut cache = Cache::default();
    let mut units = vec![UNITS / k as u32; k];
    units[k - 1] = UNITS - units[..k - 1].iter().sum::<u32>();
    let mut best = modes::compose(p, &levels(&units, p.epsilon), &mut cache)?;
    let mut score = utility(&p.sample, &best.designs).value;
    let mut tried = 1;
    let mut step = FIRST_STEP;
    // Past half the record's time the search stops with the best split so
    // far, whose designs are all certified (the naive release still runs).
    while step >= LAST_STEP && tried < SPLIT_BUDGET && !p.past_half() {
        let mut improved = false;
        for (from, to) in pairs(k) {
            let Some(candidate) = moved(&units, from, to, step) else {
                continue;
            };
            if tried >= SPLIT_BUDGET || p.past_half() {
                break;
            }
            tried += 1;
            let columns = modes::compose(p, &levels(&candidate, p.epsilon), &mut cache)?;
            let value = utility(&p.sample, &columns.designs).value;
            if value > score * (1.0 + 1e-9) {
                (units, best, score, improved) = (candidate, columns, value, true);
            }
        }
        if !improved {
            step /= 2;
        }
    }
    Ok(best)
}

/// Every ordered pair of distinct columns.
pub fn pairs(k: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..k).flat_map(move |a| (0..k).filter(move |&b| b != a).map(move |b| (a, b)))
}

/// `units` with `amount` moved from column `from` to `to`, if `from` keeps at
/// least [`FLOOR`].
pub fn moved(units: &[u32], from: usize, to: usize, amount: u32) -> Option<Vec<u32>> {
    if units[from] < amount + FLOOR {
        return None;
    }
    let mut out = units.to_vec();
    out[from] -= amount;
    out[to] += amount;
    Some(out)
}

/// The levels of a split in units: `eps u / UNITS` (exact for dyadic eps).
pub fn levels(units: &[u32], epsilon: f64) -> Vec<f64> {
    units
        .iter()
        .map(|&u| epsilon * f64::from(u) / f64::from(UNITS))
        .collect()
}
