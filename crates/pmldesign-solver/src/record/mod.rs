//! Whole records: several correlated columns released under one guarantee
//! (docs/theory.md §12; thesis Theorem 5.24 (i)).
//!
//! [`RecordProblem`] designs the release of a record three ways: `joint`, one design
//! over the product alphabet; `compose`, one design per column, each eps_j-PML over
//! the l1 ball around its marginal that holds every prior an adversary can hold on
//! it after the earlier outputs, so the levels add up; `ldp`, eps/k-LDP per column,
//! which composes for every prior. Every result is re-measured on the record's
//! channel where it has at most [`MEASURED_CELLS`] cells.
//!
//! ```
//! use pmldesign_model::record::RecordSample;
//! use pmldesign_solver::{RecordMode, RecordProblem};
//! let joint = [[0.30, 0.02, 0.01, 0.01], [0.01, 0.25, 0.02, 0.01], [0.02, 0.01, 0.03, 0.31]];
//! let tuples = (0..3).flat_map(|a| (0..4).map(move |b| (vec![a, b], (joint[a][b] * 1000.0) as u64)));
//! let labels = vec![vec!["a1".into(), "a2".into(), "a3".into()],
//!                   (1..=4).map(|b| format!("b{b}")).collect()];
//! let sample = RecordSample::new(vec!["A".into(), "B".into()], labels, tuples.collect())?;
//! let r = RecordProblem::new(sample, 1.0).mode(RecordMode::Compose).split(vec![0.7, 0.3]).solve()?;
//! assert!(r.leakage_about_record().unwrap() <= 1.0 + 1e-12);
//! # Ok::<(), pmldesign_solver::SolverError>(())
//! ```

mod estimate;
mod modes;
mod outcome;
mod public;
pub(crate) mod split;
mod verify;

pub use estimate::{MAX_CHANNEL_ENTRIES, RecordEstimate, estimate_public_record, estimate_record};
pub use outcome::{Naive, RecordDesign, RecordGuarantee, RecordUtility};
pub use public::PublicRecord;

use crate::error::{Result, SolverError};
use crate::settings::Settings;
use pmldesign_model::ModelError;
use pmldesign_model::record::RecordSample;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// The largest product alphabet on which the record's channel is measured.
pub const MEASURED_CELLS: usize = 4096;

/// The most combinations on which `auto` designs jointly (and keeps the better of
/// joint and compose): up to here the joint design gains clearly over compose in
/// seconds, while its time grows steeply with the cells and past about a hundred
/// it can fall below compose within its time (docs/benchmarks.md, "Records").
pub const AUTO_JOINT_CELLS: usize = 32;

/// Splits of eps that the default search of `compose` tries, at most.
pub const SPLIT_BUDGET: usize = 24;

/// How a record is released.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RecordMode {
    /// The better of `joint` and `compose` when the product alphabet has at most
    /// [`AUTO_JOINT_CELLS`] combinations (within `max_cells`), every one observed
    /// (or a delta is given); else `compose`.
    Auto,
    /// One design over the product alphabet.
    Joint,
    /// One design per column over the ball that holds its conditional priors.
    Compose,
    /// eps/k-LDP per column.
    Ldp,
}

impl RecordMode {
    /// The mode's name, as the CLI takes it.
    pub fn name(self) -> &'static str {
        match self {
            RecordMode::Auto => "auto",
            RecordMode::Joint => "joint",
            RecordMode::Compose => "compose",
            RecordMode::Ldp => "ldp",
        }
    }
}

/// A record design problem, built in one chain and solved once.
#[derive(Debug, Clone)]
pub struct RecordProblem {
    sample: RecordSample,
    epsilon: f64,
    delta: Option<f64>,
    mode: RecordMode,
    split: Option<Vec<f64>>,
    max_cells: usize,
    settings: Settings,
    /// When the whole record must be done: the time limit from the start of
    /// [`RecordProblem::solve`], shared by its inner designs ([`Self::share`]).
    deadline: Option<Instant>,
}

impl RecordProblem {
    /// The largest product alphabet `joint` designs over by default (`--max-cells`).
    pub const DEFAULT_MAX_CELLS: usize = 1024;

    /// The release of the records of `sample` at total level `epsilon`: mode
    /// `auto`, mutual information, the estimate taken as the truth.
    pub fn new(sample: RecordSample, epsilon: f64) -> Self {
        RecordProblem {
            sample,
            epsilon,
            delta: None,
            mode: RecordMode::Auto,
            split: None,
            max_cells: Self::DEFAULT_MAX_CELLS,
            settings: Settings::default(),
            deadline: None,
        }
    }

    /// A guarantee for the true distribution, except with probability `delta`.
    pub fn delta(mut self, delta: f64) -> Self {
        self.delta = Some(delta);
        self
    }

    /// How to release the record (default `auto`).
    pub fn mode(mut self, mode: RecordMode) -> Self {
        self.mode = mode;
        self
    }

    /// The levels of the columns for `compose` (they sum to eps); default: searched.
    pub fn split(mut self, split: Vec<f64>) -> Self {
        self.split = Some(split);
        self
    }

    /// The largest product alphabet for `joint` (default [`RecordProblem::DEFAULT_MAX_CELLS`]).
    pub fn max_cells(mut self, cells: usize) -> Self {
        self.max_cells = cells;
        self
    }

    /// The settings of every design; a time limit bounds the whole record,
    /// its time split across the inner designs as they run.
    pub fn settings(mut self, settings: Settings) -> Self {
        self.settings = settings;
        self
    }

    /// Designs the release, measures it on the record's channel and states its
    /// guarantee; a failed check is an error.
    pub fn solve(mut self) -> Result<RecordDesign> {
        self.validate()?;
        let limit = self.settings.column_generation.time_limit;
        self.deadline = limit.map(|t| Instant::now() + t);
        let mode = self.resolved()?;
        let design = self.solve_as(mode)?;
        if self.mode == RecordMode::Auto && mode == RecordMode::Joint && !self.out_of_time() {
            // Compose costs little beside joint on a small alphabet: never less.
            if let Ok(compose) = self.solve_as(RecordMode::Compose)
                && compose.utility.value > design.utility.value
            {
                return Ok(compose);
            }
        }
        Ok(design)
    }

    /// The settings of the next inner design, when `parts` designs (it
    /// included) share the time left: each gets `1/parts` of it (at least a
    /// millisecond, past which a design returns its best structured baseline,
    /// reported as a time-limit stop).
    pub(super) fn share(&self, parts: usize) -> Settings {
        self.settings.share_until(self.deadline, parts)
    }

    /// An inner design's refusal of its share of the time, restated for the
    /// record: the record's limit, and the least one that leaves the design
    /// (one of `parts` sharing the time left) its least.
    pub(super) fn restated(&self, e: SolverError, parts: usize) -> SolverError {
        let SolverError::TimeLimitTooShort {
            least,
            fixed_seconds,
            n,
            ..
        } = e
        else {
            return e;
        };
        let limit = self.settings.column_generation.time_limit;
        let (Some(limit), Some(deadline)) = (limit, self.deadline) else {
            return e;
        };
        let spent = limit.saturating_sub(deadline.saturating_duration_since(Instant::now()));
        SolverError::TimeLimitTooShort {
            limit,
            least: spent + least * parts.max(1) as u32,
            fixed_seconds,
            n,
            parts,
        }
    }

    /// True once less than half the record's time limit is left (never
    /// without one).
    pub(super) fn past_half(&self) -> bool {
        let limit = self.settings.column_generation.time_limit;
        match (self.deadline, limit) {
            (Some(d), Some(t)) => d.saturating_duration_since(Instant::now()) <= t / 2,
            _ => false,
        }
    }

    /// True once the record's time limit has passed (never without one).
    pub(super) fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The release in `mode` (resolved), assembled and measured.
    fn solve_as(&self, mode: RecordMode) -> Result<RecordDesign> {
        let columns = match mode {
            RecordMode::Joint => modes::joint(self)?,
            RecordMode::Ldp => modes::ldp(self)?,
            _ => match &self.split {
                Some(split) => modes::compose(self, split, &mut modes::Cache::default())?,
                None => split::search(self)?,
            },
        };
        outcome::assemble(self, mode, columns)
    }

    /// The mode `auto` stands for, or the mode asked for if it applies.
    fn resolved(&self) -> Result<RecordMode> {
        let fits = self.sample.cells().is_some_and(|c| c <= self.max_cells);
        let small = self.sample.cells().is_some_and(|c| c <= AUTO_JOINT_CELLS);
        // A combination never observed has mass 0 in the joint estimate: fine for
        // the ball of a sample guarantee, not for a known prior.
        let seen = self.delta.is_some() || self.sample.cells() == Some(self.sample.tuples().len());
        match self.mode {
            RecordMode::Auto if fits && small && seen && self.split.is_none() => {
                Ok(RecordMode::Joint)
            }
            RecordMode::Auto => Ok(RecordMode::Compose),
            RecordMode::Joint if !fits => Err(invalid(
                "max_cells",
                self.max_cells,
                format!(
                    "the record has {} combinations of labels",
                    cells_text(&self.sample)
                ),
                "raise --max-cells, or use --record compose",
            )),
            RecordMode::Joint if !seen => Err(invalid(
                "record",
                "joint",
                "some combination of labels was never observed: the joint estimate has a zero, which only the ball of a sample guarantee covers",
                "add --delta, or use --record compose",
            )),
            mode => Ok(mode),
        }
    }

    fn validate(&self) -> Result<()> {
        self.settings.validate()?;
        if !(self.epsilon.is_finite() && self.epsilon > 0.0) {
            return Err(invalid(
                "epsilon",
                self.epsilon,
                "the record's level must be a finite number > 0",
                "pass e.g. 1.0",
            ));
        }
        if let Some(d) = self.delta
            && !(d > 0.0 && d < 1.0)
        {
            return Err(invalid(
                "delta",
                d,
                "the failure probability must lie strictly between 0 and 1",
                "pass e.g. 1e-6",
            ));
        }
        if self.max_cells < 2 {
            return Err(invalid(
                "max_cells",
                self.max_cells,
                "a joint alphabet has at least 2 cells",
                "pass e.g. 1024",
            ));
        }
        match &self.split {
            Some(split) => check_split(split, self.epsilon, self.sample.columns().len()),
            None => Ok(()),
        }
    }
}

/// A split: one level > 0 per column, summing to eps.
fn check_split(split: &[f64], epsilon: f64, k: usize) -> Result<()> {
    let text = || {
        split
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    if split.len() != k || split.iter().any(|e| !(e.is_finite() && *e > 0.0)) {
        return Err(invalid(
            "split",
            text(),
            format!("one level > 0 per column ({k} columns)"),
            "give one level per column, in column order",
        ));
    }
    let sum: f64 = split.iter().sum();
    if (sum - epsilon).abs() > 1e-9 * epsilon {
        return Err(invalid(
            "split",
            text(),
            format!("the levels sum to {sum}, not to epsilon = {epsilon}"),
            "make the levels add up to epsilon",
        ));
    }
    Ok(())
}

fn cells_text(s: &RecordSample) -> String {
    s.cells()
        .map_or("more than 2^64".to_string(), |c| c.to_string())
}

fn invalid(
    field: &str,
    value: impl std::fmt::Display,
    problem: impl Into<String>,
    fix: &str,
) -> crate::SolverError {
    ModelError::invalid(field, value, problem, fix).into()
}
