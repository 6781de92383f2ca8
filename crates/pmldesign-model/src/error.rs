//! Errors for invalid model input: each names the field, the value and a fix.

use thiserror::Error;

/// An input that the model refuses, with enough context to correct it.
#[derive(Debug, Clone, PartialEq, Error)]
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
            field: field.into(),
            value: value.to_string(),
            problem: problem.into(),
            fix: fix.into(),
        }
    }
}

/// Result alias for the model crate.
pub type Result<T> = std::result::Result<T, ModelError>;
