//! Sampling a mechanism: empirical transition frequencies against `W`, reproducibility, and the alias table.

use pmldesign_data::sampler::{AliasTable, MechanismSampler, seeded_rng};
use pmldesign_model::Mechanism;
use proptest::prelude::*;

use crate::common::{assert_frequencies, example1};

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
