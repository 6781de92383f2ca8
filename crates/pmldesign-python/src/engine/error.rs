//! Why an engine call returned no result, and the guard that keeps panics inside.

use std::panic::{AssertUnwindSafe, catch_unwind};

/// Why an engine call returned no result.
#[derive(Debug)]
pub enum Error {
    /// Bad input or a failed computation: the library's one-line message.
    Invalid(String),
    /// The progress observer asked to stop (Ctrl-C, or an exception in a callback).
    Stopped,
}

impl<E: std::fmt::Display> From<E> for Error {
    fn from(e: E) -> Self {
        Error::Invalid(e.to_string())
    }
}

/// Result of an engine call.
pub type Result<T> = std::result::Result<T, Error>;

/// Runs `f`, turning any panic into [`Error::Invalid`]: no panic ever leaves this
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
            Err(Error::Invalid(format!(
                "internal error in the pml library: {what}; please report it with the input"
            )))
        }
    }
}

/// A one-line error naming the argument, the value and the fix.
pub(crate) fn invalid(field: &str, value: impl std::fmt::Debug, problem: &str, fix: &str) -> Error {
    Error::Invalid(format!("invalid {field} = {value:?}: {problem}; {fix}"))
}
