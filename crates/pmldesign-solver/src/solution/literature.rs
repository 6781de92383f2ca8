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
/// not meet `d`'s notion ([`Design::admits`]) as a baseline would be.
pub(crate) fn rows(d: &Design, prior: &[f64]) -> crate::Result<Vec<EstimationRow>> {
    let Some(level) = Level::of(&d.notion, &d.uncertainty) else {
        return Ok(Vec::new());
    };
    let mut rows = figures(&level, prior);
    if let Some(m) = hadamard(ArrayView1::from(prior), &level) {
        let mut name = hadamard_label(&m);
        if !d.admits(&m) {
            name = format!("{name} {}", d.fails_mark());
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::literature::{HADAMARD, subset_mechanism};
    use pmldesign_model::measures::pml::eps_min;
    use pmldesign_model::{Notion, Prior, UncertaintySet};

    #[test]
    fn pml_calibration_meets_the_level_exactly() {
        let masses = vec![0.35, 0.25, 0.2, 0.12, 0.08];
        let prior = Prior::new(masses.clone()).unwrap();
        let mut sorted = masses.clone();
        sorted.sort_by(f64::total_cmp);
        for epsilon in [0.3, 1.0, 2.0] {
            let level = Level::Pml {
                epsilon,
                shift: 0.0,
            };
            for size in 1..5 {
                let smallest: f64 = sorted[..size].iter().sum();
                let Some(a) = level.boost(smallest) else {
                    // No finite boost: the level allows the set itself.
                    assert!(epsilon.exp() * smallest >= 1.0);
                    continue;
                };
                let leak = eps_min(&subset_mechanism(5, size, a).unwrap(), &prior);
                assert!(
                    (leak - epsilon).abs() < 1e-12,
                    "{size}: {leak} vs {epsilon}"
                );
            }
        }
    }

    /// k-subset selection under PMC, LIP and ALIP at the boost the level
    /// allows: the notion holds within 1e-12, and a boost 1e-6 larger breaks it.
    #[test]
    fn density_calibration_meets_the_level_exactly() {
        use pmldesign_model::measures::NotionLevels;
        let masses = vec![0.35, 0.25, 0.2, 0.12, 0.08];
        let set = UncertaintySet::known(Prior::new(masses.clone()).unwrap());
        let mut sorted = masses.clone();
        sorted.sort_by(f64::total_cmp);
        let notions = [
            Notion::Pmc { epsilon: 0.7 },
            Notion::Lip { epsilon: 1.0 },
            Notion::Alip {
                epsilon_lower: 0.5,
                epsilon_upper: 1.2,
            },
        ];
        for notion in notions {
            let level = Level::of(&notion, &set).unwrap();
            for size in 1..5 {
                let smallest: f64 = sorted[..size].iter().sum();
                let largest: f64 = sorted[5 - size..].iter().sum();
                let a = level.boost_range(smallest, largest).unwrap();
                let excess = |a: f64| {
                    let m = subset_mechanism(5, size, a).unwrap();
                    NotionLevels::measure_notion(&m, &set, &notion).excess(&notion)
                };
                assert!(excess(a) <= 1e-12, "{notion:?} {size}: {}", excess(a));
                assert!(
                    excess(a * (1.0 + 1e-6)) > 0.0,
                    "{notion:?} {size}: not binding"
                );
            }
        }
    }

    #[test]
    fn hadamard_response_is_calibrated_by_the_level() {
        let masses = [0.35, 0.25, 0.2, 0.12, 0.08];
        let prior = Prior::new(masses.to_vec()).unwrap();
        let p = ArrayView1::from(&masses);
        let least = pmldesign_model::frequency::hadamard_least_mass(p).unwrap();
        for epsilon in [0.3f64, 1.0, 2.0] {
            let ldp = hadamard(p, &Level::Ldp(epsilon)).unwrap();
            let measured = pmldesign_model::measures::ldp::ldp_parameter(&ldp);
            assert!(
                (measured - epsilon).abs() < 1e-12,
                "{measured} vs {epsilon}"
            );
            let shift = 0.0;
            match hadamard(p, &Level::Pml { epsilon, shift }) {
                Some(m) => {
                    let leak = eps_min(&m, &prior);
                    assert!((leak - epsilon).abs() < 1e-12, "{leak} vs {epsilon}");
                }
                None => assert!(epsilon.exp() * least >= 1.0),
            }
        }
        assert!(hadamard(ArrayView1::from(&[1.0]), &Level::Ldp(1.0)).is_none());
    }

    #[test]
    fn a_stored_table_without_the_literature_rows_still_reads() {
        let set = UncertaintySet::known(Prior::new(vec![0.4, 0.3, 0.2, 0.1]).unwrap());
        let problem = crate::Problem::new(set).notion(Notion::Ldp { epsilon: 1.0 });
        let d = problem.solve().unwrap().with_estimation().unwrap();
        let full = d.estimation.clone().unwrap();
        assert!(full.rows.iter().any(|r| r.mechanism.ends_with(FIGURE_ONLY)));
        let last = full.rows.last().unwrap();
        assert!(last.mechanism.starts_with(HADAMARD), "{last:?}");
        // Before Hadamard response's row, and before every literature row.
        let mut older = full.clone();
        older.rows.pop();
        assert_eq!(older.check(&d).unwrap(), full);
        older.rows.retain(|r| !r.mechanism.ends_with(FIGURE_ONLY));
        assert_eq!(older.check(&d).unwrap(), full);
        older.rows.pop();
        assert!(older.check(&d).is_err());
        let mut altered = full.clone();
        altered.rows.remove(1);
        assert!(altered.check(&d).is_err());
        let mut altered = full.clone();
        altered.rows.truncate(full.rows.len() - 2);
        assert!(altered.check(&d).is_err());
    }
}
