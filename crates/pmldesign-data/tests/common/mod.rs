//! Helpers shared by the sampling and privatising tests.
#![allow(dead_code)]

use pmldesign_model::Mechanism;

/// \[E\] Example 1: the first-region extremal mechanism for p = (2/5, 1/5, 1/5, 1/5) at
/// eps = ln(9/8).
pub fn example1() -> Mechanism {
    Mechanism::from_rows(vec![
        vec![0.325, 0.225, 0.225, 0.225],
        vec![0.45, 0.1, 0.225, 0.225],
        vec![0.45, 0.225, 0.1, 0.225],
        vec![0.45, 0.225, 0.225, 0.1],
    ])
    .unwrap()
}

/// Asserts that each observed frequency `counts[y] / n` is within 4 standard errors
/// `sqrt(p (1 - p) / n)` of `p = row[y]`, and that zero-probability outputs never
/// occur.
pub fn assert_frequencies(counts: &[u64], row: &[f64], what: &str) {
    let n: u64 = counts.iter().sum();
    for (y, (&c, &p)) in counts.iter().zip(row).enumerate() {
        let f = c as f64 / n as f64;
        if p == 0.0 {
            assert_eq!(c, 0, "{what}: output {y} has probability 0");
            continue;
        }
        let se = (p * (1.0 - p) / n as f64).sqrt();
        assert!(
            (f - p).abs() <= 4.0 * se,
            "{what}: output {y}: frequency {f} vs probability {p} ({:.1} standard errors)",
            (f - p) / se
        );
    }
}
