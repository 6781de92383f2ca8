//! Tests of `record::radius`.

use pmldesign_model::record::RecordSample;
use pmldesign_model::record::radius::*;
use pmldesign_model::sample::radius_free;

fn sample(tuples: Vec<(Vec<usize>, u64)>, sizes: &[usize]) -> RecordSample {
    let columns = (0..sizes.len()).map(|j| format!("c{j}")).collect();
    let labels = sizes
        .iter()
        .map(|&n| (0..n).map(|x| format!("v{x}")).collect())
        .collect();
    RecordSample::new(columns, labels, tuples).unwrap()
}

#[test]
fn independent_columns_have_no_spread() {
    let s = sample(
        vec![
            (vec![0, 0], 10),
            (vec![0, 1], 30),
            (vec![1, 0], 20),
            (vec![1, 1], 60),
        ],
        &[2, 2],
    );
    assert!(spread(&s, 1).abs() < 1e-15 && spread(&s, 0) == 0.0);
    assert_eq!(events(&s), 3);
}

#[test]
fn a_copied_column_spreads_to_twice_the_smaller_mass() {
    // B = A: P(B | A = a) is a point mass; || e_a - p ||_1 = 2 (1 - p_a).
    let s = sample(vec![(vec![0, 0], 70), (vec![1, 1], 30)], &[2, 2]);
    assert!((spread(&s, 1) - 1.4).abs() < 1e-12);
}

#[test]
fn unobserved_combinations_add_the_joint_slack() {
    let s = sample(
        vec![
            (vec![0, 0, 0], 50),
            (vec![1, 1, 1], 50),
            (vec![0, 1, 1], 5),
            (vec![1, 0, 0], 5),
        ],
        &[2, 2, 2],
    );
    assert_eq!(events(&s), 1 + 2 + 4);
    let r = with_slack(&s, 2, 1e-3, 0.5).unwrap();
    let plain = with_slack(&s, 1, 1e-3, 0.5).unwrap();
    assert!(r <= WHOLE_SIMPLEX && plain > spread(&s, 1));
    let full = sample(
        vec![
            (vec![0, 0], 500),
            (vec![0, 1], 500),
            (vec![1, 0], 500),
            (vec![1, 1], 500),
        ],
        &[2, 2],
    );
    let beta = radius_free(1000, 1e-3, 2).unwrap();
    assert!((with_slack(&full, 1, 1e-3, 9.0).unwrap() - beta).abs() < 1e-12);
}
