//! Errors for invalid model input: each names the field, the value and a fix.

use thiserror::Error;

/// An input that the model refuses, with enough context to correct it.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum ModelError {
    /// A field holds a value outside its domain.
    #[error("invalid {field} = {value}: {problem}; {fix}")]
    Invalid {
        /// The field or argument that is wrong (for example `prior[2]`).
        field: String,
        /// The offending value, as written.
        value: String,
        /// What is wrong with it.
        problem: String,
        /// How to correct it.
        fix: String,
    },
}

impl ModelError {
    /// Builds an [`ModelError::Invalid`].
    pub fn invalid(
        field: impl Into<String>,
        value: impl std::fmt::Display,
        problem: impl Into<String>,
        fix: impl Into<String>,
    ) -> Self {
        ModelError::Invalid {
            field: elide(&field.into()).into_owned(),
            value: elide(&value.to_string()).into_owned(),
            problem: problem.into(),
            fix: fix.into(),
        }
    }
}

/// The characters of a long value an error keeps from its start.
pub const ELIDE_HEAD: usize = 40;

/// The characters of a long value an error keeps from its end.
pub const ELIDE_TAIL: usize = 20;

/// A user's value as an error echoes it: unchanged up to
/// [`ELIDE_HEAD`] + [`ELIDE_TAIL`] + 20 characters, else its first 40 and last
/// 20 characters around `…(N chars)…`, so that no message carries a whole
/// column or file.
pub fn elide(value: &str) -> std::borrow::Cow<'_, str> {
    elide_to(value, ELIDE_HEAD, ELIDE_TAIL)
}

/// [`elide`] keeping `head` and `tail` characters (a whole message:
/// `pml`'s and `pml serve`'s last bound on what they print).
pub fn elide_to(value: &str, head: usize, tail: usize) -> std::borrow::Cow<'_, str> {
    let chars = value.chars().count();
    if chars <= head + tail + 20 {
        return value.into();
    }
    let start: String = value.chars().take(head).collect();
    let end: String = value.chars().skip(chars - tail).collect();
    format!("{start}…({} chars)…{end}", chars - head - tail).into()
}

/// Result alias for the model crate.
pub type Result<T> = std::result::Result<T, ModelError>;
