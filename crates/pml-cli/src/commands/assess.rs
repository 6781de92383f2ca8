//! `pml assess`: audit a given mechanism.

use crate::error::CliError;
use clap::Args;

/// Arguments of `pml assess`.
#[derive(Debug, Args)]
pub struct AssessArgs {}

/// Runs `pml assess`.
pub fn run(_args: AssessArgs) -> Result<(), CliError> {
    Err(CliError::Failure(
        "pml assess is not implemented yet".into(),
    ))
}
