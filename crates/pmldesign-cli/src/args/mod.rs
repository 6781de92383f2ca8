//! The command line: clap's structs, one module per subcommand beside the groups
//! they share (input, level, output, metric, utility), and the parsing of flag
//! values. This layer only parses and checks what was typed; it reads no file
//! (that is [`crate::io`]) and runs nothing (that is [`crate::commands`]). `Cli`
//! and `Command` live here, so that every argument struct is named from below the
//! commands that run them.

pub mod apply;
pub mod assess;
pub mod bounds;
pub mod compare;
pub mod design;
pub mod envelope;
pub mod estimate;
pub mod input;
pub mod level;
pub mod metric;
pub mod output;
pub mod publish;
pub mod report;
#[cfg(feature = "serve")]
pub mod serve;
pub mod utility;
pub mod values;

pub use input::{DataFormat, Estimate, Input, NullsArg};
pub use level::Level;
pub use metric::MetricArgs;
pub use output::{Format, OutputArgs, extension};
pub use report::{ReportArgs, ReportFileArgs};
pub use utility::UtilityName;
pub use values::{
    check_labels, parse_counts, parse_numbers, radius_method, whole_count, whole_number,
};

use clap::{Parser, Subcommand};

/// The exit statuses, shown after `pml --help`.
const EXIT_STATUS: &str = "Exit status:
  0    success
  1    failure while working: an output that cannot be written, an I/O error while
       reading, a design that fails its own check
  2    usage error: bad input, named in a one-line message with the fix, including an
       input file that does not exist or cannot be opened
  130  interrupted by SIGINT (Ctrl-C); 143: terminated by SIGTERM; 129, 131:
       by SIGHUP, SIGQUIT (temporary files are removed; no partial output is left)";

/// Optimal privacy mechanisms under pointwise maximal leakage (PML).
#[derive(Debug, Parser)]
#[command(
    name = "pml",
    version,
    about = "Optimal privacy mechanisms under pointwise maximal leakage (PML)",
    long_about = None,
    after_help = EXIT_STATUS
)]
pub struct Cli {
    /// Worker threads for pricing and the master's scans [default: every core].
    /// The output is the same bytes for every count (runs stopped by a time limit
    /// or Ctrl-C aside).
    #[arg(long, global = true, value_name = "K")]
    pub threads: Option<usize>,
    /// Hide progress lines, summaries and notes on stderr. Errors and warnings
    /// about a guarantee (`warning:` lines: no finite level, missingness released
    /// as is, a bare or --unverified matrix, a short seed) always print.
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands. (Parsed once per run, so variant sizes do not matter.)
#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// Design the utility-optimal eps-PML mechanism for a prior, for every prior in
    /// an l1 ball around it, or from data with a failure probability delta;
    /// certified, with randomized-response baselines.
    Design(design::DesignArgs),
    /// Planning calculators: radius from samples, eps'(delta), delta_min and their
    /// inverses ([E] eqs. 7-8, Thm 2, Cor 3).
    Bounds(bounds::BoundsArgs),
    /// Audit a mechanism: PML per outcome, eps_min, tail curve, region, leakage
    /// capacity over a set of priors, sensitivity and the LDP parameter.
    Assess(assess::AssessArgs),
    /// Design under every notion (PML, PMC, ALIP, LIP, LDP) at a common level and
    /// print one table: utility, worst-case PML, PMC, LDP parameter, with the
    /// randomized-response rows.
    Compare(compare::CompareArgs),
    /// Post-processing-safe (eps, delta) guarantees of a mechanism: bounds on the PML
    /// envelope over a grid of delta beside the raw tail ([V] Thms 3-5, Alg. 1).
    Envelope(envelope::EnvelopeArgs),
    /// Estimate the input distribution from released data (or counts of released
    /// values) and the mechanism they went through: EM or inversion, with
    /// intervals; inputs released alike are estimated as one group.
    Estimate(estimate::EstimateArgs),
    /// Apply a mechanism to a CSV column: each row's value x gets an output drawn
    /// from P(.|x) (or, for a {-1,1} column, x plus discrete Laplace or Gaussian
    /// noise on a grid), written in place of the raw column as
    /// `<column>_private`; streamed, reproducible with --seed.
    Apply(apply::ApplyArgs),
    /// Cut the file handed to the receivers of a release from a design file: the
    /// mechanism, names and guarantee, without the prior, counts or sample size
    /// (`pml estimate` reads it).
    Publish(publish::PublishArgs),
    /// A local web page for people who do not script: upload a CSV or Parquet
    /// file or paste counts, pick the column, eps, delta, notion and utility, see
    /// the report, and download design.json, the report and the privatised file.
    /// Listens on 127.0.0.1; the URL it prints carries a per-run token.
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
    /// `pml serve` in a build without the `serve` feature: a usage error that
    /// says how to get it.
    #[cfg(not(feature = "serve"))]
    #[command(hide = true)]
    Serve {
        /// Whatever follows.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        rest: Vec<String>,
    },
    /// Print a shell completion script (`pml completions bash > /etc/bash_completion.d/pml`;
    /// zsh, fish, elvish and powershell as well).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff: `pml man > pml.1; man ./pml.1`).
    Man,
}

/// A clap error in one line: a refused value names the flag, the value and the
/// fix; a value outside a flag's list adds the values it takes.
pub fn one_line(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let text = e.to_string();
    let first = text.lines().next().unwrap_or_default();
    match e.kind() {
        ErrorKind::InvalidValue => one_line_invalid_value(&text),
        ErrorKind::ArgumentConflict => format!("{first}; drop one of them"),
        ErrorKind::MissingRequiredArgument => match e.get(ContextKind::InvalidArg) {
            Some(ContextValue::Strings(missing)) => format!(
                "error: missing {}: add {} (`--help` lists what each flag needs)",
                missing.join(" and "),
                if missing.len() > 1 { "them" } else { "it" }
            ),
            _ => first.to_string(),
        },
        _ => first.to_string(),
    }
}

/// clap's "invalid value" message in one line: the flag, the value and the values
/// it takes (`error: invalid value 'x' for '--format <FORMAT>'; pass one of: table, json, csv`).
fn one_line_invalid_value(text: &str) -> String {
    let first = text.lines().next().unwrap_or_default();
    let values = text.lines().find_map(|l| {
        l.trim()
            .strip_prefix("[possible values: ")
            .and_then(|v| v.strip_suffix(']'))
    });
    match values {
        Some(v) => format!("{first}; pass one of: {v}"),
        None => first.to_string(),
    }
}
