//! Losses by generated labels (docs/theory.md §4, "Losses by generated labels"):
//! past N = 64 the default method solves the direct LP over a growing set of
//! labels, priced exactly. It agrees with the full direct LP over all N^2
//! entries (`LossMethod::Direct`), an independent solve: the same optimum, each
//! bound below the other's loss, a dual that reads back and re-prices, and the
//! same bytes at 1 and 2 threads.

use crate::common::{loss_design, random_prior, rng, same_at_1_and_2_threads, small_ball};
use pmldesign_model::{Prior, UncertaintySet};
use pmldesign_solver::{Design, DesignStatus, Loss, LossDual, LossMethod, Route};
use rand::RngExt;
use rand::rngs::StdRng;

/// Generated labels (the default) and the full direct LP on `set`: the same
/// optimum to 1e-8 relative, each bound below the other's loss, the labels'
/// dual column generation's (re-priced by `verify`) and recorded as such, both
/// private.
fn agree(set: &UncertaintySet, eps: f64, loss: &Loss, ctx: &str) {
    let labels = loss_design(set, eps, loss, LossMethod::Auto);
    let full = loss_design(set, eps, loss, LossMethod::Direct);
    let (l, f) = (labels.loss().unwrap(), full.loss().unwrap());
    assert_eq!(
        (f.method, full.route()),
        (LossMethod::Direct, Route::DirectLp),
        "{ctx}"
    );
    if pmldesign_solver::backend::LOSS_LP_BACKEND == "highs" {
        // With HiGHS the default is the full direct LP at every size.
        assert_eq!(
            (l.method, labels.route()),
            (f.method, full.route()),
            "{ctx}"
        );
    } else {
        // The record names the route that ran: labels, bounded by column generation.
        assert_eq!(l.method, LossMethod::ColumnGeneration, "{ctx}");
        assert_eq!(labels.route(), Route::LabelGeneration, "{ctx}");
        assert!(
            matches!(l.dual, Some(LossDual::ColumnGeneration(_))),
            "{ctx}"
        );
    }
    assert!(matches!(f.dual, Some(LossDual::Direct(_))), "{ctx}");
    // HiGHS's direct LP may end a hair outside the gap tolerance (its own
    // tolerances are 1e-7); the agreement below still holds.
    if pmldesign_solver::backend::LOSS_LP_BACKEND != "highs" {
        assert_eq!(labels.status(), DesignStatus::Optimal, "{ctx}");
    }
    let scale = 1.0 + f.expected_loss.abs();
    assert!(
        (l.expected_loss - f.expected_loss).abs() <= 1e-8 * scale,
        "{ctx}: labels {} vs full {}",
        l.expected_loss,
        f.expected_loss
    );
    assert!(l.lower_bound <= f.expected_loss + 1e-12 * scale, "{ctx}");
    assert!(f.lower_bound <= l.expected_loss + 1e-12 * scale, "{ctx}");
    for d in [&labels, &full] {
        assert!(d.certificate().worst_case_pml() <= eps + 1e-10, "{ctx}");
        let read: Design = serde_json::from_str(&serde_json::to_string(d).unwrap()).unwrap();
        let v = read.verify().unwrap_or_else(|e| panic!("{ctx}: {e}"));
        let stated = d.loss().unwrap().lower_bound;
        assert!(-v.proven_bound >= stated - 1e-9 * scale, "{ctx}");
    }
}

/// [`agree`] for each built-in loss on a random N in 65..=96 and eps in
/// [0.3, 1.2), over the set `make` builds around a random prior.
fn agree_for_each_loss(seed: u64, kind: &str, make: impl Fn(&mut StdRng, Prior) -> UncertaintySet) {
    let mut r = rng(seed);
    for (case, loss) in [Loss::Hamming, Loss::Absolute, Loss::Squared]
        .into_iter()
        .enumerate()
    {
        let n = r.random_range(65..=96);
        let eps = r.random_range(0.3..1.2);
        let p = random_prior(&mut r, n, 0.2);
        let set = make(&mut r, p);
        let ctx = format!("{kind}, case {case}, N = {n}, eps = {eps}");
        agree(&set, eps, &loss, &ctx);
    }
}

#[test]
fn generated_labels_equal_the_full_direct_lp_for_known_priors() {
    agree_for_each_loss(3611, "known", |_, p| UncertaintySet::known(p));
}

#[test]
fn generated_labels_equal_the_full_direct_lp_for_balls_under_proposition_2() {
    agree_for_each_loss(3612, "ball", |r, p| small_ball(r, &p, 0.1..0.9));
}

/// Pricing runs on rayon and the interior point on one thread: the design is
/// the same at 1 and 2 threads.
#[test]
fn generated_labels_are_the_same_at_1_and_2_threads() {
    let mut r = rng(3613);
    let set = UncertaintySet::known(random_prior(&mut r, 80, 0.2));
    let run = || Ok(loss_design(&set, 0.6, &Loss::Squared, LossMethod::Auto));
    assert!(same_at_1_and_2_threads(run), "1 and 2 threads differ");
}

/// A time limit that stops the rounds (from the first interior-point
/// iteration to a few rounds in) leaves a private design whose bound holds
/// and whose stored dual reads back.
#[test]
fn generated_labels_stopped_by_the_clock_are_certified_and_read_back() {
    let mut r = rng(3614);
    let set = UncertaintySet::known(random_prior(&mut r, 200, 0.2));
    for micros in [1, 20_000, 200_000] {
        let mut settings = pmldesign_solver::Settings::default();
        settings.column_generation.time_limit = Some(std::time::Duration::from_micros(micros));
        let d = pmldesign_solver::Problem::new(set.clone())
            .epsilon(0.8)
            .loss(Loss::Squared)
            .settings(settings)
            .solve()
            .unwrap();
        let outcome = d.loss().unwrap();
        assert!(
            d.certificate().worst_case_pml() <= 0.8 + 1e-10,
            "{micros} us"
        );
        assert!(outcome.lower_bound <= outcome.expected_loss, "{micros} us");
        let read: Design = serde_json::from_str(&serde_json::to_string(&d).unwrap()).unwrap();
        read.verify().unwrap_or_else(|e| panic!("{micros} us: {e}"));
    }
}
