//! Why an engine call returned no result, by kind, and the guard that keeps
//! panics inside.

use pmldesign::model::ModelError;
use pmldesign::solver::SolverError;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Why an engine call returned no result.
#[derive(Debug)]
pub enum Error {
    /// Bad input: the library's one-line message naming the field, the value and the fix.
    Invalid(String),
    /// A computation on valid input that gave no result, with its kind and message.
    Failed(Failure, String),
    /// The progress observer asked to stop (Ctrl-C, or an exception in a callback).
    Stopped,
}

impl Error {
    /// The same error, its message prefixed with `what: `.
    pub(crate) fn context(self, what: &str) -> Error {
        match self {
            Error::Invalid(m) => Error::Invalid(format!("{what}: {m}")),
            Error::Failed(kind, m) => Error::Failed(kind, format!("{what}: {m}")),
            Error::Stopped => Error::Stopped,
        }
    }
}

/// What kind of failure, other than bad input, ended an engine call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// No mechanism meets the request (the estimation utility at a level where no
    /// candidate lets every input be estimated).
    Infeasible,
    /// A time limit or a work budget stopped the run before it had a mechanism.
    Limit,
    /// A check failed: a computed mechanism's certificate, an input past double
    /// precision (a numerical limit), or a design file whose content the reader
    /// refuses.
    Verification,
    /// Anything else: an LP backend failure or an internal error.
    Internal,
}

impl From<SolverError> for Error {
    fn from(e: SolverError) -> Self {
        let kind = match &e {
            SolverError::Model(m) if is_infeasible(m) => Failure::Infeasible,
            SolverError::Model(_)
            | SolverError::AlphabetTooLarge { .. }
            | SolverError::TimeLimitTooShort { .. } => {
                return Error::Invalid(e.to_string());
            }
            SolverError::Stopped { .. } => Failure::Limit,
            SolverError::Certificate(_) | SolverError::NumericalLimit { .. } => {
                Failure::Verification
            }
            // An LP backend's failure, or a kind added after these.
            _ => Failure::Internal,
        };
        Error::Failed(kind, e.to_string())
    }
}

/// True for the error the estimation design returns when no mechanism at the
/// level lets every input be estimated: the one model error naming the
/// estimation utility as its value (a name the options accepted before solving).
fn is_infeasible(e: &ModelError) -> bool {
    matches!(e, ModelError::Invalid { field, value, .. } if field == "utility" && value == "estimation")
}

impl From<ModelError> for Error {
    fn from(e: ModelError) -> Self {
        Error::Invalid(e.to_string())
    }
}

impl From<String> for Error {
    fn from(message: String) -> Self {
        Error::Invalid(message)
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        Error::Failed(Failure::Internal, e.to_string())
    }
}

/// `e`, the refusal of a file's reader, by kind: text that is not JSON is bad
/// input; JSON that does not read back as the file it claims to be (a figure
/// that does not re-derive, a dual that does not re-price, a missing field)
/// fails verification.
pub(crate) fn refused(text: &str, e: impl Into<Error>) -> Error {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let is_json = serde_json::from_str::<&serde_json::value::RawValue>(text).is_ok();
    match e.into() {
        Error::Invalid(message) if is_json => Error::Failed(Failure::Verification, message),
        other => other,
    }
}

/// Result of an engine call.
pub type Result<T> = std::result::Result<T, Error>;

/// Runs `f`, turning any panic into an internal [`Error::Failed`]: no panic ever leaves this
/// module (a last line of defence; the library reports errors as values).
pub(crate) fn guarded<T>(f: impl FnOnce() -> Result<T>) -> Result<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            Err(Error::Failed(
                Failure::Internal,
                format!(
                    "internal error in the pml library: {what}; please report it with the input"
                ),
            ))
        }
    }
}

/// A one-line error naming the argument, the value and the fix.
pub(crate) fn invalid(field: &str, value: impl std::fmt::Debug, problem: &str, fix: &str) -> Error {
    Error::Invalid(format!("invalid {field} = {value:?}: {problem}; {fix}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(e: SolverError) -> Option<Failure> {
        match Error::from(e) {
            Error::Invalid(_) => None,
            Error::Failed(kind, _) => Some(kind),
            Error::Stopped => unreachable!("a solver error is never the observer's stop"),
        }
    }

    #[test]
    fn solver_errors_keep_their_kind() {
        let model = ModelError::invalid("prior", "0.5,0.6", "masses sum to 1.1", "fix it");
        assert_eq!(kind(SolverError::Model(model)), None);
        let large = SolverError::AlphabetTooLarge {
            n: 9,
            limit: 8,
            method: "m",
        };
        assert_eq!(kind(large), None);
        let stopped = SolverError::Stopped {
            by: "time_limit",
            detail: "during ray enumeration".into(),
            fix: "give a longer time limit",
        };
        assert_eq!(kind(stopped), Some(Failure::Limit));
        let failed = SolverError::Certificate("column 2".into());
        assert_eq!(kind(failed), Some(Failure::Verification));
        assert_eq!(kind(SolverError::Lp("x".into())), Some(Failure::Internal));
        let none = ModelError::invalid("utility", "estimation", "no mechanism", "raise epsilon");
        assert_eq!(kind(SolverError::Model(none)), Some(Failure::Infeasible));
    }

    #[test]
    fn a_refused_file_is_bad_input_unless_it_is_json() {
        let not_json = refused("{", "design JSON: EOF".to_string());
        assert!(matches!(not_json, Error::Invalid(_)));
        let edited = refused("\u{feff}{}", "design JSON: missing field".to_string());
        assert!(matches!(edited, Error::Failed(Failure::Verification, _)));
    }
}
