//! Optimal mechanism design (docs/theory.md §4): enumerate the extreme rays of the cone of
//! the privacy notion (PML, PMC, ALIP, LIP or LDP; docs/theory.md §3), solve the LP over
//! rays, polish, certify and compare with randomized response.

use crate::colgen::engine::Progress;
use crate::colgen::oracle::PassControl;
use crate::colgen::start::Started;
use crate::cones::rays::StructuredFamily;
use crate::design::inner_outer::PastProposition2;
use crate::design::optimum::{Optimum, optimise, optimise_materialised};
use crate::design::settle::meet_target;
use crate::error::{Result, SolverError};
use crate::limits::capped_levels;
use crate::objective::a_priori::a_priori_bound;
use crate::objective::utility::Utility;
use crate::pricing::choice::{pricing_oracle, start_columns};
use crate::pricing::enumerated::StructuredRays;
use crate::pricing::quadratic::QuadraticRays;
use crate::reference::baseline::{Baselines, baselines};
use crate::reference::structured::beating;
use crate::settings::{PricingMethod, Settings};
use crate::solution::certificate::Certificate;
use crate::solution::design::{Design, DesignStatus, Run};
use crate::solution::route::Route;
use ndarray::ArrayView1;
use pmldesign_model::measures::NotionLevels;
use pmldesign_model::notion::check_epsilon;
use pmldesign_model::{ColumnCone, Mechanism, Notion, UncertaintySet};

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
    let began = std::time::Instant::now();
    let reference = set.reference();
    let value = |m: &Mechanism| utility.value(m, reference.view());
    let baselines = baselines(set, notion, &value, None)?;
    let identity = Mechanism::identity(set.len());
    let (status, opt) =
        if NotionLevels::measure_notion(&identity, set, notion).excess(notion) <= 0.0 {
            // Sub-additivity: U(W) <= sum_x mu(e_x) = U(identity) for every W.
            let u = utility.value(&identity, reference.view());
            (
                DesignStatus::NoPrivacyNeeded,
                Optimum::identity(identity, u),
            )
        } else {
            let spent = (&baselines, &identity, began.elapsed());
            let opt = private_optimum(set, notion, utility, settings, spent, progress)?;
            (DesignStatus::Optimal, opt)
        };
    certified_design(set, notion, utility, opt, status, baselines)
}

/// The optimum over the notion's cone, once the identity is known not to meet
/// it: the best baseline where the time limit is already `spent` on the
/// baselines, else designs by blocks where they apply, else column generation.
fn private_optimum(
    set: &UncertaintySet,
    notion: &Notion,
    utility: &dyn Utility,
    settings: &Settings,
    (baselines, identity, spent): (&Baselines, &Mechanism, std::time::Duration),
    progress: &mut dyn FnMut(Progress),
) -> Result<Optimum> {
    let reference = set.reference();
    // Levels past what doubles represent are designed at the largest one that
    // is (stricter, so still private at the asked level); the dual bound of
    // that smaller cone does not cover the asked one, the identity's utility
    // does (sub-additivity).
    let capped = capped_levels(notion);
    let cone = ColumnCone::for_notion(set, &capped)?;
    let structured = &baselines.structured;
    let seeds = match capped == *notion && set.len() > SEED_ABOVE {
        true => structured.iter().map(|b| b.mechanism.clone()).collect(),
        false => Vec::new(),
    };
    let a_priori = a_priori_bound(&cone, utility);
    // Sub-additivity: the identity's utility bounds every mechanism's (N^2 work,
    // done only where it is the bound).
    let identity_value = || utility.value(identity, reference.view());
    let settings = &seeded(settings, seeds, spent);
    let mut opt = match out_of_time(settings, set.len()) {
        // The set-up (the baselines) took the loop's share of the limit.
        true => Optimum::baseline(structured, a_priori.min(identity_value())),
        false => None,
    };
    if opt.is_none() && capped == *notion {
        let floor = structured.iter().map(|b| b.utility).fold(0.0, f64::max);
        let bounds = (a_priori, floor);
        opt = crate::design::blocks::by_blocks(&cone, utility, bounds, settings, progress)?;
    }
    let mut opt = match opt {
        Some(opt) => opt,
        None => optimise_in_cone(&cone, reference.view(), utility, settings, progress)?,
    };
    if capped != *notion {
        opt.upper_bound = identity_value();
    }
    Ok(opt)
}

/// `settings` with `seeds` for the master and the time already spent (on the
/// baselines) taken off its time limit.
fn seeded(settings: &Settings, seeds: Vec<Mechanism>, spent: std::time::Duration) -> Settings {
    let mut s = settings.clone();
    let cg = &mut s.column_generation;
    cg.seeds.extend(seeds);
    cg.time_limit = cg.time_limit.map(|t| t.saturating_sub(spent));
    s
}

/// Whether a time limit leaves column generation over `n` inputs no time:
/// [`crate::ColumnGenerationSettings::loop_time`] of what is left is zero.
fn out_of_time(settings: &Settings, n: usize) -> bool {
    let cg = &settings.column_generation;
    cg.time_limit.is_some_and(|t| cg.loop_time(t, n).is_zero())
}

/// The design of `opt`, brought to the notion's target ([`meet_target`]) and
/// certified: the levels re-measured over the whole set, the gap to the bound.
/// Never below the best structured baseline: where the loop stopped (a time
/// limit, Ctrl-C) before its master reached one, that baseline is the design.
fn certified_design(
    set: &UncertaintySet,
    notion: &Notion,
    utility: &dyn Utility,
    opt: Optimum,
    status: DesignStatus,
    baselines: Baselines,
) -> Result<Design> {
    let reference = set.reference();
    let mut mechanism = meet_target(opt.mechanism, set, notion, reference.view(), false)?;
    let mut utility_value = utility.value(&mechanism, reference.view());
    let mut pricing = opt.pricing;
    if let Some(b) = beating(&baselines.structured, utility_value, opt.converged) {
        (mechanism, utility_value) = (b.mechanism.clone(), b.utility);
        // Blocks coupled at the limit prove nothing of their own (no dual): the
        // design is the baseline, bounded a priori, and says so.
        if opt.dual.is_none() && pricing == Route::Blocks {
            pricing = Route::Baseline;
        }
    }
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
    let run = Run {
        rays: opt.rays,
        pricing,
        iterations: opt.iterations,
        rays_priced: opt.rays_priced,
    };
    Ok(Design::assembled(
        set,
        mechanism,
        (utility.name(), utility_value),
        (status, certificate),
        baselines,
        run,
    ))
}

/// Inputs past which the quadratic search's LP starts from the cone's
/// randomized-response basis ([`start_columns`]) rather than the all-ones
/// vertex: there the thousands of seeds a sampled start gives leave the
/// all-ones vertex degenerate for the whole first solve (tens of thousands of
/// zero pivots at 256 labels), while at 64 labels and below the all-ones start
/// reaches designs as good or slightly better (docs/benchmarks.md, "Designs
/// for estimation past enumeration").
const SPIKED_QUADRATIC_PAST: usize = 64;

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
    let a_priori = a_priori_bound(cone, utility);
    if settings.pricing == PricingMethod::Auto {
        let deadline = settings.loop_deadline(n);
        if let Some(oracle) = pricing_oracle(cone, reference, utility, deadline) {
            let settings = &with_smoothing(cone, settings);
            let mut opt = optimise(&*oracle, reference, utility, a_priori, settings, progress)?;
            opt.pricing = Route::BranchAndBound;
            if matches!(
                cone,
                ColumnCone::PmlKnownPrior { .. } | ColumnCone::PmlL1Ball { .. }
            ) && n <= COUNT_RAYS_UP_TO
            {
                let family = StructuredFamily::new(cone)?;
                opt.rays = StructuredRays::new(&family, utility, reference.to_owned())
                    .count_until(&counting(deadline));
            }
            return Ok(opt);
        }
    }
    if settings.pricing == PricingMethod::Auto
        && !enumerable(cone, settings)
        && let Some(c) = utility.quadratic()
        && let Some(oracle) =
            QuadraticRays::new(cone, reference, c, settings.column_generation.gap_tolerance)
    {
        let start = match n > SPIKED_QUADRATIC_PAST {
            true => start_columns(cone, reference, utility).flatten(),
            false => None,
        };
        let oracle = Started {
            oracle: Box::new(oracle),
            start: start.unwrap_or_default(),
        };
        let mut opt = optimise(&oracle, reference, utility, a_priori, settings, progress)?;
        opt.pricing = Route::QuadraticSearch;
        return Ok(opt);
    }
    // Past Prop 2 where the exact ball's families do not apply (eps = 0).
    if settings.pricing == PricingMethod::Auto
        && n > crate::limits::MAX_GENERIC_N
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
            method: "the alphabet limit of this notion",
        });
    }
    match cone {
        ColumnCone::PmlKnownPrior { .. } | ColumnCone::PmlL1Ball { .. } => {
            let deadline = settings.loop_deadline(n);
            let family = StructuredFamily::new(cone)?;
            let oracle = StructuredRays::new(&family, utility, reference.to_owned());
            let mut opt = optimise(&oracle, reference, utility, a_priori, settings, progress)?;
            opt.rays = oracle.count_until(&counting(deadline));
            Ok(opt)
        }
        _ => {
            let rays = crate::cones::rays::enumerate_until(cone, settings.loop_deadline(n))?;
            optimise_materialised(&rays, reference, utility, a_priori, settings, progress)
        }
    }
}

/// Whether the cone's rays are enumerated within the settings' alphabet limit
/// (the structured families of a known prior up to `max_alphabet`, the other
/// notions' rays up to [`crate::limits::MAX_NOTION_N`]).
fn enumerable(cone: &ColumnCone, settings: &Settings) -> bool {
    let n = cone.dimension();
    match cone {
        ColumnCone::PmlKnownPrior { .. } | ColumnCone::PmlL1Ball { .. } => {
            n <= settings.max_alphabet
        }
        _ => n <= settings.max_alphabet.min(crate::limits::MAX_NOTION_N),
    }
}

/// What stops the count of the rays reported beside a design: the loop's
/// deadline (a run past it reports no count). Not the interrupt: a count cut
/// by Ctrl-C would change the file of a design that was already optimal.
fn counting(deadline: Option<std::time::Instant>) -> PassControl {
    PassControl {
        deadline,
        ..PassControl::default()
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

/// Designs over more inputs than this start their master from the structured
/// baselines' columns. Smaller ones prove their optimum in well under a second
/// from the start columns alone, and seeds in their degenerate masters only
/// change which optimal vertex is returned (and its rounding).
const SEED_ABOVE: usize = 32;

/// Branch-and-bound counts the rays of the PML families up to this N.
const COUNT_RAYS_UP_TO: usize = 20;
