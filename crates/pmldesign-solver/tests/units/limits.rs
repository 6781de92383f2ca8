//! Tests of `limits`.

use pmldesign_model::{Notion, Prior, UncertaintySet};
use pmldesign_solver::SolverError;
use pmldesign_solver::internals::limits::*;
use std::time::Duration;

/// A limit below the fixed work of N = 4096 is refused naming the field and
/// the smallest limit kept; small alphabets take any limit.
#[test]
fn a_limit_that_cannot_be_kept_is_refused_up_front() {
    let e =
        check_time_limit(Some(Duration::from_secs(2)), 4096, FIXED_SECONDS_PER_ENTRY).unwrap_err();
    let text = e.to_string();
    assert!(text.starts_with("invalid time_limit = 2 s"), "{text}");
    assert!(text.contains("at least 8.7 s"), "{text}");
    assert!(e.is_input_error());
    assert!(check_time_limit(Some(Duration::from_secs(9)), 4096, FIXED_SECONDS_PER_ENTRY).is_ok());
    assert!(check_time_limit(None, 4096, FIXED_SECONDS_PER_ENTRY).is_ok());
    assert!(check_time_limit(Some(Duration::from_nanos(1)), 900, FIXED_SECONDS_PER_ENTRY).is_ok());
    let least = smallest_time_limit(4096, FIXED_SECONDS_PER_ENTRY);
    assert!(check_time_limit(Some(least), 4096, FIXED_SECONDS_PER_ENTRY).is_ok());
    assert!(
        check_time_limit(
            Some(Duration::from_secs(3)),
            4096,
            FIXED_SECONDS_PER_ENTRY_UTILITY
        )
        .is_ok()
    );
    let kept = 1.1 * least.as_secs_f64() + 0.5;
    assert!(kept >= FIXED_SECONDS_PER_ENTRY * 4096.0 * 4096.0 - 1e-9);
}

/// Over a polytope or a ball past Proposition 2 the fixed work is the
/// set's; a known prior and a ball within Proposition 2 keep their own.
#[test]
fn a_costly_set_has_fixed_work_of_its_own() {
    let prior = Prior::new(vec![0.25; 4]).unwrap();
    let known = UncertaintySet::known(prior.clone());
    let within = UncertaintySet::l1_ball(prior.clone(), 0.4).unwrap();
    let past = UncertaintySet::l1_ball(prior, 0.6).unwrap();
    let (u, l) = (FIXED_SECONDS_PER_ENTRY_UTILITY, FIXED_SECONDS_PER_ENTRY);
    for cheap in [&known, &within] {
        assert_eq!(fixed_per_entry(cheap, true), u);
        assert_eq!(fixed_per_entry(cheap, false), l);
    }
    assert_eq!(
        fixed_per_entry(&past, true),
        FIXED_SECONDS_PER_ENTRY_UTILITY_SET
    );
    assert_eq!(fixed_per_entry(&past, false), FIXED_SECONDS_PER_ENTRY_SET);
    let least = smallest_time_limit(1024, FIXED_SECONDS_PER_ENTRY_UTILITY_SET);
    assert!((0.5..0.7).contains(&least.as_secs_f64()), "{least:?}");
}

/// A ball reaching the simplex's boundary at eps = 0.8 with a smallest
/// mass of 2e-3: only the cancellation rule applies to it.
fn cancelling() -> (UncertaintySet, Notion) {
    let prior = Prior::new(vec![0.002, 0.499, 0.499]).unwrap();
    let set = UncertaintySet::l1_ball(prior, 0.1).unwrap();
    (set, Notion::Lip { epsilon: 0.8 })
}

fn timed_out_lp() -> SolverError {
    SolverError::Lp(
        "notion loss LP (primal): An unexpected error occurred while running the optimizer: Time limit reached before finding a feasible solution.".into(),
    )
}

#[test]
fn an_lp_past_the_deadline_is_a_time_stop() {
    let (set, notion) = cancelling();
    let err = explain(timed_out_lp(), &set, &notion, true, true);
    let SolverError::Stopped { by, .. } = &err else {
        panic!("{err}");
    };
    assert_eq!(*by, "time_limit");
    assert!(
        err.to_string().starts_with("stopped by time_limit: "),
        "{err}"
    );
    assert!(
        err.to_string().contains("give a longer time limit"),
        "{err}"
    );
}

#[test]
fn an_lp_stopped_before_the_deadline_names_the_stall_guard() {
    let (set, notion) = cancelling();
    let err = explain(timed_out_lp(), &set, &notion, true, false);
    assert!(
        err.to_string()
            .starts_with("stopped by the LP's stall guard"),
        "{err}"
    );
}

#[test]
fn a_work_budget_stop_passes_unchanged() {
    let (set, notion) = cancelling();
    let budget = SolverError::Stopped {
        by: "the ray enumeration's work budget",
        detail: "ray enumeration passed its budget of 2e9 steps".into(),
        fix: "use a smaller alphabet or levels of at least 1e-3",
    };
    let err = explain(budget, &set, &notion, false, false);
    assert!(
        err.to_string()
            .starts_with("stopped by the ray enumeration's work budget: "),
        "{err}"
    );
}

#[test]
fn a_failed_check_names_the_quantity_that_cancels() {
    let (set, notion) = cancelling();
    let failed = SolverError::Certificate("column 2 measures 0.81 > 0.8".into());
    let err = explain(failed, &set, &notion, false, false);
    let SolverError::NumericalLimit { limit, .. } = &err else {
        panic!("{err}");
    };
    assert_eq!((limit.field, limit.value), ("prior", 0.002));
    assert!(limit.limit.contains("u e^eps / min p"), "{err}");
    assert!(!err.to_string().contains("levels above 5"), "{err}");
}

#[test]
fn a_failed_lp_inside_every_limit_stays_bare() {
    let prior = Prior::new(vec![0.3, 0.3, 0.4]).unwrap();
    let set = UncertaintySet::known(prior);
    let notion = Notion::Pml { epsilon: 0.8 };
    let failed = SolverError::Lp("Infeasible".into());
    let err = explain(failed, &set, &notion, false, true);
    assert!(matches!(err, SolverError::Lp(_)), "{err}");
}

#[test]
fn a_level_above_five_at_the_boundary_names_epsilon() {
    let prior = Prior::new(vec![0.2, 0.3, 0.5]).unwrap();
    let set = UncertaintySet::l1_ball(prior, 1.0).unwrap();
    let limit = numerical_limit(&set, &Notion::Pml { epsilon: 6.0 }, false).unwrap();
    assert_eq!((limit.field, limit.value), ("epsilon", 6.0));
}
