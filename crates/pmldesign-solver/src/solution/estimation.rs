//! What an analyst can estimate from m released rows of a design and of each of
//! its baselines (docs/theory.md §13), under the reference prior: the inputs
//! released alike, which only their total describes, and the estimate's expected
//! squared error times m in the m -> infinity limit (inverse Fisher information).
//! Derived from the matrices, so a stored copy is re-derived and compared when a
//! design is read. The advice compares mechanisms at the data's size where it is
//! known, by simulation ([`crate::solution::simulated`]): the limit can reverse
//! the comparison at real sizes.

use crate::objective::estimation::ESTIMATION_UTILITY_NAME;
use crate::objective::estimation::quick;
use crate::reference::baseline::BaselineRow;
use crate::reference::literature::HADAMARD;
use crate::solution::claims::{agree, altered};
use crate::solution::design::Design;
use crate::solution::simulated::SimulatedErrors;
use pmldesign_model::frequency::estimability;
use pmldesign_model::{Mechanism, Notion, UncertaintySet};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How the literature's rows end their names: figures, not mechanisms held.
pub const FIGURE_ONLY: &str = "(figure only)";

/// Inputs past which no estimation figures are derived: each row costs a
/// Fisher information (`N^2 K` for K outputs) and the trace of its inverse
/// (`N^3`), and every reader of a design file derives them again. The largest
/// design ([`crate::limits::MAX_ALPHABET`]): past
/// [`crate::limits::SCORED_SQUARE_UP_TO`] its table holds only the rows whose
/// error is quick to measure (`objective::estimation::quick`).
pub const ESTIMATION_UP_TO: usize = crate::limits::MAX_ALPHABET;

/// Seconds per term `N^2 K` of the rows the table measures from their
/// matrices (each a Fisher information and a pseudo-inverse) after a design
/// over N inputs with K outputs: 3.8e-10 s at N = 256 and 2.8e-10 s at
/// N = 1,024 on two cores (a whole table, its figures included), doubled.
const SECONDS_PER_TERM: f64 = 6e-10;

/// Seconds per `N^3` of Hadamard response's row past
/// [`crate::limits::SCORED_SQUARE_UP_TO`] inputs (writing it out, its notion
/// check, its Fisher information by the transform and the trace of its
/// inverse): 1.6 s at N = 4,096 on two cores, doubled.
const HADAMARD_SECONDS_PER_CUBE: f64 = 5e-11;

/// The time the table after a design for estimation from `m` under `notion`
/// and `set` is expected to take (none past [`ESTIMATION_UP_TO`] inputs,
/// where no table follows): a loop under a time limit leaves it this much.
/// Up to [`crate::limits::SCORED_SQUARE_UP_TO`] inputs every row is measured
/// like `m`; past it only Hadamard response is (the design's row is its
/// objective, the other rows are quick, [`quick`]).
pub(crate) fn table_time(m: &Mechanism, notion: &Notion, set: &UncertaintySet) -> Duration {
    let n = m.inputs();
    if n > ESTIMATION_UP_TO {
        return Duration::ZERO;
    }
    let figures = crate::solution::literature::figures_seconds(notion, set);
    let rows = match n <= crate::limits::SCORED_SQUARE_UP_TO {
        true => measuring_time(n, m.outputs()),
        false => Duration::from_secs_f64(HADAMARD_SECONDS_PER_CUBE * (n as f64).powi(3)),
    };
    rows + Duration::from_secs_f64(figures)
}

/// The time `rows` square mechanisms over `n` inputs take to measure for
/// their estimation figures (none past [`crate::limits::FIGURES_UP_TO`]
/// inputs): what a comparison leaves for its rows' figures.
pub(crate) fn square_rows_time(n: usize, rows: usize) -> Duration {
    if n > crate::limits::FIGURES_UP_TO {
        return Duration::ZERO;
    }
    measuring_time(n, n * rows)
}

/// [`SECONDS_PER_TERM`] for each term `N^2 K` of measuring mechanisms over `n`
/// inputs with `outputs` outputs in all.
fn measuring_time(n: usize, outputs: usize) -> Duration {
    Duration::from_secs_f64(SECONDS_PER_TERM * (n * n * outputs) as f64)
}

/// One mechanism's figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EstimationRow {
    /// `design`, or the baseline's label.
    pub mechanism: String,
    /// How many groups of inputs it releases alike (N when every input is
    /// identifiable alone).
    pub groups: usize,
    /// The groups of more than one input, by label: only their totals are
    /// estimable.
    pub merged: Vec<Vec<String>>,
    /// `m E||p^ - p||^2` at `q = W^T p` in the m -> infinity limit (inverse
    /// Fisher information: the inversion and EM estimates agree there); at a
    /// finite m the error can be far smaller (EM stays in the simplex). `None`
    /// when the groups' rows are linearly dependent (nothing is estimable alone).
    pub error_per_row: Option<f64>,
}

/// The design's figures, then its baselines' in their table order, then the
/// literature's mechanisms: those that are figures only, then Hadamard response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Estimation {
    /// One row per mechanism.
    pub rows: Vec<EstimationRow>,
    /// The errors at the data's size m, simulated when the design was made
    /// ([`Design::with_simulated_advice`]): what the advice compares where
    /// present. Absent for a design from a given prior (no m), or past the
    /// simulation's bounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simulated: Option<SimulatedErrors>,
    /// The advice ([`Estimation::advice`]) as a file states it: written with
    /// the design ([`Estimation::advised`]), re-derived when the design is
    /// read, never repeated from the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    advice: Option<String>,
}

impl Estimation {
    /// The figures of `d` and its baselines under its reference prior, then
    /// those of the literature's mechanisms where calibrated to `d`'s notion
    /// (figures only for those too large to list, then Hadamard response);
    /// `None` past [`ESTIMATION_UP_TO`] inputs, or past
    /// [`crate::limits::SCORED_SQUARE_UP_TO`] where the design's own error is
    /// not quick (`objective::estimation::quick`). The baselines are those `measured_baselines`
    /// lists.
    pub fn of(d: &Design) -> crate::Result<Option<Self>> {
        if d.labels.len() > ESTIMATION_UP_TO {
            return Ok(None);
        }
        let prior = d.uncertainty.reference().to_vec();
        let Some(design) = design_row(d, &prior)? else {
            return Ok(None);
        };
        let mut rows = vec![design];
        for b in measured_baselines(d) {
            rows.push(row(b.label, b.mechanism, &prior, &d.labels)?);
        }
        rows.extend(crate::solution::literature::rows(d, &prior, &rows[0])?);
        Ok(Some(Estimation {
            rows,
            simulated: None,
            advice: None,
        }))
    }

    /// Among the baselines of `d` that meet its notion at its level
    /// ([`Design::admits`]), the one that estimates every input's mass alone with
    /// the smallest error, when it is at least twice as accurate as the design
    /// (or the design merges inputs, or estimates nothing): the mechanism to
    /// release where the histogram is the goal, with its error's ratio to the
    /// design's (infinite when the design's is not defined per input). The
    /// errors compared are the simulated ones at the data's m where present, else
    /// those in the m -> infinity limit.
    pub fn better_baseline(&self, d: &Design) -> Option<(&EstimationRow, f64)> {
        let inputs = d.labels.len();
        let (design, baselines) = self.rows.split_first()?;
        let admitted: Vec<bool> = measured_baselines(d)
            .iter()
            .map(|r| d.admits(r.mechanism))
            .collect();
        let best = baselines
            .iter()
            .enumerate()
            .zip(admitted.iter().chain(std::iter::repeat(&false)))
            .filter(|&((_, r), &ok)| ok && r.groups == inputs)
            .filter_map(|((k, r), _)| self.compared_error(k + 1).map(|e| (r, e)))
            .min_by(|a, b| a.1.total_cmp(&b.1))?;
        let ratio = match self.compared_error(0) {
            Some(e) if design.groups == inputs => e / best.1.max(f64::MIN_POSITIVE),
            _ => f64::INFINITY,
        };
        (ratio >= 2.0).then_some((best.0, ratio))
    }

    /// Row `k`'s error as the advice compares it: simulated at the data's m where
    /// a simulation is present, else in the m -> infinity limit.
    fn compared_error(&self, k: usize) -> Option<f64> {
        match &self.simulated {
            Some(s) => s.error_per_row.get(k).copied().flatten(),
            None => self.rows.get(k)?.error_per_row,
        }
    }

    /// Each row's mechanism as a table beside `d` names it: `design`, then the
    /// baselines, those that fail `d`'s notion marked ([`Design::baseline_label`]).
    pub fn labels(&self, d: &Design) -> Vec<String> {
        let baselines = measured_baselines(d);
        self.rows
            .iter()
            .enumerate()
            .map(
                |(k, row)| match k.checked_sub(1).and_then(|b| baselines.get(b)) {
                    Some(b) if b.label == row.mechanism => d.baseline_label(b),
                    _ => row.mechanism.clone(),
                },
            )
            .collect()
    }

    /// This estimation with its advice for `d` filled in, as a file states it.
    pub(crate) fn advised(mut self, d: &Design) -> Self {
        self.advice = self.advice(d);
        self
    }

    /// The sentence saying which baseline of `d` serves estimating the histogram
    /// better than `d` itself, if one does by at least 2x
    /// ([`Estimation::better_baseline`]), and what the comparison assumed: the
    /// data's m and the simulation (seed, replicates; "not re-checked" for a
    /// copy read from a file), or the m -> infinity limit.
    pub fn advice(&self, d: &Design) -> Option<String> {
        if let Some(sentence) = self.design_for_estimation(d) {
            return Some(sentence);
        }
        let (best, ratio) = self.better_baseline(d)?;
        let (name, utility) = (&best.mechanism, &d.utility_name);
        let why = format!("the design maximises {utility}, not estimation accuracy");
        if !ratio.is_finite() {
            return Some(format!(
                "to estimate the input distribution, {name} determines every input's mass and the design does not ({why}): release it where the histogram is the goal"
            ));
        }
        Some(match &self.simulated {
            Some(s) => format!(
                "to estimate the input distribution from m = {} rows, {name} is {ratio:.1} times more accurate than the design (EM, {}; {why}): release it where the histogram is the goal",
                s.rows,
                s.basis()
            ),
            None => format!(
                "to estimate the input distribution, {name} is {ratio:.1} times more accurate than the design in the m -> infinity limit ({why}; not simulated at a finite m, where the comparison can reverse): release it where the histogram is the goal"
            ),
        })
    }

    /// The sentence naming a design for estimation where the best of the
    /// literature's mechanisms (k-subset selection, OUE, Hadamard response;
    /// those meeting `d`'s notion) is at least twice as accurate as `d` in the
    /// m -> infinity limit, `d` is not itself a design for estimation, and one
    /// can be made for its notion and set (docs/concepts/estimation.md).
    fn design_for_estimation(&self, d: &Design) -> Option<String> {
        if d.utility_name == ESTIMATION_UTILITY_NAME
            || !crate::limits::estimation_designable(&d.notion, &d.uncertainty)
        {
            return None;
        }
        let (design, rest) = self.rows.split_first()?;
        let fails = d.fails_mark();
        let literature = rest.iter().filter(|r| {
            (r.mechanism.ends_with(FIGURE_ONLY) || r.mechanism.starts_with(HADAMARD))
                && !r.mechanism.ends_with(&fails)
        });
        let (row, best) = literature
            .filter_map(|r| r.error_per_row.map(|e| (r, e)))
            .min_by(|a, b| a.1.total_cmp(&b.1))?;
        // At the data's m where simulated (a merging design's EM error can be
        // far below its limit there), else in the limit.
        let (design_error, basis) = match &self.simulated {
            Some(s) => (
                self.compared_error(0),
                format!("EM's error through the design at the data's m = {}", s.rows),
            ),
            None => (
                design
                    .error_per_row
                    .filter(|_| design.groups == d.labels.len()),
                "the design's in that limit".to_string(),
            ),
        };
        let ratio = design_error.map_or(f64::INFINITY, |e| e / best.max(f64::MIN_POSITIVE));
        if ratio < 2.0 {
            return None;
        }
        let name = row.mechanism.trim_end_matches(FIGURE_ONLY).trim_end();
        let what = "a design for estimation (--utility estimation) minimises that error";
        let utility = &d.utility_name;
        Some(match ratio.is_finite() {
            true => format!(
                "to estimate the input distribution, {name} has {best:.6} per row in the m -> infinity limit, {ratio:.1} times less than {basis} (the design maximises {utility}): {what}"
            ),
            false => format!(
                "to estimate the input distribution, {name} determines every input's mass ({best:.6} per row in the m -> infinity limit) and the design does not (it maximises {utility}): {what}"
            ),
        })
    }

    /// A stored copy against the figures re-derived from `d`: the same rows,
    /// names and groups, errors within 1e-9 relative; the simulated figures
    /// checked for shape only, kept and marked not re-checked
    /// (`SimulatedErrors::check`).
    pub fn check(&self, d: &Design) -> crate::Result<Self> {
        let derived = Estimation::of(d)?;
        // A file may predate the literature's rows (figures only, then
        // Hadamard response, listed last) or Hadamard response alone: its rows
        // are then the derived ones without them.
        let without = |e: &Estimation, later: &dyn Fn(&str) -> bool| {
            e.rows.len() - e.rows.iter().filter(|r| later(&r.mechanism)).count()
        };
        let hadamard = |name: &str| name.starts_with(HADAMARD);
        let literature = |name: &str| hadamard(name) || name.ends_with(FIGURE_ONLY);
        let fits = |e: &Estimation| {
            let lengths = [e.rows.len(), without(e, &hadamard), without(e, &literature)];
            lengths.contains(&self.rows.len())
        };
        let Some(derived) = derived.filter(fits) else {
            return Err(altered(
                "estimation.rows",
                self.rows.len(),
                "the design and its baselines do not have these estimation figures",
            ));
        };
        for (k, (stated, again)) in self.rows.iter().zip(&derived.rows).enumerate() {
            let field = |name: &str| format!("estimation.rows[{k}].{name}");
            let shown = |m: &[Vec<String>]| format!("{m:?}");
            let names = [
                (
                    "mechanism",
                    stated.mechanism.clone(),
                    again.mechanism.clone(),
                ),
                (
                    "groups",
                    stated.groups.to_string(),
                    again.groups.to_string(),
                ),
                ("merged", shown(&stated.merged), shown(&again.merged)),
            ];
            if let Some((name, s, a)) = names.into_iter().find(|(_, s, a)| s != a) {
                return Err(altered(&field(name), s, &format!("re-derived it is {a}")));
            }
            match (stated.error_per_row, again.error_per_row) {
                (Some(s), Some(a)) => agree(&field("error_per_row"), s, a)?,
                (None, None) => {}
                (s, _) => {
                    let shown = s.map_or("null".to_string(), |v| v.to_string());
                    let problem = "re-derived, estimability differs";
                    return Err(altered(&field("error_per_row"), shown, problem));
                }
            }
        }
        let simulated = match &self.simulated {
            Some(s) => {
                let mut checked = s.check(self, d.labels.len())?;
                checked.error_per_row.resize(derived.rows.len(), None);
                Some(checked)
            }
            None => None,
        };
        Ok(Estimation {
            simulated,
            advice: None,
            ..derived
        })
    }
}

/// The design's own figures. A design for estimation whose inputs are released
/// apart has its error already: minus its objective, re-measured from the
/// same matrix at the same prior by the same function, whose Fisher
/// information and inverse would otherwise be computed twice (`N^2 K + N^3`,
/// seconds at 4,096 inputs). `None` where the error of any other design is
/// not [`quick`].
fn design_row(d: &Design, prior: &[f64]) -> crate::Result<Option<EstimationRow>> {
    let name = "design".to_string();
    if d.utility_name == ESTIMATION_UTILITY_NAME && d.utility_value.is_finite() {
        let groups = pmldesign_model::frequency::equal_rows(&d.mechanism);
        if groups.len() == d.labels.len() {
            return Ok(Some(EstimationRow {
                mechanism: name,
                groups: groups.len(),
                merged: Vec::new(),
                error_per_row: Some(-d.utility_value),
            }));
        }
    }
    match quick(&d.mechanism) {
        true => row(name, &d.mechanism, prior, &d.labels).map(Some),
        false => Ok(None),
    }
}

/// The baselines of `d` a table lists, in their order: those whose matrix `d`
/// holds (not the placeholder of a matrix a file left out, or a loss
/// baseline's past 2^20 entries) and whose error is [`quick`]. Row `k + 1` of
/// the table is baseline `k` of this list.
pub(crate) fn measured_baselines(d: &Design) -> Vec<BaselineRow<'_>> {
    let inputs = d.labels.len();
    let mut rows = d.baselines.rows();
    rows.retain(|b| b.mechanism.inputs() == inputs && quick(b.mechanism));
    rows
}

/// The figures of one mechanism `m` under `prior`, its inputs named `labels`.
pub(crate) fn row(
    name: String,
    m: &Mechanism,
    prior: &[f64],
    labels: &[String],
) -> crate::Result<EstimationRow> {
    let e = estimability(m, prior)?;
    let merged = e
        .groups
        .iter()
        .filter(|g| g.len() > 1)
        .map(|g| g.iter().map(|&x| labels[x].clone()).collect())
        .collect();
    Ok(EstimationRow {
        mechanism: name,
        groups: e.groups.len(),
        merged,
        error_per_row: e.error_per_row,
    })
}
