//! Tests of `envelope`.

use ndarray::Array2;
use pmldesign_model::envelope::*;
use pmldesign_model::measures;
use pmldesign_model::mechanism::Mechanism;
use pmldesign_model::prior::Prior;
use rand::{RngExt, SeedableRng};

/// The memory-order passes give the bits of the column-by-column ones: each
/// atom's PML and probability.
#[test]
fn memory_order_passes_are_the_columns_bits() {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(4096);
    for (n, k) in [(2, 1), (3, 5), (17, 40)] {
        let raw = Array2::from_shape_fn((n, k), |(_, y)| match (y % 5, rng.random_range(0..3)) {
            (0, _) => 0.0,
            (_, 0) => 0.25,
            _ => rng.random_range(0.0..1.0),
        });
        // A single column may not be zero (its rows would be).
        let raw = if k == 1 { raw + 1e-3 } else { raw };
        let sums = raw.sum_axis(ndarray::Axis(1)).insert_axis(ndarray::Axis(1));
        let w = Mechanism::new(&raw / &sums).unwrap();
        let weights: Vec<f64> = (0..n).map(|_| rng.random_range(0.1..1.0)).collect();
        let p = Prior::normalised(weights).unwrap();
        let (reduced, _) = reduce(&w).unwrap();
        let want: Vec<(u64, u64)> = reduced
            .columns()
            .filter_map(|c| {
                let pml = measures::column_pml(c, &p)?;
                Some((pml.to_bits(), p.dot(c).to_bits()))
            })
            .collect();
        let mut got: Vec<(usize, u64, u64)> = LeakageDistribution::new(&w, &p)
            .unwrap()
            .atoms
            .iter()
            .map(|a| (a.outputs[0], a.pml.to_bits(), a.probability.to_bits()))
            .collect();
        got.sort_by_key(|a| a.0);
        let got: Vec<(u64, u64)> = got.into_iter().map(|(_, l, q)| (l, q)).collect();
        assert_eq!(got, want, "n {n} k {k}");
    }
}
