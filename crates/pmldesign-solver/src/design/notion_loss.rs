//! Label-dependent losses under every notion (docs/theory.md §4c): the loss LP of
//! the `loss` module with the column cone of PMC, ALIP, LIP or LDP in place of
//! PML's, certified by re-measuring the notion from the matrix.
//!
//! Two ways to solve it, as for PML:
//!
//! - the direct LP ([`crate::design::notion_lp`]) for every notion and set, with the
//!   cone in sparse form (auxiliary variables per output, below);
//! - column generation where the slice `{v in cone, r . v = 1}` has an exact
//!   linear minimiser: a box `lo <= v_x <= hi` with `p . v = 1` for PMC, ALIP and
//!   LIP under a known prior ([`BoxSlice`], a fractional knapsack), and the
//!   staircase slice `m <= v_x <= e^eps m` of LDP for any set ([`StaircaseSlice`]:
//!   by Dinkelbach's argument the minimiser raises a prefix of the order of
//!   `a_x / r_x`, so N + 1 candidates). LDP losses decompose per output column as
//!   PML's do. The discrete metric is LDP;
//! - the line metric's slice, whose vertices are walks (the `line_metric` module),
//!   started from the truncated geometric mechanism.
//!
//! The cones' sparse forms are in `cones/notion_form.rs`.

use crate::colgen::engine::Progress;
use crate::cones::notion_form::{dual_bound, notion_form};
use crate::design::loss::Solved;
use crate::design::loss_colgen::ColumnGenerationResult;
use crate::design::loss_direct::ENTRY_CUTOFF;
use crate::error::Result;
use crate::lp::backend::until_deadline;
use crate::objective::loss::Loss;
use crate::pricing::notion_slices::slice_of;
use crate::settings::LossMethod;
use crate::solution::certificate::Certificate;
use crate::solution::design::DesignStatus;
use crate::solution::loss::LossDesign;
use crate::solution::route::Route;
use ndarray::{Array2, Axis};
use pmldesign_model::measures::NotionLevels;
use pmldesign_model::{Mechanism, Metric, ModelError, Notion, UncertaintySet};

/// Minimises the expected `loss` under the reference prior of `set` over N x N
/// mechanisms that satisfy `notion` for every prior of `set` (module docs); PML
/// goes to [`crate::design::loss::minimise_loss_with_progress`].
pub fn minimise_notion_loss(
    set: &UncertaintySet,
    notion: &Notion,
    loss: &Loss,
    settings: &crate::Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<LossDesign> {
    notion.check_alphabet(set.len())?;
    if let Notion::Pml { epsilon } = *notion {
        return crate::design::loss::minimise_loss_with_progress(
            set, epsilon, loss, settings, progress,
        );
    }
    let n = set.len();
    let d = loss.matrix(n)?;
    let p = set.reference();
    let c = &d * &p.view().insert_axis(Axis(1));
    let identity = Mechanism::identity(n);
    let mut solved = if NotionLevels::measure_notion(&identity, set, notion).excess(notion) <= 0.0 {
        crate::design::loss::cheapest_labels(&d, &c)?
    } else {
        let capped = crate::limits::capped_levels(notion);
        let mut s = by_lp(set, &capped, &c, settings, progress)?;
        if capped != *notion {
            s.lower_bound = crate::objective::loss::free_lower_bound(&c);
            s.dual = None;
        }
        s
    };
    solved.mechanism =
        crate::design::settle::meet_target(solved.mechanism, set, notion, p.view(), true)?;
    let value = crate::objective::loss::expected_loss(&solved.mechanism, p.view(), d.view());
    let certificate = Certificate::check_notion_feasible(
        &solved.mechanism,
        set,
        notion,
        -value,
        -solved.lower_bound,
    )?;
    Ok(solved.into_design(notion.epsilon(), loss, value, certificate))
}

/// Column generation where [`slice_of`] finds an exact slice, the direct LP
/// otherwise or as the fallback (as for PML in the `loss` module).
fn by_lp(
    set: &UncertaintySet,
    notion: &Notion,
    c: &Array2<f64>,
    settings: &crate::Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<Solved> {
    let slice = slice_of(set, notion);
    let asked = settings.loss_method;
    let use_cg = match (asked, &slice) {
        (LossMethod::ColumnGeneration, None) => {
            return Err(ModelError::invalid(
                "method",
                "column_generation",
                format!(
                    "column generation for {} losses needs LDP, the discrete or line metric, or PMC/ALIP/LIP with a known prior",
                    notion.name()
                ),
                "use LossMethod::Auto or LossMethod::Direct for this notion and set",
            )
            .into());
        }
        (LossMethod::ColumnGeneration, Some(_)) => true,
        (LossMethod::Auto, Some(_)) => !cfg!(feature = "highs"),
        _ => false,
    };
    if let (true, Some(slice)) = (use_cg, slice) {
        match crate::design::loss_colgen::column_generation(slice, c, settings, progress) {
            Ok(cg) => return from_column_generation(cg, notion, c),
            Err(e) if asked == LossMethod::ColumnGeneration => return Err(e),
            Err(_) => {}
        }
    }
    direct(set, notion, c, settings)
}

fn from_column_generation(
    cg: ColumnGenerationResult,
    notion: &Notion,
    c: &Array2<f64>,
) -> Result<Solved> {
    Ok(Solved {
        method: LossMethod::ColumnGeneration,
        route: Route::ColumnGeneration,
        mechanism: clean_columns(lifted(cg.w, notion)?)?,
        lower_bound: cg
            .lower_bound
            .max(crate::objective::loss::free_lower_bound(c)),
        // Re-priced over the notion's slice by `Design::verify`.
        dual: cg
            .dual
            .map(crate::solution::loss::LossDual::ColumnGeneration),
        iterations: cg.iterations,
        status: crate::design::loss::stopped_or(cg.converged, DesignStatus::Optimal),
    })
}

/// The direct LP: primal with tightened factors, dual with exact ones, both
/// stopped at the loop's deadline ([`crate::Settings::loop_deadline`]). A
/// primal the clock stopped leaves the constant guess (private under every
/// notion, and replaced by a structured baseline where one loses less); a dual
/// it stopped leaves the bound of the loss without privacy. Either is reported
/// as a time-limit stop.
fn direct(
    set: &UncertaintySet,
    notion: &Notion,
    c: &Array2<f64>,
    settings: &crate::Settings,
) -> Result<Solved> {
    let deadline = settings.loop_deadline(c.nrows());
    let stopped = || settings.column_generation.interrupt.or_past(deadline);
    if stopped() {
        return crate::design::loss::stopped_direct(c);
    }
    let owned = std::sync::Arc::new(c.clone());
    let primal = notion_form(set, notion, true).and_then(|form| {
        let c = owned.clone();
        until_deadline(deadline, "notion loss LP (primal)", move || {
            crate::design::notion_lp::solve_primal(&form, &c, deadline)
        })
    });
    let w = match primal {
        Ok(w) => lifted(w, notion)?,
        Err(_) if stopped() => return crate::design::loss::stopped_direct(c),
        Err(e) => return Err(e),
    };
    let mechanism = clean_columns(w)?;
    let exact = std::sync::Arc::new(notion_form(set, notion, false)?);
    let form = exact.clone();
    let dual = until_deadline(deadline, "notion loss LP (dual)", move || {
        crate::design::notion_lp::solve_dual(&form, &owned, deadline)
    });
    let g = match dual {
        Ok(g) => g,
        Err(_) if stopped() => {
            return Ok(Solved {
                method: LossMethod::Direct,
                route: Route::DirectLp,
                mechanism,
                lower_bound: crate::objective::loss::free_lower_bound(c),
                dual: None,
                iterations: 0,
                status: DesignStatus::TimeLimit,
            });
        }
        Err(e) => return Err(e),
    };
    // Clamped as the bound clamps them: what is stored is what is proven.
    let g = g.mapv(|v| if v.is_finite() && v > 0.0 { v } else { 0.0 });
    let bound = dual_bound(&exact, c, &g);
    let dual = crate::solution::loss::NotionDual {
        g: g.outer_iter().map(|r| r.to_vec()).collect(),
        bound,
    };
    Ok(Solved {
        method: LossMethod::Direct,
        route: Route::DirectLp,
        mechanism,
        lower_bound: bound.max(crate::objective::loss::free_lower_bound(c)),
        dual: Some(crate::solution::loss::LossDual::Notion(dual)),
        iterations: 0,
        status: DesignStatus::Optimal,
    })
}

/// For metric privacy: the LP's W with rows renormalised, lifted to the envelope
/// ([`lift_to_envelope`] at `eps LIFT_MARGIN`); other notions pass unchanged.
fn lifted(w: Array2<f64>, notion: &Notion) -> Result<Array2<f64>> {
    let Notion::Metric { epsilon, metric } = notion else {
        return Ok(w);
    };
    let mut w = clean_columns(w)?.matrix().to_owned();
    let d = metric.distances(w.nrows())?;
    lift_to_envelope(&mut w, &d, *epsilon * LIFT_MARGIN);
    Ok(w)
}

/// The metric LP's solution is lifted to the envelope of the level
/// `eps (1 - 1e-9)`: every pair then has a relative slack of `1e-9 eps d`, so
/// renormalising the rows after (errors of about 1e-10) keeps it private.
const LIFT_MARGIN: f64 = 1.0 - 1e-9;

/// Raises every entry of each column to its lower envelope
/// `max_x' W[x'][y] e^(-eps d*(x, x'))` under the shortest-path closure d*:
/// the column becomes eps-d-private whatever it was (docs/theory.md §9), and
/// the LP's entries far below a column's largest (the geometric tails), which
/// carry the solver's absolute error, are repaired. Rows are renormalised
/// after, by [`clean_columns`].
fn lift_to_envelope(w: &mut Array2<f64>, d: &Array2<f64>, epsilon: f64) {
    let closure = Metric::shortest_paths(d);
    let n = w.nrows();
    w.mapv_inplace(|v| v.max(0.0));
    for mut col in w.columns_mut() {
        let top = col.to_owned();
        for x in 0..n {
            let floor = (0..n)
                .map(|x2| top[x2] / Metric::factor(epsilon, closure[[x, x2]]))
                .fold(0.0, f64::max);
            col[x] = col[x].max(floor);
        }
    }
}

/// A column with a zero entry and no entry above this is the LP solver's noise
/// (about its tolerance): it is dropped, since under PMC, LIP, LDP and metric
/// privacy a column with a zero is all zero.
const NOISE_COLUMN: f64 = 1e-9;

/// A column-generation LP solution as a mechanism: negatives to 0, columns whose
/// largest entry is at most [`ENTRY_CUTOFF`] to 0, and so are those with a zero
/// and no entry above [`NOISE_COLUMN`] (entries are not cut one by one: a lone
/// zero in a positive column breaks PMC and LDP), rows renormalised.
fn clean_columns(mut w: Array2<f64>) -> Result<Mechanism> {
    w.mapv_inplace(|v| v.max(0.0));
    for mut col in w.columns_mut() {
        let max = col.iter().copied().fold(0.0, f64::max);
        let has_zero = col.iter().any(|&v| v <= 0.0);
        if max <= ENTRY_CUTOFF || (has_zero && max <= NOISE_COLUMN) {
            col.fill(0.0);
        }
    }
    for mut row in w.outer_iter_mut() {
        let s = row.sum();
        if s <= 0.0 {
            return Err(crate::SolverError::Lp(
                "notion loss LP: a row of the solution is zero".to_string(),
            ));
        }
        row /= s;
    }
    Ok(Mechanism::new(w)?)
}
