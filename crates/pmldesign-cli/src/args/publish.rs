//! The arguments of `pml publish`.

use clap::Args;
use std::path::PathBuf;

/// Arguments of `pml publish`.
#[derive(Debug, Args)]
pub struct PublishArgs {
    /// The data holder's design file (`pml design --format json`), verified
    /// before anything is taken from it. `-` reads it from standard input.
    #[arg(long, value_name = "FILE")]
    pub mechanism: PathBuf,
    /// Where to write the public file (JSON, replaced atomically; `-` or absent:
    /// stdout). It holds the mechanism, its labels and outputs, how values were
    /// read (missing values, bins), the notion and level with the guarantee in
    /// words, and the checks a receiver can redo (rows, LDP level); no prior,
    /// count, sample size, input path or digest.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}
