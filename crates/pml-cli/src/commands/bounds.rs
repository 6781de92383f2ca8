//! `pml bounds`: planning calculators from [E] eqs. (7)-(8), Theorem 2 and
//! Corollary 3.

use crate::error::CliError;
use clap::Args;

/// Arguments of `pml bounds`.
#[derive(Debug, Args)]
pub struct BoundsArgs {}

/// Runs `pml bounds`.
pub fn run(_args: BoundsArgs) -> Result<(), CliError> {
    Err(CliError::Failure(
        "pml bounds is not implemented yet".into(),
    ))
}
