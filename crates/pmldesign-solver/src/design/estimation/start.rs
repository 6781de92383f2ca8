//! The start of a design for estimation: the baseline of least error that
//! meets the notion, and past enumeration the starts built instead of chosen,
//! by systematic sampling and from sampled rays (docs/theory.md §13).

use super::after_loop;
use crate::design::mirror::{
    LDP_MIRROR_ABOVE_FLOOR, LDP_MIRROR_SIZES, MIRROR_SHARE, MIRROR_SIZES, mirror_rounds,
    mirror_step,
};
use crate::design::sampled_start::{
    SAMPLED_SHARE, SAMPLED_START_ABOVE_FLOOR, SAMPLED_START_SIZES, newton_step, sampled_start,
};
use crate::design::simplicial::Pool;
use crate::design::systematic::{systematic_mechanism, systematic_outputs};
use crate::error::Result;
use crate::limits::SCORED_SQUARE_UP_TO;
use crate::objective::estimation::{ESTIMATION_UTILITY_NAME, estimation_value};
use crate::reference::baseline::Baselines;
use crate::reference::literature::{
    Level, best_size, cyclic_design, hadamard, subset_mechanism, toward_prior,
};
use crate::settings::Settings;
use ndarray::{Array1, ArrayView1};
use pmldesign_model::cone::ball_exp_epsilon;
use pmldesign_model::measures::NotionLevels;
use pmldesign_model::uncertainty::within_proposition_2;
use pmldesign_model::{ColumnCone, DensityRange, Mechanism, ModelError, Notion, UncertaintySet};
use std::time::Instant;

/// Seconds per cubed input of building and scoring the cyclic subset design
/// past [`SCORED_SQUARE_UP_TO`] (its Fisher information, up to `2 N` outputs,
/// and its inverse): 3.5 s with Hadamard response at 2,048 inputs on two cores,
/// 4e-10 `N^3`, doubled.
pub const LITERATURE_SECONDS_PER_CUBE: f64 = 8e-10;

/// Whether a design over `n` inputs builds and scores the cyclic subset design
/// as a start: up to [`SCORED_SQUARE_UP_TO`] inputs
/// always, past it where a quarter of the time limit covers them
/// ([`LITERATURE_SECONDS_PER_CUBE`]; at 2,048 inputs a limit of 28 s, at
/// 4,096 one of 220 s), a rule on N and the limit.
fn literature_in_time(settings: &Settings, n: usize) -> bool {
    let cost = LITERATURE_SECONDS_PER_CUBE * (n as f64).powi(3);
    n <= SCORED_SQUARE_UP_TO
        || (settings.column_generation.time_limit).is_none_or(|t| cost <= 0.25 * t.as_secs_f64())
}

/// The baseline that meets the notion with the least error (randomized
/// response at the same LDP level always qualifies: its rows are independent),
/// or k-subset selection where it can be written out (else its cyclic design,
/// where it is built in time: [`literature_in_time`]), or Hadamard response,
/// where either does better; with its value (minus the error), as the
/// baselines scored it.
pub(super) fn starting_point(
    b: &Baselines,
    (set, notion): (&UncertaintySet, &Notion),
    p: ArrayView1<f64>,
    settings: &Settings,
) -> Result<(Mechanism, f64)> {
    let valued = |m: Mechanism| {
        let value = estimation_value(&m, p);
        (m, value)
    };
    let subsets = subset_selection(set, notion, p).map(valued);
    let level = Level::of(notion, set);
    // Scored at every size: its Fisher information comes from two
    // Walsh-Hadamard transforms, and only its inverse is cubic (1.7 s in all at
    // 4,096 inputs on two cores, within the design's fixed work).
    let responses = level.as_ref().and_then(|l| hadamard(p, l)).map(valued);
    let level = level.filter(|_| literature_in_time(settings, p.len()));
    // Where k-subset selection has too many outputs to write out, its cyclic
    // design stands in for it.
    let cyclic = match subsets {
        Some(_) => None,
        None => level.as_ref().and_then(|l| cyclic_design(p, l)).map(valued),
    };
    let meets = |m: &Mechanism| meets(m, set, notion);
    // The optimum under PMC; under LIP and ALIP only where it meets the upper
    // level, checked before its error is (an N x N inverse).
    let toward = notion
        .lower()
        .and_then(|l| toward_prior(p, l))
        .filter(|m| meets(m))
        .map(valued);
    let candidates = [&b.pml_calibrated, &b.same_ldp]
        .into_iter()
        .map(|r| (&r.mechanism, r.utility))
        .chain(b.structured.iter().map(|s| (&s.mechanism, s.utility)))
        .chain(subsets.as_ref().map(|(m, v)| (m, *v)))
        .chain(responses.as_ref().map(|(m, v)| (m, *v)))
        .chain(cyclic.as_ref().map(|(m, v)| (m, *v)))
        .chain(toward.as_ref().map(|(m, v)| (m, *v)));
    candidates
        .filter(|(m, value)| value.is_finite() && meets(m))
        // The highest value; the first of equal ones (`min_by` keeps the first).
        .min_by(|a, b| b.1.total_cmp(&a.1))
        .map(|(m, value)| (m.clone(), value))
        .ok_or_else(|| {
            ModelError::invalid(
                "utility",
                ESTIMATION_UTILITY_NAME,
                "no mechanism at this level lets every input be estimated",
                smallest_level(notion),
            )
            .into()
        })
}

/// Whether `m` meets the notion over the whole set, as measured.
fn meets(m: &Mechanism, set: &UncertaintySet, notion: &Notion) -> bool {
    NotionLevels::measure_notion(m, set, notion).excess(notion) <= crate::tolerance::PML_TOLERANCE
}

/// What to raise where no candidate lets every input be estimated: a level of 0
/// allows only mechanisms whose output is independent of the input, and any
/// positive level allows randomized response, whose inputs can all be estimated.
fn smallest_level(notion: &Notion) -> String {
    let zero = match notion {
        Notion::Alip { epsilon_lower, .. } if *epsilon_lower <= 0.0 => Some("epsilon_lower"),
        Notion::Alip { epsilon_upper, .. } if *epsilon_upper <= 0.0 => Some("epsilon_upper"),
        Notion::Alip { .. } => None,
        n => (n.epsilon() <= 0.0).then_some("epsilon"),
    };
    match zero {
        Some(level) => format!(
            "give {level} > 0: at a level of 0 no output depends on the input, and at any positive level randomized response lets every input be estimated"
        ),
        None => "raise epsilon".into(),
    }
}

/// k-subset selection at its best size, calibrated to the notion, where its
/// outputs are few enough to write out ([`crate::reference::literature`]).
fn subset_selection(
    set: &UncertaintySet,
    notion: &Notion,
    p: ArrayView1<f64>,
) -> Option<Mechanism> {
    let level = Level::of(notion, set)?;
    let mut sorted = p.to_vec();
    sorted.sort_by(f64::total_cmp);
    let (size, a) = best_size(&sorted, &level)?;
    subset_mechanism(p.len(), size, a)
}

/// Past enumeration under eps-PML of a known prior or of an l1 ball within
/// Proposition 2, and eps-LIP and ALIP of a known prior, where the start's
/// error (`-value`) is more than [`SAMPLED_START_ABOVE_FLOOR`] times the
/// floor's: the start by systematic sampling ([`systematic`]) where it is
/// better, then at [`MIRROR_SIZES`] its pieces weighted and joined by priced
/// rays in rounds of mirror descent ([`mirror_rounds`]); without that start,
/// for a known prior at [`SAMPLED_START_SIZES`], rays sampled at the notion's
/// two levels ([`sampled_start`]) weighted with randomized response (at the
/// same PML under eps-PML, else at the same LDP level, which meets LIP and
/// ALIP). Under eps-LDP, at [`LDP_MIRROR_SIZES`] where the start's error is
/// more than [`LDP_MIRROR_ABOVE_FLOOR`] times the floor's, rounds of mirror
/// descent from the start itself; past them, the start by systematic
/// sampling of equal masses at [`ldp_levels`] (sampled d-subsets). Either
/// replaces the start where it is better, within its share of the loop's time ([`share_of`]). With its value
/// (minus the error).
pub(super) fn sampled(
    set: &UncertaintySet,
    notion: &Notion,
    (start, value): (Mechanism, f64),
    (b, least): (&Baselines, f64),
    settings: &Settings,
    began: Instant,
) -> (Mechanism, f64) {
    let reference = set.reference();
    let p = reference.view();
    let above = |factor: f64| -value > factor * (least - p.dot(&p));
    let by_ascent = crate::limits::estimation_by_ascent(notion, set) && Pool::applies(p);
    if let Notion::Ldp { epsilon } = notion {
        let equal = || Array1::from_elem(p.len(), 1.0 / p.len() as f64);
        return match (by_ascent, LDP_MIRROR_SIZES.contains(&set.len())) {
            (true, false) => systematic(
                (p, equal().view()),
                ldp_levels(*epsilon),
                value,
                settings,
                false,
            )
            .filter(|(m, _)| meets(m, set, notion))
            .unwrap_or((start, value)),
            (true, true) if above(LDP_MIRROR_ABOVE_FLOOR) => built(
                set,
                notion,
                (start, value),
                Built::Mirror,
                (settings, began),
            ),
            _ => (start, value),
        };
    }
    let Some((levels, lower)) = levels(set, notion) else {
        return (start, value);
    };
    let known = matches!(set, UncertaintySet::Known { .. });
    let past_proposition_2 = matches!(set, UncertaintySet::L1Ball { center, beta, .. }
        if !within_proposition_2(center, *beta));
    if past_proposition_2 && Pool::applies(p) && above(SAMPLED_START_ABOVE_FLOOR) {
        // No pricing there: the systematic start alone, measured over the
        // whole ball before it is taken.
        return systematic((p, p), levels, value, settings, false)
            .filter(|(m, _)| meets(m, set, notion))
            .unwrap_or((start, value));
    }
    let block = match lower {
        false => &b.pml_calibrated.mechanism,
        true => &b.same_ldp.mechanism,
    };
    if !(by_ascent && above(SAMPLED_START_ABOVE_FLOOR)) {
        return (start, value);
    }
    let newton = SAMPLED_START_SIZES.contains(&set.len());
    // Rounds follow the systematic start: leave them room (the sampled rays'
    // sizes are within the rounds').
    let rounds = MIRROR_SIZES.contains(&set.len());
    let better = systematic((p, p), levels, value, settings, rounds);
    let systematic_start = better.is_some();
    let (start, value) = better.unwrap_or((start, value));
    let how = match systematic_start && rounds {
        true => Built::Mirror,
        false if newton && known => Built::Sampled { block, levels },
        false => return (start, value),
    };
    built(set, notion, (start, value), how, (settings, began))
}

/// How a start is built from another: rounds of mirror descent from its
/// columns, or sampled rays weighted with `block` at the notion's `levels`.
enum Built<'a> {
    Mirror,
    Sampled {
        block: &'a Mechanism,
        levels: (f64, f64),
    },
}

/// The start built from `start` as `how` says, where it is better and fits
/// what a reader takes, within its share of the loop's time ([`share_of`]):
/// the rounds stop where the next step would pass that share, and none
/// starts where the share does not cover four (the first few gain the most).
fn built(
    set: &UncertaintySet,
    notion: &Notion,
    (start, value): (Mechanism, f64),
    how: Built,
    (settings, began): (&Settings, Instant),
) -> (Mechanism, f64) {
    let reference = set.reference();
    let p = reference.view();
    let mirror = matches!(how, Built::Mirror);
    let cg = &settings.column_generation;
    let step = match mirror {
        true => mirror_step(set.len(), start.outputs()),
        false => newton_step(set.len()),
    };
    let share = cg
        .estimation_deadline_from(began, set.len(), after_loop(&start, notion, set))
        .map(|d| began + d.saturating_duration_since(began).mul_f64(share_of(mirror)));
    if share.is_some_and(|h| h.saturating_duration_since(Instant::now()) < 4 * step) {
        return (start, value);
    }
    let last = share.map(|h| h - step);
    let stop = || cg.interrupt.or_past(last);
    let Ok(cone) = ColumnCone::for_notion(set, notion) else {
        return (start, value);
    };
    let mixed = match how {
        Built::Mirror => mirror_rounds(
            &start,
            p,
            (&cone, crate::limits::most_outputs(p.len())),
            &stop,
        ),
        Built::Sampled { block, levels } => sampled_start(block, p, (levels, &cone), &stop),
    };
    let fits = |m: &Mechanism| crate::limits::outputs_fit(m.inputs(), m.outputs());
    match mixed.filter(fits).map(|m| (estimation_value(&m, p), m)) {
        Some((better, m)) if better > value => (m, better),
        _ => (start, value),
    }
}

/// The two density levels `(lo, hi)` the built starts' rays sit at, and
/// whether the notion has a lower level: `(0, e^eps)` under eps-PML of a known
/// prior, `(0, e^eps')` with `e^eps' = e^eps / (1 + beta/2 e^eps)` over an l1
/// ball of radius beta, within Proposition 2 or past it (a ray `0 <= v <=
/// e^eps'` with `p . v = 1` has `q . v >= 1 - beta/2 e^eps'` at every prior q of
/// the ball, so its densities stay within `e^eps` there: docs/theory.md §13),
/// `(e^-eps_l, e^eps_u)` under eps-LIP and ALIP of a known prior; `None`
/// elsewhere.
fn levels(set: &UncertaintySet, notion: &Notion) -> Option<((f64, f64), bool)> {
    let Some(DensityRange::Levels { lower, upper }) = notion.density_range() else {
        return None;
    };
    let top = match (set, lower) {
        (UncertaintySet::Known { .. }, _) => upper.exp(),
        (UncertaintySet::L1Ball { beta, .. }, None) => ball_exp_epsilon(upper, *beta),
        _ => return None,
    };
    Some((
        lower.map_or((0.0, top), |l| ((-l).exp(), top)),
        lower.is_some(),
    ))
}

/// The two levels of the systematic start's rays under eps-LDP: `(lo, lo
/// e^eps)` with a share `1 / (e^eps + 1)` of the mass at the higher level, the
/// share of the inputs the best d-subset mechanism reports under a uniform
/// prior (Ye & Barg), so `lo = (e^eps + 1) / (2 e^eps)`; every ray between
/// them meets eps-LDP (docs/theory.md §13).
fn ldp_levels(epsilon: f64) -> (f64, f64) {
    let e = epsilon.exp();
    let lo = (e + 1.0) / (2.0 * e);
    (lo, lo * e)
}

/// The share of the loop's time the built start may take: [`MIRROR_SHARE`]
/// for the mirror rounds, else [`SAMPLED_SHARE`].
fn share_of(mirror: bool) -> f64 {
    match mirror {
        true => MIRROR_SHARE,
        false => SAMPLED_SHARE,
    }
}

/// The start by systematic sampling at the notion's `levels`
/// ([`systematic_mechanism`], its outputs by [`systematic_outputs`]) of the
/// masses `laid` on its line (the prior's, or under eps-LDP equal masses,
/// whose pieces are d-subsets, Ye & Barg's mechanism sampled), with its value
/// at the prior `p`, where that is above `value`.
fn systematic(
    (p, laid): (ArrayView1<f64>, ArrayView1<f64>),
    levels: (f64, f64),
    value: f64,
    settings: &Settings,
    rounds: bool,
) -> Option<(Mechanism, f64)> {
    systematic_outputs(settings, p.len(), rounds)
        .and_then(|k| systematic_mechanism(laid, levels, k))
        .map(|m| {
            let v = estimation_value(&m, p);
            (m, v)
        })
        .filter(|(_, v)| *v > value)
}
