//! The parametric bootstrap of a frequency estimate (`docs/theory.md` §13): the
//! released counts are drawn again, `reps` times, from the fitted model (m rows
//! from `q = W^T p^`), each set is estimated as the data were, and the spread of
//! those estimates checks the delta-method intervals. Replicate r draws from
//! its own part of one keyed stream ([`crate::stream`]), so the replicates run
//! in parallel and the check is the same at any thread count.

use crate::stream::{ColumnStream, StreamKey};
use pmldesign_model::frequency::{FrequencyEstimate, FrequencySettings, estimate_frequencies};
use pmldesign_model::{Mechanism, ModelError, Result};
use rand_distr::{Binomial, Distribution};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// The bootstrap's view of an estimate, per group of inputs (as the estimate's).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BootstrapCheck {
    /// Replicates drawn.
    pub reps: usize,
    /// Standard deviation of the replicates' estimates.
    pub standard_error: Vec<f64>,
    /// Percentile interval at the estimate's confidence: the lower ends.
    pub lower: Vec<f64>,
    /// The upper ends.
    pub upper: Vec<f64>,
    /// Replicates whose EM estimate stopped at its cap before its likelihood
    /// gap certified the maximum (0 for inversion).
    #[serde(default)]
    pub uncertified: usize,
    /// Replicates asked for: more than `reps` where a time limit stopped the
    /// drawing (0 in a check written without it).
    #[serde(default)]
    pub asked: usize,
}

impl BootstrapCheck {
    /// Whether a time limit stopped the drawing before every replicate asked for.
    pub fn stopped(&self) -> bool {
        self.reps < self.asked
    }
}

/// The most replicates one check draws.
pub const MAX_REPS: usize = 100_000;

/// Words of the stream reserved for one replicate (far more than it draws).
const WORDS_PER_REP: u64 = 1 << 32;

/// Draws `reps` sets of `estimate.rows` released rows from the model fitted by
/// `estimate` (made from `mechanism` with `settings`), estimates each, and returns
/// the replicates' spread. Replicate r draws from its row of the stream of
/// `key`. Past `until` no more replicates start: the check is then of those
/// drawn (a whole number of rounds of one replicate per thread, at least 2),
/// and says so ([`BootstrapCheck::stopped`]).
pub fn bootstrap(
    mechanism: &Mechanism,
    estimate: &FrequencyEstimate,
    settings: &FrequencySettings,
    (reps, key): (usize, &StreamKey),
    until: Option<Instant>,
) -> Result<BootstrapCheck> {
    if !(2..=MAX_REPS).contains(&reps) {
        return Err(ModelError::invalid(
            "bootstrap",
            reps,
            format!("a bootstrap needs 2 to {MAX_REPS} replicates"),
            "give a number of replicates such as 200",
        ));
    }
    let q = fitted_outputs(mechanism, estimate);
    let replicate = |r: usize| {
        let mut stream = ColumnStream::new(key, "bootstrap", WORDS_PER_REP);
        let counts = multinomial(estimate.rows, &q, stream.at(r as u64));
        let again = estimate_frequencies(mechanism, &counts, settings)?;
        Ok(Replicate {
            estimate: again.estimate,
            converged: again.converged,
        })
    };
    let round = rayon::current_num_threads().max(2);
    let mut drawn = Vec::with_capacity(reps);
    while drawn.len() < reps {
        let next = drawn.len()..(drawn.len() + round).min(reps);
        let results: Vec<Result<Replicate>> = next.into_par_iter().map(replicate).collect();
        for again in results {
            drawn.push(again?);
        }
        if until.is_some_and(|t| Instant::now() >= t) {
            break;
        }
    }
    Ok(spread(estimate, &drawn, reps))
}

/// One replicate's estimate, per group, and whether EM certified it.
struct Replicate {
    estimate: Vec<f64>,
    converged: bool,
}

/// The replicates' standard errors and percentile intervals at the estimate's
/// confidence, per group.
fn spread(estimate: &FrequencyEstimate, drawn: &[Replicate], asked: usize) -> BootstrapCheck {
    let reps = drawn.len();
    let tail = (1.0 - estimate.confidence) / 2.0;
    let groups = estimate.groups.len();
    let mut check = BootstrapCheck {
        reps,
        standard_error: Vec::with_capacity(groups),
        lower: Vec::with_capacity(groups),
        upper: Vec::with_capacity(groups),
        uncertified: drawn.iter().filter(|e| !e.converged).count(),
        asked,
    };
    for g in 0..groups {
        let mut d: Vec<f64> = drawn.iter().map(|e| e.estimate[g]).collect();
        let mean = d.iter().sum::<f64>() / reps as f64;
        let var = d.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (reps - 1) as f64;
        d.sort_by(f64::total_cmp);
        check.standard_error.push(var.sqrt());
        check.lower.push(quantile(&d, tail));
        check.upper.push(quantile(&d, 1.0 - tail));
    }
    check
}

/// The output distribution of the fitted model: the estimate's own
/// ([`FrequencyEstimate::fitted`]), else (an estimate read from elsewhere)
/// `q_y = sum_g p^_g W[g][y]`, a group's rows being equal.
fn fitted_outputs(mechanism: &Mechanism, estimate: &FrequencyEstimate) -> Vec<f64> {
    if estimate.fitted.len() == mechanism.outputs() {
        return estimate.fitted.clone();
    }
    let w = mechanism.matrix();
    (0..w.ncols())
        .map(|y| {
            let groups = estimate.groups.iter().zip(&estimate.estimate);
            groups.map(|(g, &p)| p * w[[g[0], y]]).sum::<f64>().max(0.0)
        })
        .collect()
}

/// `m` rows spread over the outputs with probabilities `q`, by conditional
/// binomials (the count of output y among the rows not yet placed).
pub(crate) fn multinomial<R: rand::Rng + ?Sized>(m: u64, q: &[f64], rng: &mut R) -> Vec<u64> {
    let mut counts = vec![0u64; q.len()];
    let (mut left, mut rest) = (m, q.iter().sum::<f64>());
    for (y, &qy) in q.iter().enumerate() {
        if left == 0 || rest <= 0.0 {
            break;
        }
        let p = (qy / rest).clamp(0.0, 1.0);
        let n = if y + 1 == q.len() || p >= 1.0 {
            left
        } else {
            Binomial::new(left, p).map_or(0, |b| b.sample(rng))
        };
        counts[y] = n;
        left -= n;
        rest -= qy;
    }
    counts
}

/// The `t`-quantile of sorted values (linear interpolation between order
/// statistics).
fn quantile(sorted: &[f64], t: f64) -> f64 {
    let at = t * (sorted.len() - 1) as f64;
    let (i, f) = (at.floor() as usize, at - at.floor());
    let next = sorted[(i + 1).min(sorted.len() - 1)];
    sorted[i] + f * (next - sorted[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multinomial_counts_sum_to_m_and_follow_q() {
        let key = StreamKey::parse("7").unwrap();
        let mut stream = ColumnStream::new(&key, "t", WORDS_PER_REP);
        let q = [0.5, 0.0, 0.3, 0.2];
        let c = multinomial(1_000_000, &q, stream.at(0));
        assert_eq!(c.iter().sum::<u64>(), 1_000_000);
        assert_eq!(c[1], 0);
        for (y, &qy) in q.iter().enumerate() {
            let sd = (1e6 * qy * (1.0 - qy)).sqrt();
            assert!((c[y] as f64 - 1e6 * qy).abs() <= 5.0 * sd + 1.0, "{c:?}");
        }
        assert_eq!(multinomial(1_000_000, &q, stream.at(0)), c, "row 0 again");
        assert_eq!(quantile(&[1.0, 2.0, 3.0], 0.5), 2.0);
        assert_eq!(quantile(&[1.0, 2.0], 0.25), 1.25);
    }

    /// Randomized response over 3 inputs, 500 rows estimated by EM.
    fn fitted() -> (Mechanism, FrequencyEstimate, FrequencySettings) {
        let w = Mechanism::from_rows(vec![
            vec![0.6, 0.2, 0.2],
            vec![0.2, 0.6, 0.2],
            vec![0.2, 0.2, 0.6],
        ])
        .unwrap();
        let settings = FrequencySettings::default();
        let estimate = estimate_frequencies(&w, &[250, 150, 100], &settings).unwrap();
        (w, estimate, settings)
    }

    /// Each replicate draws from its own row of the stream: the check is the
    /// same bytes at 1 and 3 threads.
    #[test]
    fn the_check_is_the_same_at_any_thread_count() {
        let (w, estimate, settings) = fitted();
        let key = StreamKey::parse("5").unwrap();
        let at = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| bootstrap(&w, &estimate, &settings, (50, &key), None).unwrap())
        };
        let one = at(1);
        assert_eq!(one, at(3));
        assert_eq!((one.reps, one.asked), (50, 50));
        assert!(!one.stopped());
    }

    /// A spent time limit stops the drawing after the first round (one
    /// replicate per thread, at least 2), and the check says so.
    #[test]
    fn a_spent_time_limit_stops_after_a_round() {
        let (w, estimate, settings) = fitted();
        let key = StreamKey::parse("5").unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let until = Some(Instant::now());
        let check = pool
            .install(|| bootstrap(&w, &estimate, &settings, (200, &key), until))
            .unwrap();
        assert_eq!((check.reps, check.asked), (2, 200));
        assert!(check.stopped());
        assert_eq!(check.lower.len(), 3);
        assert!(check.lower.iter().zip(&check.upper).all(|(l, u)| l <= u));
    }
}
