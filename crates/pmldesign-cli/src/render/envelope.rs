//! The post-processing-safe guarantee ([V] envelope) as text: the bounds at one
//! delta as lines of a report (under `pml design` and `pml assess`), and the
//! answer of `pml envelope` over a grid of delta as a table, JSON or CSV (its
//! JSON is the application layer's, `pmldesign_app::EnvelopeAnswer`).

use super::number::level;
use super::own_version;
use super::words::envelope_statement;
use crate::args::Format;
use crate::error::CliError;
use pmldesign_app::EnvelopeAnswer;
use pmldesign_model::envelope::EnvelopeBounds;
use pmldesign_solver::envelope::EnvelopeValue;
use std::fmt::Write as _;

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

/// The report of `pml envelope` in the format asked for: JSON, the curve as
/// CSV, or a table.
pub fn render(r: &EnvelopeAnswer, format: Format) -> Result<String, CliError> {
    Ok(match format {
        Format::Json => own_version(&r.to_json())?,
        Format::Csv => csv(r.curve(), r.lp()),
        Format::Table => table(r),
    })
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

/// The report of `--format table`: the summary, then the bounds over the grid.
fn table(r: &EnvelopeAnswer) -> String {
    let mut s = summary(r);
    s.push_str(&bounds_table(r));
    s
}

/// The mechanism's leakage distribution and the statement published.
fn summary(r: &EnvelopeAnswer) -> String {
    let (env, h) = (r.env(), r.headline());
    let mut s = String::new();
    let atoms = &env.distribution().atoms;
    let _ = writeln!(
        s,
        "PML envelope of {}  ({} inputs x {} outputs; {} outcomes after merging similar outputs)\n",
        r.source_name(),
        r.mechanism().inputs(),
        r.mechanism().outputs(),
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
        h.delta,
        r.statement()
    );
    let by_lp = r.headline_lp();
    let (lo, hi) = by_lp.map_or((h.lower, h.upper), |v| (v.lower, v.upper));
    let _ = writeln!(
        s,
        "  (the raw (eps, delta)-PML level {} does not survive post-processing; the envelope lies in [{lo:.6}, {}]{})\n",
        level(h.left_quantile),
        level(hi),
        if by_lp.is_some() { ", by LP" } else { "" }
    );
    let stopped = r.lp().into_iter().flatten().chain(by_lp).any(|v| v.stopped);
    if stopped {
        s.push_str("  The time limit stopped the LP: where its bracket did not converge, the upper end is published.\n\n");
    }
    s
}

/// The bounds at each delta of the grid, with the LP's envelope beside them.
fn bounds_table(r: &EnvelopeAnswer) -> String {
    let lp = r.lp();
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
    for (i, b) in r.curve().iter().enumerate() {
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
