//! Tests of `objective::utility`.

use ndarray::{Array1, Array2, array};
use pmldesign_model::Mechanism;
use pmldesign_solver::internals::objective::utility::*;

/// The row-major value is the sum of the column values to the last bit:
/// repeated entries, a zero column, one column, and every f-information.
#[test]
fn f_information_by_rows_equals_the_columns_bit_for_bit() {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    for (n, k) in [(7, 5), (40, 33), (3, 1), (64, 2)] {
        let p = Array1::from_shape_fn(n, |_| 0.1 + next());
        let p = &p / p.sum();
        let mut w = Array2::from_shape_fn((n, k), |(x, y)| match (x + y) % 3 {
            0 => 0.5,
            _ => next(),
        });
        if k > 2 {
            w.column_mut(1).fill(0.0);
        }
        for mut row in w.rows_mut() {
            let s = row.sum();
            row /= s;
        }
        let m = Mechanism::new(w).unwrap();
        for u in [
            FInformation::mutual_information(),
            FInformation::total_variation(),
            FInformation::chi_square(),
        ] {
            let by_columns: f64 = m.columns().map(|c| u.column_value(c, p.view())).sum();
            assert_eq!(
                u.value(&m, p.view()).to_bits(),
                by_columns.to_bits(),
                "{n}x{k}"
            );
        }
    }
}

#[test]
fn identity_mutual_information_is_entropy() {
    let p = array![0.5, 0.25, 0.25];
    let w = Mechanism::identity(3);
    let h = -(p.iter().map(|x: &f64| x * x.ln()).sum::<f64>());
    let mi = FInformation::mutual_information().value(&w, p.view());
    assert!((mi - h).abs() < 1e-14);
    assert!((MapAccuracy.value(&w, p.view()) - 1.0).abs() < 1e-15);
    // A constant column carries no f-information.
    let c = array![0.3, 0.3, 0.3];
    for name in BUILTIN_NAMES.iter().filter(|n| **n != "map") {
        assert!(
            builtin(name)
                .unwrap()
                .column_value(c.view(), p.view())
                .abs()
                < 1e-15
        );
    }
}
