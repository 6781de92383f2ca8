//! Counts released under differential privacy (`docs/theory.md` §6, "A private
//! prior"): each count gets independent discrete Laplace noise
//! `P(Z = k) ∝ e^(-eps_D |k|)`, drawn exactly ([`DiscreteLaplace::of_epsilon`]) from
//! one ChaCha20 stream keyed by the secret key, and the noisy count is clamped at
//! 0. A row added or removed changes one count by 1, so the noisy counts (and
//! everything computed from them alone) are eps_D-DP about the dataset.
//!
//! ```
//! use pmldesign_data::private_counts::noisy_counts;
//! use pmldesign_data::stream::StreamKey;
//! let key = StreamKey::parse("12345678901234567890")?;
//! let noisy = noisy_counts(&[40, 0, 60], 1.0, &key)?;
//! assert_eq!(noisy, noisy_counts(&[40, 0, 60], 1.0, &key)?); // same key, same noise
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

use crate::discrete_noise::DiscreteLaplace;
use crate::stream::{StreamKey, column_seed};
use chacha20::ChaCha20Rng;
use pmldesign_model::{ModelError, Prior, Result};
use rand::SeedableRng;

/// Separates the noise on counts from every other use of the key.
const DOMAIN: &[u8] = b"pmldesign/private-counts/v1\0";

/// `max(0, c_x + Z_x)` for each count, `Z_x` discrete Laplace of scale
/// `1/epsilon`, drawn in the order of the counts from the stream of `key`.
pub fn noisy_counts(counts: &[u64], epsilon: f64, key: &StreamKey) -> Result<Vec<u64>> {
    pmldesign_model::private_prior::check_epsilon("private prior epsilon", epsilon)?;
    let law = DiscreteLaplace::of_epsilon(epsilon)?;
    let mut rng = ChaCha20Rng::from_seed(column_seed(key, DOMAIN, ""));
    Ok(counts
        .iter()
        .map(|&c| {
            let noisy = i128::from(c).saturating_add(law.sample(&mut rng));
            u64::try_from(noisy.max(0)).unwrap_or(u64::MAX)
        })
        .collect())
}

/// The centre of a design from privatised counts (`pml design --private-prior`,
/// Python's `design_from_counts(..., private_prior=)`): the noisy counts, their
/// total `M~` and the estimate `c~ / M~` (a ball's centre, where a mass may be 0).
#[derive(Debug, Clone, PartialEq)]
pub struct NoisyEstimate {
    /// `max(0, c_x + Z_x)` per category ([`noisy_counts`]).
    pub counts: Vec<u64>,
    /// Their total, the sample size the guarantee states.
    pub total: u64,
    /// The noisy counts over their total.
    pub prior: Prior,
}

/// [`noisy_counts`] and the estimate over their total; errors name `field` (the
/// flag or argument of the noise's level): a level below
/// [`pmldesign_model::private_prior::MIN_EPSILON`], or noise that left every
/// count at 0.
pub fn noisy_estimate(
    field: &str,
    counts: &[u64],
    epsilon: f64,
    key: &StreamKey,
) -> Result<NoisyEstimate> {
    pmldesign_model::private_prior::check_epsilon(field, epsilon)?;
    let noisy = noisy_counts(counts, epsilon, key)?;
    let total = pmldesign_model::sample::sample_size(&noisy)?;
    if total == 0 {
        return Err(ModelError::invalid(
            field,
            epsilon,
            "every noisy count is 0",
            format!("give more rows or a larger {field}"),
        ));
    }
    let weights: Vec<f64> = noisy.iter().map(|&c| c as f64).collect();
    Ok(NoisyEstimate {
        prior: Prior::center_normalised(weights)?,
        counts: noisy,
        total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pmldesign_model::Prior;
    use pmldesign_model::private_prior::{NOISE_SHARE, noise_bound};

    fn key(i: u64) -> StreamKey {
        StreamKey::parse(&format!("{}", 0x9e37_79b9_7f4a_7c15_u64 ^ i)).unwrap()
    }

    /// The l1 distance between the normalised noisy counts and the true
    /// frequencies exceeds `2 t / M~` in at most delta_noise of 2000 keyed draws.
    #[test]
    fn the_noise_stays_within_its_bound_at_the_stated_rate() {
        let counts = [12u64, 0, 30, 5, 53];
        let m: u64 = counts.iter().sum();
        let p = Prior::center_normalised(counts.map(|c| c as f64).to_vec()).unwrap();
        for &(eps, delta) in &[(1.0, 0.05), (0.5, 0.1)] {
            let noise_delta = delta * NOISE_SHARE;
            let t = noise_bound(counts.len(), eps, noise_delta).unwrap();
            let mut over = 0;
            for i in 0..2000 {
                let noisy = noisy_counts(&counts, eps, &key(i)).unwrap();
                let total: u64 = noisy.iter().sum();
                let q: Vec<f64> = noisy.iter().map(|&c| c as f64 / total as f64).collect();
                let l1: f64 = q.iter().zip(p.masses()).map(|(a, b)| (a - b).abs()).sum();
                let moved: u64 = noisy.iter().zip(&counts).map(|(a, b)| a.abs_diff(*b)).sum();
                assert!(l1 <= 2.0 * moved as f64 / total as f64 + 1e-12);
                assert!(total.abs_diff(m) <= moved);
                over += usize::from(l1 > 2.0 * t as f64 / total as f64);
            }
            assert!(
                over as f64 <= noise_delta * 2000.0,
                "eps {eps}: {over} of 2000"
            );
        }
    }

    #[test]
    fn the_noise_is_symmetric_with_the_stated_spread() {
        let n = 4000;
        let noisy = noisy_counts(&vec![1000; n], 1.0, &key(7)).unwrap();
        let z: Vec<f64> = noisy.iter().map(|&c| c as f64 - 1000.0).collect();
        let mean = z.iter().sum::<f64>() / n as f64;
        let a = (-1.0f64).exp();
        let var_law = 2.0 * a / (1.0 - a) / (1.0 - a);
        let var = z.iter().map(|v| v * v).sum::<f64>() / n as f64;
        assert!(mean.abs() < 0.1, "{mean}");
        assert!((var / var_law - 1.0).abs() < 0.1, "{var} vs {var_law}");
        assert_ne!(noisy, noisy_counts(&vec![1000; n], 1.0, &key(8)).unwrap());
    }

    /// The estimate is the noisy counts over their total; noise that leaves
    /// nothing is an error naming the field given.
    #[test]
    fn the_estimate_is_the_noisy_counts_over_their_total() {
        let e = noisy_estimate("private_prior", &[40, 0, 60], 1.0, &key(3)).unwrap();
        assert_eq!(e.counts, noisy_counts(&[40, 0, 60], 1.0, &key(3)).unwrap());
        assert_eq!(e.total, e.counts.iter().sum::<u64>());
        let masses: Vec<f64> = e
            .counts
            .iter()
            .map(|&c| c as f64 / e.total as f64)
            .collect();
        assert_eq!(e.prior.masses().to_vec(), masses);
        let err = (0..50)
            .map(|i| noisy_estimate("private_prior", &[0, 0], 50.0, &key(i)))
            .find_map(|r| r.err())
            .unwrap();
        assert!(
            err.to_string().contains("invalid private_prior = 50"),
            "{err}"
        );
        let low = noisy_estimate("private_prior", &[5, 5], 0.0, &key(1)).unwrap_err();
        assert!(
            low.to_string().contains("invalid private_prior = 0"),
            "{low}"
        );
    }

    #[test]
    fn bad_levels_are_refused_naming_the_field() {
        for eps in [0.0, -1.0, f64::NAN] {
            let e = noisy_counts(&[1, 2], eps, &key(1)).unwrap_err().to_string();
            assert!(e.contains("private prior epsilon"), "{e}");
        }
    }

    #[test]
    fn the_scale_is_exactly_one_over_epsilon() {
        assert_eq!(DiscreteLaplace::of_epsilon(0.5).unwrap().ratio(), (2, 1));
        assert_eq!(DiscreteLaplace::of_epsilon(4.0).unwrap().ratio(), (1, 4));
        let (t, s) = DiscreteLaplace::of_epsilon(0.1).unwrap().ratio();
        assert_eq!(s as f64 / t as f64, 0.1);
        assert!(DiscreteLaplace::of_epsilon(1e-6).is_err());
    }
}
