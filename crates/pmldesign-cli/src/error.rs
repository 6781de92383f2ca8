//! CLI errors and their exit statuses: 2 for usage errors (bad input), 1 otherwise.

use pmldesign_model::ModelError;
use pmldesign_solver::SolverError;
use std::fmt;

/// The most characters of a message kept from its start and its end: past
/// them a message is elided in the middle ([`bounded`]).
const MESSAGE_ENDS: (usize, usize) = (1500, 500);

/// `message` as `pml` prints it and `pml serve` sends it: at most about 2000
/// characters, whatever value it echoes (values are elided where they are
/// named, by `pmldesign_model::error::elide`; this is the last bound).
pub fn bounded(message: &str) -> std::borrow::Cow<'_, str> {
    pmldesign_model::error::elide_to(message, MESSAGE_ENDS.0, MESSAGE_ENDS.1)
}

/// An error reported on stderr as one line.
#[derive(Debug)]
pub enum CliError {
    /// The input is wrong; exit status 2.
    Usage(String),
    /// Something failed while working; exit status 1.
    Failure(String),
    /// Standard output was closed by its reader (`pml ... | head -1`): not an
    /// error; nothing is printed and the exit status is 0, as the reader chose
    /// to stop.
    Closed,
}

impl CliError {
    /// The process exit status.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Failure(_) => 1,
            CliError::Closed => 0,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Failure(m) => f.write_str(m),
            CliError::Closed => f.write_str("standard output was closed by its reader"),
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
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return CliError::Closed;
        }
        CliError::Failure(e.to_string())
    }
}
