//! `pml design`: the optimal certified mechanism for a prior, a ball around it, or
//! an estimate from data with a failure probability.

use crate::args::design::{DesignArgs, NotionName};
use crate::args::values::named;
use crate::args::{Estimate, Format, Level, UtilityName};
use crate::error::CliError;
use crate::io::data::load_estimate_until;
use crate::io::key::stream_key;
use crate::io::load::load_metric;
use crate::io::matrix::read_matrix_file;
use crate::io::write::{check_outputs, emit, emit_json, write_report};
use crate::progress::DesignProgress;
use crate::render::design::render_design;
use crate::render::report;
use pmldesign_app::design::{DesignRequest, Objective, Priors, loss_matrix, problem};
use pmldesign_app::names::NotionKind;
use pmldesign_app::notion::{Field, Levels, Spelling, notion};
use pmldesign_model::{Metric, Notion, UncertaintySet};
use pmldesign_solver::{Design, Interrupt, Loss, Sample, Settings};

/// The notion asked for, from `--notion` and its levels, by the rule every
/// front end shares (`pmldesign_app::notion`); usage errors name the flag.
pub fn notion_from_flags(
    name: NotionName,
    level: &Level,
    epsilon_lower: Option<f64>,
    epsilon_upper: Option<f64>,
    metric: Option<Metric>,
) -> Result<Notion, CliError> {
    let levels = Levels {
        epsilon: level.given()?,
        epsilon_lower,
        epsilon_upper,
    };
    notion(named::<NotionKind>(name), levels, metric, &Flags)
        .map_err(|e| CliError::Usage(e.to_string()))
}

/// The notion's fields as `pml`'s flags.
struct Flags;

impl Spelling for Flags {
    fn field(&self, f: Field) -> &'static str {
        match f {
            Field::Notion => "--notion",
            Field::Epsilon => "--epsilon",
            Field::EpsilonLower => "--epsilon-lower",
            Field::EpsilonUpper => "--epsilon-upper",
            Field::Metric => "--metric",
        }
    }

    fn set(&self, f: Field, value: &str) -> String {
        format!("{} {value}", self.field(f))
    }
}

/// Alphabets from which a design without `--time-limit` may run for minutes.
const LONG_DESIGN_FROM: usize = 512;

/// On a terminal: how to stop a long design, and what stopping returns.
fn hint_how_to_stop(n: usize) {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        crate::say::note(&format!(
            "pml: {n} symbols and no --time-limit: the proof of optimality may take minutes. Ctrl-C stops the search and writes the best certified design found so far (never below the structured baselines), marked interrupted; --time-limit SECONDS does the same on a clock."
        ));
    }
}

/// Runs `pml design`.
pub fn run(a: DesignArgs) -> Result<(), CliError> {
    let (inputs, outputs) = a.files();
    check_outputs(&inputs, &outputs)?;
    // The first Ctrl-C stops the search; the best design found is written.
    let interrupt = Interrupt::new();
    let _soft = crate::signals::soft_interrupt(interrupt.clone());
    let run = Run {
        interrupt,
        ..Run::default()
    };
    let (d, settings) = solve(&a, &run)?;
    let page = report::design_report(
        &d,
        &a.report,
        a.output.path(),
        report::written_design(&a.output),
        (&settings, a.time_limit),
    )?;
    match a.output.format() {
        // The design carries its own format_version: streamed, not held.
        Format::Json => emit_json(a.output.path(), &d)?,
        format => emit(a.output.path(), &render_design(&d, format)?)?,
    }
    write_report(page)
}

/// How [`solve`] runs: `pml design` shows a progress bar on a terminal; `pml
/// serve` stops a solve with its interrupt and caps the alphabet.
pub struct Run {
    /// Stops the solve at its next check (the cancel of `pml serve`).
    pub interrupt: Interrupt,
    /// Show the progress bar (on a terminal only).
    pub progress: bool,
    /// Refuse a prior of more symbols than this.
    pub max_alphabet: Option<usize>,
    /// When reading `--data` gives up (`pml serve`: its time limit, counted from
    /// the request); the interrupt stops the reading too.
    pub deadline: Option<std::time::Instant>,
}

impl Default for Run {
    /// As `pml design` runs: a bar, no interrupt, no cap.
    fn default() -> Self {
        Run {
            interrupt: Interrupt::default(),
            progress: true,
            max_alphabet: None,
            deadline: None,
        }
    }
}

/// The design `a` asks for, with the settings it was solved under, checked as
/// `pml design` checks its flags.
pub fn solve(a: &DesignArgs, run: &Run) -> Result<(Design, Settings), CliError> {
    // A zero in the estimate is fine at the centre of a ball (--beta, --delta).
    let zeros = a.beta.is_some() || a.delta.is_some();
    let stop =
        || run.interrupt.is_set() || run.deadline.is_some_and(|d| std::time::Instant::now() >= d);
    let est = load_estimate_until(&a.input, zeros, &stop).map_err(|e| match stop() {
        true => stopped_reading(&a.input, run),
        false => e,
    })?;
    let est = match a.private_prior {
        Some(epsilon_d) => noisy_estimate(a, est, epsilon_d)?,
        None => est,
    };
    if let Some(max) = run.max_alphabet
        && est.prior.len() > max
    {
        return Err(CliError::Usage(format!(
            "invalid {}: {} categories, more than the {max} that this server designs for; merge categories, or design with `pml design`",
            input_flag(&a.input),
            est.prior.len()
        )));
    }
    if run.progress && a.time_limit.is_none() && est.prior.len() >= LONG_DESIGN_FROM {
        hint_how_to_stop(est.prior.len());
    }
    let metric = load_metric(&a.metric, est.prior.len())?;
    let notion = notion_from_flags(a.notion, &a.level, a.epsilon_lower, a.epsilon_upper, metric)?;
    pmldesign_model::envelope::check_delta(a.envelope_delta)
        .map_err(|e| CliError::Usage(format!("--envelope-delta: {e}")))?;
    let mut settings = a.settings()?;
    settings.column_generation.interrupt = run.interrupt.clone();
    report::check(&a.report, a.output.path(), a.time_limit)?;
    let loss = loss_from_flags(a)?;
    if a.delta.is_some() && a.notion != NotionName::Pml {
        return Err(CliError::Usage(format!(
            "invalid --delta with --notion {}: guarantees from samples are for PML; use --beta for a ball of priors, or --notion pml",
            notion.name()
        )));
    }
    let mut bar = run
        .progress
        .then(|| DesignProgress::new(a.verbose, a.time_limit));
    let problem = problem(priors(a, &est)?, objective(a, loss))?
        .notion(notion)
        .labels(est.labels.clone())
        .settings(settings.clone())
        .envelope_delta(a.envelope_delta)
        .on_progress(|p| {
            if let Some(bar) = bar.as_mut() {
                bar.update(p)
            }
        });
    let tool = format!("pml {}", env!("CARGO_PKG_VERSION"));
    let d = DesignRequest::new(problem, &tool).rows(est.samples).solve();
    if let Some(mut bar) = bar {
        bar.finish();
    }
    let mut d = d?;
    // How the rows were read, kept so that `pml apply` reads them alike.
    pmldesign_app::Reading::new(a.input.nulls(), vec![a.input.column_bins()?.cloned()])
        .keep_in_design(&mut d);
    if let Some(kept) = d.provenance_mut() {
        let p = kept.clone();
        *kept = match &est.digest {
            Some((what, sha)) => p.with_input(what, sha),
            None => p,
        };
    }
    if a.input.data.is_some()
        && a.input.bins.is_empty()
        && est.labels.len() > NUMERIC_NOTE_FROM
        && pmldesign_data::bins::looks_numeric(&est.labels)
    {
        crate::say::note(&format!(
            "note: --column {} holds {} distinct numbers, taken as {} unordered categories; to release ranges in numeric order, cut it at public edges with --bins E0,E1,... (then --utility loss --loss absolute, or --notion metric --metric line, suit its order)",
            a.input.column.join(","),
            est.labels.len(),
            est.labels.len()
        ));
    }
    if est.dropped > 0 {
        crate::say::warn_guarantee(&format!(
            "warning: {} rows with a missing value were left out (--nulls drop); `pml apply` writes them missing, so whether a value is missing is released as is, outside the guarantee",
            est.dropped
        ));
    }
    Ok((d, settings))
}

/// `--private-prior`: the estimate of the counts given discrete Laplace noise of
/// scale `1/epsilon_d` from the secret key, over the noisy total, with no digest
/// of the data (a hash of the file would tell datasets apart).
fn noisy_estimate(a: &DesignArgs, est: Estimate, epsilon_d: f64) -> Result<Estimate, CliError> {
    pmldesign_model::private_prior::check_epsilon("--private-prior", epsilon_d).map_err(|_| {
        CliError::Usage(format!(
            "invalid --private-prior = {epsilon_d}: the level of the noise on the counts must be a finite number >= {}; give e.g. --private-prior 1 (smaller is more private and noisier)",
            pmldesign_model::private_prior::MIN_EPSILON
        ))
    })?;
    if a.input.data.is_some() && a.input.labels.is_none() && a.input.bins.is_empty() {
        return Err(CliError::Usage(
            "invalid --private-prior without --labels or --bins: the categories seen in --data would be published as the alphabet; fix the alphabet with --labels A,B,... (or cut a numeric column at public edges with --bins)".into(),
        ));
    }
    let key = stream_key(a.seed.as_deref(), a.seed_file.as_deref())?;
    let noisy = pmldesign_data::private_counts::noisy_estimate(
        "--private-prior",
        &est.counts,
        epsilon_d,
        &key,
    )
    .map_err(|e| CliError::Usage(e.to_string()))?;
    Ok(Estimate {
        prior: noisy.prior,
        samples: Some(noisy.total),
        counts: noisy.counts,
        digest: None,
        ..est
    })
}

/// Past this many distinct numbers, a column taken as categories gets a note
/// suggesting `--bins` (a handful of numeric codes is a common categorical column).
const NUMERIC_NOTE_FROM: usize = 12;

/// The error of a reading of `--data` stopped by the cancel or the deadline.
fn stopped_reading(input: &crate::args::Input, run: &Run) -> CliError {
    let why = match run.interrupt.is_set() {
        true => "the design was cancelled",
        false => "the time limit passed",
    };
    CliError::Usage(format!(
        "stopped reading {}: {why} before the whole file was counted; give a smaller file, or more time (--time-limit)",
        input_flag(input)
    ))
}

/// The flag the prior came from, as an error names it.
fn input_flag(input: &crate::args::Input) -> String {
    match &input.data {
        Some(path) => format!("--data {}", path.display()),
        None if input.counts.is_some() => "--counts".into(),
        None => "--prior".into(),
    }
}

/// The priors `a` designs for: the estimate, a ball around it, or the ball of
/// a sample guarantee (`--delta`).
fn priors(a: &DesignArgs, est: &Estimate) -> Result<Priors, CliError> {
    Ok(match a.delta {
        Some(delta) => Priors::Sample(sample_source(a, est, delta)),
        None => Priors::Set(match a.beta {
            None => UncertaintySet::known(est.prior.clone()),
            Some(beta) => UncertaintySet::l1_ball(est.prior.clone(), beta)?,
        }),
    })
}

/// What `a` optimises: the loss of `--utility loss`, else the utility named.
fn objective(a: &DesignArgs, loss: Option<Loss>) -> Objective {
    match loss {
        Some(loss) => Objective::Loss(loss),
        None => Objective::utility(a.utility.name()).expect("clap restricts utility names"),
    }
}

/// The loss asked for with `--utility loss`; usage errors name the flag.
fn loss_from_flags(a: &DesignArgs) -> Result<Option<Loss>, CliError> {
    let is_loss = matches!(a.utility, UtilityName::Loss);
    match (is_loss, a.loss, &a.loss_matrix) {
        (false, None, None) => Ok(None),
        (false, _, _) => Err(CliError::Usage(
            "invalid --loss/--loss-matrix without --utility loss: add --utility loss to minimise an expected loss".into(),
        )),
        (true, None, None) => Err(CliError::Usage(
            "--utility loss needs --loss hamming|absolute|squared or --loss-matrix FILE".into(),
        )),
        (true, Some(name), _) => Ok(Some(crate::args::values::named::<Loss>(name))),
        (true, None, Some(path)) => {
            let rows = read_matrix_file("--loss-matrix", path)?.rows;
            let field = format!("--loss-matrix {}", path.display());
            Ok(Some(loss_matrix(&field, rows).map_err(CliError::Usage)?))
        }
    }
}

/// The sample size and radius method behind `--delta` (clap refuses `--delta`
/// with `--prior`; counts and data have a sample size).
fn sample_source(a: &DesignArgs, est: &Estimate, delta: f64) -> Sample {
    Sample {
        estimate: est.prior.clone(),
        samples: est
            .samples
            .expect("clap refuses --delta with --prior, the one input without a sample size"),
        delta,
        radius: a.radius,
        private_prior: a.private_prior,
    }
}

#[cfg(test)]
mod tests {
    use super::{Run, solve};
    use crate::args::{Cli, Command};
    use clap::Parser;

    /// `pml design --data PATH --column c` as parsed.
    fn args(path: &std::path::Path) -> crate::args::design::DesignArgs {
        let argv = [
            "pml",
            "design",
            "--column",
            "c",
            "--exp-epsilon",
            "2",
            "--data",
        ];
        match Cli::try_parse_from(argv.iter().copied().chain([path.to_str().unwrap()])) {
            Ok(Cli {
                command: Command::Design(a),
                ..
            }) => a,
            other => panic!("{other:?}"),
        }
    }

    /// Reading `--data` stops at a passed deadline or a cancel (`pml serve`'s
    /// time limit and cancel), CSV and Parquet alike, saying which.
    #[test]
    fn reading_the_data_obeys_the_deadline_and_the_cancel() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("d.csv");
        std::fs::write(&csv, "id,c\n1,a\n2,b\n").unwrap();
        let done = Run {
            progress: false,
            ..Run::default()
        };
        assert!(solve(&args(&csv), &done).is_ok());
        let late = Run {
            deadline: Some(std::time::Instant::now()),
            ..done
        };
        let e = solve(&args(&csv), &late).unwrap_err().to_string();
        assert!(
            e.contains("stopped reading --data") && e.contains("time limit"),
            "{e}"
        );
        let cancelled = Run {
            deadline: None,
            interrupt: pmldesign_solver::Interrupt::new(),
            ..late
        };
        cancelled.interrupt.set();
        let e = solve(&args(&csv), &cancelled).unwrap_err().to_string();
        assert!(e.contains("cancelled"), "{e}");
    }
}
