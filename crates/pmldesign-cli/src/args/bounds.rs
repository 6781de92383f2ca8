//! The arguments of `pml bounds` and its questions, and the target level eps'.

use super::{Input, Level, OutputArgs, radius_method, whole_count, whole_number};
use crate::error::CliError;
use clap::{Args, Subcommand};
use pmldesign_model::sample::RadiusMethod;

/// Arguments of `pml bounds`.
#[derive(Debug, Args)]
pub struct BoundsArgs {
    /// The planning question.
    #[command(subcommand)]
    pub what: BoundsQuestion,
}

/// The questions `pml bounds` answers.
#[derive(Debug, Subcommand)]
pub enum BoundsQuestion {
    /// The l1 radius around an estimate from m samples that holds with probability
    /// 1 - delta: beta*(delta) of [E] eq. (7), or the Theorem 2 radius with
    /// --radius kappa.
    Radius(RadiusArgs),
    /// The probability that the true prior lies outside the l1 ball of radius
    /// --beta around an estimate from m samples ([E] Theorem 2).
    FailureProbability(FailureArgs),
    /// eps'(delta) of [E] eq. (8): the leakage bound for the true prior of a
    /// mechanism designed eps-PML for the estimate.
    EpsilonPrime(EpsilonPrimeArgs),
    /// delta_min of [E] Corollary 3: the failure probability of an eps'-PML
    /// guarantee for a mechanism designed eps-PML for an estimate from m samples.
    DeltaMin(DeltaMinArgs),
    /// The smallest sample size m for an (eps', delta) guarantee from a design at
    /// eps ([E] Corollary 3 solved for m).
    Samples(SamplesArgs),
    /// The largest design eps whose eps'(delta) is at most the target eps'
    /// ([E] eqs. (7), (8) inverted).
    MaxEpsilon(MaxEpsilonArgs),
}

/// The target leakage eps' for the true prior, as eps' or as e^eps'.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct Target {
    /// Target leakage eps' >= 0 for the true prior (natural log).
    #[arg(long, allow_hyphen_values = true)]
    pub epsilon_prime: Option<f64>,
    /// Target leakage given as e^eps' >= 1.
    #[arg(long, allow_hyphen_values = true)]
    pub exp_epsilon_prime: Option<f64>,
}

impl Target {
    /// eps', from whichever flag was given (range checks are the library's).
    pub fn epsilon_prime(&self) -> Result<f64, CliError> {
        match (self.epsilon_prime, self.exp_epsilon_prime) {
            (Some(e), _) => Ok(e),
            (_, Some(x)) => {
                if !x.is_finite() || x < 1.0 {
                    return Err(CliError::Usage(format!(
                        "invalid --exp-epsilon-prime = {x}: e^eps' must be a finite number >= 1; pass e.g. --exp-epsilon-prime 5.5"
                    )));
                }
                Ok(x.ln())
            }
            _ => Err(CliError::Usage(
                "give the target with --epsilon-prime or --exp-epsilon-prime".into(),
            )),
        }
    }

    /// How eps' is named in error messages.
    pub fn flag(&self) -> &'static str {
        if self.exp_epsilon_prime.is_some() {
            "eps' (ln of --exp-epsilon-prime)"
        } else {
            "--epsilon-prime"
        }
    }
}

/// What `--radius kappa` does, in `--help`.
const KAPPA_HELP: &str = "[E] Theorem 2 with phi(kappa) of the estimate in place of the unknown prior's (needs --prior, --counts or --data)";

/// Arguments of `pml bounds radius`.
#[derive(Debug, Args)]
pub struct RadiusArgs {
    /// Number of samples m behind the estimate (defaults to the total of --counts
    /// or the rows of --data).
    #[arg(long, allow_hyphen_values = true, value_parser = whole_number, required_unless_present_any = ["counts", "data"])]
    pub samples: Option<u64>,
    /// Failure probability delta, in (0, 1).
    #[arg(long, allow_hyphen_values = true)]
    pub delta: f64,
    /// Alphabet size N (number of categories); taken from the estimate when one
    /// is given.
    #[arg(long, allow_hyphen_values = true, value_parser = whole_count, required_unless_present_any = ["prior", "counts", "data"])]
    pub alphabet: Option<usize>,
    /// `free` is eq. (7), distribution-free; `kappa` is Theorem 2 with phi(kappa)
    /// of the estimate.
    #[arg(long, value_parser = radius_method(KAPPA_HELP), default_value = "free")]
    pub radius: RadiusMethod,
    /// The estimate (needed for --radius kappa; otherwise it only supplies N and m).
    #[command(flatten)]
    pub input: Input,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Arguments of `pml bounds failure-probability`.
#[derive(Debug, Args)]
pub struct FailureArgs {
    /// The l1 radius beta around the estimate.
    #[arg(long, allow_hyphen_values = true)]
    pub beta: f64,
    /// Number of samples m behind the estimate (defaults to the total of --counts
    /// or the rows of --data).
    #[arg(long, allow_hyphen_values = true, value_parser = whole_number, required_unless_present_any = ["counts", "data"])]
    pub samples: Option<u64>,
    /// Alphabet size N; taken from the estimate when one is given.
    #[arg(long, allow_hyphen_values = true, value_parser = whole_count, required_unless_present_any = ["prior", "counts", "data"])]
    pub alphabet: Option<usize>,
    /// `free` uses phi = phi(1/2) = 2 (distribution-free); `kappa` uses
    /// phi(kappa) of the estimate.
    #[arg(long, value_parser = radius_method(KAPPA_HELP), default_value = "free")]
    pub radius: RadiusMethod,
    /// The estimate (needed for --radius kappa; otherwise it only supplies N and m).
    #[command(flatten)]
    pub input: Input,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Arguments of `pml bounds epsilon-prime`.
#[derive(Debug, Args)]
pub struct EpsilonPrimeArgs {
    /// The design level: the mechanism is eps-PML for the estimate.
    #[command(flatten)]
    pub level: Level,
    /// The l1 radius beta directly, instead of --samples, --delta and --alphabet.
    #[arg(long, allow_hyphen_values = true, conflicts_with_all = ["samples", "delta", "alphabet"])]
    pub beta: Option<f64>,
    /// Number of samples m behind the estimate.
    #[arg(long, allow_hyphen_values = true, value_parser = whole_number, required_unless_present = "beta")]
    pub samples: Option<u64>,
    /// Failure probability delta, in (0, 1).
    #[arg(long, allow_hyphen_values = true, required_unless_present = "beta")]
    pub delta: Option<f64>,
    /// Alphabet size N.
    #[arg(long, allow_hyphen_values = true, value_parser = whole_count, required_unless_present = "beta")]
    pub alphabet: Option<usize>,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Arguments of `pml bounds delta-min`.
#[derive(Debug, Args)]
pub struct DeltaMinArgs {
    /// The design level: the mechanism is eps-PML for the estimate.
    #[command(flatten)]
    pub level: Level,
    /// The leakage eps' > eps to guarantee for the true prior.
    #[command(flatten)]
    pub target: Target,
    /// Number of samples m behind the estimate.
    #[arg(long, allow_hyphen_values = true, value_parser = whole_number)]
    pub samples: u64,
    /// Alphabet size N.
    #[arg(long, allow_hyphen_values = true, value_parser = whole_count)]
    pub alphabet: usize,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Arguments of `pml bounds samples`.
#[derive(Debug, Args)]
pub struct SamplesArgs {
    /// The design level: the mechanism is eps-PML for the estimate.
    #[command(flatten)]
    pub level: Level,
    /// The leakage eps' > eps to guarantee for the true prior.
    #[command(flatten)]
    pub target: Target,
    /// Failure probability delta, in (0, 1).
    #[arg(long, allow_hyphen_values = true)]
    pub delta: f64,
    /// Alphabet size N.
    #[arg(long, allow_hyphen_values = true, value_parser = whole_count)]
    pub alphabet: usize,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Arguments of `pml bounds max-epsilon`.
#[derive(Debug, Args)]
pub struct MaxEpsilonArgs {
    /// Number of samples m behind the estimate.
    #[arg(long, allow_hyphen_values = true, value_parser = whole_number)]
    pub samples: u64,
    /// Failure probability delta, in (0, 1).
    #[arg(long, allow_hyphen_values = true)]
    pub delta: f64,
    /// Alphabet size N.
    #[arg(long, allow_hyphen_values = true, value_parser = whole_count)]
    pub alphabet: usize,
    /// The leakage eps' to guarantee for the true prior.
    #[command(flatten)]
    pub target: Target,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}
