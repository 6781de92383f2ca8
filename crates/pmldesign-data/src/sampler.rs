//! Running a mechanism on data: drawing `Y ~ P(.|X = x)` for each record.
//!
//! A mechanism `W = P(Y|X)` (\[E\] Sec. II) is applied to a secret `x` by drawing one
//! output from row `W[x][.]`. [`AliasTable`] does this in constant time per draw by
//! Walker's alias method (Vose's construction, done here in exact integer
//! arithmetic); [`MechanismSampler`] holds one table per input. Additive noise on
//! a binary secret is drawn exactly on a grid by [`crate::discrete_noise`].
//!
//! Every draw consumes a fixed number of 64-bit words of a caller-supplied generator,
//! so a seeded generator ([`seeded_rng`]) reproduces the same outputs on every
//! platform.
//!
//! ```
//! use pmldesign_model::Mechanism;
//! use pmldesign_data::sampler::{MechanismSampler, seeded_rng};
//! let w = Mechanism::from_rows(vec![vec![0.75, 0.25], vec![0.25, 0.75]])?;
//! let sampler = MechanismSampler::new(&w)?;
//! let mut rng = seeded_rng(7);
//! let ys: Vec<usize> = (0..5).map(|_| sampler.sample(1, &mut rng)).collect();
//! let mut again = seeded_rng(7);
//! assert!(ys.iter().all(|&y| y == sampler.sample(1, &mut again)));
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

use crate::privatise::ColumnPrivatiser;
use crate::stream::{ColumnStream, StreamKey};
use pmldesign_model::{Mechanism, ModelError, Result};
use rand::{Rng, SeedableRng};
use std::collections::HashMap;

/// A generator for tests and experiments of the samplers (PCG-64 MCG, 128-bit
/// state). Privatising data draws from a keyed [`ColumnStream`] instead.
pub type SamplerRng = rand_pcg::Pcg64Mcg;

/// A [`SamplerRng`] seeded from `seed`: the same seed gives the same draws.
pub fn seeded_rng(seed: u64) -> SamplerRng {
    SamplerRng::seed_from_u64(seed)
}

/// Bits of precision of a bucket: each of the n buckets of an [`AliasTable`] has
/// capacity `2^BUCKET_BITS`, so probabilities are represented to within
/// `2^-BUCKET_BITS / n` (about `2e-16 / n`).
const BUCKET_BITS: u32 = 52;

/// Walker's alias table for a distribution on `{0, .., n-1}`: one 64-bit random
/// word per draw, constant time.
///
/// The 64-bit word `r` is read as `u = r / 2^64`; `i = floor(n u)` picks a bucket and
/// the fractional part `n u - i` (exactly the low 64 bits of `r n`) decides between
/// `i` and its alias. The table is built by Vose's algorithm in integer arithmetic,
/// so an outcome of probability 0 is never drawn, and the represented probabilities
/// ([`AliasTable::probability`]) differ from the normalised weights by at most
/// `2^-52` each.
#[derive(Debug, Clone, PartialEq)]
pub struct AliasTable {
    /// `threshold[i] / 2^64` is the probability of keeping bucket i (not its alias).
    threshold: Vec<u64>,
    /// The outcome drawn when bucket i is not kept.
    alias: Vec<u32>,
}

impl AliasTable {
    /// Builds the table for the given weights (finite, non-negative, positive sum;
    /// they are normalised). Errors name the offending weight.
    pub fn new(weights: &[f64]) -> Result<Self> {
        let n = weights.len();
        if n == 0 || n > u32::MAX as usize {
            return Err(ModelError::invalid(
                "weights",
                format!("{n} entries"),
                "an alias table needs between 1 and 2^32 - 1 outcomes",
                "give at least one weight",
            ));
        }
        if let Some((i, &w)) = weights
            .iter()
            .enumerate()
            .find(|(_, w)| !w.is_finite() || **w < 0.0)
        {
            return Err(ModelError::invalid(
                format!("weights[{i}]"),
                w,
                "weights must be finite and >= 0",
                "fix the weight",
            ));
        }
        let total: f64 = weights.iter().sum();
        if !(total > 0.0 && total.is_finite()) {
            return Err(ModelError::invalid(
                "weights",
                total,
                "the weights must have a positive, finite sum",
                "give at least one positive weight",
            ));
        }
        // Quantise n * w_i / total to integers on the scale C = 2^BUCKET_BITS whose sum
        // is exactly n C, so that the construction below is exact.
        let cap: u128 = 1 << BUCKET_BITS;
        let scale = n as f64 * cap as f64 / total;
        let mut work: Vec<u128> = weights
            .iter()
            .map(|&w| (w * scale).round() as u128)
            .collect();
        let target = n as u128 * cap;
        let sum: u128 = work.iter().sum();
        let largest = (0..n).max_by_key(|&i| work[i]).expect("n >= 1");
        // The rounding error is a few units per entry, far below work[largest] >= C.
        work[largest] = work[largest] + target - sum;

        let mut threshold = vec![u64::MAX; n];
        let mut alias: Vec<u32> = (0..n as u32).collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| work[i] < cap);
        while let Some(s) = small.pop() {
            // Every bucket holds exactly C units and the totals balance, so a small
            // bucket always finds a large one to fill it.
            let l = *large.last().expect("exact arithmetic keeps a large bucket");
            threshold[s] = (work[s] << (64 - BUCKET_BITS)) as u64;
            alias[s] = l as u32;
            work[l] -= cap - work[s];
            if work[l] < cap {
                large.pop();
                small.push(l);
            }
        }
        // The remaining buckets hold exactly C: always kept (threshold unused).
        for l in large {
            debug_assert_eq!(work[l], cap);
            alias[l] = l as u32;
        }
        Ok(AliasTable { threshold, alias })
    }

    /// Number of outcomes n.
    pub fn len(&self) -> usize {
        self.alias.len()
    }

    /// Always false: a table has at least one outcome.
    pub fn is_empty(&self) -> bool {
        self.alias.is_empty()
    }

    /// Draws an outcome, consuming one `u64` of `rng`.
    #[inline]
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> usize {
        let r = rng.next_u64();
        let product = u128::from(r) * self.alias.len() as u128;
        let bucket = (product >> 64) as usize;
        let fraction = product as u64;
        // Kept or aliased is a coin flip: chosen without a branch, which the
        // processor would mispredict about half the time.
        std::hint::select_unpredictable(
            fraction < self.threshold[bucket],
            bucket,
            self.alias[bucket] as usize,
        )
    }

    /// The probability with which [`AliasTable::sample`] returns `outcome` (exact up
    /// to the rounding of this sum), for checking the table.
    pub fn probability(&self, outcome: usize) -> f64 {
        let n = self.len() as f64;
        let keep = |i: usize| {
            if self.alias[i] as usize == i {
                1.0
            } else {
                self.threshold[i] as f64 / 2f64.powi(64)
            }
        };
        let mut p = keep(outcome);
        for i in 0..self.len() {
            if self.alias[i] as usize == outcome && i != outcome {
                p += 1.0 - keep(i);
            }
        }
        p / n
    }
}

/// Draws outputs of a mechanism: `sample(x)` is distributed as row `W[x][.]`.
#[derive(Debug, Clone, PartialEq)]
pub struct MechanismSampler {
    rows: Vec<AliasTable>,
    outputs: usize,
}

impl MechanismSampler {
    /// One alias table per input symbol of `mechanism`, whatever the memory layout
    /// of its matrix. Errors only for a row an alias table cannot hold (more than
    /// 2^32 - 1 outputs).
    pub fn new(mechanism: &Mechanism) -> Result<Self> {
        let rows = mechanism
            .matrix()
            .outer_iter()
            .map(|row| AliasTable::new(&row.to_vec()))
            .collect::<Result<Vec<_>>>()?;
        Ok(MechanismSampler {
            rows,
            outputs: mechanism.outputs(),
        })
    }

    /// Number of inputs N.
    pub fn inputs(&self) -> usize {
        self.rows.len()
    }

    /// Number of outputs M.
    pub fn outputs(&self) -> usize {
        self.outputs
    }

    /// The alias table of row x.
    pub fn row(&self, x: usize) -> &AliasTable {
        &self.rows[x]
    }

    /// Draws an output for input `x` (panics if `x >= inputs()`); one `u64` of `rng`.
    #[inline]
    pub fn sample<R: Rng + ?Sized>(&self, x: usize, rng: &mut R) -> usize {
        self.rows[x].sample(rng)
    }
}

/// Labels at most this many are looked up by a linear scan, more by hashing.
const LINEAR_LOOKUP_MAX: usize = 16;

/// Finds the index of a label given as bytes.
#[derive(Debug, Clone)]
pub(crate) enum LabelIndex {
    /// Few labels of at most 7 bytes, each packed into one integer ([`pack`]).
    Packed(Vec<u64>),
    /// Few labels.
    Linear(Vec<Box<[u8]>>),
    /// Many labels.
    Hashed(HashMap<Box<[u8]>, usize>),
}

/// A value of at most 7 bytes as one integer: its bytes, then its length in the top
/// byte (so that distinct values give distinct integers).
#[inline]
fn pack(value: &[u8]) -> Option<u64> {
    if value.len() > 7 {
        return None;
    }
    let mut bytes = [0u8; 8];
    bytes[..value.len()].copy_from_slice(value);
    bytes[7] = value.len() as u8;
    Some(u64::from_le_bytes(bytes))
}

impl LabelIndex {
    pub(crate) fn new(labels: &[String]) -> Self {
        if labels.len() <= LINEAR_LOOKUP_MAX {
            match labels.iter().map(|l| pack(l.as_bytes())).collect() {
                Some(packed) => LabelIndex::Packed(packed),
                None => LabelIndex::Linear(labels.iter().map(|l| l.as_bytes().into()).collect()),
            }
        } else {
            LabelIndex::Hashed(
                labels
                    .iter()
                    .enumerate()
                    .map(|(i, l)| (l.as_bytes().into(), i))
                    .collect(),
            )
        }
    }

    #[inline]
    pub(crate) fn get(&self, value: &[u8]) -> Option<usize> {
        match self {
            LabelIndex::Packed(v) => {
                let key = pack(value)?;
                v.iter().position(|&l| l == key)
            }
            LabelIndex::Linear(v) => v.iter().position(|l| **l == *value),
            LabelIndex::Hashed(m) => m.get(value).copied(),
        }
    }
}

/// Applies a mechanism to a categorical column: the value with label `labels[x]`
/// becomes `outputs[y]` with `y` drawn from row `W[x][.]`. Values are matched
/// exactly (no trimming).
#[derive(Debug, Clone)]
pub struct CategoricalPrivatiser {
    sampler: MechanismSampler,
    index: LabelIndex,
    labels: Vec<String>,
    outputs: Vec<String>,
    stream: ColumnStream,
    /// Rows privatised per label.
    counts: Vec<u64>,
}

impl CategoricalPrivatiser {
    /// Checks that there is one distinct, non-empty label per input and one distinct
    /// output name per output of `mechanism`; row i draws one word of `stream`
    /// ([`ColumnStream::new`] with one word a row).
    pub fn new(
        mechanism: &Mechanism,
        labels: Vec<String>,
        outputs: Vec<String>,
        (key, column): (&StreamKey, &str),
    ) -> Result<Self> {
        check_names("labels", &labels, mechanism.inputs(), "inputs (rows)")?;
        check_names(
            "outputs",
            &outputs,
            mechanism.outputs(),
            "outputs (columns)",
        )?;
        Ok(CategoricalPrivatiser {
            sampler: MechanismSampler::new(mechanism)?,
            index: LabelIndex::new(&labels),
            counts: vec![0; labels.len()],
            labels,
            outputs,
            stream: ColumnStream::new(key, column, 1),
        })
    }
}

/// `names` for the mechanism's `n` inputs or outputs (`what`): one each, every
/// one non-blank and distinct ([`pmldesign_model::names::check_names`]).
fn check_names(field: &str, names: &[String], n: usize, what: &str) -> Result<()> {
    if names.len() != n {
        return Err(ModelError::invalid(
            field,
            names.len(),
            format!(
                "there are {} {field} but the mechanism has {n} {what}",
                names.len()
            ),
            format!("give exactly {n} {field}"),
        ));
    }
    pmldesign_model::names::check_names(field, names)
}

impl ColumnPrivatiser for CategoricalPrivatiser {
    #[inline]
    fn privatise(&mut self, row: u64, value: &[u8], out: &mut Vec<u8>) -> bool {
        match self.index.get(value) {
            Some(x) => {
                let y = self.sampler.sample(x, self.stream.at(row));
                out.extend_from_slice(self.outputs[y].as_bytes());
                self.counts[x] += 1;
                true
            }
            None => false,
        }
    }

    fn alphabet(&self) -> &[String] {
        &self.labels
    }

    fn counts(&self) -> Option<&[u64]> {
        Some(&self.counts)
    }
}

/// Reads `-1` or `1` quickly, or through a full number parse.
#[inline]
pub(crate) fn binary_value(value: &[u8]) -> Option<f64> {
    match value {
        b"1" => Some(1.0),
        b"-1" => Some(-1.0),
        _ => {
            let x: f64 = std::str::from_utf8(value).ok()?.parse().ok()?;
            (x == 1.0 || x == -1.0).then_some(x)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_represents_weights() {
        for w in [
            vec![1.0],
            vec![0.5, 0.5],
            vec![0.0, 1.0, 0.0],
            vec![0.1, 0.2, 0.3, 0.4],
            vec![1e-300, 1.0, 3.0],
            vec![0.325, 0.225, 0.225, 0.225],
            vec![7.0, 0.0, 1.0, 0.0, 2.0],
        ] {
            let t = AliasTable::new(&w).unwrap();
            let s: f64 = w.iter().sum();
            for (i, &wi) in w.iter().enumerate() {
                assert!((t.probability(i) - wi / s).abs() < 1e-15, "{w:?} at {i}");
                if wi == 0.0 {
                    assert_eq!(t.probability(i), 0.0);
                }
            }
        }
        assert!(AliasTable::new(&[]).is_err());
        assert!(AliasTable::new(&[0.0, 0.0]).is_err());
        assert!(AliasTable::new(&[1.0, -0.1]).is_err());
        assert!(AliasTable::new(&[1.0, f64::NAN]).is_err());
    }

    #[test]
    fn zero_weight_never_drawn() {
        let t = AliasTable::new(&[0.0, 0.3, 0.0, 0.7, 0.0]).unwrap();
        let mut rng = seeded_rng(1);
        for _ in 0..100_000 {
            let i = t.sample(&mut rng);
            assert!(i == 1 || i == 3);
        }
    }

    #[test]
    fn binary_values() {
        assert_eq!(binary_value(b"1"), Some(1.0));
        assert_eq!(binary_value(b"-1.0"), Some(-1.0));
        assert_eq!(binary_value(b"+1"), Some(1.0));
        assert_eq!(binary_value(b"0"), None);
        assert_eq!(binary_value(b" 1"), None);
        assert_eq!(binary_value(b""), None);
    }
}
