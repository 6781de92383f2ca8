//! Tests of `design::loss`.

use pmldesign_model::{Prior, UncertaintySet};
use pmldesign_solver::Loss;
use pmldesign_solver::internals::design::loss::*;

#[test]
fn hamming_binary_closed_form() {
    // Binary known prior (0.7, 0.3), e^eps = 1.2: the best accuracy is
    // max over columns in the cone; check against the MAP design value.
    let set = UncertaintySet::known(Prior::new(vec![0.7, 0.3]).unwrap());
    let eps = 1.2f64.ln();
    let settings = pmldesign_solver::Settings::default();
    let r = minimise_loss_with_progress(&set, eps, &Loss::Hamming, &settings, &mut |_| {}).unwrap();
    assert!(r.certificate.worst_case_pml() <= eps + 1e-10);
    assert!((r.expected_loss - r.lower_bound).abs() < 1e-9);
}

/// Over a ball past Proposition 2 the loop leaves the certificate's extra
/// work over the set; over a known prior or a ball within Proposition 2 it
/// keeps the whole limit.
#[test]
fn the_loop_leaves_a_costly_certificate_its_time() {
    let prior = pmldesign_model::Prior::new(vec![0.25; 4]).unwrap();
    let mut settings = pmldesign_solver::Settings::default();
    let second = std::time::Duration::from_secs(1);
    settings.column_generation.time_limit = Some(second);
    let past = UncertaintySet::l1_ball(prior.clone(), 0.6).unwrap();
    let left = for_loss_over(&past, &settings).column_generation.time_limit;
    let extra = pmldesign_solver::internals::limits::SET_FINISH_SECONDS_PER_ENTRY * 16.0;
    assert!((left.unwrap().as_secs_f64() - (1.0 - extra)).abs() < 1e-9);
    let within = UncertaintySet::l1_ball(prior.clone(), 0.4).unwrap();
    for cheap in [UncertaintySet::known(prior), within] {
        let kept = for_loss_over(&cheap, &settings)
            .column_generation
            .time_limit;
        assert_eq!(kept, Some(second));
    }
}
