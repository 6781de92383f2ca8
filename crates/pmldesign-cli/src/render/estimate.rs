//! `pml estimate` rendered: a table per group of inputs, the same as JSON (the
//! application layer's, `pmldesign_app::EstimateAnswer`), or CSV (label,
//! estimate, lower, upper, standard error).

use super::csv::csv_field;
use super::number::num;
use super::own_version;
use crate::args::Format;
use crate::error::CliError;
use pmldesign_app::EstimateAnswer;
use pmldesign_model::frequency::{FitTest, FrequencyMethod};
use std::fmt::Write as _;

/// The answer of `pml estimate` as a table, JSON or CSV.
pub fn render(r: &EstimateAnswer, format: Format) -> Result<String, CliError> {
    Ok(match format {
        Format::Json => own_version(&r.to_json())?,
        Format::Csv => csv(r),
        Format::Table => table(r),
    })
}

fn csv(r: &EstimateAnswer) -> String {
    let e = r.estimate();
    let mut out = String::from("label,estimate,lower,upper,standard_error");
    if r.bootstrap_check().is_some() {
        out.push_str(",bootstrap_lower,bootstrap_upper,bootstrap_standard_error");
    }
    out.push('\n');
    for g in 0..e.groups.len() {
        let _ = write!(
            out,
            "{},{},{},{},{}",
            csv_field(&r.label(g)),
            e.estimate[g],
            e.lower[g],
            e.upper[g],
            e.standard_error[g]
        );
        if let Some(b) = r.bootstrap_check() {
            let _ = write!(
                out,
                ",{},{},{}",
                b.lower[g], b.upper[g], b.standard_error[g]
            );
        }
        out.push('\n');
    }
    out
}

fn table(r: &EstimateAnswer) -> String {
    let e = r.estimate();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "estimate of the input distribution from {} released rows ({}, {:.0} % intervals)",
        e.rows,
        r.method(),
        100.0 * e.confidence
    );
    if let Some(note) = r.unverified() {
        let _ = writeln!(out, "note: {note}");
    }
    if !e.converged {
        let _ = writeln!(
            out,
            "note: EM stopped at its cap of {} iterations before certifying the maximum likelihood",
            e.iterations
        );
    } else if let (FrequencyMethod::Em, Some(gap)) = (e.method, e.likelihood_gap) {
        let _ = writeln!(
            out,
            "maximum likelihood certified: within {} nats of the maximum",
            num(gap)
        );
    }
    let alike = |g: &usize| !e.dependent.get(*g).copied().unwrap_or(false);
    let merged = (0..e.groups.len())
        .filter(alike)
        .filter(|&g| e.groups[g].len() > 1)
        .count();
    if merged > 0 {
        let _ = writeln!(
            out,
            "note: {merged} group(s) of inputs are released alike: only each group's total is estimable"
        );
    }
    for block in r.block_notes() {
        let _ = writeln!(out, "note: {block}");
    }
    fit_lines(r.fit(), &mut out);
    let width = (0..e.groups.len())
        .map(|g| r.label(g).len())
        .max()
        .unwrap_or(5)
        .max(5);
    let head = ["estimate", "lower", "upper", "std. error"].map(String::from);
    interval_row(&mut out, ("input", width), &head);
    if let Some(b) = r.bootstrap_check() {
        let _ = write!(
            out,
            "  |  bootstrap ({} replicates): {:>10}  {:>10}  {:>10}",
            b.reps, "lower", "upper", "std. error"
        );
    }
    out.push('\n');
    for g in 0..e.groups.len() {
        let values = [e.estimate[g], e.lower[g], e.upper[g], e.standard_error[g]];
        interval_row(&mut out, (&r.label(g), width), &values.map(num));
        if let Some(b) = r.bootstrap_check() {
            let pad = format!("bootstrap ({} replicates):", b.reps).len();
            let _ = write!(
                out,
                "  |  {:pad$} {:>10}  {:>10}  {:>10}",
                "",
                num(b.lower[g]),
                num(b.upper[g]),
                num(b.standard_error[g])
            );
        }
        out.push('\n');
    }
    out
}

/// The G test's line of the table, and its note if it has one.
fn fit_lines(f: &FitTest, out: &mut String) {
    let p = f.p_value.map_or("-".to_string(), |p| format!("{p:.3e}"));
    let _ = writeln!(
        out,
        "fit of the counts (G test): G = {}, {} degrees of freedom, p = {p}",
        num(f.statistic),
        f.degrees_of_freedom
    );
    if let Some(note) = f.note() {
        let _ = writeln!(out, "note: {note}");
    }
}

/// One row of an estimate's table, without its line end: the name padded to
/// `width`, then the estimate, the interval's ends and the standard error, each
/// in 10 columns (shared with `pml estimate` of a record design).
pub(super) fn interval_row(out: &mut String, (name, width): (&str, usize), cells: &[String; 4]) {
    let [estimate, lower, upper, se] = cells;
    let _ = write!(
        out,
        "{name:<width$}  {estimate:>10}  {lower:>10}  {upper:>10}  {se:>10}"
    );
}
