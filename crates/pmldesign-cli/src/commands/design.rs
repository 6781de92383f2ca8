//! `pml design`: the optimal certified mechanism for a prior, a ball around it, or
//! an estimate from data with a failure probability.

use crate::args::{Input, Level, MetricArgs, OutputArgs, radius_method};
use crate::error::CliError;
use crate::io::data::load_estimate;
use crate::io::load::load_metric;
use crate::io::matrix::read_matrix_file;
use crate::io::write::emit;
use clap::{Args, ValueEnum};
use pmldesign_model::envelope::{Envelope, EnvelopeBounds};
use pmldesign_model::{Metric, Notion, UncertaintySet};
use pmldesign_solver::utility::builtin;
use pmldesign_solver::{Loss, LossMethod, PricingMethod, Problem, RadiusMethod, Sample, Settings};

/// Arguments of `pml design`.
#[derive(Debug, Args)]
pub struct DesignArgs {
    /// Where the prior or its estimate comes from.
    #[command(flatten)]
    pub input: Input,
    /// The privacy level.
    #[command(flatten)]
    pub level: Level,
    /// The privacy notion: pml (i <= eps), pmc (i >= -eps), alip
    /// (-eps_l <= i <= eps_u), lip (|i| <= eps), ldp, where i is the information
    /// density (docs/theory.md §3), or metric (W[x][y] <= e^(eps d(x, x'))
    /// W[x'][y], with --metric or --metric-matrix; docs/theory.md §9).
    #[arg(long, value_enum, default_value = "pml")]
    pub notion: NotionName,
    /// With --notion metric: the distance d.
    #[command(flatten)]
    pub metric: MetricArgs,
    /// ALIP: the lower level eps_l (the PMC side, i >= -eps_l).
    #[arg(long, allow_hyphen_values = true)]
    pub epsilon_lower: Option<f64>,
    /// ALIP: the upper level eps_u (the PML side, i <= eps_u), instead of --epsilon.
    #[arg(long, allow_hyphen_values = true, group = "Level")]
    pub epsilon_upper: Option<f64>,
    /// Protect every prior within this l1 distance of the given one
    /// ([E] Prop 2 for beta < 2 min p, the exact ball beyond).
    #[arg(long, allow_hyphen_values = true, conflicts_with = "delta")]
    pub beta: Option<f64>,
    /// With --counts or --data: the failure probability over the sample; the l1
    /// radius is derived from it and the sample size.
    #[arg(long, allow_hyphen_values = true)]
    pub delta: Option<f64>,
    /// How --delta becomes a radius: `free` is eq. (7), distribution-free; `kappa` is
    /// Theorem 2 with phi(kappa) of the estimate.
    #[arg(
        long,
        value_parser = radius_method("Theorem 2 with phi(kappa) at the estimate"),
        default_value = "free",
        requires = "delta"
    )]
    pub radius: RadiusMethod,
    /// The utility to maximise (`loss`: minimise an expected loss instead, with
    /// --loss or --loss-matrix).
    #[arg(long, value_enum, default_value = "mi")]
    pub utility: UtilityName,
    /// With --utility loss: a built-in loss d(x, y) over the label indices.
    #[arg(long, value_enum, conflicts_with = "loss_matrix")]
    pub loss: Option<LossName>,
    /// With --utility loss: a file with the N x N loss matrix d(x, y) >= 0 (row x:
    /// the secret, column y: the guess), as CSV rows or a JSON array of rows.
    #[arg(long, value_name = "FILE")]
    pub loss_matrix: Option<std::path::PathBuf>,
    /// With --utility loss: which LP to solve (auto: column generation for a known
    /// prior or a ball under [E] Prop 2, the direct LP otherwise).
    #[arg(long, value_enum, default_value = "auto")]
    pub loss_method: LossMethodName,
    /// Stop after this many seconds with the best certified mechanism and bound so
    /// far; the output says how far from optimal it may be.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true)]
    pub time_limit: Option<f64>,
    /// How pricing searches the extreme rays: auto (branch and bound for the
    /// built-in utilities, no alphabet limit) or enumerate (every ray, the
    /// reference; N <= 24 under PML, 16 under the other notions).
    #[arg(long, value_enum, default_value = "auto")]
    pub pricing: PricingName,
    /// Stop once the certified relative gap between the utility and its upper
    /// bound is at most this; the status is "optimal" only at gaps up to 1e-9
    /// (or 1e-15 absolute), "gap_limit" above.
    #[arg(
        long,
        value_name = "RELATIVE",
        default_value_t = 1e-9,
        allow_hyphen_values = true
    )]
    pub gap: f64,
    /// The failure probability of the post-processing-safe guarantee reported beside
    /// eps: bounds on the PML envelope of the design at this delta, under the prior
    /// (the estimate for --beta/--delta) ([V] Thm 3, Alg. 1).
    #[arg(long, default_value_t = 0.05, allow_hyphen_values = true)]
    pub envelope_delta: f64,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
}

/// Pricing methods (`--pricing`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PricingName {
    /// Branch and bound where available, enumeration otherwise.
    Auto,
    /// Every extreme ray (the reference method).
    Enumerate,
}

/// Privacy notions on the information density.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum NotionName {
    /// eps-PML: i(x; y) <= eps.
    Pml,
    /// eps-PMC: i(x; y) >= -eps.
    Pmc,
    /// (eps_l, eps_u)-ALIP: -eps_l <= i(x; y) <= eps_u.
    Alip,
    /// eps-LIP: |i(x; y)| <= eps.
    Lip,
    /// eps-LDP: W[x][y] <= e^eps W[x'][y].
    Ldp,
    /// Metric (d-) privacy: W[x][y] <= e^(eps d(x, x')) W[x'][y].
    Metric,
}

/// The notion asked for, from `--notion` and its levels; usage errors name the flag.
pub fn notion_from_flags(
    name: NotionName,
    level: &Level,
    epsilon_lower: Option<f64>,
    epsilon_upper: Option<f64>,
    metric: Option<Metric>,
) -> Result<Notion, CliError> {
    let check = |flag: &str, v: f64| -> Result<f64, CliError> {
        if !v.is_finite() || v < 0.0 {
            return Err(CliError::Usage(format!(
                "invalid {flag} = {v}: an ALIP level must be a finite number >= 0; pass e.g. {flag} 0.5"
            )));
        }
        Ok(v)
    };
    if name != NotionName::Alip
        && let Some((flag, _)) = [
            ("--epsilon-lower", epsilon_lower),
            ("--epsilon-upper", epsilon_upper),
        ]
        .into_iter()
        .find(|(_, v)| v.is_some())
    {
        return Err(CliError::Usage(format!(
            "invalid {flag}: it sets an ALIP level; add --notion alip, or give the level with --epsilon"
        )));
    }
    if name != NotionName::Metric && metric.is_some() {
        return Err(CliError::Usage(
            "invalid --metric/--metric-matrix: it sets the distance of metric privacy; add --notion metric".into(),
        ));
    }
    Ok(match name {
        NotionName::Alip => {
            let epsilon_upper = match epsilon_upper {
                Some(u) => check("--epsilon-upper", u)?,
                None => level.epsilon()?,
            };
            let epsilon_lower = check(
                "--epsilon-lower",
                epsilon_lower.ok_or_else(|| {
                    CliError::Usage(
                        "--notion alip needs --epsilon-lower (the PMC side, i >= -eps_l)".into(),
                    )
                })?,
            )?;
            Notion::Alip {
                epsilon_lower,
                epsilon_upper,
            }
        }
        NotionName::Pml => Notion::Pml {
            epsilon: level.epsilon()?,
        },
        NotionName::Pmc => Notion::Pmc {
            epsilon: level.epsilon()?,
        },
        NotionName::Lip => Notion::Lip {
            epsilon: level.epsilon()?,
        },
        NotionName::Ldp => Notion::Ldp {
            epsilon: level.epsilon()?,
        },
        NotionName::Metric => Notion::Metric {
            epsilon: level.epsilon()?,
            metric: metric.ok_or_else(|| {
                CliError::Usage(
                    "--notion metric needs its distance: add --metric discrete|line or --metric-matrix FILE".into(),
                )
            })?,
        },
    })
}

/// Built-in utilities.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum UtilityName {
    /// Mutual information I(X;Y) in nats.
    Mi,
    /// Total-variation information.
    Tv,
    /// Chi-square information.
    Chi2,
    /// Squared-Hellinger information.
    Hellinger,
    /// MAP accuracy: probability of guessing X from Y.
    Map,
    /// Minus an expected label-dependent loss (--loss or --loss-matrix): output y
    /// is the guess "X = x_y".
    Loss,
}

/// Built-in losses.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum LossName {
    /// 1[x != y]: the probability of a wrong guess.
    Hamming,
    /// |x - y| over the label indices.
    Absolute,
    /// (x - y)^2 over the label indices.
    Squared,
}

/// Methods for the loss LP.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum LossMethodName {
    /// Column generation where it applies, else the direct LP.
    Auto,
    /// The direct sparse LP over the N^2 entries.
    Direct,
    /// Column generation with exact pricing (known prior or a ball under Prop 2).
    ColumnGeneration,
}

impl UtilityName {
    /// The solver's name for it.
    pub fn name(self) -> &'static str {
        match self {
            UtilityName::Mi => "mi",
            UtilityName::Tv => "tv",
            UtilityName::Chi2 => "chi2",
            UtilityName::Hellinger => "hellinger",
            UtilityName::Map => "map",
            UtilityName::Loss => "loss",
        }
    }
}

/// Runs `pml design`.
pub fn run(a: DesignArgs) -> Result<(), CliError> {
    let est = load_estimate(&a.input)?;
    let metric = load_metric(&a.metric, est.prior.len())?;
    let notion = notion_from_flags(a.notion, &a.level, a.epsilon_lower, a.epsilon_upper, metric)?;
    pmldesign_model::envelope::check_delta(a.envelope_delta)
        .map_err(|e| CliError::Usage(format!("--envelope-delta: {e}")))?;
    let settings = settings_from_flags(&a)?;
    let loss = loss_from_flags(&a)?;
    if a.delta.is_some() && a.notion != NotionName::Pml {
        return Err(CliError::Usage(format!(
            "invalid --delta with --notion {}: guarantees from samples are for PML; use --beta for a ball of priors, or --notion pml",
            notion.name()
        )));
    }
    let problem = match a.delta {
        Some(delta) => Problem::from_sample(sample_source(&a, &est, delta)?),
        None => Problem::new(match a.beta {
            None => UncertaintySet::known(est.prior.clone()),
            Some(beta) => UncertaintySet::l1_ball(est.prior.clone(), beta)?,
        }),
    };
    let problem = match loss {
        Some(loss) => problem.loss(loss),
        None => {
            problem.boxed_utility(builtin(a.utility.name()).expect("clap restricts utility names"))
        }
    };
    let mut bar = crate::progress::DesignProgress::new();
    let d = problem
        .notion(notion)
        .labels(est.labels.clone())
        .settings(settings)
        .on_progress(|p| bar.update(p))
        .solve();
    bar.finish();
    let d = d?;
    let env = envelope_at(&d, a.envelope_delta)?;
    let text = crate::render::design::render_design(&d, &env, a.output.format())?;
    emit(a.output.output.as_deref(), &text)
}

/// The solver settings behind `--gap`, `--pricing`, `--time-limit` and
/// `--loss-method` (usage errors name the flag).
fn settings_from_flags(a: &DesignArgs) -> Result<Settings, CliError> {
    let mut settings = Settings::default();
    if !(a.gap.is_finite() && a.gap > 0.0 && a.gap < 1.0) {
        return Err(CliError::Usage(format!(
            "invalid --gap = {}: give a relative gap in (0, 1), e.g. 1e-6",
            a.gap
        )));
    }
    settings.column_generation.gap_tolerance = a.gap;
    if a.pricing == PricingName::Enumerate {
        settings.pricing = PricingMethod::Enumerate;
    }
    if let Some(t) = a.time_limit {
        let limit = std::time::Duration::try_from_secs_f64(t)
            .ok()
            .filter(|d| !d.is_zero());
        let Some(limit) = limit else {
            return Err(CliError::Usage(format!(
                "invalid --time-limit = {t:?}: give a positive, finite number of seconds such as 60"
            )));
        };
        settings.column_generation.time_limit = Some(limit);
    }
    settings.loss_method = match a.loss_method {
        LossMethodName::Auto => LossMethod::Auto,
        LossMethodName::Direct => LossMethod::Direct,
        LossMethodName::ColumnGeneration => LossMethod::ColumnGeneration,
    };
    Ok(settings)
}

/// The envelope bounds of a design at delta, under its reference prior.
fn envelope_at(d: &pmldesign_solver::Design, delta: f64) -> Result<EnvelopeBounds, CliError> {
    let prior = pmldesign_model::Prior::new(d.uncertainty.reference().to_vec())?;
    Ok(Envelope::new(&d.mechanism, &prior)?.bounds(delta)?)
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
        (true, Some(name), _) => Ok(Some(match name {
            LossName::Hamming => Loss::Hamming,
            LossName::Absolute => Loss::Absolute,
            LossName::Squared => Loss::Squared,
        })),
        (true, None, Some(path)) => {
            let rows = read_matrix_file("--loss-matrix", path)?.rows;
            let n = rows.len();
            if rows.iter().any(|r| r.len() != n) {
                return Err(CliError::Usage(format!(
                    "invalid --loss-matrix {}: {n} rows but a row of another length; give a square N x N matrix, one row per secret x and one column per guess y",
                    path.display()
                )));
            }
            let flat: Vec<f64> = rows.into_iter().flatten().collect();
            let matrix = ndarray::Array2::from_shape_vec((n, n), flat)
                .expect("checked square above");
            Ok(Some(Loss::Matrix(matrix)))
        }
    }
}

/// The sample size and radius method behind `--delta` (usage errors name the flag).
fn sample_source(
    a: &DesignArgs,
    est: &crate::args::Estimate,
    delta: f64,
) -> Result<Sample, CliError> {
    let samples = est.samples.ok_or_else(|| {
        CliError::Usage(
            "invalid --delta: a failure probability needs a sample size; give --counts (whole numbers) or --data FILE --column NAME instead of --prior, or use --beta".into(),
        )
    })?;
    Ok(Sample {
        estimate: est.prior.clone(),
        samples,
        delta,
        radius: a.radius,
    })
}
