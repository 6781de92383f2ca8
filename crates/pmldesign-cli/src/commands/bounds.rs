//! `pml bounds`: planning calculators from [E] eqs. (7)-(8), Theorem 2 and
//! Corollary 3.
//!
//! Each question is one call (or a short chain of calls) into
//! [`pmldesign_model::sample`]; this module only names the flags in errors and
//! gathers the answer with its inputs into a [`Report`] for [`crate::render::bounds`].
//! Every number it prints comes from the library.

use crate::args::bounds::{
    BoundsArgs, BoundsQuestion, DeltaMinArgs, EpsilonPrimeArgs, FailureArgs, MaxEpsilonArgs,
    RadiusArgs, SamplesArgs,
};
use crate::args::{Estimate, Input, Level};
use crate::error::CliError;
use crate::io::data::load_estimate;
use crate::io::write::{check_outputs, emit};
use crate::render::bounds::{Item, Report, item};
use pmldesign_model::ModelError;
use pmldesign_model::sample::{self, RadiusMethod, SamplePlan};
use serde_json::json;

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
    emit(output.path(), &report.render(output.format())?)
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
        return Err(CliError::Usage(
            "invalid --radius = kappa: Theorem 2 needs kappa of a prior; give the estimate with --prior, --counts or --data, or use --radius free".into(),
        ));
    }
    Ok(None)
}

/// The notes on the plug-in kappa of an estimate with `n` categories.
fn kappa_notes(n: usize, notes: &mut Vec<String>) {
    notes.push(
        "Theorem 2 needs kappa of the unknown true prior; this uses the estimate's kappa in its place (a plug-in value, not a guarantee); the distribution-free radius of eq. (7) holds for every prior".into(),
    );
    if n > sample::KAPPA_EXACT_MAX_N {
        notes.push(format!(
            "N = {n} > {}: kappa is not computed exactly; the conservative kappa = 1/2 is used, so this equals eq. (7)",
            sample::KAPPA_EXACT_MAX_N
        ));
    }
}

// ---------------------------------------------------------------------------
// The questions.

fn radius(a: &RadiusArgs) -> Result<Report, CliError> {
    let est = estimate(&a.input, a.radius)?;
    let n = alphabet(a.alphabet, est.as_ref())?;
    let (m, m_source) = sample_size(a.samples, &a.input, est.as_ref())?;
    let names = Names::default();
    let free = sample::radius_free(m, a.delta, n).map_err(|e| names.err(e))?;
    let mut inputs = vec![
        item("samples", "samples m", json!(m)),
        item("delta", "failure probability delta", json!(a.delta)),
        item("alphabet", "alphabet size N", json!(n)),
    ];
    if m_source == "estimate" {
        inputs.push(item(
            "samples_from",
            "samples from",
            json!("the counts/data of the estimate"),
        ));
    }
    match (a.radius, est) {
        (RadiusMethod::DistributionFree, _) => Ok(Report {
            question: "radius",
            title: "distribution-free l1 radius beta*(delta)",
            formula: "[E] eq. (7)",
            inputs,
            answer: item("beta", "radius beta*(delta)", json!(free)),
            related: vec![],
            statement: RADIUS_STATEMENT.into(),
            notes: vec![],
        }),
        (RadiusMethod::Kappa, Some(est)) => kappa_radius(a, &est, m, free, inputs),
        (RadiusMethod::Kappa, None) => Err(CliError::Usage(
            "invalid --radius = kappa: Theorem 2 needs kappa of a prior; give the estimate with --prior, --counts or --data, or use --radius free".into(),
        )),
    }
}

/// What the radius of `pml bounds radius` means.
const RADIUS_STATEMENT: &str = "with probability at least 1 - delta over the m samples, the true prior lies within this l1 distance of the empirical estimate";

/// `pml bounds radius --radius kappa`: the Theorem 2 radius with phi(kappa) of the
/// estimate, beside the distribution-free radius `free` from m samples.
fn kappa_radius(
    a: &RadiusArgs,
    est: &Estimate,
    m: u64,
    free: f64,
    mut inputs: Vec<Item>,
) -> Result<Report, CliError> {
    let names = Names::default();
    let beta = a
        .radius
        .radius(m, a.delta, &est.prior)
        .map_err(|e| names.err(e))?;
    let kappa = sample::kappa(&est.prior);
    let phi = sample::phi(kappa).map_err(|e| names.err(e))?;
    inputs.push(item(
        "estimate",
        "estimate p^",
        json!(est.prior.masses().to_vec()),
    ));
    let mut notes = vec![];
    kappa_notes(est.prior.len(), &mut notes);
    Ok(Report {
        question: "radius",
        title: "Theorem 2 l1 radius with phi(kappa) of the estimate",
        formula: "[E] Theorem 2",
        inputs,
        answer: item("beta", "radius beta (Theorem 2)", json!(beta)),
        related: vec![
            item("kappa", "kappa of the estimate", json!(kappa)),
            item("phi", "phi(kappa)", json!(phi)),
            item(
                "beta_distribution_free",
                "beta*(delta), eq. (7)",
                json!(free),
            ),
        ],
        statement: format!("{RADIUS_STATEMENT} (if the true prior's kappa is the estimate's)"),
        notes,
    })
}

fn failure(a: &FailureArgs) -> Result<Report, CliError> {
    let est = estimate(&a.input, a.radius)?;
    let n = alphabet(a.alphabet, est.as_ref())?;
    let (m, _) = sample_size(a.samples, &a.input, est.as_ref())?;
    let names = Names::default();
    let mut inputs = vec![
        item("beta", "l1 radius beta", json!(a.beta)),
        item("samples", "samples m", json!(m)),
        item("alphabet", "alphabet size N", json!(n)),
    ];
    let mut related = vec![];
    let mut notes = vec![];
    let kappa_of = est.as_ref().filter(|_| a.radius == RadiusMethod::Kappa);
    if let Some(est) = kappa_of {
        inputs.push(item(
            "estimate",
            "estimate p^",
            json!(est.prior.masses().to_vec()),
        ));
        let kappa = sample::kappa(&est.prior);
        related.push(item("kappa", "kappa of the estimate", json!(kappa)));
        kappa_notes(n, &mut notes);
    }
    let phi = a
        .radius
        .phi(kappa_of.map(|e| &e.prior))
        .map_err(|e| names.err(e))?;
    related.push(item("phi", "phi(kappa)", json!(phi)));
    let delta = sample::failure_probability(m, a.beta, n, phi).map_err(|e| names.err(e))?;
    if delta >= 1.0 {
        notes
            .push("the bound is vacuous (capped at 1): use more samples or a larger radius".into());
    }
    Ok(Report {
        question: "failure-probability",
        title: "probability that the true prior is outside the l1 ball",
        formula: "[E] Theorem 2",
        inputs,
        answer: item("delta", "failure probability delta", json!(delta)),
        related,
        statement: "P(||p - p^||_1 >= beta) is at most delta over the m samples".into(),
        notes,
    })
}

fn epsilon_prime(a: &EpsilonPrimeArgs) -> Result<Report, CliError> {
    let eps = a.level.epsilon()?;
    let mut names = Names {
        eps: level_flag(&a.level),
        ..Names::default()
    };
    let mut inputs = vec![item("epsilon", "design eps (for the estimate)", json!(eps))];
    let mut related = vec![];
    let (beta, formula) = match a.beta {
        Some(beta) => {
            inputs.push(item("beta", "l1 radius beta", json!(beta)));
            (beta, "[E] eq. (8)")
        }
        None => {
            let (Some(m), Some(delta), Some(n)) = (a.samples, a.delta, a.alphabet) else {
                unreachable!("clap requires --samples, --delta and --alphabet without --beta");
            };
            inputs.push(item("samples", "samples m", json!(m)));
            inputs.push(item("delta", "failure probability delta", json!(delta)));
            inputs.push(item("alphabet", "alphabet size N", json!(n)));
            let beta = sample::radius_free(m, delta, n).map_err(|e| names.err(e))?;
            related.push(item("beta", "radius beta*(delta), eq. (7)", json!(beta)));
            names.beta = "beta*(delta) (the eq. (7) radius from --samples, --delta, --alphabet)";
            (beta, "[E] eqs. (7), (8)")
        }
    };
    let eps_prime = sample::epsilon_prime(eps, beta).map_err(|e| names.err(e))?;
    let statement = if a.beta.is_some() {
        "a mechanism designed eps-PML for the estimate is eps'-PML for every prior within l1 distance beta of it"
    } else {
        "a mechanism designed eps-PML for the estimate from m samples is eps'-PML for the true prior with probability at least 1 - delta"
    };
    Ok(Report {
        question: "epsilon-prime",
        title: "leakage bound eps' for the true prior",
        formula,
        inputs,
        answer: item("epsilon_prime", "eps'", json!(eps_prime)),
        related,
        statement: statement.into(),
        notes: vec![],
    })
}

fn delta_min(a: &DeltaMinArgs) -> Result<Report, CliError> {
    let eps = a.level.epsilon()?;
    let eps_prime = a.target.epsilon_prime()?;
    let names = Names {
        eps: level_flag(&a.level),
        eps_prime: a.target.flag(),
        ..Names::default()
    };
    let delta =
        sample::delta_min(eps, eps_prime, a.samples, a.alphabet).map_err(|e| names.err(e))?;
    let mut notes = vec![];
    if delta >= 1.0 {
        notes.push(
            "the bound is vacuous (capped at 1): use more samples or allow a larger eps'; `pml bounds samples` gives the sample size for a target delta".into(),
        );
    }
    Ok(Report {
        question: "delta-min",
        title: "failure probability of an eps'-PML guarantee",
        formula: "[E] Corollary 3",
        inputs: vec![
            item("epsilon", "design eps (for the estimate)", json!(eps)),
            item("epsilon_prime", "target eps' (true prior)", json!(eps_prime)),
            item("samples", "samples m", json!(a.samples)),
            item("alphabet", "alphabet size N", json!(a.alphabet)),
        ],
        answer: item("delta_min", "delta_min(eps')", json!(delta)),
        related: vec![],
        statement: "a mechanism designed eps-PML for the estimate from m samples is eps'-PML for the true prior except with probability at most delta_min".into(),
        notes,
    })
}

fn samples(a: &SamplesArgs) -> Result<Report, CliError> {
    let eps = a.level.epsilon()?;
    let eps_prime = a.target.epsilon_prime()?;
    let names = Names {
        eps: level_flag(&a.level),
        eps_prime: a.target.flag(),
        ..Names::default()
    };
    let plan = SamplePlan::new(eps, eps_prime, a.delta, a.alphabet).map_err(|e| names.err(e))?;
    let g = plan.guarantee;
    let (m, at_m, beta, achieved) = (g.m, plan.delta_min, g.beta, g.epsilon_prime);
    Ok(Report {
        question: "samples",
        title: "smallest sample size for an (eps', delta) guarantee",
        formula: "[E] Corollary 3 (eqs. (7), (8)) solved for m",
        inputs: vec![
            item("epsilon", "design eps (for the estimate)", json!(eps)),
            item("epsilon_prime", "target eps' (true prior)", json!(eps_prime)),
            item("delta", "failure probability delta", json!(a.delta)),
            item("alphabet", "alphabet size N", json!(a.alphabet)),
        ],
        answer: item("samples", "samples m", json!(m)),
        related: vec![
            item("delta_min_at_m", "delta_min(eps') at m", json!(at_m)),
            item("beta_at_m", "radius beta*(delta) at m", json!(beta)),
            item("epsilon_prime_at_m", "eps'(delta) at m", json!(achieved)),
        ],
        statement: "with m samples (and not m - 1), a mechanism designed eps-PML for the estimate is eps'-PML for the true prior with probability at least 1 - delta".into(),
        notes: vec![],
    })
}

fn max_epsilon(a: &MaxEpsilonArgs) -> Result<Report, CliError> {
    let eps_prime = a.target.epsilon_prime()?;
    let names = Names {
        eps_prime: a.target.flag(),
        ..Names::default()
    };
    let g = sample::SampleGuarantee::for_target(eps_prime, a.samples, a.delta, a.alphabet)
        .map_err(|e| {
            // The nearest valid sample size: the smallest m at which even a
            // design at eps = 0 reaches eps' (when there is one).
            let hint = sample::min_samples(0.0, eps_prime, a.delta, a.alphabet)
                .ok()
                .filter(|&m| m > a.samples)
                .map(|m| {
                    format!(
                        "the nearest valid sample size is --samples {m} (then eps = 0 reaches eps')"
                    )
                });
            names.err_hint(e, hint)
        })?;
    let check = sample::epsilon_prime(g.epsilon, g.beta).map_err(|e| names.err(e))?;
    Ok(Report {
        question: "max-epsilon",
        title: "largest design eps for a target eps'",
        formula: "[E] eqs. (7), (8) inverted",
        inputs: vec![
            item("samples", "samples m", json!(a.samples)),
            item("delta", "failure probability delta", json!(a.delta)),
            item("alphabet", "alphabet size N", json!(a.alphabet)),
            item("epsilon_prime", "target eps' (true prior)", json!(eps_prime)),
        ],
        answer: item("epsilon", "largest design eps", json!(g.epsilon)),
        related: vec![
            item("beta", "radius beta*(delta), eq. (7)", json!(g.beta)),
            item("epsilon_prime_at_answer", "eps'(delta) at eps", json!(check)),
        ],
        statement: "design eps-PML for the estimate at this eps (or below): the mechanism is then eps'-PML for the true prior with probability at least 1 - delta".into(),
        notes: vec![],
    })
}
