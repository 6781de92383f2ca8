//! The direct loss LP by Clarabel's interior point agrees
//! with column generation, an independent exact method, at N <= 32: Hamming,
//! absolute and squared losses, known priors and l1 balls (under \[E\] Prop 2,
//! and past it with the vertex list against the exact ball's column
//! generation). Its mechanisms are exactly private, its bounds hold for the
//! other method's mechanism, and its bytes do not depend on the thread count.

use crate::common::{
    LossResult, large_ball, loss_design, minimise_loss_with, random_prior, rng,
    same_at_1_and_2_threads, small_ball,
};
use pmldesign_model::UncertaintySet;
use pmldesign_solver::{DesignStatus, Interrupt, Loss, LossMethod, Settings};
use rand::RngExt;
use rand::rngs::StdRng;

/// The three built-in losses, by case.
fn loss_for(case: usize) -> Loss {
    match case % 3 {
        0 => Loss::Hamming,
        1 => Loss::Absolute,
        _ => Loss::Squared,
    }
}

fn solve(set: &UncertaintySet, eps: f64, loss: &Loss, method: LossMethod) -> LossResult {
    let settings = Settings {
        loss_method: method,
        ..Settings::default()
    };
    minimise_loss_with(set, eps, loss, &settings).unwrap()
}

/// Direct (interior point) and column generation on `set`: the same optimum to
/// 1e-6 relative, each bound below the other's loss, both private.
fn agree(set: &UncertaintySet, eps: f64, loss: &Loss, ctx: &str) {
    let direct = solve(set, eps, loss, LossMethod::Direct);
    let cg = solve(set, eps, loss, LossMethod::ColumnGeneration);
    if direct.method == LossMethod::ClosedForm {
        return; // eps needs no privacy: both are the closed form.
    }
    assert_eq!(direct.method, LossMethod::Direct, "{ctx}");
    assert_ne!(direct.status, DesignStatus::TimeLimit, "{ctx}");
    let scale = 1.0 + cg.expected_loss.abs();
    assert!(
        (direct.expected_loss - cg.expected_loss).abs() <= 1e-6 * scale,
        "{ctx}: direct {} vs column generation {}",
        direct.expected_loss,
        cg.expected_loss
    );
    assert!(
        direct.lower_bound <= cg.expected_loss + 1e-9 * scale,
        "{ctx}"
    );
    assert!(
        cg.lower_bound <= direct.expected_loss + 1e-9 * scale,
        "{ctx}"
    );
    assert!(direct.lower_bound <= direct.expected_loss, "{ctx}");
    for d in [&direct, &cg] {
        assert!(d.certificate.worst_case_pml() <= eps + 1e-10, "{ctx}");
        assert!(d.certificate.max_row_sum_error() <= 1e-12, "{ctx}");
    }
}

/// A random size in 3..=32 (every fourth case 24..=32) and level.
fn size_and_level(r: &mut StdRng, case: usize) -> (usize, f64) {
    let n = if case % 4 == 3 {
        r.random_range(24..=32)
    } else {
        r.random_range(3..=16)
    };
    (n, r.random_range(0.1..1.5))
}

#[test]
fn interior_point_equals_column_generation_for_known_priors() {
    let mut r = rng(3601);
    for case in 0..12 {
        let (n, eps) = size_and_level(&mut r, case);
        let set = UncertaintySet::known(random_prior(&mut r, n, 0.2));
        let loss = loss_for(case);
        agree(
            &set,
            eps,
            &loss,
            &format!("known, case {case}, N = {n}, eps = {eps}"),
        );
    }
}

#[test]
fn interior_point_equals_column_generation_for_balls_under_proposition_2() {
    let mut r = rng(3602);
    for case in 0..12 {
        let (n, eps) = size_and_level(&mut r, case);
        let p = random_prior(&mut r, n, 0.2);
        let set = small_ball(&mut r, &p, 0.1..0.9);
        let loss = loss_for(case);
        agree(
            &set,
            eps,
            &loss,
            &format!("Prop 2 ball, case {case}, N = {n}, eps = {eps}"),
        );
    }
}

/// Past Prop 2 the direct LP takes the ball's vertex list (short at N <= 6) and
/// column generation the exact ball's ray families.
#[test]
fn interior_point_equals_column_generation_for_balls_past_proposition_2() {
    let mut r = rng(3603);
    for case in 0..6 {
        let n = r.random_range(3..=6);
        let eps = r.random_range(0.2..1.5);
        let p = random_prior(&mut r, n, 0.5);
        let set = large_ball(&mut r, &p, 1.0);
        let loss = loss_for(case);
        agree(
            &set,
            eps,
            &loss,
            &format!("large ball, case {case}, N = {n}, eps = {eps}"),
        );
    }
}

/// The interior point is single-threaded, and the rest of the design reads no
/// thread count: the JSON is the same at 1 and 2 threads.
#[test]
fn interior_point_design_is_the_same_at_1_and_2_threads() {
    let mut r = rng(3604);
    let p = random_prior(&mut r, 40, 0.2);
    let set = small_ball(&mut r, &p, 0.2..0.8);
    let run = || Ok(loss_design(&set, 0.8, &Loss::Absolute, LossMethod::Direct));
    assert!(same_at_1_and_2_threads(run), "1 and 2 threads differ");
}

/// Ctrl-C during the interior point (the flag set at its first check) stops the
/// direct LP: its first iterate cleaned, or the constant guess where that loses
/// less, private and bounded below, status interrupted.
#[test]
fn interior_point_stops_when_interrupted() {
    let mut r = rng(3605);
    let set = UncertaintySet::known(random_prior(&mut r, 40, 0.2));
    let mut settings = Settings {
        loss_method: LossMethod::Direct,
        ..Settings::default()
    };
    settings.column_generation.interrupt = Interrupt::after_checks(1);
    let d = minimise_loss_with(&set, 0.7, &Loss::Squared, &settings).unwrap();
    assert_eq!(d.status, DesignStatus::Interrupted);
    assert_eq!(d.method, LossMethod::Direct);
    assert!(d.lower_bound <= d.expected_loss);
    assert!(d.certificate.worst_case_pml() <= 0.7 + 1e-12);
}
