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
use pmldesign_model::Result;
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
