//! Shared helpers for the solver's integration tests.
#![allow(dead_code)]

use std::ops::Range;

use ndarray::ArrayView2;
use pmldesign_model::Notion;
use pmldesign_model::{Prior, UncertaintySet};
use pmldesign_solver::{
    Certificate, Design, DesignStatus, Loss, LossMethod, Problem, Result, Settings, Utility,
};
use rand::rngs::StdRng;
use rand::{RngExt as _, SeedableRng};

/// Shared with `pmldesign-model`'s tests: the seeded xorshift64* generator (`Rng(seed)`, with
/// `unit`, `below`, `prior` and `mechanism`) and \[V\] Example 2.
#[path = "../../pmldesign-model/tests/common/mod.rs"]
mod model;

#[allow(unused_imports)] // not every test file uses them
pub use model::{Rng, example2};

/// A seeded generator.
pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// A random prior on n symbols with every mass at least `floor / n`.
pub fn random_prior(rng: &mut StdRng, n: usize, floor: f64) -> Prior {
    let w: Vec<f64> = (0..n).map(|_| floor + rng.random::<f64>()).collect();
    Prior::normalised(w).unwrap()
}

/// A Dirichlet(1)-like prior on `n` symbols (exponential weights).
pub fn dirichlet_prior(r: &mut Rng, n: usize) -> Prior {
    let w: Vec<f64> = (0..n).map(|_| 1e-3 - (1.0 - r.unit()).ln()).collect();
    Prior::normalised(w).unwrap()
}

/// An l1 ball around `p` in Proposition 2's range: `beta = 2 min p * U(fraction)`.
pub fn small_ball(rng: &mut StdRng, p: &Prior, fraction: Range<f64>) -> UncertaintySet {
    UncertaintySet::l1_ball(p.clone(), 2.0 * p.min_mass() * rng.random_range(fraction)).unwrap()
}

/// An l1 ball around `p` past Proposition 2: `beta = U(2 min p .. max)`.
pub fn large_ball(rng: &mut StdRng, p: &Prior, max: f64) -> UncertaintySet {
    UncertaintySet::l1_ball(p.clone(), rng.random_range(2.0 * p.min_mass()..max)).unwrap()
}

/// The known prior `p` for even cases, a [`small_ball`] around it for odd ones.
pub fn known_or_small_ball(
    rng: &mut StdRng,
    p: &Prior,
    case: usize,
    fraction: Range<f64>,
) -> UncertaintySet {
    if case.is_multiple_of(2) {
        UncertaintySet::known(p.clone())
    } else {
        small_ball(rng, p, fraction)
    }
}

/// Both randomized-response baselines are eps-PML (feasible), so the design is at
/// least as good as either.
pub fn assert_beats_baselines(d: &Design, eps: f64, ctx: &str) {
    let tol = 1e-9 * (1.0 + d.utility_value().abs());
    let b = d.baselines();
    assert!(b.same_ldp.worst_case_pml <= eps + 1e-9, "{ctx}");
    assert!(b.pml_calibrated.worst_case_pml <= eps + 1e-9, "{ctx}");
    assert!(
        d.utility_value() + tol >= b.same_ldp.utility,
        "{ctx}: design {} < same-LDP RR {}",
        d.utility_value(),
        b.same_ldp.utility
    );
    assert!(
        d.utility_value() + tol >= b.pml_calibrated.utility,
        "{ctx}: design {} < calibrated RR {}",
        d.utility_value(),
        b.pml_calibrated.utility
    );
}

/// True when the matrices are equal up to a permutation of columns, within tol.
pub fn same_up_to_column_order(a: ArrayView2<f64>, b: ArrayView2<f64>, tol: f64) -> bool {
    if a.dim() != b.dim() {
        return false;
    }
    let mut used = vec![false; b.ncols()];
    a.columns().into_iter().all(|ca| {
        let found = (0..b.ncols()).find(|&j| {
            !used[j]
                && ca
                    .iter()
                    .zip(b.column(j))
                    .all(|(x, y)| (x - y).abs() <= tol)
        });
        found.map(|j| used[j] = true).is_some()
    })
}

/// The design maximising `utility` under eps-PML over `set`, through the one
/// entry point ([`Problem::solve`]).
pub fn design(
    set: &UncertaintySet,
    epsilon: f64,
    utility: &dyn Utility,
    settings: &Settings,
) -> Result<Design> {
    design_notion(set, &Notion::Pml { epsilon }, utility, settings)
}

/// The design maximising `utility` under `notion` over `set` ([`Problem::solve`]).
pub fn design_notion(
    set: &UncertaintySet,
    notion: &Notion,
    utility: &dyn Utility,
    settings: &Settings,
) -> Result<Design> {
    Problem::new(set.clone())
        .notion(notion.clone())
        .utility(utility)
        .settings(settings.clone())
        .solve()
}

/// What a loss design states, read from the [`Design`] that [`Problem::solve`]
/// returns for a loss.
pub struct LossResult {
    pub status: DesignStatus,
    pub method: LossMethod,
    pub expected_loss: f64,
    pub lower_bound: f64,
    pub certificate: Certificate,
}

/// The mechanism of least expected `loss` under eps-PML over `set`.
pub fn minimise_loss_with(
    set: &UncertaintySet,
    epsilon: f64,
    loss: &Loss,
    settings: &Settings,
) -> Result<LossResult> {
    let d = Problem::new(set.clone())
        .epsilon(epsilon)
        .loss(loss.clone())
        .settings(settings.clone())
        .solve()?;
    let outcome = d.loss().expect("a loss design states its loss");
    Ok(LossResult {
        status: d.status(),
        method: outcome.method,
        expected_loss: outcome.expected_loss,
        lower_bound: outcome.lower_bound,
        certificate: d.certificate().clone(),
    })
}

/// The loss design of `set` at eps-PML `epsilon` by `method` (default settings otherwise).
pub fn loss_design(set: &UncertaintySet, epsilon: f64, loss: &Loss, method: LossMethod) -> Design {
    loss_design_under(set, Notion::Pml { epsilon }, loss, method)
}

/// [`loss_design`] under any notion.
pub fn loss_design_under(
    set: &UncertaintySet,
    notion: Notion,
    loss: &Loss,
    method: LossMethod,
) -> Design {
    let settings = Settings {
        loss_method: method,
        ..Settings::default()
    };
    Problem::new(set.clone())
        .notion(notion)
        .loss(loss.clone())
        .settings(settings)
        .solve()
        .unwrap()
}

/// [`minimise_loss_with`] with the default settings.
pub fn minimise_loss(set: &UncertaintySet, epsilon: f64, loss: &Loss) -> Result<LossResult> {
    minimise_loss_with(set, epsilon, loss, &Settings::default())
}

/// Whether `run` gives the same design JSON, byte for byte, under rayon pools of
/// 1 and 2 threads.
pub fn same_at_1_and_2_threads(run: impl Fn() -> Result<Design> + Send + Sync) -> bool {
    json_with_threads(1, &run) == json_with_threads(2, &run)
}

/// The JSON of the design `run` returns under a rayon pool of `threads`
/// threads (for same-bytes-at-every-thread-count checks).
pub fn json_with_threads(threads: usize, run: impl FnOnce() -> Result<Design> + Send) -> String {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    serde_json::to_string(&pool.install(run).unwrap()).unwrap()
}
