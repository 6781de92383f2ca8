//! `pml estimate` rendered: a table per group of inputs, the same as JSON, or
//! CSV (label, estimate, lower, upper, standard error).

use super::csv::csv_field;
use super::number::num;
use super::pretty;
use crate::args::Format;
use crate::error::CliError;
use pmldesign_data::bootstrap::BootstrapCheck;
use pmldesign_model::frequency::{FitTest, FrequencyEstimate, FrequencyMethod};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// What `pml estimate` found.
pub struct Report {
    /// The `--mechanism` file.
    pub mechanism: String,
    /// The mechanism's input labels.
    pub inputs: Vec<String>,
    /// The estimate per group of inputs.
    pub estimate: FrequencyEstimate,
    /// The parametric bootstrap's check of the intervals (`--bootstrap`).
    pub bootstrap: Option<BootstrapCheck>,
    /// A note for a bare matrix.
    pub note: Option<String>,
    /// The G test of the counts against the fitted output distribution.
    pub fit: FitTest,
}

/// What the G test says when it says something: the counts are unlikely under
/// the mechanism, or the test has no power (also `pml estimate`'s warning).
pub fn fit_note(fit: &FitTest) -> Option<String> {
    fit.note()
}

impl Report {
    /// The report as a table, JSON or CSV.
    pub fn render(&self, format: Format) -> Result<String, CliError> {
        Ok(match format {
            Format::Json => pretty(&self.json())?,
            Format::Csv => self.csv(),
            Format::Table => self.table(),
        })
    }

    /// A group's label: its input, or `{a, b, c}` for inputs released alike.
    fn label(&self, g: usize) -> String {
        let names: Vec<&str> = self.estimate.groups[g]
            .iter()
            .map(|&x| self.inputs[x].as_str())
            .collect();
        match names.as_slice() {
            [one] => (*one).to_string(),
            many => format!("{{{}}}", many.join(", ")),
        }
    }

    /// One sentence per block of inputs whose rows differ but are linearly
    /// dependent: only its total is estimable.
    fn block_notes(&self) -> Vec<String> {
        let e = &self.estimate;
        (0..e.groups.len())
            .filter(|&g| e.dependent.get(g).copied().unwrap_or(false))
            .map(|g| {
                format!(
                    "inputs {} are released as one group: only their total is estimable \
                     (their rows of the mechanism are linearly dependent)",
                    self.label(g)
                )
            })
            .collect()
    }

    fn method(&self) -> &'static str {
        match self.estimate.method {
            FrequencyMethod::Em => "em",
            FrequencyMethod::Inversion => "inversion",
        }
    }

    fn json(&self) -> Value {
        let e = &self.estimate;
        let rows: Vec<Value> = (0..e.groups.len())
            .map(|g| {
                json!({
                    "label": self.label(g),
                    "inputs": e.groups[g].iter().map(|&x| &self.inputs[x]).collect::<Vec<_>>(),
                    "dependent": e.dependent.get(g).copied().unwrap_or(false),
                    "estimate": e.estimate[g],
                    "lower": e.lower[g],
                    "upper": e.upper[g],
                    "standard_error": e.standard_error[g],
                    "unprojected": e.unprojected.get(g),
                    "bootstrap": self.bootstrap.as_ref().map(|b| json!({
                        "lower": b.lower[g],
                        "upper": b.upper[g],
                        "standard_error": b.standard_error[g],
                    })),
                })
            })
            .collect();
        json!({
            "mechanism": self.mechanism,
            "method": self.method(),
            "rows": e.rows,
            "confidence": e.confidence,
            "log_likelihood": e.log_likelihood,
            "fit": json!({
                "statistic": self.fit.statistic,
                "degrees_of_freedom": self.fit.degrees_of_freedom,
                "p_value": self.fit.p_value,
                "note": fit_note(&self.fit),
            }),
            "iterations": e.iterations,
            "converged": e.converged,
            "likelihood_gap": e.likelihood_gap,
            "bootstrap_replicates": self.bootstrap.as_ref().map(|b| b.reps),
            "note": self.note,
            "notes": self.block_notes(),
            "estimates": rows,
        })
    }

    fn csv(&self) -> String {
        let e = &self.estimate;
        let mut out = String::from("label,estimate,lower,upper,standard_error");
        if self.bootstrap.is_some() {
            out.push_str(",bootstrap_lower,bootstrap_upper,bootstrap_standard_error");
        }
        out.push('\n');
        for g in 0..e.groups.len() {
            let _ = write!(
                out,
                "{},{},{},{},{}",
                csv_field(&self.label(g)),
                e.estimate[g],
                e.lower[g],
                e.upper[g],
                e.standard_error[g]
            );
            if let Some(b) = &self.bootstrap {
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

    fn table(&self) -> String {
        let e = &self.estimate;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "estimate of the input distribution from {} released rows ({}, {:.0} % intervals)",
            e.rows,
            self.method(),
            100.0 * e.confidence
        );
        if let Some(note) = &self.note {
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
        for block in self.block_notes() {
            let _ = writeln!(out, "note: {block}");
        }
        self.fit_lines(&mut out);
        let width = (0..e.groups.len())
            .map(|g| self.label(g).len())
            .max()
            .unwrap_or(5)
            .max(5);
        let head = ["estimate", "lower", "upper", "std. error"].map(String::from);
        interval_row(&mut out, ("input", width), &head);
        if let Some(b) = &self.bootstrap {
            let _ = write!(
                out,
                "  |  bootstrap ({} replicates): {:>10}  {:>10}  {:>10}",
                b.reps, "lower", "upper", "std. error"
            );
        }
        out.push('\n');
        for g in 0..e.groups.len() {
            let values = [e.estimate[g], e.lower[g], e.upper[g], e.standard_error[g]];
            interval_row(&mut out, (&self.label(g), width), &values.map(num));
            if let Some(b) = &self.bootstrap {
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
}

impl Report {
    /// The G test's line of the table, and its note if it has one.
    fn fit_lines(&self, out: &mut String) {
        let f = &self.fit;
        let p = f.p_value.map_or("-".to_string(), |p| format!("{p:.3e}"));
        let _ = writeln!(
            out,
            "fit of the counts (G test): G = {}, {} degrees of freedom, p = {p}",
            num(f.statistic),
            f.degrees_of_freedom
        );
        if let Some(note) = fit_note(f) {
            let _ = writeln!(out, "note: {note}");
        }
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
