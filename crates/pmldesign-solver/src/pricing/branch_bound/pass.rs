//! One pricing pass: the searches of a family, run in rounds (docs/theory.md
//! §4b, "Determinism and the shared budget").
//!
//! A pass stops its searches once one of them has found an entering ray and the
//! pass has spent its node budget. Read from a shared counter while the searches
//! run, that decision would depend on how the threads are scheduled, and the
//! same design could come out as another optimal vertex at another thread
//! count. So the searches run in rounds instead: a fixed window of them advances
//! [`ROUND`] nodes each, in parallel, and the budget is read between rounds from
//! their counts summed in order. What every search does is then a function of
//! the input alone, whatever the number of threads.

use super::{Found, LAST_PASS_BUDGET, PASS_BUDGET};
use crate::colgen::oracle::PassControl;
use crate::settings::Interrupt;
use rayon::prelude::*;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

/// Nodes a search visits in a round (between two looks at the budget).
pub(super) const ROUND: u64 = 1024;

/// Searches that advance together in a round: a fixed number, so that what a
/// search does never depends on the thread count, and small, so that a pass
/// that has found its entering rays stops soon.
const WINDOW: usize = 4;

/// A search that can stop at the end of a round and resume.
pub(super) trait Resumable: Send {
    /// Runs until the search ends (true) or, unless `stopped`, until it has
    /// visited its round's nodes. A `stopped` search expands no node: every
    /// node still open keeps its bound.
    fn advance(&mut self, stopped: bool) -> bool;
    /// Stops at once with a bound on every node left open, possibly looser
    /// than [`Self::advance`] with `stopped` would give (for a pass the clock
    /// or Ctrl-C has stopped).
    fn abandon(&mut self) {
        self.advance(true);
    }
    /// What it has found so far.
    fn found(&self) -> &Found;
    /// What it found.
    fn into_found(self) -> Found;
}

/// How a pass ended its rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// Every search ran to its end.
    No,
    /// The node budget was spent: each search not yet started runs one round.
    Budget,
    /// The deadline passed or Ctrl-C: every search stops at once.
    Now,
}

/// What the searches of one pricing pass share: the deadline, the nodes visited
/// and whether an entering ray has been found. Only written between rounds,
/// by the thread that runs them (atomics only to share it with that thread).
pub(super) struct Pass {
    deadline: Option<Instant>,
    /// Ctrl-C: stops the pass as its deadline would.
    interrupt: Interrupt,
    /// Nodes after which a pass that has found no entering ray stops
    /// ([`LAST_PASS_BUDGET`] times the pass's effort).
    last_budget: u64,
    /// Nodes a seeding pass (tolerance `-inf`, [`super::Searched::seed_budget`]) visits.
    seed_budget: u64,
    nodes: AtomicU64,
    /// Nodes visited when the first entering ray was found (`u64::MAX`: none).
    found_at: AtomicU64,
}

impl Pass {
    pub(super) fn new(deadline: Option<Instant>, seed_budget: u64, control: &PassControl) -> Self {
        Pass {
            deadline,
            interrupt: control.interrupt.clone(),
            last_budget: LAST_PASS_BUDGET.saturating_mul(control.effort.max(1)),
            seed_budget,
            nodes: AtomicU64::new(0),
            found_at: AtomicU64::new(u64::MAX),
        }
    }

    /// True once the pass has found an entering ray and spent its node budget:
    /// the searches still to start would stop after a round.
    pub(super) fn spent(&self) -> bool {
        self.spent_at(self.nodes.load(Relaxed), false)
    }

    /// True when `total` nodes spend the budget of a pass that has found an
    /// entering ray: the seed budget for a seeding pass (no tolerance: the rays
    /// of largest mu, a heuristic start, not a proof), else [`PASS_BUDGET`] or,
    /// for a pass that found its first entering ray late and is nearly a full
    /// proof, twice that count.
    fn spent_at(&self, total: u64, seeding: bool) -> bool {
        let found_at = self.found_at.load(Relaxed);
        let budget = if seeding {
            self.seed_budget
        } else {
            PASS_BUDGET.max(found_at.saturating_mul(2))
        };
        found_at != u64::MAX && total >= budget
    }

    /// Counts `nodes` more into the pass, notes an entering ray, and says
    /// whether the searches must stop.
    fn account(&self, nodes: u64, entered: bool, seeding: bool) -> Stop {
        let total = self.nodes.load(Relaxed) + nodes;
        self.nodes.store(total, Relaxed);
        if entered && self.found_at.load(Relaxed) == u64::MAX {
            self.found_at.store(total, Relaxed);
        }
        if self.past() {
            Stop::Now
        } else if self.spent_at(total, seeding) || total >= self.last_budget {
            Stop::Budget
        } else {
            Stop::No
        }
    }

    /// Runs the searches `make(0..count)` in rounds at entering tolerance `tol`
    /// and returns what each found, in order. The rounds are led from a thread
    /// of the pool, so that a round wakes no thread from outside it.
    ///
    /// `unstarted(i)`, where the family has one, is a bound on search i found
    /// without building it (its root's bound relaxed, in time linear in N):
    /// once the clock or Ctrl-C has stopped the pass, the searches not yet
    /// started get it instead of their own root bound: at thousands of
    /// inputs building each search costs seconds the deadline has not left.
    pub(super) fn run<S: Resumable>(
        &self,
        tol: f64,
        count: usize,
        make: impl Fn(usize) -> S + Sync,
        unstarted: Option<&(dyn Fn(usize) -> Found + Sync)>,
    ) -> Vec<Found> {
        rayon::scope(|_| self.rounds(tol, count, &make, unstarted))
    }

    /// Whether the clock or Ctrl-C has stopped the pass.
    fn past(&self) -> bool {
        self.interrupt.or_past(self.deadline)
    }

    /// [`Pass::run`] on the calling thread.
    fn rounds<S: Resumable>(
        &self,
        tol: f64,
        count: usize,
        make: &(impl Fn(usize) -> S + Sync),
        unstarted: Option<&(dyn Fn(usize) -> Found + Sync)>,
    ) -> Vec<Found> {
        let seeding = tol == f64::NEG_INFINITY;
        let mut done: Vec<(usize, Found)> = Vec::with_capacity(count);
        let mut active: Vec<(usize, S)> = Vec::new();
        // Nodes of the searches that have ended, and of all counted into the pass.
        let (mut ended_nodes, mut counted) = (0u64, 0u64);
        let (mut next, mut stop) = (0, Stop::No);
        let order = admission(count, WINDOW);
        while stop == Stop::No {
            // Built in parallel (each search's set-up is linear in N), in order.
            let admitted = &order[next..(next + WINDOW - active.len()).min(count)];
            next += admitted.len();
            active.par_extend(admitted.par_iter().map(|&i| (i, make(i))));
            if active.is_empty() {
                break;
            }
            let ended: Vec<bool> = active
                .par_iter_mut()
                .map(|(_, s)| s.advance(false))
                .collect();
            let live: u64 = active.iter().map(|(_, s)| s.found().nodes).sum();
            let entered = active.iter().any(|(_, s)| s.found().best > tol);
            stop = self.account(ended_nodes + live - counted, entered, seeding);
            counted = ended_nodes + live;
            for (i, s) in take_ended(&mut active, &ended) {
                ended_nodes += s.found().nodes;
                done.push((i, s.into_found()));
            }
        }
        // The searches left: those running stop, those not started run one
        // round first when the budget was spent (as they would have before
        // their first look at it), none when the clock or Ctrl-C stopped them
        // (then the family's cheap bound stands in for them where it has one).
        let first_round = stop == Stop::Budget;
        // Read for each search: the clock may pass while the rest run.
        let clock_stopped = || stop == Stop::Now || self.past();
        let rest: Vec<(usize, Found)> = active
            .into_par_iter()
            .map(|(i, mut s)| {
                if clock_stopped() {
                    s.abandon();
                } else {
                    s.advance(true);
                }
                (i, s.into_found())
            })
            .chain(order[next..].par_iter().map(|&i| {
                if let Some(bound) = unstarted
                    && clock_stopped()
                {
                    return (i, bound(i));
                }
                let mut s = make(i);
                if !first_round || !s.advance(false) {
                    s.advance(true);
                }
                (i, s.into_found())
            }))
            .collect();
        let more: u64 = rest.iter().map(|(_, f)| f.nodes).sum();
        self.nodes
            .fetch_add((ended_nodes + more).saturating_sub(counted), Relaxed);
        done.extend(rest);
        done.sort_by_key(|(i, _)| *i);
        done.into_iter().map(|(_, found)| found).collect()
    }
}

/// The order in which searches start: the window's slots walk `count` in
/// `window` strides from evenly spaced starts (0, b, 2b, ..., then 1, b + 1, ...
/// for blocks of b), so that the first searches of a pass are spread over the
/// family rather than bunched at its start.
fn admission(count: usize, window: usize) -> Vec<usize> {
    let block = count.div_ceil(window.max(1)).max(1);
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by_key(|&i| (i % block, i / block));
    order
}

/// Removes the searches marked `ended` from `active` (in order) and returns them.
fn take_ended<S>(active: &mut Vec<(usize, S)>, ended: &[bool]) -> Vec<(usize, S)> {
    let all = std::mem::take(active);
    let mut out = Vec::new();
    for (a, &e) in all.into_iter().zip(ended) {
        if e {
            out.push(a);
        } else {
            active.push(a);
        }
    }
    out
}
