//! `pml`: design optimal privacy mechanisms under pointwise maximal leakage.
//!
//! The CLI parses, calls `pmldesign-model` / `pmldesign-solver`, and formats. It holds no
//! mathematics. Its modules form layers, each importing only from the layers below
//! (`scripts/check_layers.py` checks them against `scripts/layers.json`):
//!
//! - `serve`: `pml serve`, the local web page, which drives the `design` and
//!   `apply` commands;
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
mod say;
#[cfg(feature = "serve")]
mod serve;
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
        // A value outside a flag's list: one line with the values it takes. Flags
        // that cannot go together, or a missing one: one line naming them.
        Err(e)
            if matches!(
                e.kind(),
                clap::error::ErrorKind::ValueValidation
                    | clap::error::ErrorKind::InvalidValue
                    | clap::error::ErrorKind::ArgumentConflict
                    | clap::error::ErrorKind::MissingRequiredArgument
            ) =>
        {
            eprintln!("{}", args::one_line(&e));
            return ExitCode::from(2);
        }
        Err(e) => e.exit(),
    };
    match run(cli) {
        Ok(()) | Err(CliError::Closed) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", error::bounded(&e.to_string()));
            ExitCode::from(e.exit_code())
        }
    }
}

fn run(cli: Cli) -> Result<(), CliError> {
    say::set_quiet(cli.quiet);
    if let Some(k) = cli.threads {
        threads(k)?;
    }
    match cli.command {
        Command::Design(a) if a.input.column.len() > 1 => commands::record::run(a),
        Command::Design(a) => commands::design::run(a),
        Command::Bounds(a) => commands::bounds::run(a),
        Command::Assess(a) => commands::assess::run(a),
        Command::Compare(a) => commands::compare::run(a),
        Command::Envelope(a) => commands::envelope::run(a),
        Command::Estimate(a) => commands::estimate::run(a),
        Command::Apply(a) => commands::apply::run(a),
        Command::Publish(a) => commands::publish::run(a),
        #[cfg(feature = "serve")]
        Command::Serve(a) => serve::run(a),
        #[cfg(not(feature = "serve"))]
        Command::Serve { .. } => Err(CliError::Usage(
            "pml serve: this pml was built without the `serve` feature; build it with `cargo install pmldesign-cli` (default features) or `--features serve`".into(),
        )),
        Command::Completions { shell } => commands::manual::completions(shell),
        Command::Man => commands::manual::man(),
    }
}

/// Sizes the worker pool (`--threads K`, K >= 1).
fn threads(k: usize) -> Result<(), CliError> {
    if k == 0 {
        return Err(CliError::Usage(
            "invalid --threads = 0: give at least 1 worker thread (default: every core)".into(),
        ));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(k)
        .build_global()
        .map_err(|e| CliError::Failure(format!("cannot start {k} worker threads: {e}")))
}
