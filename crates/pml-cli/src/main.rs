//! `pml`: design optimal privacy mechanisms under pointwise maximal leakage.
//!
//! The CLI parses, calls `pml-model` / `pml-solver`, and formats. It holds no
//! mathematics.
#![forbid(unsafe_code)]

mod args;
mod error;
mod output;

use clap::Parser;
use error::CliError;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn run(cli: args::Cli) -> Result<(), CliError> {
    match cli.command {
        args::Command::Design(a) => commands::design(a),
    }
}

mod commands {
    use super::*;
    use pml_model::UncertaintySet;
    use pml_solver::utility::builtin;
    use pml_solver::{DesignSettings, design as solve};

    /// `pml design`.
    pub fn design(a: args::DesignArgs) -> Result<(), CliError> {
        let prior = a.source.prior()?;
        let labels = a.labels(prior.len())?;
        let epsilon = a.level.epsilon()?;
        let set = match a.beta {
            None => UncertaintySet::known(prior),
            Some(beta) => UncertaintySet::l1_ball(prior, beta)?,
        };
        let utility = builtin(a.utility.name()).expect("clap restricts utility names");
        let d = solve(&set, epsilon, utility.as_ref(), &DesignSettings::default())?;
        let format = a.output.format();
        let text = output::render_design(&d, &labels, format)?;
        a.output.emit(&text)
    }
}
