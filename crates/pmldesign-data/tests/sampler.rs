//! Sampling a mechanism: empirical transition frequencies against `W`, additive noise
//! against its distribution, reproducibility, and the alias table.

use pmldesign_data::sampler::{AdditiveNoise, AliasTable, MechanismSampler, seeded_rng};
use pmldesign_model::Mechanism;
use proptest::prelude::*;

mod common;
use common::{assert_frequencies, example1};

/// A 10 x 10 mechanism with uneven rows and zeros (the 2-singular mechanism of
/// \[E\] Example 2 mixed with skewed rows).
fn ten_by_ten() -> Mechanism {
    let rows = (0..10)
        .map(|x| {
            let w: Vec<f64> = (0..10)
                .map(|y| {
                    if (x + y) % 4 == 3 {
                        0.0
                    } else {
                        1.0 + ((x * 7 + y * 3) % 11) as f64
                    }
                })
                .collect();
            let s: f64 = w.iter().sum();
            w.into_iter().map(|v| v / s).collect()
        })
        .collect();
    Mechanism::from_rows(rows).unwrap()
}

#[test]
fn transition_frequencies_match_the_mechanism() {
    const DRAWS: u64 = 1_000_000;
    for (name, w) in [("example 1", example1()), ("10x10", ten_by_ten())] {
        let sampler = MechanismSampler::new(&w).unwrap();
        let mut rng = seeded_rng(2024);
        for x in 0..w.inputs() {
            let mut counts = vec![0u64; w.outputs()];
            for _ in 0..DRAWS {
                counts[sampler.sample(x, &mut rng)] += 1;
            }
            let row = w.matrix().row(x).to_vec();
            assert_frequencies(&counts, &row, &format!("{name}, row {x}"));
        }
    }
}

#[test]
fn same_seed_same_sequence() {
    let w = ten_by_ten();
    let sampler = MechanismSampler::new(&w).unwrap();
    let draw = |seed: u64| -> Vec<usize> {
        let mut rng = seeded_rng(seed);
        (0..10_000)
            .map(|i| sampler.sample(i % 10, &mut rng))
            .collect()
    };
    assert_eq!(draw(5), draw(5));
    assert_ne!(draw(5), draw(6));
    let noise = |seed: u64, n: AdditiveNoise| -> Vec<f64> {
        let mut rng = seeded_rng(seed);
        (0..1000).map(|_| n.sample(&mut rng)).collect()
    };
    for n in [
        AdditiveNoise::laplace(1.5).unwrap(),
        AdditiveNoise::gaussian(0.7).unwrap(),
    ] {
        assert_eq!(noise(9, n), noise(9, n));
        assert_ne!(noise(9, n), noise(10, n));
    }
}

/// Laplace(b): `P(N > t) = e^(-t/b) / 2`, symmetric, variance `2 b^2`; Gaussian:
/// `P(N > sigma) = 0.158655...`, variance `sigma^2`. Checked over 10^6 draws within 4
/// standard errors.
#[test]
fn additive_noise_has_its_distribution() {
    const DRAWS: usize = 1_000_000;
    let n = DRAWS as f64;
    let within = |f: f64, p: f64, what: &str| {
        let se = (p * (1.0 - p) / n).sqrt();
        assert!((f - p).abs() <= 4.0 * se, "{what}: {f} vs {p}");
    };
    let b = 2.0;
    let laplace = AdditiveNoise::laplace(b).unwrap();
    let mut rng = seeded_rng(11);
    let xs: Vec<f64> = (0..DRAWS).map(|_| laplace.sample(&mut rng)).collect();
    for t in [0.0, 0.5, 2.0, 6.0] {
        let p = (-t / b).exp() / 2.0;
        within(
            xs.iter().filter(|&&x| x > t).count() as f64 / n,
            p,
            "Laplace upper tail",
        );
        within(
            xs.iter().filter(|&&x| x < -t).count() as f64 / n,
            p,
            "Laplace lower tail",
        );
    }
    let var = xs.iter().map(|x| x * x).sum::<f64>() / n;
    // Var of N^2 is E N^4 - (E N^2)^2 = 24 b^4 - 4 b^4 = 20 b^4.
    assert!((var - 2.0 * b * b).abs() <= 4.0 * (20.0f64).sqrt() * b * b / n.sqrt());

    let sigma = 0.8;
    let gauss = AdditiveNoise::gaussian(sigma).unwrap();
    let xs: Vec<f64> = (0..DRAWS).map(|_| gauss.sample(&mut rng)).collect();
    // P(N > k sigma) = erfc(k / sqrt 2) / 2 for k = 0, 1, 2.
    for (k, p) in [
        (0.0, 0.5),
        (1.0, 0.158_655_253_931_457),
        (2.0, 0.022_750_131_948_179),
    ] {
        within(
            xs.iter().filter(|&&x| x > k * sigma).count() as f64 / n,
            p,
            "Gaussian upper tail",
        );
        within(
            xs.iter().filter(|&&x| x < -k * sigma).count() as f64 / n,
            p,
            "Gaussian lower tail",
        );
    }
    let var = xs.iter().map(|x| x * x).sum::<f64>() / n;
    assert!((var - sigma * sigma).abs() <= 4.0 * 2f64.sqrt() * sigma * sigma / n.sqrt());
}

proptest! {
    /// The alias table represents the normalised weights to within 1e-15.
    #[test]
    fn alias_table_represents_weights(w in prop::collection::vec(prop_oneof![Just(0.0), 0.0..10.0f64], 1..40)) {
        let s: f64 = w.iter().sum();
        prop_assume!(s > 0.0);
        let t = AliasTable::new(&w).unwrap();
        prop_assert_eq!(t.len(), w.len());
        for (i, &wi) in w.iter().enumerate() {
            prop_assert!((t.probability(i) - wi / s).abs() < 1e-14);
        }
    }
}
