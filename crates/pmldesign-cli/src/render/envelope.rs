//! The post-processing-safe guarantee ([V] envelope) as text: the bounds at one
//! delta as JSON or as lines of a report (under `pml design` and `pml assess`), and
//! the report of `pml envelope` over a grid of delta as a table, JSON or CSV.

use super::number::level;
use super::pretty;
use super::words::{envelope_statement, statement_at};
use crate::args::Format;
use crate::error::CliError;
use pmldesign_model::envelope::{Envelope, EnvelopeBounds};
use pmldesign_solver::envelope::EnvelopeValue;
use serde_json::{Value, json};
use std::fmt::Write as _;

/// The envelope bounds at one delta as JSON ([V] Thm 3, Alg. 1), with the statement a
/// data holder can publish and `envelope` (null unless the bounds meet).
pub fn envelope_json(b: &EnvelopeBounds) -> Value {
    let mut v = serde_json::to_value(b).unwrap_or(Value::Null);
    v["envelope"] = json!(b.envelope());
    v["statement"] = json!(envelope_statement(b));
    v
}

/// The envelope bounds at one delta as lines of a report.
pub fn envelope_table(b: &EnvelopeBounds) -> String {
    format!(
        "\nPost-processing-safe guarantee at delta = {} ([V] envelope):\n  raw (eps, delta)-PML level {} (not closed under post-processing)\n  envelope in [{:.6}, {}]{}\n  publishable: {}\n",
        b.delta,
        level(b.left_quantile),
        b.lower,
        level(b.upper),
        if b.exact { ": exact" } else { "" },
        envelope_statement(b)
    )
}

/// Everything `pml envelope` reports on one mechanism.
pub struct Report {
    /// The mechanism file, as given.
    pub source: String,
    pub prior: pmldesign_model::Prior,
    pub labels: Vec<String>,
    pub mechanism: pmldesign_model::Mechanism,
    /// The mechanism's leakage distribution under the prior.
    pub env: Envelope,
    /// The bounds at each delta of the grid, and the LP's envelope beside them.
    pub curve: Vec<EnvelopeBounds>,
    pub lp: Option<Vec<EnvelopeValue>>,
    /// The same at the headline delta, and the statement published there.
    pub headline: EnvelopeBounds,
    pub headline_lp: Option<EnvelopeValue>,
    pub statement: String,
}

impl Report {
    /// The report in the format asked for: JSON, the curve as CSV, or a table.
    pub fn render(&self, format: Format) -> Result<String, CliError> {
        Ok(match format {
            Format::Json => pretty(&self.json())?,
            Format::Csv => csv(&self.curve, self.lp.as_deref()),
            Format::Table => self.table(),
        })
    }
}

/// The statement to publish at the delta of `b`: the LP's envelope where it is
/// below the Theorem 3 bound ([`EnvelopeValue::published`]), else the bounds'.
pub fn published(b: &EnvelopeBounds, lp: Option<&EnvelopeValue>) -> String {
    match lp {
        Some(v) => statement_at(b, v.published(b)),
        None => envelope_statement(b),
    }
}

/// Envelope bounds as JSON ([`envelope_json`]), with the LP's bracket and the
/// statement it publishes when there is one.
fn bounds_json(b: &EnvelopeBounds, lp: Option<&EnvelopeValue>) -> serde_json::Value {
    let mut v = envelope_json(b);
    if let Some(lp) = lp {
        v["lp"] = json!({
            "lower": lp.lower,
            "upper": lp.upper,
            "converged": lp.converged,
            "linear_programs": lp.linear_programs,
        });
        if lp.stopped {
            v["lp"]["stopped"] = json!(true);
        }
        v["statement"] = json!(published(b, Some(lp)));
    }
    v
}

impl Report {
    /// The JSON object of `--format json`.
    pub fn json(&self) -> serde_json::Value {
        let env = &self.env;
        let tail = pmldesign_model::measures::tail_curve(&self.mechanism, &self.prior);
        let lp = |i: usize| self.lp.as_ref().map(|lp| &lp[i]);
        let mut headline = bounds_json(&self.headline, self.headline_lp.as_ref());
        if let Some(o) = headline.as_object_mut() {
            o.shift_remove("lp");
        }
        json!({
            "source": self.source,
            "prior": self.prior.masses().to_vec(),
            "labels": self.labels,
            "mechanism": self.mechanism.to_rows(),
            "maximal_leakage": env.maximal_leakage(),
            "max_pml": env.max_pml(),
            "leakage_distribution": env.distribution().atoms.iter().map(|t| json!({
                "pml": t.pml,
                "probability": t.probability,
                "outputs": t.outputs.iter().map(|y| format!("y{}", y + 1)).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
            "tail_curve": tail.iter().map(|(e, d)| json!({"epsilon": e, "delta": d})).collect::<Vec<_>>(),
            "statement": {
                "text": self.statement,
                "bounds": headline,
                "lp": self.headline_lp,
            },
            "curve": self.curve.iter().enumerate().map(|(i, b)| bounds_json(b, lp(i))).collect::<Vec<_>>(),
            "notes": [
                "left_quantile is the raw eps_Y(delta): the smallest eps with P(l(Y) > eps) <= delta; post-processing can raise it",
                "upper ([V] Thm 3) is post-processing safe: for every post-processing Z, P(l(X -> Z) > upper) <= delta",
                "lower = max(right_quantile, binary) ([V] Alg. 1); where lower = upper the envelope is exact",
                "lp (with --lp): the envelope itself by linear program, [lower, upper] to 1e-9; lower is certified by statement.lp.witness, a post-processing P(Z|Y) (rows are outputs y)",
                "statement: what a data holder can publish at that delta: the Theorem 3 upper bound, or with --lp the LP's envelope where it is tighter",
                "tail_curve: P(l(Y) > eps) is constant from one point's epsilon to the next; it is 1 below the first point",
            ],
        })
    }
}

/// The numbers of a curve row, in the column order of both the CSV and the table:
/// delta, left and right quantile, binary, lower, upper, markov.
fn numbers(b: &EnvelopeBounds) -> [f64; 7] {
    [
        b.delta,
        b.left_quantile,
        b.right_quantile,
        b.binary,
        b.lower,
        b.upper,
        b.markov,
    ]
}

fn csv(curve: &[EnvelopeBounds], lp: Option<&[EnvelopeValue]>) -> String {
    let mut s =
        String::from("delta,left_quantile,right_quantile,binary,lower,upper,markov,exact,envelope");
    s.push_str(if lp.is_some() {
        ",lp_lower,lp_upper\n"
    } else {
        "\n"
    });
    for (i, b) in curve.iter().enumerate() {
        for x in numbers(b) {
            let _ = write!(s, "{x},");
        }
        let _ = write!(
            s,
            "{},{}",
            b.exact,
            b.envelope().map_or_else(String::new, |e| e.to_string())
        );
        if let Some(lp) = lp {
            let _ = write!(s, ",{},{}", lp[i].lower, lp[i].upper);
        }
        s.push('\n');
    }
    s
}

impl Report {
    /// The report of `--format table`: the summary, then the bounds over the grid.
    pub fn table(&self) -> String {
        let mut s = self.summary();
        s.push_str(&self.bounds_table());
        s
    }

    /// The mechanism's leakage distribution and the statement published.
    fn summary(&self) -> String {
        let (env, h) = (&self.env, &self.headline);
        let mut s = String::new();
        let atoms = &env.distribution().atoms;
        let _ = writeln!(
            s,
            "PML envelope of {}  ({} inputs x {} outputs; {} outcomes after merging similar outputs)\n",
            self.source,
            self.mechanism.inputs(),
            self.mechanism.outputs(),
            atoms.len()
        );
        let _ = writeln!(
            s,
            "  max PML {}   maximal leakage L {}\n",
            level(env.max_pml()),
            level(env.maximal_leakage())
        );
        s.push_str("Leakage distribution:\n");
        let _ = writeln!(s, "  {:>12} {:>12}  outputs", "PML", "P");
        for t in atoms {
            let names: Vec<String> = t.outputs.iter().map(|y| format!("y{}", y + 1)).collect();
            let _ = writeln!(
                s,
                "  {:>12} {:>12.6}  {}",
                level(t.pml),
                t.probability,
                names.join(",")
            );
        }
        let _ = writeln!(
            s,
            "\nPublishable at delta = {}: {}.",
            h.delta, self.statement
        );
        let by_lp = self.headline_lp.as_ref();
        let (lo, hi) = by_lp.map_or((h.lower, h.upper), |v| (v.lower, v.upper));
        let _ = writeln!(
            s,
            "  (the raw (eps, delta)-PML level {} does not survive post-processing; the envelope lies in [{lo:.6}, {}]{})\n",
            level(h.left_quantile),
            level(hi),
            if by_lp.is_some() { ", by LP" } else { "" }
        );
        let stopped = self.lp.iter().flatten().chain(by_lp).any(|v| v.stopped);
        if stopped {
            s.push_str("  The time limit stopped the LP: where its bracket did not converge, the upper end is published.\n\n");
        }
        s
    }

    /// The bounds at each delta of the grid, with the LP's envelope beside them.
    fn bounds_table(&self) -> String {
        let lp = self.lp.as_deref();
        let mut s = String::from(
            "Envelope bounds ([V] Thm 3 upper, max(right quantile, Alg. 1) lower; raw = eps_Y(delta)):\n",
        );
        let _ = write!(
            s,
            "  {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}  exact",
            "delta", "raw", "right q", "binary", "lower", "upper", "L+ln 1/d"
        );
        s.push_str(if lp.is_some() {
            "  envelope (LP)\n"
        } else {
            "\n"
        });
        for (i, b) in self.curve.iter().enumerate() {
            s.push(' ');
            for x in numbers(b) {
                let _ = write!(s, " {x:>10.6}");
            }
            let _ = write!(s, "  {:<5}", if b.exact { "yes" } else { "" });
            if let Some(lp) = lp {
                let _ = write!(s, "  {}", level(lp[i].upper));
                if !lp[i].converged {
                    let _ = write!(s, " (>= {:.6})", lp[i].lower);
                }
            }
            s.push('\n');
        }
        s
    }
}
