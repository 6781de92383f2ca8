//! `pml`: design optimal privacy mechanisms under pointwise maximal leakage.
//!
//! The CLI parses, calls `pmldesign-model` / `pmldesign-solver`, and formats. It holds no
//! mathematics. Its modules form layers, each importing only from the layers below
//! (`scripts/check_layers.py` checks them against `scripts/layers.json`):
//!
//! - `commands`: one module per subcommand, which never import each other;
//! - `io` (every file read or written) and `render` (every table, JSON and CSV);
//! - `args` (clap's structs and the parsing of flag values), `progress`, `signals`;
//! - `error`.
#![forbid(unsafe_code)]
// Doc comments of the argument structs are clap's --help text, not rustdoc.
#![allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags)]

mod args;
mod commands;
mod error;
mod io;
mod progress;
mod render;
mod signals;

use args::{Cli, Command};
use clap::Parser;
use error::CliError;
use std::process::ExitCode;

fn main() -> ExitCode {
    signals::install();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // A value a parser refused: one line naming the flag, the value and the fix.
        Err(e) if e.kind() == clap::error::ErrorKind::ValueValidation => {
            let text = e.to_string();
            eprintln!("{}", text.lines().next().unwrap_or_default());
            return ExitCode::from(2);
        }
        Err(e) => e.exit(),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Design(a) => commands::design::run(a),
        Command::Bounds(a) => commands::bounds::run(a),
        Command::Assess(a) => commands::assess::run(a),
        Command::Compare(a) => commands::compare::run(a),
        Command::Envelope(a) => commands::envelope::run(a),
        Command::Apply(a) => commands::apply::run(a),
    }
}
