//! Optimal mechanism design (docs/theory.md §4): enumerate the extreme rays of the cone of
//! the privacy notion (PML, PMC, ALIP, LIP or LDP; docs/theory.md §3), solve the LP over
//! rays, polish, certify and compare with randomized response.

use crate::baseline::{Baselines, randomized_response_baselines};
use crate::branch_bound::{BoxCut, Levels, ThreeLevel, TwoLevel, Union};
use crate::certificate::{Certificate, DualCertificate};
use crate::error::{Result, SolverError};
use crate::loss_ball::ExactBallLoss;
use crate::ray_lp;
use crate::ray_lp::{MaterialisedRays, Progress, RayOracle, Started};
use crate::rays::{self, RaySet, StructuredFamily, StructuredRays};
use crate::settings::{PricingMethod, Settings};
use crate::utility::{Separable, Utility};
use ndarray::{Array1, Array2, ArrayView1};
use pmldesign_model::notion::check_epsilon;
use pmldesign_model::linalg::{least_squares, nonnegative_least_squares};
use pmldesign_model::measures::{self as density, NotionLevels};
use pmldesign_model::{ColumnCone, Mechanism, Notion, UncertaintySet};
use rayon::prelude::*;
use serde::Serialize;

/// How the design was obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DesignStatus {
    /// The LP optimum over the extreme rays, certified by its dual bound.
    Optimal,
    /// The identity meets the notion (for PML: eps is at least its worst-case
    /// PML): every mechanism qualifies and the identity, optimal for every
    /// sub-convex utility, is returned.
    NoPrivacyNeeded,
    /// The time limit stopped column generation: the mechanism is valid and
    /// certified private; the certificate's gap bounds its distance to the optimum.
    TimeLimit,
    /// Column generation stopped at the requested gap tolerance (larger than the
    /// optimality gap), or numerical precision left a larger gap: valid and
    /// certified private, at most the certificate's gap below the optimum.
    GapLimit,
}

impl DesignStatus {
    /// The status of a mechanism of utility `value` certified within `gap` of the
    /// optimum: [`DesignStatus::Optimal`] only within
    /// `max(1e-9 |value|, 1e-15)` ([`crate::certificate::OPTIMALITY_GAP`]), else
    /// the time limit (when the search did not converge) or the gap limit.
    pub fn from_gap(gap: f64, value: f64, converged: bool) -> Self {
        let allowed = crate::certificate::gap_allowance(crate::certificate::OPTIMALITY_GAP, value);
        if gap <= allowed {
            DesignStatus::Optimal
        } else if converged {
            DesignStatus::GapLimit
        } else {
            DesignStatus::TimeLimit
        }
    }
}

/// A certified mechanism: the result of [`crate::Problem::solve`]. It serialises
/// to the JSON of `pml design --format json` and deserialises back, re-checked
/// (the `record` module).
#[derive(Debug, Clone)]
pub struct Design {
    /// How it was obtained.
    pub status: DesignStatus,
    /// The privacy notion and its levels.
    pub notion: Notion,
    /// The target level eps (the notion's headline level, eps_u for ALIP).
    pub epsilon: f64,
    /// The priors it protects.
    pub uncertainty: UncertaintySet,
    /// The names of the inputs, one per row (`x1..xN` unless given).
    pub labels: Vec<String>,
    /// The names of the outputs, one per column (`y1..yM`; a loss design's
    /// output y is the guess "X = `labels[y]`", so it carries that label).
    pub outputs: Vec<String>,
    /// Name of the utility maximised (`-loss` for a loss design).
    pub utility_name: String,
    /// Utility under the reference prior (minus the expected loss for a loss
    /// design).
    pub utility_value: f64,
    /// What a loss design minimised, when it is one.
    pub loss: Option<LossOutcome>,
    /// The mechanism: one row per input; for a utility only the outputs used (at
    /// most N).
    pub mechanism: Mechanism,
    /// Output probabilities `q_y` under the reference prior.
    pub output_probabilities: Vec<f64>,
    /// PML of each output under the reference prior (\[E\] Thm 1); 0 for an
    /// output of probability 0.
    pub pml_per_output: Vec<f64>,
    /// PMC of each output under the reference prior (\[D\] Thm 1); infinite for a
    /// column with a zero.
    pub pmc_per_output: Vec<f64>,
    /// Verification of the mechanism.
    pub certificate: Certificate,
    /// Randomized response at the same LDP level and calibrated to eps.
    pub baselines: Baselines,
    /// The (eps, delta) guarantee of a design from a sample (\[E\] Sec. III).
    pub guarantee: Option<crate::sample_design::Guarantee>,
    /// Extreme rays of the cone when they were counted (enumeration, or branch
    /// and bound up to N = 20); 0 when no LP was needed.
    pub rays: Option<u64>,
    /// Pricing passes of the column generation.
    pub iterations: usize,
    /// Rays priced over all passes (enumeration), or search nodes visited
    /// (branch and bound).
    pub rays_priced: u64,
    /// `"branch_and_bound"`, `"enumeration"`, `"direct_lp"` (a loss) or
    /// `"none"` when no LP was needed.
    pub pricing: String,
}

impl Design {
    /// What the status means for this design, in a sentence (`None` when it is
    /// optimal).
    pub fn note(&self) -> Option<String> {
        let relative =
            self.certificate.gap / self.certificate.upper_bound.abs().max(f64::MIN_POSITIVE);
        match self.status {
            DesignStatus::NoPrivacyNeeded => Some(format!(
                "eps = {} is at least the identity's worst-case PML ({:.6}): every mechanism qualifies, so the identity (optimal for every utility) is returned",
                self.epsilon,
                self.uncertainty
                    .worst_case_pml(&Mechanism::identity(self.uncertainty.len()))
            )),
            DesignStatus::TimeLimit => Some(format!(
                "the time limit stopped the search after {} pricing passes: the mechanism is valid and certified private, and at most {:.3e} ({:.3}%) below the optimal utility",
                self.iterations,
                self.certificate.gap,
                100.0 * relative
            )),
            DesignStatus::GapLimit => Some(format!(
                "stopped at a certified gap of {:.3e} ({:.2e} relative) after {} pricing passes: the mechanism is valid and certified private, and at most that far below the optimal utility",
                self.certificate.gap, relative, self.iterations,
            )),
            DesignStatus::Optimal => None,
        }
    }
}

/// What a loss design minimised ([`crate::Problem::loss`]; docs/theory.md §4).
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct LossOutcome {
    /// The loss ([`crate::Loss::name`]).
    pub name: String,
    /// Expected loss under the reference prior, measured on the matrix.
    pub expected_loss: f64,
    /// A lower bound on the expected loss of every feasible mechanism (LP duality).
    pub lower_bound: f64,
    /// Which LP solved it.
    pub method: crate::loss::LossMethod,
    /// The LP's dual behind `lower_bound`, when an LP proved it.
    #[serde(default)]
    pub dual: Option<crate::loss::LossDual>,
    /// A user loss matrix `d[x][y]` (rows are secrets), so that the design can be
    /// re-checked; `None` for the named losses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matrix: Option<Vec<Vec<f64>>>,
}

/// The names `prefix1..prefixN`.
pub fn numbered(prefix: &str, n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("{prefix}{i}")).collect()
}

/// Output probabilities, PML and PMC of each column under the reference prior.
pub(crate) fn per_output(
    mechanism: &Mechanism,
    reference: ArrayView1<f64>,
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let q = reference.dot(&mechanism.matrix());
    let pml = mechanism
        .columns()
        .zip(q.iter())
        .map(|(c, &qy)| {
            let max = c.iter().copied().fold(0.0, f64::max);
            if qy > 0.0 {
                (max / qy).ln().max(0.0)
            } else {
                0.0
            }
        })
        .collect();
    let pmc = mechanism
        .columns()
        .map(|c| density::column_pmc(c, reference).unwrap_or(0.0))
        .collect();
    (q.to_vec(), pml, pmc)
}

/// What the LP over rays returns: the polished mechanism and its bound.
#[derive(Debug, Clone)]
pub struct Optimum {
    /// The mechanism (outputs in a stable order).
    pub mechanism: Mechanism,
    /// The best certified upper bound on the utility.
    pub upper_bound: f64,
    /// The dual behind the bound (`None` when no LP was solved).
    pub dual: Option<DualCertificate>,
    /// Number of extreme rays of the cone, when counted.
    pub rays: Option<u64>,
    /// `"branch_and_bound"`, `"enumeration"` or `"none"`.
    pub pricing: &'static str,
    /// Pricing passes.
    pub iterations: usize,
    /// Rays priced over all passes.
    pub rays_priced: u64,
    /// False when the time limit stopped the loop.
    pub converged: bool,
    /// True when no exact basis reproduced the LP's weights: the rows were
    /// divided by their sums, and the measured levels may exceed the target by
    /// that rounding until the columns are mixed with their means
    /// ([`meet_target`], or [`Optimum::settled`]).
    pub repaired: bool,
}

impl Optimum {
    /// The mechanism, its columns mixed with their means by 1e-6 if it was
    /// repaired: for callers without one notion to aim at (a repaired
    /// mechanism's levels then sit below every target they met before
    /// rounding).
    pub(crate) fn settled(&self, reference: ArrayView1<f64>) -> Mechanism {
        let mut w = self.mechanism.matrix().to_owned();
        if self.repaired {
            mix_with_means(&mut w, reference, REPAIR_MIX);
        }
        Mechanism::new(w).unwrap_or_else(|_| self.mechanism.clone())
    }
}

/// Designs the mechanism maximising `utility` subject to eps-PML for every prior in
/// `set` (docs/theory.md §4), and certifies it.
pub fn design(
    set: &UncertaintySet,
    epsilon: f64,
    utility: &dyn Utility,
    settings: &Settings,
) -> Result<Design> {
    design_with_progress(set, epsilon, utility, settings, &mut |_| {})
}

/// [`design`], reporting the bounds after every pricing pass (for progress bars).
pub fn design_with_progress(
    set: &UncertaintySet,
    epsilon: f64,
    utility: &dyn Utility,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<Design> {
    check_epsilon(epsilon)?;
    design_notion_with_progress(set, &Notion::Pml { epsilon }, utility, settings, progress)
}

/// Designs the mechanism maximising `utility` subject to `notion` for every prior
/// in `set` (docs/theory.md §3-4): the same engine as [`design`] over the notion's cone
/// ([`ColumnCone::for_notion`]), certified by re-measuring the notion's levels.
pub fn design_notion(
    set: &UncertaintySet,
    notion: &Notion,
    utility: &dyn Utility,
    settings: &Settings,
) -> Result<Design> {
    design_notion_with_progress(set, notion, utility, settings, &mut |_| {})
}

/// [`design_notion`] with progress reports.
pub fn design_notion_with_progress(
    set: &UncertaintySet,
    notion: &Notion,
    utility: &dyn Utility,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<Design> {
    notion.check_alphabet(set.len())?;
    let epsilon = notion.epsilon();
    let n = set.len();
    let reference = set.reference();
    let identity = Mechanism::identity(n);
    let (status, opt) =
        if NotionLevels::measure_notion(&identity, set, notion).excess(notion) <= 0.0 {
            // Sub-additivity: U(W) <= sum_x mu(e_x) = U(identity) for every W.
            let u = utility.value(&identity, reference.view());
            let opt = Optimum {
                mechanism: identity,
                upper_bound: u,
                dual: None,
                rays: Some(0),
                pricing: "none",
                iterations: 0,
                rays_priced: 0,
                converged: true,
                repaired: false,
            };
            (DesignStatus::NoPrivacyNeeded, opt)
        } else {
            // Levels past what doubles represent are designed at the largest one that
            // is (stricter, so still private at the asked level); the dual bound of
            // that smaller cone does not cover the asked one, the identity's utility
            // does (sub-additivity).
            let capped = capped_levels(notion);
            let cone = ColumnCone::for_notion(set, &capped)?;
            let mut opt = optimise_in_cone(&cone, reference.view(), utility, settings, progress)?;
            if capped != *notion {
                opt.upper_bound = utility.value(&identity, reference.view());
            }
            (DesignStatus::Optimal, opt)
        };
    let mechanism = meet_target(opt.mechanism, set, notion, reference.view(), false)?;
    let utility_value = utility.value(&mechanism, reference.view());
    let mut certificate = Certificate::check_notion_feasible(
        &mechanism,
        set,
        notion,
        utility_value,
        opt.upper_bound,
    )?;
    certificate.dual = opt.dual;
    let status = match status {
        DesignStatus::NoPrivacyNeeded => status,
        _ => DesignStatus::from_gap(certificate.gap, utility_value, opt.converged),
    };
    let (q, pml_per_output, pmc_per_output) = per_output(&mechanism, reference.view());
    let value = |m: &Mechanism| utility.value(m, reference.view());
    Ok(Design {
        status,
        notion: notion.clone(),
        epsilon,
        uncertainty: set.clone(),
        labels: numbered("x", n),
        outputs: numbered("y", mechanism.outputs()),
        utility_name: utility.name(),
        utility_value,
        loss: None,
        output_probabilities: q,
        pml_per_output,
        pmc_per_output,
        certificate,
        baselines: randomized_response_baselines(set, epsilon, &value)?,
        mechanism,
        guarantee: None,
        rays: opt.rays,
        pricing: opt.pricing.to_string(),
        iterations: opt.iterations,
        rays_priced: opt.rays_priced,
    })
}

/// Optimises over the extreme rays of `cone`: branch-and-bound pricing where
/// [`pricing_oracle`] has one, else streamed structured rays for the known prior
/// and the ball, materialised rays otherwise (both within `max_alphabet`).
pub fn optimise_in_cone(
    cone: &ColumnCone,
    reference: ArrayView1<f64>,
    utility: &dyn Utility,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<Optimum> {
    let n = cone.dimension();
    let a_priori = density_level(cone)
        .and_then(|eps| utility.bound_at_level(eps))
        .unwrap_or(f64::INFINITY);
    if settings.pricing == PricingMethod::Auto {
        let deadline = settings.loop_deadline();
        if let Some(oracle) = pricing_oracle(cone, reference, utility, deadline) {
            let settings = &with_smoothing(cone, settings);
            let mut opt = optimise(&*oracle, reference, utility, a_priori, settings, progress)?;
            opt.pricing = "branch_and_bound";
            if matches!(
                cone,
                ColumnCone::PmlKnownPrior { .. } | ColumnCone::PmlL1Ball { .. }
            ) && n <= COUNT_RAYS_UP_TO
            {
                let family = StructuredFamily::new(cone)?;
                opt.rays =
                    Some(StructuredRays::new(&family, utility, reference.to_owned()).count());
            }
            return Ok(opt);
        }
    }
    // Past Prop 2 where the exact ball's families do not apply (eps = 0).
    if settings.pricing == PricingMethod::Auto
        && n > rays::MAX_GENERIC_N
        && let ColumnCone::PmlL1Ball { beta, epsilon, .. } = cone
        && !cone.is_proposition_2()
        && utility.separable().is_some()
    {
        let ball = PastProposition2 {
            beta: *beta,
            epsilon: *epsilon,
        };
        return ball.optimise(reference, utility, a_priori, settings, progress);
    }
    // PMC for a known prior has N rays (all at the lower end but one): no limit.
    let pmc_known = matches!(
        cone,
        ColumnCone::Notion {
            notion: Notion::Pmc { .. },
            ..
        }
    ) && cone.known_prior().is_some();
    if n > settings.max_alphabet && !pmc_known {
        return Err(SolverError::AlphabetTooLarge {
            n,
            limit: settings.max_alphabet,
            method: "Settings::max_alphabet",
        });
    }
    match cone {
        ColumnCone::PmlKnownPrior { .. } | ColumnCone::PmlL1Ball { .. } => {
            let family = StructuredFamily::new(cone)?;
            let oracle = StructuredRays::new(&family, utility, reference.to_owned());
            let mut opt = optimise(&oracle, reference, utility, a_priori, settings, progress)?;
            opt.rays = Some(oracle.count());
            Ok(opt)
        }
        _ => {
            let rays = rays::enumerate_until(cone, settings.loop_deadline())?;
            optimise_materialised(&rays, reference, utility, a_priori, settings, progress)
        }
    }
}

/// `settings` with the dual smoothing chosen for `cone` where the user left it
/// open ([`crate::ColumnGenerationSettings::smoothing`]).
fn with_smoothing(cone: &ColumnCone, settings: &Settings) -> Settings {
    let mut s = settings.clone();
    let past_prop2 = matches!(cone, ColumnCone::PmlL1Ball { .. }) && !cone.is_proposition_2();
    let cg = &mut s.column_generation;
    cg.smoothing = Some(cg.smoothing.unwrap_or(if past_prop2 { 0.5 } else { 0.0 }));
    s
}

/// The l1 ball past \[E\] Prop 2 (`beta >= 2 min p^`) at alphabets the generic
/// enumerator cannot take (docs/theory.md §4b, "The ball past Proposition 2"):
/// the mechanism is optimal over an inner cone, \[E\] Prop 2's formula with
/// `e^eps' = e^eps / (1 + beta/2 e^eps)`, which lies inside the exact cone for
/// every radius; the bound is that of the estimate alone, whose cone contains the
/// exact one (and `I(X;Y) <= eps` for mutual information). Both are priced by
/// branch and bound; the certificate states the gap between them.
pub struct PastProposition2 {
    /// The radius beta.
    pub beta: f64,
    /// The level eps.
    pub epsilon: f64,
}

/// The relative gap at which the inner design and the outer bound stop (or
/// the requested gap if larger).
const INNER_OUTER_GAP: f64 = 1e-6;

/// Shares of a time limit for the inner design and the outer bound.
pub(crate) const INNER_SHARE: f64 = 0.6;
pub(crate) const OUTER_SHARE: f64 = 0.3;

impl PastProposition2 {
    /// The inner optimum with the outer bound (reachable from the tests at any
    /// N through `internals`).
    pub fn optimise(
        &self,
        reference: ArrayView1<f64>,
        utility: &dyn Utility,
        a_priori: f64,
        settings: &Settings,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Optimum> {
        let p = reference.to_vec();
        let (e, b) = (self.epsilon.exp(), self.beta / 2.0);
        let share = |f: f64| {
            let mut s = settings.with_time_share(f);
            let cg = &mut s.column_generation;
            // Precision past the gap between the two cones buys nothing.
            cg.gap_tolerance = cg.gap_tolerance.max(INNER_OUTER_GAP);
            let deadline = s.loop_deadline();
            (s, deadline)
        };
        let missing = || SolverError::Lp("no separable form for branch and bound".into());
        let (inner_settings, deadline) = share(INNER_SHARE);
        let family_z =
            BoxCut::new(&p, 0.0, e / (1.0 + b * e), true, utility).ok_or_else(missing)?;
        let family_l =
            TwoLevel::new(&p, Levels::BallLevel { e, b }, utility).ok_or_else(missing)?;
        let inner = Started {
            oracle: Box::new(Union::ball(family_z, family_l, deadline)),
            start: ray_lp::spikes(reference, e / (1.0 + b * e), b, &|v| {
                utility.column_value(v, reference)
            }),
        };
        let mut opt = optimise(
            &inner,
            reference,
            utility,
            a_priori,
            &inner_settings,
            progress,
        )?;
        let (outer_settings, deadline) = share(OUTER_SHARE);
        let outer = Started {
            oracle: Box::new(
                BoxCut::new(&p, 0.0, e, false, utility)
                    .ok_or_else(missing)?
                    .with_deadline(deadline),
            ),
            start: ray_lp::spikes(reference, e, 0.0, &|v| utility.column_value(v, reference)),
        };
        let bound = optimise(
            &outer,
            reference,
            utility,
            a_priori,
            &outer_settings,
            &mut |_| {},
        )?;
        // The outer dual certifies the exact cone too: its slice lies inside the
        // outer one, and a convex function is largest at the outer vertices.
        opt.upper_bound = bound.upper_bound.min(a_priori);
        opt.dual = bound.dual;
        opt.iterations += bound.iterations;
        opt.converged &= bound.converged;
        opt.rays_priced += bound.rays_priced;
        opt.pricing = "branch_and_bound_inner_outer";
        Ok(opt)
    }
}

/// The level eps that bounds the information density `i(x; y)` from above under
/// the reference prior for every mechanism of `cone`, if there is one: eps for
/// PML (the reference lies in the set), LIP and LDP, eps_u for ALIP; none for PMC.
fn density_level(cone: &ColumnCone) -> Option<f64> {
    match cone {
        ColumnCone::PmlKnownPrior { epsilon, .. }
        | ColumnCone::PmlL1Ball { epsilon, .. }
        | ColumnCone::PmlPolytope { epsilon, .. } => Some(*epsilon),
        ColumnCone::Notion { notion, .. } => match *notion {
            Notion::Ldp { epsilon } => Some(epsilon),
            _ => notion.upper(),
        },
        ColumnCone::Intersection { cones } => cones
            .iter()
            .filter_map(density_level)
            .min_by(f64::total_cmp),
    }
}

/// The largest information-density level a cone is built for: `e^690` and
/// `e^-690` are normal doubles with room to spare (`e^710` overflows).
pub const MAX_DESIGN_LEVEL: f64 = 690.0;

/// `notion` with every level at most [`MAX_DESIGN_LEVEL`].
pub(crate) fn capped_levels(notion: &Notion) -> Notion {
    let c = |e: f64| e.min(MAX_DESIGN_LEVEL);
    match *notion {
        Notion::Pml { epsilon } => Notion::Pml {
            epsilon: c(epsilon),
        },
        Notion::Pmc { epsilon } => Notion::Pmc {
            epsilon: c(epsilon),
        },
        Notion::Alip {
            epsilon_lower,
            epsilon_upper,
        } => Notion::Alip {
            epsilon_lower: c(epsilon_lower),
            epsilon_upper: c(epsilon_upper),
        },
        Notion::Lip { epsilon } => Notion::Lip {
            epsilon: c(epsilon),
        },
        Notion::Ldp { epsilon } => Notion::Ldp {
            epsilon: c(epsilon),
        },
        // Each factor e^(eps d) is capped where it is built (`Metric::factor`).
        Notion::Metric { .. } => notion.clone(),
    }
}

/// The four ray families of the exact l1 ball past \[E\] Prop 2 (`E = e^eps`,
/// `b = beta/2`; docs/theory.md §4b) as one branch-and-bound pass; `None` when
/// `utility` has no form for the three-level search.
pub(crate) fn exact_ball_families(
    p: &[f64],
    e: f64,
    b: f64,
    utility: &dyn Utility,
    deadline: Option<std::time::Instant>,
) -> Option<Union> {
    let three = ThreeLevel::new(p, e, b, utility)?;
    let family_l = TwoLevel::new(p, Levels::BallLevel { e, b }, utility)?;
    // Prop 2's formula: inside the exact cone for every radius.
    let family_z = BoxCut::new(p, 0.0, e / (1.0 + b * e), true, utility)?;
    let stairs = TwoLevel::new(p, Levels::Staircase { e }, utility)?.with_cap(b);
    let prop2 = (family_z, family_l);
    Some(Union::exact_ball(prop2, stairs, three, deadline))
}

/// Branch-and-bound counts the rays of the PML families up to this N.
const COUNT_RAYS_UP_TO: usize = 20;

/// The branch-and-bound pricing oracle of `cone` for `utility`, when the cone's
/// rays have a searchable family (the `branch_bound` module) normalised by the
/// reference prior and the utility has a [`Utility::separable`] form.
pub fn pricing_oracle(
    cone: &ColumnCone,
    reference: ArrayView1<f64>,
    utility: &dyn Utility,
    deadline: Option<std::time::Instant>,
) -> Option<Box<dyn RayOracle>> {
    let kind = utility.separable()?;
    let p = reference.to_vec();
    if cone.normaliser().iter().zip(&p).any(|(a, b)| a != b) {
        return None;
    }
    let e = cone.epsilon().exp();
    let boxed = |o: BoxCut| -> Box<dyn RayOracle + Send> { Box::new(o.with_deadline(deadline)) };
    let oracle: Box<dyn RayOracle + Send> = match cone {
        ColumnCone::PmlKnownPrior { .. } => boxed(BoxCut::new(&p, 0.0, e, false, utility)?),
        ColumnCone::PmlL1Ball { beta, .. } if cone.is_proposition_2() => {
            let e_prime = cone.effective_exp_epsilon();
            let levels = Levels::BallLevel { e, b: beta / 2.0 };
            // The union's pass carries the deadline for both families.
            let family_l = TwoLevel::new(&p, levels, utility)?;
            let family_z = BoxCut::new(&p, 0.0, e_prime, true, utility)?;
            Box::new(Union::ball(family_z, family_l, deadline))
        }
        // Past Prop 2: the exact ball's families (docs/theory.md §4b); MAP
        // accuracy as the loss -diag(p), one linear pricing per maximiser.
        ColumnCone::PmlL1Ball { beta, .. } if e > 1.0 => match kind {
            Separable::MaxWeighted => {
                Box::new(ExactBallLoss::map_accuracy(&p, e, beta / 2.0, deadline)?)
            }
            Separable::FInformation(_) => {
                Box::new(exact_ball_families(&p, e, beta / 2.0, utility, deadline)?)
            }
        },
        ColumnCone::Notion { notion, .. } => match *notion {
            Notion::Ldp { epsilon } if epsilon > 0.0 => {
                let levels = Levels::Staircase { e: epsilon.exp() };
                Box::new(TwoLevel::new(&p, levels, utility)?.with_deadline(deadline))
            }
            Notion::Pmc { .. } | Notion::Alip { .. } | Notion::Lip { .. } => {
                cone.known_prior()?;
                let lo = notion.lower().map_or(0.0, |l| (-l).exp());
                // PMC has no upper end (N rays, enumerated): BoxCut::new refuses it.
                let hi = notion.upper().map_or(f64::INFINITY, f64::exp);
                boxed(BoxCut::new(&p, lo, hi, false, utility)?)
            }
            _ => return None,
        },
        _ => return None,
    };
    // A randomized-response basis for the PML cones: without it the master
    // starts degenerate and large designs stall at utility 0 for many passes.
    // The same for LDP: the columns of k-ary randomized response.
    let value = |v: ArrayView1<f64>| utility.column_value(v, reference);
    let start = match cone {
        ColumnCone::PmlKnownPrior { .. } => ray_lp::spikes(reference, e, 0.0, &value),
        // Prop 2's e^eps' for every radius (its cone is inside the exact one).
        ColumnCone::PmlL1Ball { beta, .. } => {
            let b = beta / 2.0;
            ray_lp::spikes(reference, e / (1.0 + b * e), b, &value)
        }
        ColumnCone::Notion {
            notion: Notion::Ldp { epsilon },
            ..
        } => ray_lp::staircase_spikes(reference, epsilon.exp(), &value),
        // PMC, ALIP, LIP of a known prior: the box `lo <= c_x <= hi`.
        ColumnCone::Notion { notion, .. } => {
            let lo = notion.lower().map_or(0.0, |l| (-l).exp());
            let hi = notion.upper().map_or(f64::INFINITY, f64::exp);
            ray_lp::box_spikes(reference, lo, hi, &value)?
        }
        _ => return Some(oracle),
    };
    Some(Box::new(Started { oracle, start }))
}

/// `optimise` over rays held in memory: the mechanism, the dual upper bound and
/// the number of pricing passes.
pub fn optimise_over_rays(
    rays: &RaySet,
    reference: ArrayView1<f64>,
    utility: &dyn Utility,
    settings: &Settings,
) -> Result<(Mechanism, f64, usize)> {
    let opt = optimise_materialised(
        rays,
        reference,
        utility,
        f64::INFINITY,
        settings,
        &mut |_| {},
    )?;
    Ok((opt.settled(reference), opt.upper_bound, opt.iterations))
}

fn optimise_materialised(
    rays: &RaySet,
    reference: ArrayView1<f64>,
    utility: &dyn Utility,
    a_priori: f64,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<Optimum> {
    let mu: Vec<f64> = (0..rays.len())
        .into_par_iter()
        .with_min_len(1024)
        .map(|k| utility.column_value(rays.ray(k), reference))
        .collect();
    let oracle = MaterialisedRays::new(rays, mu);
    let mut opt = optimise(&oracle, reference, utility, a_priori, settings, progress)?;
    opt.rays = Some(rays.len() as u64);
    Ok(opt)
}

/// Solves the LP over the rays of `oracle` and turns the optimal weights into a
/// mechanism whose rows sum to 1 to rounding: the weights of the support are
/// recomputed from `sum_k theta_k v_k = 1` by least squares. (`rays` is left 0.)
pub fn optimise(
    oracle: &dyn RayOracle,
    reference: ArrayView1<f64>,
    utility: &dyn Utility,
    a_priori: f64,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<Optimum> {
    let n = oracle.dimension();
    let ones = Array1::<f64>::ones(n);
    let ones_value = utility.column_value(ones.view(), reference);
    let sol = ray_lp::solve_with_oracle(
        oracle,
        ones_value,
        a_priori,
        &settings.column_generation,
        progress,
    )?;
    // Candidate columns by decreasing LP weight.
    let mut candidates: Vec<(Array1<f64>, f64)> = sol
        .weights
        .iter()
        .filter(|w| w.1 > 0.0)
        .map(|w| (w.0.vector.clone(), w.1))
        .collect();
    candidates.sort_by(|a, b| b.1.total_cmp(&a.1));
    let polished = polish(&candidates, n);
    let exact = polished.is_some();
    let (support, theta) = polished.unwrap_or_else(|| {
        // No exact basis found: keep the LP weights, repaired below.
        let support: Vec<Array1<f64>> = candidates.iter().map(|c| c.0.clone()).collect();
        let theta = Array1::from_iter(candidates.iter().map(|c| c.1));
        (support, theta)
    });
    let s = support.len();
    let v = stacked(support.iter(), n);
    // With a full basis, the exact dual solves V_S^T lambda = mu_S; its bound is
    // usually tighter than the LP solver's dual. Both bounds are valid; keep the
    // smaller.
    let mut upper_bound = sol.upper_bound;
    let mut dual = DualCertificate::new(sol.dual.to_vec(), sol.max_reduced_cost);
    // After a time-limit stop there is no time for another pricing pass, and a
    // bound already within the gap tolerance needs none.
    let allowance = |bound: f64| {
        crate::certificate::gap_allowance(settings.column_generation.gap_tolerance, bound)
    };
    let within_gap = sol.upper_bound - sol.value <= allowance(sol.upper_bound);
    if s == n && sol.converged && !within_gap {
        let mu_s: Array1<f64> = support
            .iter()
            .map(|c| utility.column_value(c.view(), reference))
            .collect();
        let exact_dual = least_squares(&v.t().to_owned(), &mu_s);
        // Priced only if it can beat the loop's bound, and only as finely as the
        // loop's last pass (a bound within the gap tolerance is all it adds).
        if let Some(lambda) = exact_dual.filter(|l| l.sum() < upper_bound) {
            let tol = 0.5 * allowance(lambda.sum());
            let bound = ray_lp::dual_bound(oracle, ones_value, &lambda, tol);
            upper_bound = upper_bound.min(bound);
            if bound < dual.bound {
                dual = DualCertificate::new(lambda.to_vec(), bound - lambda.sum());
            }
        }
    }
    let mut w = v * &theta.insert_axis(ndarray::Axis(0));
    if !exact {
        repair(&mut w);
    }
    // Present outputs in a stable order: by the input of least likelihood, then most.
    let key = |c: ArrayView1<f64>| {
        let argmin = (0..n).min_by(|&a, &b| c[a].total_cmp(&c[b])).unwrap_or(0);
        let argmax = (0..n).max_by(|&a, &b| c[a].total_cmp(&c[b])).unwrap_or(0);
        (argmin, argmax)
    };
    let mut order: Vec<usize> = (0..s).collect();
    order.sort_by_key(|&j| key(w.column(j)));
    // Row-major, as every consumer expects.
    w = w
        .select(ndarray::Axis(1), &order)
        .as_standard_layout()
        .into_owned();
    Ok(Optimum {
        mechanism: Mechanism::new(w)?,
        upper_bound,
        dual: Some(dual),
        rays: None,
        pricing: "enumeration",
        iterations: sol.iterations,
        rays_priced: sol.rays_priced,
        converged: sol.converged,
        repaired: !exact,
    })
}

/// Brings a mechanism whose measured levels exceed the notion by more than half
/// the certificate's tolerance (the LP's rounding, grown by near-singular bases
/// at large N) back to at most the target: the columns are mixed with their
/// means under the reference prior, `c <- (1 - g) c + g q_y 1`, with the
/// smallest `g = 10^-14, .., 10^-6` that does it. Mixing keeps rows summing to 1
/// and lowers every information-density level over any prior (a mediant with
/// the ratio 1); it costs about `g U` of utility (more for Hellinger at zero
/// entries), which the certificate's gap reports. Excesses within half the
/// tolerance are left (they are reported as they are). Weights far off (a
/// time-limit stop whose last LP did not finish: N = 200 at `--time-limit 1`
/// measured 0.694 against 0.69 in about one run in ten) take coarser mixing,
/// up to `g = 1`, the constant mechanism, which meets every notion: a
/// certified mechanism with an honest gap, never an error. Inputs past a
/// numerical limit ([`crate::numerical_limit`], `loss` for a loss design) keep
/// the fine steps only, and their failed check names the limit.
pub(crate) fn meet_target(
    mechanism: Mechanism,
    set: &UncertaintySet,
    notion: &Notion,
    reference: ArrayView1<f64>,
    loss: bool,
) -> Result<Mechanism> {
    let excess = |m: &Mechanism| NotionLevels::measure_notion(m, set, notion).excess(notion);
    if excess(&mechanism) <= 0.5 * crate::certificate::PML_TOLERANCE {
        return Ok(mechanism);
    }
    let fine = (6..=14).rev().map(|k| 10f64.powi(-k));
    let within_limits = crate::numerical_limit(set, notion, loss).is_none();
    let coarse = COARSE_MIX.iter().copied().filter(|_| within_limits);
    for g in fine.chain(coarse) {
        let mut w = mechanism.matrix().to_owned();
        mix_with_means(&mut w, reference, g);
        let mixed = Mechanism::new(w)?;
        if excess(&mixed) <= 0.0 {
            return Ok(mixed);
        }
    }
    Ok(mechanism)
}

/// Mixing weights past `10^-6`, for weights far off ([`meet_target`]).
const COARSE_MIX: [f64; 7] = [1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 0.5, 1.0];

/// Share of each column's mean mixed into a repaired mechanism by
/// [`Optimum::settled`] (a design mixes only as much as its notion needs,
/// [`meet_target`]).
const REPAIR_MIX: f64 = 1e-6;

/// Makes LP weights that no exact basis reproduces (nearly collinear columns)
/// into a mechanism: every row is divided by its sum (exact to rounding). Its
/// levels may then exceed their targets by that rounding, until the columns
/// are mixed with their means, `c <- (1 - g) c + g q_y 1`: that keeps rows
/// summing to 1 and lowers every information-density level (PML, PMC, LDP)
/// over any prior, at a cost of about `g U` of utility, which the certificate's
/// gap reports. A design mixes with the least `g` its notion needs
/// ([`meet_target`]; a fixed `g = 1e-6` cost mutual-information designs at
/// N = 32 up to 7.8e-6).
fn repair(w: &mut Array2<f64>) {
    for mut row in w.rows_mut() {
        let sum = row.sum();
        if sum > 0.0 {
            row /= sum;
        }
    }
}

/// Mixes every column with its mean under the reference prior,
/// `c <- (1 - g) c + g q_y 1`: rows keep their sums, and every
/// information-density level moves toward 0 over every prior (a mediant of the
/// old ratio and 1).
fn mix_with_means(w: &mut Array2<f64>, reference: ArrayView1<f64>, g: f64) {
    let q = reference.dot(&*w);
    for (mut column, qy) in w.columns_mut().into_iter().zip(q.iter()) {
        column.mapv_inplace(|c| (1.0 - g) * c + g * qy);
    }
}

/// Recomputes the weights of the LP's support exactly: the columns (sorted by
/// decreasing LP weight) are fitted to `sum_k theta_k v_k = 1` by least squares,
/// dropping the lightest column while the fit is not exact and positive. LP solvers
/// leave rays with weights near 1e-12 beside the true basis; this removes them.
fn polish(candidates: &[(Array1<f64>, f64)], n: usize) -> Option<(Vec<Array1<f64>>, Array1<f64>)> {
    let ones = Array1::<f64>::ones(n);
    let mut k = candidates.len().min(n);
    while k > 0 {
        let v = stacked(candidates[..k].iter().map(|c| &c.0), n);
        if let Some(theta) = least_squares(&v, &ones)
            && theta.iter().all(|&t| t > 0.0)
            && row_residual(&v, &theta) <= 1e-13
        {
            return Some((candidates[..k].iter().map(|c| c.0.clone()).collect(), theta));
        }
        k -= 1;
    }
    polish_nonnegative(candidates, n)
}

/// The columns side by side: an n x k matrix.
fn stacked<'a>(columns: impl ExactSizeIterator<Item = &'a Array1<f64>>, n: usize) -> Array2<f64> {
    let mut v = Array2::zeros((n, columns.len()));
    for (j, c) in columns.enumerate() {
        v.column_mut(j).assign(c);
    }
    v
}

/// `max_x |(V theta)_x - 1|`: how far the weights are from rows summing to 1.
fn row_residual(v: &Array2<f64>, theta: &Array1<f64>) -> f64 {
    v.dot(theta)
        .iter()
        .fold(0.0f64, |m, r| m.max((r - 1.0).abs()))
}

/// The fallback of [`polish`] (weights from a perturbed master, whose support
/// solves no square system exactly): non-negative least squares over every
/// candidate, accepted if it meets `V theta = 1` to 1e-13.
fn polish_nonnegative(
    candidates: &[(Array1<f64>, f64)],
    n: usize,
) -> Option<(Vec<Array1<f64>>, Array1<f64>)> {
    let v = stacked(candidates.iter().map(|c| &c.0), n);
    let theta = nonnegative_least_squares(&v, &Array1::ones(n))?;
    if row_residual(&v, &theta) > 1e-13 {
        return None;
    }
    let kept: Vec<usize> = (0..theta.len()).filter(|&j| theta[j] > 0.0).collect();
    let support = kept.iter().map(|&j| candidates[j].0.clone()).collect();
    Some((support, kept.iter().map(|&j| theta[j]).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    /// A mechanism far above its target (weights of an unfinished LP) is mixed
    /// coarsely until it meets it: a private mechanism, never an error.
    #[test]
    fn far_off_mechanisms_are_mixed_until_private() {
        let p = array![0.5, 0.3, 0.2];
        let prior = pmldesign_model::Prior::new(p.to_vec()).unwrap();
        let set = UncertaintySet::known(prior.clone());
        let w = Mechanism::new(array![[0.9, 0.1], [0.2, 0.8], [0.5, 0.5]]).unwrap();
        let eps = 0.99 * density::eps_min(&w, &prior);
        let notion = Notion::Pml { epsilon: eps };
        let met = meet_target(w, &set, &notion, p.view(), false).unwrap();
        let levels = NotionLevels::measure_notion(&met, &set, &notion);
        assert!(levels.excess(&notion) <= 0.0);
        for row in met.matrix().rows() {
            assert!((row.sum() - 1.0).abs() < 1e-12);
        }
    }

    /// LP weights whose rows are off by rounding (no exact basis) are repaired
    /// and settled: rows sum to 1, and no column's PML under the prior rises.
    #[test]
    fn repair_fixes_rows_without_raising_leakage() {
        let p = array![0.5, 0.3, 0.2];
        let mut w = array![
            [0.6 + 3e-10, 0.4, 0.0],
            [0.2, 0.5 - 2e-10, 0.3],
            [0.1, 0.2, 0.7 + 1e-10]
        ];
        let pml = |w: &Array2<f64>| -> Vec<f64> {
            let q = p.dot(w);
            w.columns()
                .into_iter()
                .zip(q.iter())
                .map(|(c, qy)| (c.iter().copied().fold(0.0, f64::max) / qy).ln())
                .collect()
        };
        let before = pml(&w);
        repair(&mut w);
        mix_with_means(&mut w, p.view(), REPAIR_MIX);
        for row in w.rows() {
            assert!((row.sum() - 1.0).abs() <= 1e-15);
        }
        for (a, b) in pml(&w).iter().zip(&before) {
            assert!(a <= b, "PML rose from {b} to {a}");
        }
        assert!(w.iter().all(|&x| x > 0.0));
    }
}
