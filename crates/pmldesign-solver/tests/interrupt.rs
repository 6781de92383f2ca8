//! Ctrl-C at any step of any long loop: column generation, the rounds of a
//! pricing pass, the master simplex, polishing. A test hook
//! ([`Interrupt::after_checks`]) sets the flag at its k-th check, so every k
//! stops the run somewhere else, without timing anything; every stop must
//! return a certified, private mechanism.

use crate::common::{Rng, dirichlet_prior};
use pmldesign_model::{Notion, UncertaintySet};
use pmldesign_solver::{DesignStatus, Interrupt, Problem, Settings};

/// Runs `problem` with the flag set at check k = 1, 2, 4, ... until a run ends
/// untouched (as the run without the hook); returns how many runs it stopped.
fn stops_everywhere(set: &UncertaintySet, notion: &Notion, what: &str) -> usize {
    let solve = |interrupt: Interrupt| {
        let mut settings = Settings::default();
        settings.column_generation.interrupt = interrupt;
        Problem::new(set.clone())
            .notion(notion.clone())
            .settings(settings)
            .solve()
            .unwrap_or_else(|e| panic!("{what}: {e}"))
    };
    let whole = serde_json::to_string(&solve(Interrupt::new())).unwrap();
    // Runs 0..bit were all stopped.
    for bit in 0..24 {
        let k = 1u64 << bit;
        let d = solve(Interrupt::after_checks(k));
        let ctx = format!("{what}, interrupted at check {k}");
        d.verify().unwrap_or_else(|e| panic!("{ctx}: {e}"));
        assert!(d.certificate().gap() >= 0.0, "{ctx}");
        if serde_json::to_string(&d).unwrap() == whole {
            return bit;
        }
        assert_ne!(
            d.status(),
            DesignStatus::Optimal,
            "{ctx}: an altered run claims optimality"
        );
    }
    panic!("{what}: still interrupted at check 2^23");
}

#[test]
fn a_known_prior_design_stops_at_every_check() {
    let p = dirichlet_prior(&mut Rng(30), 30);
    let stopped = stops_everywhere(
        &UncertaintySet::known(p),
        &Notion::Pml { epsilon: 2f64.ln() },
        "known prior, N = 30",
    );
    assert!(stopped >= 4, "only {stopped} runs were stopped");
}

#[test]
fn an_ldp_design_stops_at_every_check() {
    let p = dirichlet_prior(&mut Rng(16), 16);
    let stopped = stops_everywhere(
        &UncertaintySet::known(p),
        &Notion::Ldp { epsilon: 1.0 },
        "LDP, N = 16",
    );
    assert!(stopped >= 3, "only {stopped} runs were stopped");
}

#[test]
fn an_exact_ball_design_stops_at_every_check() {
    let p = dirichlet_prior(&mut Rng(20), 20);
    let beta = 3.0 * p.min_mass();
    let stopped = stops_everywhere(
        &UncertaintySet::l1_ball(p, beta).unwrap(),
        &Notion::Pml { epsilon: 2f64.ln() },
        "exact ball, N = 20",
    );
    assert!(stopped >= 3, "only {stopped} runs were stopped");
}
