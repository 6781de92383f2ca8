//! `pml bounds`: planning calculators from [E] eqs. (7)-(8), Theorem 2 and
//! Corollary 3.
//!
//! Each question is answered by the application layer
//! ([`pmldesign_app::BoundsAnswer`]); this module resolves the flags into a
//! question and names the flags in errors. Every number it prints comes from
//! the library.

use crate::args::bounds::{
    BoundsArgs, BoundsQuestion, DeltaMinArgs, EpsilonPrimeArgs, FailureArgs, MaxEpsilonArgs,
    RadiusArgs, SamplesArgs,
};
use crate::args::{Estimate, Input, Level};
use crate::error::CliError;
use crate::io::data::load_estimate;
use crate::io::write::{check_outputs, emit};
use crate::render::bounds::render;
use pmldesign_app::bounds::nearest_samples;
use pmldesign_app::{BoundsAnswer, Question, RadiusFrom};
use pmldesign_model::ModelError;
use pmldesign_model::sample::RadiusMethod;

/// How eps is named in error messages.
fn level_flag(level: &Level) -> &'static str {
    if level.exp_epsilon.is_some() {
        "eps (ln of --exp-epsilon)"
    } else {
        "--epsilon"
    }
}

/// Runs `pml bounds`.
pub fn run(args: BoundsArgs) -> Result<(), CliError> {
    let (report, output, input) = match args.what {
        BoundsQuestion::Radius(a) => (radius(&a)?, a.output, a.input.data),
        BoundsQuestion::FailureProbability(a) => (failure(&a)?, a.output, a.input.data),
        BoundsQuestion::EpsilonPrime(a) => (epsilon_prime(&a)?, a.output, None),
        BoundsQuestion::DeltaMin(a) => (delta_min(&a)?, a.output, None),
        BoundsQuestion::Samples(a) => (samples(&a)?, a.output, None),
        BoundsQuestion::MaxEpsilon(a) => (max_epsilon(&a)?, a.output, None),
    };
    check_outputs(
        &[("--data", input.as_deref())],
        &[("--output", output.path())],
    )?;
    emit(output.path(), &render(&report, output.format())?)
}

// ---------------------------------------------------------------------------
// Error naming: the library names its arguments (m, n, delta, ...); the user
// typed flags. Same message, the flag's name, and an optional extra hint.

/// CLI names for the library's argument names.
struct Names {
    eps: &'static str,
    eps_prime: &'static str,
    beta: &'static str,
}

impl Default for Names {
    fn default() -> Self {
        Names {
            eps: "--epsilon",
            eps_prime: "--epsilon-prime",
            beta: "--beta",
        }
    }
}

impl Names {
    fn name(&self, field: &str) -> String {
        match field {
            "m" => "--samples".into(),
            "n" => "--alphabet".into(),
            "delta" => "--delta".into(),
            "eps" => self.eps.into(),
            "eps_prime" => self.eps_prime.into(),
            "beta" => self.beta.into(),
            other => other.into(),
        }
    }

    /// The library error with the flag named, as a usage error (exit 2).
    fn err(&self, e: ModelError) -> CliError {
        self.err_hint(e, None)
    }

    fn err_hint(&self, e: ModelError, hint: Option<String>) -> CliError {
        match e {
            ModelError::Invalid {
                field,
                value,
                problem,
                fix,
            } => {
                let mut msg = format!("invalid {} = {value}: {problem}; {fix}", self.name(&field));
                if let Some(h) = hint {
                    msg.push_str("; ");
                    msg.push_str(&h);
                }
                CliError::Usage(msg)
            }
            // An error without a field keeps the library's words.
            other => other.into(),
        }
    }
}

/// The alphabet size from --alphabet and/or the estimate (they must agree; clap
/// requires --alphabet without --prior, --counts or --data).
fn alphabet(flag: Option<usize>, est: Option<&Estimate>) -> Result<usize, CliError> {
    match (flag, est) {
        (Some(n), Some(e)) if n != e.prior.len() => Err(CliError::Usage(format!(
            "invalid --alphabet = {n}: the estimate has {} categories; drop --alphabet or make it match",
            e.prior.len()
        ))),
        (Some(n), _) => Ok(n),
        (None, Some(e)) => Ok(e.prior.len()),
        (None, None) => unreachable!("clap requires --alphabet without an estimate"),
    }
}

/// The sample size from --samples, else from the counts or data behind the estimate.
/// They must agree when both are given (clap requires --samples without --counts
/// or --data).
fn sample_size(
    flag: Option<u64>,
    input: &Input,
    est: Option<&Estimate>,
) -> Result<(u64, &'static str), CliError> {
    match (flag, est.and_then(|e| e.samples)) {
        (Some(m), Some(behind)) if m != behind => {
            let source = if input.counts.is_some() {
                "the total of --counts"
            } else {
                "the rows of --data"
            };
            Err(CliError::Usage(format!(
                "invalid --samples = {m}: the estimate comes from {behind} samples ({source}); drop --samples or make it match"
            )))
        }
        (Some(m), _) => Ok((m, "--samples")),
        (None, Some(m)) => Ok((m, "estimate")),
        (None, None) => unreachable!("clap requires --samples without --counts or --data"),
    }
}

fn input_given(input: &Input) -> bool {
    input.prior.is_some() || input.counts.is_some() || input.data.is_some()
}

/// The estimate, if one was given; required for the kappa variants.
fn estimate(input: &Input, kind: RadiusMethod) -> Result<Option<Estimate>, CliError> {
    if input_given(input) {
        return load_estimate(input).map(Some);
    }
    if kind == RadiusMethod::Kappa {
        return Err(kappa_needs_an_estimate());
    }
    Ok(None)
}

// ---------------------------------------------------------------------------
// The questions: the flags resolved into a `Question`, answered by the
// application layer, its errors naming the flags.

fn radius(a: &RadiusArgs) -> Result<BoundsAnswer, CliError> {
    let est = estimate(&a.input, a.radius)?;
    let n = alphabet(a.alphabet, est.as_ref())?;
    let (m, m_source) = sample_size(a.samples, &a.input, est.as_ref())?;
    let kappa_of = match (a.radius, est) {
        (RadiusMethod::Kappa, Some(est)) => Some(est.prior),
        (RadiusMethod::Kappa, None) => return Err(kappa_needs_an_estimate()),
        _ => None,
    };
    let q = Question::Radius {
        samples: m,
        delta: a.delta,
        alphabet: n,
        kappa_of,
        samples_from_estimate: m_source == "estimate",
    };
    BoundsAnswer::new(&q).map_err(|e| Names::default().err(e))
}

fn kappa_needs_an_estimate() -> CliError {
    CliError::Usage(
        "invalid --radius = kappa: Theorem 2 needs kappa of a prior; give the estimate with --prior, --counts or --data, or use --radius free".into(),
    )
}

fn failure(a: &FailureArgs) -> Result<BoundsAnswer, CliError> {
    let est = estimate(&a.input, a.radius)?;
    let n = alphabet(a.alphabet, est.as_ref())?;
    let (m, _) = sample_size(a.samples, &a.input, est.as_ref())?;
    let kappa_of = est.filter(|_| a.radius == RadiusMethod::Kappa);
    let q = Question::FailureProbability {
        samples: m,
        beta: a.beta,
        alphabet: n,
        kappa_of: kappa_of.map(|e| e.prior),
    };
    BoundsAnswer::new(&q).map_err(|e| Names::default().err(e))
}

fn epsilon_prime(a: &EpsilonPrimeArgs) -> Result<BoundsAnswer, CliError> {
    let eps = a.level.epsilon()?;
    let mut names = Names {
        eps: level_flag(&a.level),
        ..Names::default()
    };
    let radius = match a.beta {
        Some(beta) => RadiusFrom::Beta(beta),
        None => {
            let (Some(samples), Some(delta), Some(alphabet)) = (a.samples, a.delta, a.alphabet)
            else {
                unreachable!("clap requires --samples, --delta and --alphabet without --beta");
            };
            names.beta = "beta*(delta) (the eq. (7) radius from --samples, --delta, --alphabet)";
            RadiusFrom::Samples {
                samples,
                delta,
                alphabet,
            }
        }
    };
    let q = Question::EpsilonPrime {
        epsilon: eps,
        radius,
    };
    BoundsAnswer::new(&q).map_err(|e| names.err(e))
}

fn delta_min(a: &DeltaMinArgs) -> Result<BoundsAnswer, CliError> {
    let names = Names {
        eps: level_flag(&a.level),
        eps_prime: a.target.flag(),
        ..Names::default()
    };
    let q = Question::DeltaMin {
        epsilon: a.level.epsilon()?,
        epsilon_prime: a.target.epsilon_prime()?,
        samples: a.samples,
        alphabet: a.alphabet,
    };
    BoundsAnswer::new(&q).map_err(|e| names.err(e))
}

fn samples(a: &SamplesArgs) -> Result<BoundsAnswer, CliError> {
    let names = Names {
        eps: level_flag(&a.level),
        eps_prime: a.target.flag(),
        ..Names::default()
    };
    let q = Question::Samples {
        epsilon: a.level.epsilon()?,
        epsilon_prime: a.target.epsilon_prime()?,
        delta: a.delta,
        alphabet: a.alphabet,
    };
    BoundsAnswer::new(&q).map_err(|e| names.err(e))
}

fn max_epsilon(a: &MaxEpsilonArgs) -> Result<BoundsAnswer, CliError> {
    let eps_prime = a.target.epsilon_prime()?;
    let names = Names {
        eps_prime: a.target.flag(),
        ..Names::default()
    };
    let q = Question::MaxEpsilon {
        epsilon_prime: eps_prime,
        samples: a.samples,
        delta: a.delta,
        alphabet: a.alphabet,
    };
    BoundsAnswer::new(&q).map_err(|e| {
        let hint = nearest_samples(eps_prime, a.samples, a.delta, a.alphabet).map(|m| {
            format!("the nearest valid sample size is --samples {m} (then eps = 0 reaches eps')")
        });
        names.err_hint(e, hint)
    })
}
