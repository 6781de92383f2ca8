//! The literature's estimation mechanisms as rows of the estimation table
//! (docs/theory.md §13), calibrated to the design's notion and level where a
//! closed calibration exists ([`crate::reference::literature`]) and left out
//! elsewhere. k-subset selection at its best subset size and optimised unary
//! encoding, whose outputs are too many to list, are figures only (the error of
//! the maximum-likelihood estimate under the reference prior, computed without
//! their outputs): no row of the table is released from them. Hadamard
//! response, with at most 2N outputs, is written out and measured from its
//! matrix like a baseline, then listed last.

use crate::reference::literature::{Level, best_size, hadamard, hadamard_label};
use crate::solution::design::Design;
use crate::solution::estimation::{EstimationRow, FIGURE_ONLY, row as measured};
use ndarray::ArrayView1;
use pmldesign_model::frequency::{subset_error, unary_error};
use pmldesign_model::{Notion, UncertaintySet};

/// Work past which k-subset selection's figure is not computed: the distinct
/// masses times the inputs times the subset size (per quadrature node).
const SUBSET_WORK_UP_TO: usize = 5_000_000;

/// Seconds per unit of that work on two cores: 1.35 s for the 4.5e6 of the
/// 69-subset figure under 1-LDP at a Zipf prior of 256 masses, rounded up.
const SUBSET_SECONDS_PER_WORK: f64 = 4e-7;

/// The rows of `d`'s table for the mechanisms of the literature, under `prior`:
/// the figures, then Hadamard response, marked `(fails NOTION)` where it does
/// not meet `d`'s notion ([`Design::admits`]) as a baseline would be. Where
/// Hadamard response is the design itself (a design for estimation that kept
/// it as its start), it takes the design's figures, `design`, measured once.
pub(crate) fn rows(
    d: &Design,
    prior: &[f64],
    design: &EstimationRow,
) -> crate::Result<Vec<EstimationRow>> {
    let Some(level) = Level::of(&d.notion, &d.uncertainty) else {
        return Ok(Vec::new());
    };
    let mut rows = figures(&level, prior);
    if let Some(m) = hadamard(ArrayView1::from(prior), &level) {
        let name = hadamard_label(&m);
        if m.matrix() == d.mechanism.matrix() {
            rows.push(EstimationRow {
                mechanism: name,
                ..design.clone()
            });
            return Ok(rows);
        }
        let name = match d.admits(&m) {
            true => name,
            false => format!("{name} {}", d.fails_mark()),
        };
        rows.push(measured(name, &m, prior, &d.labels)?);
    }
    Ok(rows)
}

/// The figures-only rows under `prior` at `level`: k-subset selection and OUE,
/// for at least 3 inputs.
fn figures(level: &Level, prior: &[f64]) -> Vec<EstimationRow> {
    let k = prior.len();
    let Some(sorted) = ascending(prior) else {
        return Vec::new();
    };
    let p = ArrayView1::from(prior);
    let mut rows = Vec::new();
    if let Some((size, a, _)) = subset_figure(&sorted, level) {
        rows.push(row(
            format!("{size}-subset selection {FIGURE_ONLY}"),
            k,
            subset_error(p, size, a),
        ));
    }
    if let Some(a) = level.boost(sorted[0]) {
        rows.push(row(
            format!("unary encoding, OUE {FIGURE_ONLY}"),
            k,
            unary_error(p, a),
        ));
    }
    rows
}

/// k-subset selection's figure under the prior `sorted` (ascending) at
/// `level`: its best size, boost and work (distinct masses times inputs times
/// size), `None` where no size meets the level or the work is past
/// [`SUBSET_WORK_UP_TO`].
fn subset_figure(sorted: &[f64], level: &Level) -> Option<(usize, f64, usize)> {
    let (size, a) = best_size(sorted, level)?;
    let mut distinct = sorted.to_vec();
    distinct.dedup();
    let work = distinct.len() * sorted.len() * size;
    (work <= SUBSET_WORK_UP_TO).then_some((size, a, work))
}

/// The seconds the figures of the table under `notion` and `set` are expected
/// to take: k-subset selection's ([`SUBSET_SECONDS_PER_WORK`]; OUE's closed
/// form is immediate).
pub(crate) fn figures_seconds(notion: &Notion, set: &UncertaintySet) -> f64 {
    let (Some(level), Some(sorted)) =
        (Level::of(notion, set), ascending(&set.reference().to_vec()))
    else {
        return 0.0;
    };
    subset_figure(&sorted, &level).map_or(0.0, |(_, _, work)| SUBSET_SECONDS_PER_WORK * work as f64)
}

/// The prior's masses in ascending order; `None` below three inputs, where the
/// table shows no figure (its 1-subset is randomized response).
fn ascending(prior: &[f64]) -> Option<Vec<f64>> {
    (prior.len() >= 3).then(|| {
        let mut sorted = prior.to_vec();
        sorted.sort_by(f64::total_cmp);
        sorted
    })
}

fn row(mechanism: String, k: usize, error: Option<f64>) -> EstimationRow {
    EstimationRow {
        mechanism,
        groups: k,
        merged: Vec::new(),
        error_per_row: error,
    }
}
