//! The start of a design for estimation: the baseline of least error that
//! meets the notion, and past enumeration the starts built instead of chosen,
//! by systematic sampling and from sampled rays (docs/theory.md §13).

use super::after_loop;
use crate::design::sampled_start::{
    SAMPLED_SHARE, SAMPLED_START_ABOVE_FLOOR, SAMPLED_START_SIZES, newton_step, sampled_start,
};
use crate::design::simplicial::Pool;
use crate::design::systematic::{systematic_mechanism, systematic_outputs};
use crate::error::Result;
use crate::objective::estimation::{ESTIMATION_UTILITY_NAME, estimation_value};
use crate::reference::baseline::Baselines;
use crate::reference::literature::{
    Level, best_size, cyclic_design, hadamard, subset_mechanism, toward_prior,
};
use crate::settings::Settings;
use ndarray::ArrayView1;
use pmldesign_model::measures::NotionLevels;
use pmldesign_model::{ColumnCone, DensityRange, Mechanism, ModelError, Notion, UncertaintySet};
use std::time::Instant;

/// The baseline that meets the notion with the least error (randomized
/// response at the same LDP level always qualifies: its rows are independent),
/// or k-subset selection where it can be written out (else its cyclic design),
/// or Hadamard response, where either does better; with its value (minus the error), as the
/// baselines scored it.
pub(super) fn starting_point(
    b: &Baselines,
    set: &UncertaintySet,
    notion: &Notion,
    p: ArrayView1<f64>,
) -> Result<(Mechanism, f64)> {
    let valued = |m: Mechanism| {
        let value = estimation_value(&m, p);
        (m, value)
    };
    let subsets = subset_selection(set, notion, p).map(valued);
    let level = Level::of(notion, set);
    let responses = level.as_ref().and_then(|l| hadamard(p, l)).map(valued);
    // Where k-subset selection has too many outputs to write out, its cyclic
    // design stands in for it.
    let cyclic = match subsets {
        Some(_) => None,
        None => level.as_ref().and_then(|l| cyclic_design(p, l)).map(valued),
    };
    let meets = |m: &Mechanism| {
        NotionLevels::measure_notion(m, set, notion).excess(notion)
            <= crate::tolerance::PML_TOLERANCE
    };
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
/// better, then, for a known prior at [`SAMPLED_START_SIZES`], rays sampled at the
/// notion's two levels ([`sampled_start`]) weighted with that start, or else
/// with randomized response (at the same PML under eps-PML, else at the same
/// LDP level, which meets LIP and ALIP), in place of the start where that is
/// better; within the [`SAMPLED_SHARE`] of the loop's time. With its value
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
    let norm = p.dot(&p);
    let range = notion.density_range();
    let Some(DensityRange::Levels { lower, upper }) = range else {
        return (start, value);
    };
    // Over an l1 ball (eps-PML within Proposition 2) a column's densities at
    // the centre are bounded by e^eps' instead.
    let known = matches!(set, UncertaintySet::Known { .. });
    let top = match (set, lower) {
        (UncertaintySet::Known { .. }, _) => upper.exp(),
        (UncertaintySet::L1Ball { .. }, None) => match ColumnCone::for_notion(set, notion) {
            Ok(cone) => cone.effective_exp_epsilon(),
            Err(_) => return (start, value),
        },
        _ => return (start, value),
    };
    let (levels, block) = match lower {
        None => ((0.0, top), &b.pml_calibrated.mechanism),
        Some(l) => (((-l).exp(), top), &b.same_ldp.mechanism),
    };
    let far = -value > SAMPLED_START_ABOVE_FLOOR * (least - norm);
    if !(crate::limits::estimation_by_ascent(notion, set) && far && Pool::applies(p)) {
        return (start, value);
    }
    let newton = known && SAMPLED_START_SIZES.contains(&set.len());
    let better = systematic(p, levels, value, settings, newton);
    let systematic_start = better.is_some();
    let (start, value) = better.unwrap_or((start, value));
    if !newton {
        return (start, value);
    }
    // The restricted problem starts from the systematic start, else `block`.
    let block = if systematic_start { &start } else { block };
    // Newton steps stop where the next would pass half of the loop's time,
    // and none starts where that half does not cover four (the first few
    // gain the most).
    let cg = &settings.column_generation;
    let step = newton_step(set.len());
    let share = cg
        .estimation_deadline_from(began, set.len(), after_loop(&start, notion, set))
        .map(|d| began + d.saturating_duration_since(began).mul_f64(SAMPLED_SHARE));
    if share.is_some_and(|h| h.saturating_duration_since(Instant::now()) < 4 * step) {
        return (start, value);
    }
    let last = share.map(|h| h - step);
    let cone = ColumnCone::for_notion(set, notion).ok();
    let mixed = cone
        .and_then(|cone| sampled_start(block, p, (levels, &cone), &|| cg.interrupt.or_past(last)));
    let fits = |m: &Mechanism| crate::limits::outputs_fit(m.inputs(), m.outputs());
    match mixed.filter(fits).map(|m| (estimation_value(&m, p), m)) {
        Some((better, m)) if better > value => (m, better),
        _ => (start, value),
    }
}

/// The start by systematic sampling at the notion's `levels`
/// ([`systematic_mechanism`], its outputs by [`systematic_outputs`]), with its
/// value, where that is above `value`.
fn systematic(
    p: ArrayView1<f64>,
    levels: (f64, f64),
    value: f64,
    settings: &Settings,
    newton: bool,
) -> Option<(Mechanism, f64)> {
    systematic_outputs(settings, p.len(), newton)
        .and_then(|k| systematic_mechanism(p, levels, k))
        .map(|m| {
            let v = estimation_value(&m, p);
            (m, v)
        })
        .filter(|(_, v)| *v > value)
}
