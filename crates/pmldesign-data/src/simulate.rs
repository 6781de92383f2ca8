//! The estimation error at a finite number of rows, by simulation
//! (`docs/concepts/estimation.md`): `reps` sets of m released rows drawn from
//! `q = W^T p`, each estimated as an analyst would (`pml estimate`, EM at its
//! default settings), and `m` times the mean of `||p^ - p||^2` over them.
//!
//! This is what the design-time advice compares where the rows' number is known:
//! the figure in the m -> infinity limit (inverse Fisher information) can reverse
//! the comparison at real sizes. Replicate r draws from row r of the keyed stream
//! ([`crate::stream`]) of `seed` and the stream's name; the replicates run in
//! parallel and their errors are summed in replicate order, so the same input
//! gives the same bytes at any thread count.

use crate::bootstrap::multinomial;
use crate::stream::{ColumnStream, StreamKey};
use pmldesign_model::frequency::{FrequencySettings, estimate_frequencies};
use pmldesign_model::{Mechanism, ModelError, Result};
use rayon::prelude::*;

/// The most replicates one simulation draws.
pub const MAX_REPLICATES: usize = 100_000;

/// Words of the stream reserved for one replicate (far more than it draws).
const WORDS_PER_REP: u64 = 1 << 32;

/// What a simulation draws: `replicates` sets of `rows` released rows from the
/// stream of `seed` named `stream` (distinct names give unrelated draws).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Simulation<'a> {
    /// Released rows m per replicate.
    pub rows: u64,
    /// Replicates drawn, 1 to [`MAX_REPLICATES`].
    pub replicates: usize,
    /// The public seed of the stream (not a secret: the draws are advice).
    pub seed: u64,
    /// The stream's name under the seed.
    pub stream: &'a str,
}

/// `m E||p^ - p||^2` of the EM estimate from `sim.rows` rows released by
/// `mechanism` from `prior`, by simulation; `None` when some input is not
/// estimable alone (its rows equal or dependent on others': the error per input
/// is not defined).
pub fn simulated_error(
    mechanism: &Mechanism,
    prior: &[f64],
    sim: &Simulation,
) -> Result<Option<f64>> {
    check(mechanism, prior, sim)?;
    let w = mechanism.matrix();
    let q: Vec<f64> = (0..w.ncols())
        .map(|y| {
            prior
                .iter()
                .enumerate()
                .map(|(x, p)| p * w[[x, y]])
                .sum::<f64>()
                .max(0.0)
        })
        .collect();
    let key = StreamKey::parse(&sim.seed.to_string())?;
    let settings = FrequencySettings::default();
    // Each replicate seeks its own row of a fresh stream (a stream read on from
    // the last replicate would continue where that one's draws stopped); the
    // squared errors are summed in replicate order: the thread count changes no bit.
    let squared = (0..sim.replicates)
        .into_par_iter()
        .map(|r| {
            let mut stream = ColumnStream::new(&key, sim.stream, WORDS_PER_REP);
            let counts = multinomial(sim.rows, &q, stream.at(r as u64));
            let e = estimate_frequencies(mechanism, &counts, &settings)?;
            let alone = e.groups.len() == prior.len() && e.groups.iter().all(|g| g.len() == 1);
            Ok(alone.then(|| {
                let pairs = e.groups.iter().zip(&e.estimate);
                pairs
                    .map(|(g, p_hat)| (p_hat - prior[g[0]]).powi(2))
                    .sum::<f64>()
            }))
        })
        .collect::<Result<Vec<Option<f64>>>>()?;
    let total: Option<f64> = squared.into_iter().sum();
    Ok(total.map(|t| sim.rows as f64 * t / sim.replicates as f64))
}

/// The simulation's inputs: a prior of the mechanism's inputs, at least one row
/// and one replicate.
fn check(mechanism: &Mechanism, prior: &[f64], sim: &Simulation) -> Result<()> {
    if prior.len() != mechanism.inputs() || prior.iter().any(|p| !(p.is_finite() && *p >= 0.0)) {
        return Err(ModelError::invalid(
            "prior",
            format!("{} masses", prior.len()),
            format!(
                "a simulation needs {} finite masses >= 0, one per input",
                mechanism.inputs()
            ),
            "give the design's reference prior",
        ));
    }
    if sim.rows == 0 {
        return Err(ModelError::invalid(
            "rows",
            0,
            "a simulation releases at least one row",
            "give the number of rows the data hold",
        ));
    }
    if !(1..=MAX_REPLICATES).contains(&sim.replicates) {
        return Err(ModelError::invalid(
            "replicates",
            sim.replicates,
            format!("a simulation draws 1 to {MAX_REPLICATES} replicates"),
            "give a number of replicates such as 200",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ln C(m, k)`, summed exactly enough for the small m of these tests.
    fn ln_choose(m: u64, k: u64) -> f64 {
        (1..=k).map(|i| ((m - k + i) as f64 / i as f64).ln()).sum()
    }

    /// Binary randomized response keeping the input with probability `a`: the
    /// maximum-likelihood estimate of `p_1` from n of m rows released as output 1
    /// is the inversion clamped to [0, 1], so the finite-m `m E||p^ - p||^2`
    /// (both inputs' errors, equal) is a sum over n of the binomial law: with its
    /// variance over draws, the Monte Carlo error of a mean of `reps` draws.
    fn exact_binary(a: f64, p1: f64, m: u64) -> (f64, f64) {
        let q1 = p1 * a + (1.0 - p1) * (1.0 - a);
        let (mut mean, mut second) = (0.0, 0.0);
        for n in 0..=m {
            let ln_pmf = ln_choose(m, n) + n as f64 * q1.ln() + (m - n) as f64 * (1.0 - q1).ln();
            let p_hat = ((n as f64 / m as f64 - (1.0 - a)) / (2.0 * a - 1.0)).clamp(0.0, 1.0);
            let squared = 2.0 * (p_hat - p1).powi(2);
            mean += ln_pmf.exp() * squared;
            second += ln_pmf.exp() * squared * squared;
        }
        (m as f64 * mean, m as f64 * (second - mean * mean).sqrt())
    }

    /// The simulation agrees with the exact finite-m error of binary randomized
    /// response within four Monte Carlo standard errors, at sizes where the clamp
    /// matters (the m -> infinity figure `m Var` is then far off) and where it
    /// does not.
    #[test]
    fn binary_randomized_response_matches_its_exact_finite_m_error() {
        let a = 0.75;
        let w = Mechanism::from_rows(vec![vec![a, 1.0 - a], vec![1.0 - a, a]]).unwrap();
        for (p1, m) in [(0.1, 20u64), (0.3, 200)] {
            let (exact, sd) = exact_binary(a, p1, m);
            let reps = 2000;
            let sim = Simulation {
                rows: m,
                replicates: reps,
                seed: 11,
                stream: "rr",
            };
            let got = simulated_error(&w, &[p1, 1.0 - p1], &sim).unwrap().unwrap();
            let tolerance = 4.0 * sd / (reps as f64).sqrt();
            assert!(
                (got - exact).abs() <= tolerance,
                "m {m}: {got} vs {exact} +- {tolerance}"
            );
            let again = simulated_error(&w, &[p1, 1.0 - p1], &sim).unwrap();
            assert_eq!(again, Some(got), "same seed, same figure");
        }
        // At m = 20 and p_1 = 0.1 the clamp cuts the error well below the limit.
        let q1 = 0.1 * a + 0.9 * (1.0 - a);
        let limit = 2.0 * q1 * (1.0 - q1) / (2.0 * a - 1.0).powi(2);
        assert!(exact_binary(a, 0.1, 20).0 < 0.8 * limit);
    }

    /// One thread or several: the same bits.
    #[test]
    fn the_figure_does_not_depend_on_the_thread_count() {
        let w = Mechanism::from_rows(vec![
            vec![0.6, 0.2, 0.2],
            vec![0.2, 0.6, 0.2],
            vec![0.2, 0.2, 0.6],
        ])
        .unwrap();
        let sim = Simulation {
            rows: 500,
            replicates: 64,
            seed: 3,
            stream: "t",
        };
        let at = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                simulated_error(&w, &[0.7, 0.2, 0.1], &sim)
                    .unwrap()
                    .unwrap()
            })
        };
        let one = at(1);
        assert_eq!(one.to_bits(), at(3).to_bits());
        assert_eq!(one.to_bits(), at(8).to_bits());
    }

    #[test]
    fn merged_inputs_and_bad_inputs_give_no_figure() {
        let w = Mechanism::from_rows(vec![vec![0.5, 0.5], vec![0.5, 0.5]]).unwrap();
        let sim = Simulation {
            rows: 10,
            replicates: 3,
            seed: 1,
            stream: "s",
        };
        assert_eq!(simulated_error(&w, &[0.5, 0.5], &sim).unwrap(), None);
        assert!(simulated_error(&w, &[1.0], &sim).is_err());
        assert!(simulated_error(&w, &[0.5, 0.5], &Simulation { rows: 0, ..sim }).is_err());
        assert!(
            simulated_error(
                &w,
                &[0.5, 0.5],
                &Simulation {
                    replicates: 0,
                    ..sim
                }
            )
            .is_err()
        );
    }
}
