//! The arguments of `pml design`.

use super::{Input, Level, MetricArgs, OutputArgs, ReportArgs, UtilityName, radius_method};
use crate::error::CliError;
use clap::{Args, ValueEnum};
use pmldesign_model::sample::RadiusMethod;
use pmldesign_solver::{LossMethod, PricingMethod, Settings};

/// A file named on the command line, with its flag (`None`: not given).
pub type NamedFile<'a> = (&'static str, Option<&'a std::path::Path>);

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
    #[arg(long, allow_hyphen_values = true, conflicts_with = "prior")]
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
    /// prior or a ball under [E] Prop 2 up to N = 64, the direct LP otherwise).
    #[arg(long, value_enum, default_value = "auto")]
    pub loss_method: LossMethodName,
    /// Stop after this many seconds with the best certified mechanism and bound so
    /// far; the output says how far from optimal it may be.
    #[arg(long, value_name = "SECONDS", allow_hyphen_values = true)]
    pub time_limit: Option<f64>,
    /// Print the incumbent utility, the certified bound and the gap after every
    /// pricing pass to stderr, one line each with the seconds elapsed (the
    /// progress line on a terminal shows the latest).
    #[arg(long)]
    pub verbose: bool,
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
    /// With two or more --column: how to release the record. auto: the better
    /// of joint and compose when the columns' labels have at most 32 combinations
    /// (and --max-cells), every one observed or --delta given, else compose; joint: one design over every combination; compose:
    /// one design per column over the l1 ball of its conditional priors, the levels
    /// adding up (thesis Theorem 5.24); ldp: eps/k-LDP per column.
    #[arg(long, value_enum, default_value = "auto")]
    pub record: RecordModeName,
    /// With --record compose: each column's level, comma-separated, in column order,
    /// summing to eps [default: searched to maximise I(X; Y) of the record].
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub split: Option<Vec<String>>,
    /// The most combinations of labels a joint design covers.
    #[arg(long, default_value_t = pmldesign_solver::DEFAULT_MAX_CELLS)]
    pub max_cells: usize,
    /// Output options.
    #[command(flatten)]
    pub output: OutputArgs,
    /// The HTML report.
    #[command(flatten)]
    pub report: ReportArgs,
}

/// How a record is released (`--record`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RecordModeName {
    /// Joint when it fits, else compose.
    Auto,
    /// One design over every combination of the columns' labels.
    Joint,
    /// One design per column; the levels add up.
    Compose,
    /// eps/k-LDP per column.
    Ldp,
}

impl DesignArgs {
    /// The files read and written, with their flags, for the check that no
    /// output overwrites an input or another output.
    pub fn files(&self) -> ([NamedFile<'_>; 3], [NamedFile<'_>; 2]) {
        (
            [
                self.input.named(),
                self.metric.named(),
                ("--loss-matrix", self.loss_matrix.as_deref()),
            ],
            [
                ("--output", self.output.path()),
                ("--report", self.report.report.as_deref()),
            ],
        )
    }

    /// The solver settings behind `--gap`, `--pricing`, `--time-limit` and
    /// `--loss-method` (usage errors name the flag).
    pub fn settings(&self) -> Result<Settings, CliError> {
        let a = self;
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
    /// Column generation where it applies up to N = 64, else the direct LP.
    Auto,
    /// The direct sparse LP over the N^2 entries (Clarabel's interior point).
    Direct,
    /// Column generation with exact pricing (known prior or a ball under Prop 2).
    ColumnGeneration,
}
