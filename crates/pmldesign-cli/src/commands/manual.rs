//! `pml completions SHELL` and `pml man`: the shell completion script and the
//! manual page, generated from the argument definitions (clap_complete,
//! clap_mangen), so they never drift from `--help`.

use crate::args::Cli;
use crate::error::CliError;
use crate::io::write::emit;
use clap::CommandFactory;

/// Prints the completion script for `shell`.
pub fn completions(shell: clap_complete::Shell) -> Result<(), CliError> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "pml", &mut out);
    emit(None, &String::from_utf8_lossy(&out))
}

/// Prints the manual page (roff).
pub fn man() -> Result<(), CliError> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    emit(None, &String::from_utf8_lossy(&out))
}
