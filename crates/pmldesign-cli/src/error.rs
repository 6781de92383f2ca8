//! CLI errors and their exit statuses: 2 for usage errors (bad input), 1 otherwise.

use pmldesign_model::ModelError;
use pmldesign_solver::SolverError;
use std::fmt;

/// An error reported on stderr as one line.
#[derive(Debug)]
pub enum CliError {
    /// The input is wrong; exit status 2.
    Usage(String),
    /// Something failed while working; exit status 1.
    Failure(String),
}

impl CliError {
    /// The process exit status.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Failure(_) => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Failure(m) => f.write_str(m),
        }
    }
}

impl From<ModelError> for CliError {
    fn from(e: ModelError) -> Self {
        CliError::Usage(e.to_string())
    }
}

impl From<SolverError> for CliError {
    fn from(e: SolverError) -> Self {
        if e.is_input_error() {
            CliError::Usage(e.to_string())
        } else {
            CliError::Failure(e.to_string())
        }
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::Failure(e.to_string())
    }
}
