//! `pml compare` as text: one row per notion, as a table or JSON.

use super::number::level;
use super::pretty;
use super::words::describe_set;
use crate::args::Format;
use crate::error::CliError;
use pmldesign_solver::{Comparison, DesignStatus};

/// Renders `pml compare`: a table, or the same as JSON (CSV has no meaning here).
pub fn render_comparison(
    c: &Comparison,
    labels: &[String],
    format: Format,
) -> Result<String, CliError> {
    match format {
        Format::Json => compare_json(c, labels),
        Format::Csv => Err(CliError::Usage(
            "invalid --format csv for pml compare: it prints several mechanisms; use --format table or json".into(),
        )),
        Format::Table => Ok(compare_table(c)),
    }
}

/// The comparison as JSON: the set, the level and one object per row (the
/// solver's, which Python's `compare` returns too).
fn compare_json(c: &Comparison, labels: &[String]) -> Result<String, CliError> {
    pretty(&c.to_json(labels))
}

/// The comparison as a table: one line per notion.
fn compare_table(c: &Comparison) -> String {
    let mut s = format!(
        "Optimal mechanisms at a common level eps = {:.6} ({}; utility {})\n\n",
        c.epsilon,
        describe_set(&c.uncertainty),
        c.utility_name
    );
    let u = &c.utility_name;
    s.push_str(&format!(
        "{:<30} {:>8} {:>12} {:>11} {:>11} {:>11} {:>11} {:>7} {:>22}\n",
        "notion", "outputs", u, "worst PML", "PMC", "LDP e_r", "max leak", "status", "m E|p^-p|^2"
    ));
    for r in &c.rows {
        let status = match r.status {
            Some(DesignStatus::Optimal) => "optimal",
            Some(DesignStatus::NoPrivacyNeeded) => "identity",
            Some(DesignStatus::TimeLimit) => "time",
            Some(DesignStatus::Interrupted) => "stopped",
            Some(DesignStatus::GapLimit) => "gap",
            Some(s) => s.as_str(),
            None => "-",
        };
        let n = r.mechanism.inputs();
        let estimation = match r.estimation {
            Some((groups, Some(error))) if groups == n => format!("{error:.6}"),
            Some((groups, Some(error))) => format!("{error:.6} ({})", groups_of(groups)),
            Some((groups, None)) => format!("none ({})", groups_of(groups)),
            None => "-".into(),
        };
        s.push_str(&format!(
            "{:<30} {:>8} {:>12.6} {:>11} {:>11} {:>11} {:>11} {:>7} {:>22}\n",
            r.label,
            r.mechanism.outputs(),
            r.utility,
            level(r.levels.pml),
            level(r.levels.pmc),
            level(r.levels.ldp),
            level(r.levels.maximal_leakage),
            status,
            estimation
        ));
    }
    s.push_str(
        "\nm E|p^-p|^2: the expected squared error of the input distribution estimated from m released rows, times m, in the m -> infinity limit (inverse Fisher information; at a finite m the error of EM can be far smaller; docs/theory.md §13); with fewer groups than inputs, of the groups' totals only\n",
    );
    s
}

/// "1 group", "3 groups".
fn groups_of(n: usize) -> String {
    if n == 1 {
        "1 group".into()
    } else {
        format!("{n} groups")
    }
}
