//! Two independent methods for the loss LP agree: column generation
//! (warm master with a perturbed right-hand side, exact knapsack pricing) and the
//! direct sparse LP, on random priors, levels, losses and both sets it covers.

use crate::common::minimise_loss_with;
use crate::common::{known_or_small_ball, random_prior, rng};
use ndarray::Array2;
use pmldesign_solver::{DesignStatus, Loss, LossMethod, Settings};
use rand::RngExt;

#[test]
fn column_generation_equals_direct_lp() {
    let mut r = rng(2026);
    for case in 0..36 {
        let n = if case % 9 == 8 {
            r.random_range(25..=40)
        } else {
            r.random_range(3..=16)
        };
        let p = random_prior(&mut r, n, 0.2);
        let eps = r.random_range(0.1..1.5);
        let set = known_or_small_ball(&mut r, &p, case, 0.1..0.9);
        let loss = match case % 4 {
            0 => Loss::Hamming,
            1 => Loss::Absolute,
            2 => Loss::Squared,
            _ => Loss::Matrix(Array2::from_shape_fn((n, n), |(x, y)| {
                if x == y {
                    0.0
                } else {
                    r.random_range(0.0..3.0)
                }
            })),
        };
        let solve = |method| {
            let settings = Settings {
                loss_method: method,
                ..Settings::default()
            };
            minimise_loss_with(&set, eps, &loss, &settings).unwrap()
        };
        let (cg, direct) = (
            solve(LossMethod::ColumnGeneration),
            solve(LossMethod::Direct),
        );
        // (Both are the closed form when eps needs no privacy at all.)
        assert_ne!(cg.method, LossMethod::Direct, "case {case}");
        let scale = 1.0 + direct.expected_loss.abs();
        assert!(
            (cg.expected_loss - direct.expected_loss).abs() <= 1e-7 * scale,
            "case {case} (N = {n}, eps = {eps}, {}): column generation {} vs direct {}",
            loss.name(),
            cg.expected_loss,
            direct.expected_loss
        );
        // Each method's bound holds for the other's mechanism.
        assert!(
            cg.expected_loss >= direct.lower_bound - 1e-9 * scale,
            "case {case}"
        );
        assert!(
            direct.expected_loss >= cg.lower_bound - 1e-9 * scale,
            "case {case}"
        );
        for d in [&cg, &direct] {
            assert!(d.certificate.worst_case_pml() <= eps + 1e-10, "case {case}");
            assert!(d.certificate.max_row_sum_error() <= 1e-12, "case {case}");
        }
    }
}

/// The direct LP keeps a time limit: stopped before its primal, it returns the
/// constant guess (private at every level) with the loss without privacy as its
/// bound, status time limit, certified like every design.
#[test]
fn direct_lp_stops_at_the_time_limit() {
    let mut r = rng(27);
    let n = 40;
    let p = random_prior(&mut r, n, 0.2);
    let set = known_or_small_ball(&mut r, &p, 0, 0.1..0.9);
    let mut settings = Settings {
        loss_method: LossMethod::Direct,
        ..Settings::default()
    };
    settings.column_generation.time_limit = Some(std::time::Duration::from_nanos(1));
    let d = minimise_loss_with(&set, 0.7, &Loss::Absolute, &settings).unwrap();
    assert_eq!(d.status, DesignStatus::TimeLimit);
    assert_eq!(d.method, LossMethod::Direct);
    assert!(d.lower_bound <= d.expected_loss);
    assert!(d.certificate.worst_case_pml() <= 0.7 + 1e-12);
}
