//! Solver errors: bad input (from the model), problems too large for exact
//! enumeration, LP failures and failed certificates.

use pmldesign_model::ModelError;
use thiserror::Error;

/// Why a design could not be produced.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SolverError {
    /// The input was invalid.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// The alphabet is beyond exact ray enumeration (from Rust, raise
    /// `Settings::max_alphabet`; the message names no API item, as CLI and
    /// Python users read it too).
    #[error(
        "invalid prior: N = {n} symbols exceeds the limit of {limit} for exact ray enumeration ({method}); merge categories into at most {limit}"
    )]
    AlphabetTooLarge {
        /// Alphabet size asked for.
        n: usize,
        /// The limit.
        limit: usize,
        /// Which enumeration hit it.
        method: &'static str,
    },
    /// A time limit shorter than the fixed work of a design of this size
    /// (baselines, certificate, writing its matrices): refused before any work,
    /// naming the smallest limit that can be kept.
    #[error("{}", time_limit_text(*limit, *least, *fixed_seconds, *n, *parts))]
    TimeLimitTooShort {
        /// The limit given (the whole record's for a design within a record).
        limit: std::time::Duration,
        /// The smallest limit that can be kept.
        least: std::time::Duration,
        /// Seconds of fixed work of the design refused.
        fixed_seconds: f64,
        /// Its alphabet size.
        n: usize,
        /// How many designs share the limit (1 for a single design; more for
        /// a design within a record, which gets its share of the time left).
        parts: usize,
    },
    /// The LP solver failed.
    #[error("linear program failed: {0}")]
    Lp(String),
    /// A design stopped before it had a mechanism to certify: by the time limit
    /// or by a named work budget (never by a numerical limit, which is
    /// [`SolverError::NumericalLimit`]).
    #[error("stopped by {by}: {detail}; {fix}")]
    Stopped {
        /// What stopped it: `time_limit`, or the work budget's name.
        by: &'static str,
        /// Where it stopped, and the budget's value.
        detail: String,
        /// How to let it finish.
        fix: &'static str,
    },
    /// A computed mechanism failed its verification; it is not emitted.
    #[error("certificate check failed: {0}")]
    Certificate(String),
    /// A valid input past the precision of double arithmetic (a named limit,
    /// docs/theory.md §10): its design failed a check, and no mechanism is
    /// emitted.
    #[error("numerical limit: {limit} ({detail})")]
    NumericalLimit {
        /// The limit, with the field at fault and the fix.
        limit: NumericalLimit,
        /// The failed check or LP.
        detail: String,
    },
}

impl SolverError {
    /// True when the error is the user's input (usage error, CLI exit status 2).
    pub fn is_input_error(&self) -> bool {
        matches!(
            self,
            SolverError::Model(_)
                | SolverError::AlphabetTooLarge { .. }
                | SolverError::TimeLimitTooShort { .. }
        )
    }
}

/// The message of [`SolverError::TimeLimitTooShort`]: the field, the value,
/// the fixed work and the smallest limit kept, rounded up to a tenth.
fn time_limit_text(
    limit: std::time::Duration,
    least: std::time::Duration,
    fixed: f64,
    n: usize,
    parts: usize,
) -> String {
    let whose = match parts {
        1 => format!("a design over {n} inputs does"),
        _ => format!("the record's design over {n} inputs, given 1/{parts} of the time left, does"),
    };
    format!(
        "invalid time_limit = {} s: {whose} about {fixed:.1} s of fixed work (baselines, certificate, writing its matrices), more than the limit allows; give a time limit of at least {:.1} s",
        limit.as_secs_f64(),
        (least.as_secs_f64() * 10.0).ceil() / 10.0
    )
}

/// A numerical limit an input is past: the field at fault, its value, what
/// the limit is and how to stay inside it.
#[derive(Debug, Clone, PartialEq)]
pub struct NumericalLimit {
    /// The input at fault: `prior` (its smallest mass), `epsilon` or `beta`.
    pub field: &'static str,
    /// Its value.
    pub value: f64,
    /// The limit it is past.
    pub limit: &'static str,
    /// How to stay inside it.
    pub fix: &'static str,
}

impl std::fmt::Display for NumericalLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let NumericalLimit {
            field,
            value,
            limit,
            fix,
        } = self;
        write!(f, "{field} = {value:e}: {limit}; {fix}")
    }
}

/// Result alias for the solver.
pub type Result<T> = std::result::Result<T, SolverError>;
