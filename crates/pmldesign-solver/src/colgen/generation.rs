//! The state of column generation between pricing passes and the loop over
//! them (docs/theory.md §4): the working set and its warm master, retirement of
//! idle columns, pricing with the best bound kept, the dual box
//! ([`crate::colgen::stabilise`]) and the final weights.

use crate::colgen::engine::{APriori, Progress, RayLpSolution};
use crate::colgen::oracle::{Column, PassControl, Pricing, RayOracle};
use crate::colgen::restricted::{restricted_dual, solve_restricted_primal};
use crate::colgen::stabilise::{DualBox, ENGAGE_WITHIN, STALL_PASSES};
use crate::error::{Result, SolverError};
use crate::lp::master::{Master, MasterSolution};
use crate::settings::{ColumnGenerationSettings, Interrupt};
use ndarray::Array1;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// The least time the final weights' fallback LP gets after a time-limit stop.
const FINAL_LP_TIME: Duration = Duration::from_millis(100);

/// Most an unfinished proof's node cap is multiplied by before the loop
/// settles for its bound.
const MAX_EFFORT: u64 = 64;
/// Fresh master solves in a row after passes whose entering rays were all in
/// the master already.
const MAX_RESOLVES: usize = 3;

/// Once the master tails off (each of [`FLAT_PASSES`] passes in a row has
/// raised it by less than [`FLAT`] of the gap to the best bound), a pass
/// prices at an entering tolerance of this share of that gap. Rays of 1e-9
/// can enter pass after pass (ties among the placements of unobserved
/// categories), each moving the master by less, and a pass that stops for
/// them proves nothing; the raised pass prunes at the share instead, and
/// either finds a ray worth its work or certifies a bound within the share of
/// the gap (docs/theory.md §4b, "Tailing off").
const WORTH: f64 = 1e-2;

/// Rise of the master, relative to the gap, below which a pass counts as flat.
const FLAT: f64 = 1e-7;

/// Flat passes in a row after which a pass goes on to a proof ([`WORTH`]).
const FLAT_PASSES: usize = 10;

/// The best master solution that was a mechanism (no box column in use), kept
/// while the dual box is on.
struct Incumbent {
    value: f64,
    weights: Vec<(Column, f64)>,
}

/// A master over `working` (the all-ones column first), started from the
/// basis `start_basis`.
fn rebuilt_master(working: &[Column], ones_value: f64, start_basis: &[usize]) -> Master {
    let mut master = Master::new(working[0].vector.len(), ones_value);
    for c in &working[1..] {
        master.push(c.vector.view(), c.value);
    }
    master.start_from(start_basis);
    master
}

/// The weights of the last master solved on the true right-hand side: a master
/// solved with a perturbed one is finished on the true one; microlp is next
/// (not after a time-limit stop: building its model alone costs about as much
/// as a time limit leaves at a few hundred inputs, and it would then fail at
/// its deadline); the perturbed weights (rows
/// off by about the perturbation, or more if the master stopped mid-pivot,
/// which the design repairs and mixes until private) are the last resort.
fn final_weights(
    warm: Option<MasterSolution>,
    master: &mut Master,
    working: &[Column],
    deadline: Option<Instant>,
    out_of_time: bool,
) -> Result<Vec<f64>> {
    let perturbed = warm.as_ref().map(|m| m.theta.clone());
    Ok(
        match warm.filter(|m| m.feasible).or_else(|| master.finish()) {
            Some(m) if m.feasible => m.theta,
            _ => match (out_of_time, perturbed) {
                (true, Some(theta)) => theta,
                (_, perturbed) => match (solve_restricted_primal(working, deadline), perturbed) {
                    (Ok(theta), _) => theta,
                    (Err(_), Some(theta)) => theta,
                    (Err(e), None) => return Err(e),
                },
            },
        },
    )
}

/// The state of column generation between pricing passes.
pub(super) struct Generation<'a> {
    oracle: &'a dyn RayOracle,
    ones_value: f64,
    settings: &'a ColumnGenerationSettings,
    began: std::time::Instant,
    /// The warm master; microlp's cold solve is its fallback.
    master: Master,
    /// The master's columns, the all-ones column first.
    working: Vec<Column>,
    /// The [`key`]s of `working`.
    seen: HashSet<Vec<i64>>,
    /// Indices 1..=k of the oracle's k start columns, if all of them were new.
    start_basis: Vec<usize>,
    /// Columns in the last optimum of the master, and the working-set size then.
    last_support: Vec<usize>,
    last_len: usize,
    /// The current dual smoothing ([`ColumnGenerationSettings::smoothing`] at
    /// first, halved at every mispriced pass).
    smoothing: f64,
    /// The best bound certified so far, and the dual and reduced cost behind it
    /// (`None` while it is the a-priori bound).
    best_bound: f64,
    best: Option<(Array1<f64>, f64)>,
    iterations: usize,
    rays_priced: u64,
    /// The interrupt and the effort of the next pass.
    control: PassControl,
    /// Fresh master solves in a row after passes that added no new column.
    resolves: usize,
    /// Passes since each working column last had a positive weight.
    idle: Vec<u32>,
    /// The a-priori dual while the box is not on (and there are seeds).
    center: Option<Array1<f64>>,
    /// The box around it, once on, and the last mechanism found inside it.
    dual_box: Option<DualBox>,
    incumbent: Option<Incumbent>,
    /// Passes since the incumbent last improved (or the box was widened).
    stalled: usize,
    last_lower: f64,
    /// The master's value at the last pass and the flat passes since then
    /// ([`Generation::worth`]).
    previous_lower: f64,
    flat: usize,
    /// The gaps at which the a-priori dual was priced for its near-tight rays
    /// ([`Generation::price_support`]).
    support_priced: Vec<f64>,
    /// The a-priori bound's dual (its largest reduced cost is at most 0).
    a_priori_dual: Option<Array1<f64>>,
}

/// The master's value within this (relative) of the best bound, but not
/// within the gap tolerance: the loop prices the best bound's dual for its
/// near-tight rays ([`Generation::price_support`]).
const SUPPORT_WITHIN: f64 = 1e-6;
/// Best bounds whose duals are priced that way, at most.
const SUPPORT_PASSES: usize = 2;
/// How far below the best dual's largest reduced cost a ray may price and be
/// admitted, in multiples of the gap between the bound and the master.
const SUPPORT_DEPTH: f64 = 64.0;

/// Passes out of the master's optimum after which a column may be retired.
const RETIRE_AFTER: u32 = 8;
/// Columns per row above which idle ones are retired ([`Generation::retire`]).
const RETIRE_ABOVE_PER_ROW: usize = 8;

/// What one pricing pass found.
struct Pass {
    /// The master's dual.
    lambda: Array1<f64>,
    /// The value of the best mechanism the master has held (its objective
    /// unless the dual box is in use).
    bound: f64,
    /// The largest reduced cost over the rays and the all-ones column.
    max_rc: f64,
    /// The gap at which the loop may stop.
    allowance: f64,
    /// Columns added to the master.
    added: usize,
    /// Entering rays that were in the master already: its last solve stopped
    /// at a loosened optimality tolerance (a stall), and a fresh solve, whose
    /// tolerance is tight again, pivots them in.
    repeated: usize,
    /// Priced at the raised tolerance of a master that tails off ([`WORTH`]).
    raised: bool,
}

impl Pass {
    /// No pass: the master at `lambda` is within the gap `allowance` of the
    /// best bound, which stands; nothing is known of the largest reduced cost.
    fn unpriced(lambda: Array1<f64>, bound: f64, allowance: f64) -> Self {
        Pass {
            lambda,
            bound,
            max_rc: f64::INFINITY,
            allowance,
            added: 0,
            repeated: 0,
            raised: false,
        }
    }
}

impl<'a> Generation<'a> {
    /// The loop: master, pricing, until the gap closes, nothing enters or the
    /// clock stops it ([`crate::colgen::engine::solve_with_oracle`]).
    pub(super) fn run(mut self, progress: &mut dyn FnMut(Progress)) -> Result<RayLpSolution> {
        let settings = self.settings;
        loop {
            self.iterations += 1;
            if self.iterations > settings.max_iterations {
                return Err(SolverError::Lp(format!(
                    "column generation did not converge in {} pricing passes",
                    settings.max_iterations
                )));
            }
            self.retire();
            let mut warm = self.solve_master();
            if self.engage(warm.as_ref()) {
                warm = self.solve_master();
            }
            let lambda = self.dual(warm.as_ref())?;
            let lower = self.lower_bound(warm.as_ref(), &lambda);
            let allowance = crate::tolerance::gap_allowance(settings.gap_tolerance, lower);
            if self.best_bound - lower <= allowance {
                // Within the gap of a bound already certified: a pass would
                // prove nothing the design needs (it is not counted).
                self.iterations -= 1;
                let pass = Pass::unpriced(lambda, lower, allowance);
                return self.finish(warm, pass, false, true);
            }
            let pass = self.price(lambda, lower, progress);
            self.widen_if_stalled(warm.as_ref(), lower);
            let out_of_time = self.out_of_time();
            let within_gap = self.best_bound - pass.bound <= pass.allowance;
            if pass.added == 0 && pass.raised && !out_of_time && !within_gap {
                // The raised pass certified its bound; smaller rays enter again.
                continue;
            }
            if pass.added == 0 && !out_of_time && !within_gap && self.widen(warm.as_ref()) {
                continue;
            }
            if pass.added == 0 && !out_of_time && !within_gap && self.go_on(&pass) {
                continue;
            }
            if pass.added > 0 {
                (self.control.effort, self.resolves) = (1, 0);
            }
            if pass.added == 0 || out_of_time || within_gap {
                return self.finish(warm, pass, out_of_time, within_gap);
            }
        }
    }

    /// The working set seeded with the all-ones column, the oracle's start
    /// columns (the master's first basis), then `seeds`, or without seeds the
    /// rays of largest mu (reduced cost at lambda = 0).
    pub(super) fn new(
        oracle: &'a dyn RayOracle,
        seeds: Vec<Column>,
        ones_value: f64,
        a_priori: APriori,
        settings: &'a ColumnGenerationSettings,
    ) -> Self {
        let n = oracle.dimension();
        let ones = Column {
            vector: Array1::ones(n),
            value: ones_value,
        };
        let began = std::time::Instant::now();
        // The rays of largest mu, unless there are seeds: at thousands of
        // inputs under LDP this search alone can spend a whole time limit, and
        // the seeds (the structured baselines) are better first columns.
        let control = PassControl {
            interrupt: settings.interrupt.clone(),
            effort: 1,
            deadline: settings.deadline_from(began, n),
        };
        // The seed pass stops at the deadline but not for Ctrl-C: the loop's
        // first check reports an interrupt, and a run whose seeds were cut short
        // by one would reach another certified vertex.
        let seed_control = PassControl {
            interrupt: Interrupt::default(),
            ..control.clone()
        };
        let seed = if seeds.is_empty() {
            oracle.price_with(&Array1::zeros(n), f64::NEG_INFINITY, 2 * n, &seed_control)
        } else {
            Pricing::default()
        };
        let mut run = Generation {
            oracle,
            ones_value,
            settings,
            began,
            master: Master::new(n, ones_value),
            working: vec![ones],
            seen: HashSet::new(),
            start_basis: Vec::new(),
            last_support: Vec::new(),
            last_len: 0,
            smoothing: settings.smoothing.unwrap_or(0.0),
            best_bound: a_priori.bound,
            best: None,
            iterations: 0,
            rays_priced: seed.priced,
            control,
            resolves: 0,
            idle: vec![0],
            center: a_priori.dual.clone().filter(|_| !seeds.is_empty()),
            dual_box: None,
            incumbent: None,
            stalled: 0,
            last_lower: f64::NEG_INFINITY,
            previous_lower: f64::NEG_INFINITY,
            flat: 0,
            support_priced: Vec::new(),
            a_priori_dual: a_priori.dual.clone(),
        };
        let start = oracle.start();
        let k = start.len();
        for c in start {
            run.admit(c);
        }
        if run.working.len() == k + 1 {
            run.start_basis = (1..=k).collect();
        }
        for c in seeds {
            run.admit(c);
        }
        run.master.start_from(&run.start_basis);
        run.master
            .set_deadline(run.deadline(), &run.settings.interrupt);
        for (_, c) in seed.entering {
            run.admit(c);
        }
        run.last_len = run.working.len();
        run
    }

    /// Adds a column unless an equal one is there ([`admit`]).
    fn admit(&mut self, c: Column) -> bool {
        let added = admit(c, &mut self.working, &mut self.seen, &mut self.master);
        if added {
            self.idle.push(0);
        }
        added
    }

    /// Retires the columns that stayed out of the master's optimum for
    /// [`RETIRE_AFTER`] passes, once the working set holds more than
    /// [`RETIRE_ABOVE_PER_ROW`] columns a row (and at least the batch twice):
    /// the master then prices what is alive, not every column ever found. A
    /// retired column that prices in again is admitted again. The start columns
    /// and the master's basis stay. Called between passes, when no solution of
    /// the master refers to column indices.
    fn retire(&mut self) {
        let n = self.oracle.dimension();
        let above = (RETIRE_ABOVE_PER_ROW * n).max(2 * self.settings.batch.max(1));
        if self.working.len() <= above {
            return;
        }
        let starts = self.start_basis.len();
        let mut keep: Vec<bool> = (0..self.working.len())
            .map(|k| k <= starts || self.idle[k] < RETIRE_AFTER)
            .collect();
        for k in self.dual_box.iter().flat_map(DualBox::indices) {
            keep[k] = true;
        }
        // Not worth a compaction for a few columns.
        if keep.iter().filter(|&&k| !k).count() < self.working.len() / 4 {
            return;
        }
        let kept = self.master.retain(&keep);
        let mut new_index = vec![usize::MAX; self.working.len()];
        for (new, &old) in kept.iter().enumerate() {
            new_index[old] = new;
        }
        self.working = kept.iter().map(|&k| self.working[k].clone()).collect();
        self.idle = kept.iter().map(|&k| self.idle[k]).collect();
        self.seen = self.working.iter().map(|c| key(&c.vector)).collect();
        if let Some(b) = &mut self.dual_box {
            b.reindex(&new_index);
        }
        self.last_support = self
            .last_support
            .iter()
            .map(|&k| new_index[k])
            .filter(|&k| k != usize::MAX)
            .collect();
        self.last_len = self.working.len();
    }

    /// The warm master's optimum. If its basis went numerically singular, the
    /// master is rebuilt from the support of the last optimum and the newest
    /// columns (dropped columns can come back through pricing) and solved cold.
    fn solve_master(&mut self) -> Option<MasterSolution> {
        if let Some(m) = self.master.optimise() {
            return Some(m);
        }
        let starts = self.start_basis.len();
        let boxed: Vec<usize> = self.dual_box.iter().flat_map(DualBox::indices).collect();
        let mut keep: Vec<usize> = (0..=starts)
            .chain(boxed)
            .chain(self.last_support.iter().copied().filter(|&k| k > starts))
            .chain(self.last_len..self.working.len())
            .collect();
        keep.sort_unstable();
        keep.dedup();
        let mut new_index = vec![usize::MAX; self.working.len()];
        for (new, &old) in keep.iter().enumerate() {
            new_index[old] = new;
        }
        self.working = keep.iter().map(|&k| self.working[k].clone()).collect();
        self.idle = vec![0; self.working.len()];
        self.seen = self.working.iter().map(|c| key(&c.vector)).collect();
        let basis = match &mut self.dual_box {
            Some(b) => {
                b.reindex(&new_index);
                b.lower.clone()
            }
            None => self.start_basis.clone(),
        };
        self.master = rebuilt_master(&self.working, self.ones_value, &basis);
        self.master
            .set_deadline(self.deadline(), &self.settings.interrupt);
        self.master.optimise()
    }

    /// When the loop must stop for the time limit.
    fn deadline(&self) -> Option<std::time::Instant> {
        self.settings
            .deadline_from(self.began, self.oracle.dimension())
    }

    /// The master's dual, or microlp's restricted dual when the master failed.
    fn dual(&mut self, warm: Option<&MasterSolution>) -> Result<Array1<f64>> {
        match warm {
            Some(m) => {
                self.last_support = (0..m.theta.len()).filter(|&k| m.theta[k] > 0.0).collect();
                self.last_len = self.working.len();
                for (idle, &t) in self.idle.iter_mut().zip(&m.theta) {
                    *idle = if t > 0.0 { 0 } else { idle.saturating_add(1) };
                }
                Ok(m.dual.clone())
            }
            None => restricted_dual(&self.working, self.deadline()),
        }
    }

    /// Puts the dual box on ([`DualBox`]) after the first seeded master, if it
    /// is a mechanism within [`ENGAGE_WITHIN`] of the a-priori bound (and not
    /// already within the gap tolerance): keeps it as the incumbent, adds the
    /// box's columns and restarts the master from the lower ones (the
    /// identity, a nondegenerate basis). Whether the box went on.
    fn engage(&mut self, warm: Option<&MasterSolution>) -> bool {
        let Some(m) = warm.filter(|_| self.center.is_some()) else {
            return false;
        };
        let gap = self.best_bound - m.value;
        let allowance = crate::tolerance::gap_allowance(self.settings.gap_tolerance, m.value);
        if !m.feasible || gap <= allowance || gap > ENGAGE_WITHIN * self.best_bound.abs() {
            self.center = None;
            return false;
        }
        let center = self.center.take().expect("checked");
        let seed_gap = gap / self.best_bound.abs();
        let mut dual_box = DualBox::new(center, seed_gap);
        self.keep_incumbent(m);
        for x in 0..self.oracle.dimension() {
            let [lower, upper] = dual_box.columns(x);
            dual_box.lower.push(self.push(lower));
            dual_box.upper.push(self.push(upper));
        }
        let moved = self.master.start_from(&dual_box.lower);
        debug_assert!(moved, "the identity is a feasible basis");
        self.dual_box = Some(dual_box);
        true
    }

    /// The final weights as a mechanism's columns and its value: the
    /// incumbent's instead where they use a box column or fall below it.
    fn mechanism(self, theta: Vec<f64>) -> (Vec<(Column, f64)>, f64) {
        let used = self.dual_box.as_ref().is_some_and(|b| b.in_use(&theta));
        let boxed = self.box_mask();
        let weights: Vec<(Column, f64)> = self
            .working
            .into_iter()
            .zip(theta)
            .enumerate()
            .filter(|(k, (_, t))| *t > 0.0 && !boxed[*k])
            .map(|(_, w)| w)
            .collect();
        let value = weights.iter().map(|(c, t)| c.value * t).sum();
        match self.incumbent {
            Some(i) if used || i.value > value => (i.weights, i.value),
            _ => (weights, value),
        }
    }

    /// Adds a column whether or not an equal one is there; its index.
    fn push(&mut self, c: Column) -> usize {
        self.seen.insert(key(&c.vector));
        self.master.push(c.vector.view(), c.value);
        self.working.push(c);
        self.idle.push(0);
        self.working.len() - 1
    }

    /// Which working columns are box columns.
    fn box_mask(&self) -> Vec<bool> {
        let mut mask = vec![false; self.working.len()];
        for k in self.dual_box.iter().flat_map(DualBox::indices) {
            mask[k] = true;
        }
        mask
    }

    /// Keeps `m` as the incumbent if it is the best mechanism so far.
    fn keep_incumbent(&mut self, m: &MasterSolution) {
        if self.incumbent.as_ref().is_some_and(|i| i.value >= m.value) {
            return;
        }
        let boxed = self.box_mask();
        let weights = (0..self.working.len())
            .filter(|k| m.theta[*k] > 0.0 && !boxed[*k])
            .map(|k| (self.working[k].clone(), m.theta[k]))
            .collect();
        self.incumbent = Some(Incumbent {
            value: m.value,
            weights,
        });
    }

    /// The value of the best mechanism the master has held: its objective
    /// `sum lambda`, unless the box is on (then the incumbent's, updated by
    /// `warm` if that is a mechanism).
    fn lower_bound(&mut self, warm: Option<&MasterSolution>, lambda: &Array1<f64>) -> f64 {
        let Some(dual_box) = &self.dual_box else {
            return lambda.sum();
        };
        if let Some(m) = warm.filter(|m| m.feasible && !dual_box.in_use(&m.theta)) {
            self.keep_incumbent(m);
        }
        self.incumbent
            .as_ref()
            .map_or(f64::NEG_INFINITY, |i| i.value)
    }

    /// After a pass that found no ray for a master that uses a box column:
    /// the optimum's dual lies outside the box, which is widened. Whether it
    /// was.
    fn widen(&mut self, warm: Option<&MasterSolution>) -> bool {
        match (&mut self.dual_box, warm) {
            (Some(b), Some(m)) => b.widen(&m.theta, 10.0, &mut self.master, &mut self.working),
            _ => false,
        }
    }

    /// Widens the box where it is in use after [`STALL_PASSES`] passes
    /// without a better mechanism: the rays keep entering (so [`Self::widen`]
    /// is never reached) while a few rows stay at the box's edge.
    fn widen_if_stalled(&mut self, warm: Option<&MasterSolution>, lower: f64) {
        if self.dual_box.is_none() {
            return;
        }
        if lower > self.last_lower {
            (self.last_lower, self.stalled) = (lower, 0);
            return;
        }
        self.stalled += 1;
        if self.stalled >= STALL_PASSES && self.widen(warm) {
            self.stalled = 0;
        }
    }

    /// One pricing pass for the master's dual `lambda`: keeps the best
    /// certified bound (module docs), reports progress and admits up to a batch
    /// of entering rays.
    ///
    /// Dual smoothing (Wentges, [`ColumnGenerationSettings::smoothing`]): the
    /// oracle is first asked at a point between `lambda` and the dual of the
    /// best bound so far, whose rays make the master's dual oscillate less;
    /// only rays that also enter for `lambda` are kept, and when there are none
    /// the pass prices `lambda` itself. Every dual priced certifies a bound.
    fn price(
        &mut self,
        lambda: Array1<f64>,
        bound: f64,
        progress: &mut dyn FnMut(Progress),
    ) -> Pass {
        let s = self.settings;
        let allowance = crate::tolerance::gap_allowance(s.gap_tolerance, bound);
        let tol = (s.pricing_tolerance * (1.0 + bound.abs())).max(0.5 * allowance);
        let worth = self.worth(bound);
        let tol = tol.max(worth);
        let keep = s.batch.max(1) + self.working.len();
        let support = self.price_support(bound, allowance, keep);
        let mut entering = Vec::new();
        let mut priced = (lambda.clone(), f64::INFINITY);
        let alpha = self.smoothing;
        if let Some((center, _)) = self.best.as_ref().filter(|_| alpha > 0.0) {
            let center = center * alpha + &lambda * (1.0 - alpha);
            let pricing = self.oracle.price_with(&center, tol, keep, &self.control);
            let max_rc = self.record(&center, &pricing);
            entering = pricing
                .entering
                .into_iter()
                .filter(|(_, c)| c.value - lambda.dot(&c.vector) > tol)
                .collect();
            priced = (center, max_rc);
        }
        if entering.is_empty() {
            if self.best.is_some() && alpha > 0.0 {
                // Mispriced: smooth less from now on.
                self.smoothing = if alpha > 0.1 { 0.5 * alpha } else { 0.0 };
            }
            let pricing = self.oracle.price_with(&lambda, tol, keep, &self.control);
            let max_rc = self.record(&lambda, &pricing);
            entering = pricing.entering;
            priced = (lambda, max_rc);
        }
        progress(Progress {
            iterations: self.iterations,
            lower_bound: bound,
            upper_bound: self.best_bound,
            rays_priced: self.rays_priced,
        });
        let (mut added, mut repeated) = (0, 0);
        for (_, c) in entering {
            if added == s.batch.max(1) {
                break;
            }
            if self.admit(c) {
                added += 1;
            } else {
                repeated += 1;
            }
        }
        Pass {
            lambda: priced.0,
            bound,
            max_rc: priced.1,
            allowance,
            added: added + support,
            repeated,
            raised: worth.is_finite(),
        }
    }

    /// The entering tolerance the pass at master value `lower` is raised to
    /// ([`WORTH`]) once the master has been flat for [`FLAT_PASSES`] passes;
    /// `-inf` before. A raised pass starts the count again.
    fn worth(&mut self, lower: f64) -> f64 {
        let gap = self.best_bound - lower;
        // Not while either bound is infinite (no a-priori bound, no incumbent).
        let flat = gap.is_finite()
            && self.previous_lower.is_finite()
            && lower - self.previous_lower <= FLAT * gap;
        self.flat = if flat { self.flat + 1 } else { 0 };
        self.previous_lower = lower;
        if self.flat < FLAT_PASSES {
            return f64::NEG_INFINITY;
        }
        self.flat = 0;
        WORTH * gap
    }

    /// Counts a pricing pass under `lambda` and keeps its bound if it is the
    /// best so far; the largest reduced cost it certifies.
    fn record(&mut self, lambda: &Array1<f64>, pricing: &Pricing) -> f64 {
        self.rays_priced += pricing.priced;
        let max_rc = pricing.max_reduced_cost.max(self.ones_value - lambda.sum());
        let bound = lambda.sum() + max_rc.max(0.0);
        if bound < self.best_bound {
            self.best_bound = bound;
            self.best = Some((lambda.clone(), max_rc));
        }
        max_rc
    }

    /// Admits the rays nearly tight at the a-priori dual while its bound `B`
    /// is the best one, once the master is within [`SUPPORT_WITHIN`] of it
    /// but not within the gap tolerance (and again each time the master has
    /// closed half of the gap it left then, up to [`SUPPORT_PASSES`] times).
    /// Every ray prices at most 0 there, and with `U` the optimum every column
    /// of an optimal mechanism of weight `theta` prices at least
    /// `-(B - U) / theta >= -(B - bound) / theta` (the weights sum to 1): the
    /// rays within [`SUPPORT_DEPTH`] times `B - bound` of 0 hold the optimum's
    /// heavier columns. Under LDP, where `B` is nearly reached by sets of
    /// weight near the best one (docs/theory.md §4d), the master's own dual,
    /// one vertex of a degenerate optimal face, found them a few at a time.
    /// A heuristic for columns: its pass's bound is recorded like any other.
    /// Returns the number of columns it added.
    fn price_support(&mut self, bound: f64, allowance: f64, keep: usize) -> usize {
        let (None, Some(center)) = (&self.best, &self.a_priori_dual) else {
            return 0;
        };
        let center = center.clone();
        let gap = self.best_bound - bound;
        // Again only once the master has closed half the gap it left then.
        let fresh = self.support_priced.last().is_none_or(|&g| gap < 0.5 * g);
        if gap <= allowance
            || gap > SUPPORT_WITHIN * self.best_bound.abs()
            || !fresh
            || self.support_priced.len() >= SUPPORT_PASSES
        {
            return 0;
        }
        self.support_priced.push(gap);
        let tol = -SUPPORT_DEPTH * gap;
        let pricing = self.oracle.price_with(&center, tol, keep, &self.control);
        self.record(&center, &pricing);
        let mut added = 0;
        for (_, c) in pricing.entering {
            if added == self.settings.batch.max(1) {
                break;
            }
            if self.admit(c) {
                added += 1;
            }
        }
        added
    }

    /// After a pass that added no column and left a gap: whether to go on.
    /// Its entering rays were all in the master already: solve the master
    /// afresh, up to [`MAX_RESOLVES`] times in a row. Its proof stopped
    /// unfinished at the node cap: with a time limit, another pass with four
    /// times the effort (up to [`MAX_EFFORT`]); without one the loop settles
    /// for the bound it has.
    fn go_on(&mut self, pass: &Pass) -> bool {
        if pass.repeated > 0 {
            self.resolves += 1;
            return self.resolves <= MAX_RESOLVES;
        }
        let room = self.deadline().is_some() && self.control.effort < MAX_EFFORT;
        if room {
            self.control.effort *= 4;
        }
        room
    }

    /// Whether the time limit or an interrupt stops the loop.
    fn out_of_time(&self) -> bool {
        self.settings.interrupt.or_past(self.deadline())
    }

    /// The solution after the last pass: the final weights and the best bound.
    fn finish(
        mut self,
        mut warm: Option<MasterSolution>,
        pass: Pass,
        out_of_time: bool,
        within_gap: bool,
    ) -> Result<RayLpSolution> {
        let (dual, max_reduced_cost) = self.best.take().unwrap_or((pass.lambda, pass.max_rc));
        // The new columns are not in the master yet (no time for that after
        // a time-limit stop: the last optimum stays valid without them).
        if pass.added > 0 && !out_of_time {
            warm = self.master.optimise();
        }
        // Past the deadline, the fallback LP still gets a short guard.
        let deadline = self
            .deadline()
            .map(|d| d.max(Instant::now() + FINAL_LP_TIME));
        let theta = final_weights(warm, &mut self.master, &self.working, deadline, out_of_time)?;
        let (upper_bound, iterations, rays_priced) =
            (self.best_bound, self.iterations, self.rays_priced);
        let (weights, value) = self.mechanism(theta);
        Ok(RayLpSolution {
            weights,
            value,
            upper_bound,
            dual,
            max_reduced_cost,
            iterations,
            rays_priced,
            // A pass the deadline cut short found nothing because it stopped, not
            // because nothing enters: that is the time limit, not convergence.
            converged: (pass.added == 0 && !out_of_time) || within_gap,
        })
    }
}

/// Adds a column to the working set and the master unless an equal one
/// ([`key`]) is already there; whether it was added.
fn admit(
    c: Column,
    working: &mut Vec<Column>,
    seen: &mut HashSet<Vec<i64>>,
    master: &mut Master,
) -> bool {
    if !seen.insert(key(&c.vector)) {
        return false;
    }
    master.push(c.vector.view(), c.value);
    working.push(c);
    true
}

/// Identity of a column for de-duplication: its entries rounded to 1e-9, so
/// that columns equal up to rounding (which would make the master's basis
/// singular) count as one.
pub(crate) fn key(v: &Array1<f64>) -> Vec<i64> {
    v.iter().map(|x| (x * 1e9).round() as i64).collect()
}
