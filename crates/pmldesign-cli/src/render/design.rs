//! `pml design` as text: the table of the mechanism, its certificate and the
//! randomized-response baselines, the loss table, JSON and CSV. No mathematics
//! here: every number comes from the library.

use super::envelope::envelope_table;
use super::matrix::matrix_table;
use super::number::{certified, level, opt_level};
use super::own_version;
use super::words::{describe_set, guarantee_statement};
use crate::args::Format;
use crate::error::CliError;
use pmldesign_model::{Mechanism, Notion, UncertaintySet};
use pmldesign_solver::{Design, DesignStatus, Guarantee};
use std::fmt::Write;

/// Renders a design in the chosen format (with the guarantee of the sample it
/// came from, if there is one). JSON is the design's own serialisation for a
/// utility and a loss alike.
pub fn render_design(d: &Design, format: Format) -> Result<String, CliError> {
    Ok(match format {
        Format::Json => own_version(d)?,
        Format::Csv if d.loss().is_some() => mechanism_csv(d.mechanism(), &guesses(d), d.labels())?,
        Format::Csv => mechanism_csv(d.mechanism(), d.outputs(), d.labels())?,
        Format::Table if d.loss().is_some() => loss_table(d)?,
        Format::Table => {
            let mut s = design_table(d);
            if let Some(envelope) = &d.envelope() {
                s.push_str(&envelope_table(envelope));
            }
            if let Some(g) = &d.guarantee() {
                s.push_str(&guarantee_table(d, g));
            }
            s
        }
    })
}

fn guarantee_table(d: &Design, g: &Guarantee) -> String {
    let mut s = format!(
        "\nGuarantee: {}.\n  samples m = {}, delta = {}, l1 radius beta = {:.6} ({})\n",
        guarantee_statement(d).unwrap_or_default(),
        g.samples(),
        g.delta(),
        g.beta(),
        g.radius_method().describe()
    );
    if let Some(n) = g.radius_note() {
        s.push_str(&format!("  note: {n}\n"));
    }
    match g.simpler_route() {
        Some(r) => s.push_str(&format!(
            "  simpler route (eps0-PML for the estimate, eps0 = {:.6}, eqs. 8/13): {} = {:.6} vs {:.6} designed over the ball\n",
            r.epsilon_for_estimate(), d.utility_name(), r.utility(), d.utility_value()
        )),
        None => s.push_str(
            "  simpler route: none (e^-eps + beta/2 > 1: no level for the estimate alone reaches eps)\n",
        ),
    }
    s
}

/// A mechanism as CSV: a header `input,<outputs>`, then one row per input.
fn mechanism_csv(
    mechanism: &Mechanism,
    outputs: &[String],
    labels: &[String],
) -> Result<String, CliError> {
    let mut s = String::from("input");
    for y in outputs {
        write!(s, ",{}", super::csv::csv_field(y)).expect("string write");
    }
    s.push('\n');
    for (label, row) in labels.iter().zip(mechanism.to_rows()) {
        s.push_str(&super::csv::csv_field(label));
        for v in row {
            write!(s, ",{v}").expect("string write");
        }
        s.push('\n');
    }
    Ok(s)
}

/// The table of `pml design` for people.
fn design_table(d: &Design) -> String {
    let mut s = design_heading(d);
    s.push_str(&design_matrix(d));
    s.push_str(&certificate_lines(d));
    s.push_str(&comparison_table(d));
    s.push_str(&estimation_table(d));
    s
}

/// What an analyst can estimate from m released rows of the design and of
/// each baseline (docs/theory.md §13): the groups released alike and the
/// expected squared error times m in the m -> infinity limit, under the
/// reference prior, beside the simulated error at the data's m where the design
/// carries it; the design's own figures, or derived here for one without them.
fn estimation_table(d: &Design) -> String {
    let derived = match d.estimation() {
        Some(e) => Some(e.clone()),
        None => pmldesign_solver::Estimation::of(d).ok().flatten(),
    };
    let Some(estimation) = derived else {
        return String::new();
    };
    let simulated = estimation.simulated.as_ref();
    let mut s = format!(
        "\nEstimating the input distribution from m released rows (pml estimate):\n{:<44} {:>8} {:>22}",
        "mechanism", "groups", "m E|p^-p|^2, m -> inf"
    );
    if let Some(sim) = simulated {
        s.push_str(&format!(" {:>22}", format!("EM at m = {}", sim.rows)));
    }
    s.push('\n');
    let labels = estimation.labels(d);
    for (k, (row, label)) in estimation.rows.iter().zip(labels).enumerate() {
        let label = if k == 0 { design_label(d) } else { label };
        let error = row
            .error_per_row
            .map_or("not estimable".into(), |v| format!("{v:.6}"));
        s.push_str(&format!("{label:<44} {:>8} {error:>22}", row.groups));
        if let Some(sim) = simulated {
            let at_m = sim.error_per_row.get(k).copied().flatten();
            let at_m = at_m.map_or("-".into(), |v| format!("{v:.6}"));
            s.push_str(&format!(" {at_m:>22}"));
        }
        s.push('\n');
    }
    s.push_str(&estimation_notes(d, &estimation));
    s
}

/// The notes under the estimation table: what its columns assume, the inputs
/// the design releases alike, and the advice.
fn estimation_notes(d: &Design, estimation: &pmldesign_solver::Estimation) -> String {
    let mut s = String::from(
        "note: m E|p^-p|^2, m -> inf is the limit of many rows (inverse Fisher information); at a finite m, EM's error can be far smaller\n",
    );
    if let Some(sim) = &estimation.simulated {
        s.push_str(&format!(
            "note: EM at m = {}: m E|p^-p|^2 of the EM estimate from the data's {} rows ({}; - where not compared); the advice compares these\n",
            sim.rows,
            sim.rows,
            sim.basis()
        ));
    }
    if let Some(g) = estimation.rows.first().and_then(|r| r.merged.first()) {
        s.push_str(&format!(
            "note: the design releases inputs {{{}}} alike (and maybe others): only their total is estimable\n",
            g.join(", ")
        ));
    }
    if let Some(note) = estimation.advice(d) {
        s.push_str(&format!("note: {note}\n"));
    }
    s
}

/// The title line (notion, level, set) and the status note.
fn design_heading(d: &Design) -> String {
    let mut s = format!("{}\n", d.title());
    if let Some(n) = d.note() {
        s.push_str(&format!("note: {n}\n"));
    }
    s
}

/// The matrix, one row per input, then P(y), PML(y), PMC(y) and the worst case.
fn design_matrix(d: &Design) -> String {
    let fixed = |values: &[f64]| values.iter().map(|v| format!("{v:.6}")).collect();
    // Levels are rounded up; one certified at the target within the tolerance
    // is the target (the certificate line states the tolerance).
    let c = d.certificate();
    let levels = |values: &[f64]| {
        values
            .iter()
            .map(|v| certified(*v, c.target_epsilon(), c.tolerance()))
            .collect()
    };
    let mut footer = vec![
        ("P(y)", fixed(d.output_probabilities())),
        ("PML(y)", levels(d.pml_per_output())),
    ];
    if !matches!(d.notion(), Notion::Pml { .. } | Notion::Ldp { .. }) {
        footer.push((
            "PMC(y)",
            d.pmc_per_output().iter().map(|v| level(*v)).collect(),
        ));
    }
    if !matches!(d.uncertainty(), UncertaintySet::Known { .. }) {
        footer.push(("worst", levels(c.worst_case_pml_per_output())));
    }
    let prior = d.uncertainty().reference();
    let table = matrix_table(
        d.labels(),
        prior.view(),
        d.outputs(),
        d.mechanism(),
        8,
        &footer,
    );
    format!("\n{table}")
}

/// The certificate: measured levels, row sums, and the utility against its bound.
fn certificate_lines(d: &Design) -> String {
    let c = d.certificate();
    let meets = meets(d);
    let how = match d.status() {
        DesignStatus::TimeLimit => "stopped by the time limit",
        DesignStatus::Interrupted => "interrupted (Ctrl-C): the best design found",
        DesignStatus::GapLimit => {
            "stopped with this certified gap (the gap tolerance, or no step or pass improved)"
        }
        _ => "optimal",
    };
    format!(
        "\nCertificate (tolerance {:.0e}): {meets}; rows sum to 1 within {:.1e}; min entry {:.3e}\n             utility {:.9} <= upper bound {:.9} (gap {:.1e}): {how}\n",
        c.tolerance(),
        c.max_row_sum_error(),
        c.min_entry(),
        c.utility_value(),
        c.upper_bound(),
        c.gap()
    )
}

/// The certificate's privacy clause ([`Design::privacy_clause`]).
pub fn meets(d: &Design) -> String {
    d.privacy_clause()
}

/// The design beside randomized response at the same LDP level and at the same PML.
fn comparison_table(d: &Design) -> String {
    let mut s = format!(
        "\n{:<44} {:>10} {:>14} {:>12} {:>9}\n",
        "mechanism",
        "LDP e_r",
        "worst PML",
        d.utility_name(),
        "vs design"
    );
    // A ratio to a utility within rounding of 0 (a design at eps near 1e-10)
    // would print as millions of percent.
    let rel = |v: f64| {
        if d.utility_value() > 1e-12 {
            format!("{:>8.1}%", 100.0 * v / d.utility_value())
        } else {
            format!("{:>9}", "-")
        }
    };
    let mut line = |name: &str, er: String, worst: String, u: f64| {
        s.push_str(&format!(
            "{name:<44} {er:>10} {worst:>14} {u:>12.6} {}\n",
            rel(u)
        ));
    };
    let design = design_label(d);
    let c = d.certificate();
    line(
        &design,
        "-".into(),
        certified(c.worst_case_pml(), c.target_epsilon(), c.tolerance()),
        d.utility_value(),
    );
    for r in d.baselines().rows() {
        let er = opt_level(r.ldp_epsilon);
        line(
            &d.baseline_label(&r),
            er,
            level(r.worst_case_pml),
            r.utility,
        );
    }
    s
}

/// The design's row in the comparison and estimation tables.
fn design_label(d: &Design) -> String {
    format!("optimal {} design", d.notion().name().to_uppercase())
}

/// A loss design's outputs as column headers: output y is the guess "X = y".
fn guesses(d: &Design) -> Vec<String> {
    d.outputs().iter().map(|y| format!("guess {y}")).collect()
}

/// The table of `pml design --utility loss`: outputs are guesses, named by the
/// labels.
fn loss_table(d: &Design) -> Result<String, CliError> {
    let (labels, set) = (d.labels(), d.uncertainty());
    let Some(l) = &d.loss() else {
        return Err(CliError::Failure("not a loss design".into()));
    };
    let c = d.certificate();
    let under = match d.notion() {
        Notion::Pml { .. } => format!(
            "eps-PML  (eps = {:.6}, e^eps = {:.6}; ",
            d.epsilon(),
            d.epsilon().exp()
        ),
        n => format!("{}  (", n.label()),
    };
    let mut s = format!(
        "Least expected {} loss under {under}{})\n\n",
        l.name,
        describe_set(set)
    );
    let guesses: Vec<String> = d.outputs().iter().map(|y| format!("->{y}")).collect();
    let prior = set.reference();
    s.push_str(&matrix_table(
        labels,
        prior.view(),
        &guesses,
        d.mechanism(),
        8,
        &[],
    ));
    s.push_str(&format!(
        "\nExpected loss {:.9} >= lower bound {:.9} (gap {:.1e}, LP duality); {:?} ({} passes), {:?}\n",
        l.expected_loss, l.lower_bound, c.gap(), l.method, d.iterations(), d.status()
    ));
    s.push_str(&format!(
        "Certificate (tolerance {:.0e}): {}; rows sum to 1 within {:.1e}; min entry {:.3e}\n",
        c.tolerance(),
        meets(d),
        c.max_row_sum_error(),
        c.min_entry()
    ));
    // With --delta: the (eps, delta) statement over the sample ([E] Sec. III).
    if let Some(g) = guarantee_statement(d) {
        s.push_str(&format!("Guarantee: {g}\n"));
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use pmldesign_model::statement::pml_clause;

    #[test]
    fn the_table_never_prints_at_most_for_a_value_above_the_target() {
        let pml_meets = |w, t| pml_clause(w, t, pmldesign_solver::tolerance::PML_TOLERANCE);
        let eps = std::f64::consts::LN_2;
        assert!(pml_meets(eps, eps).contains("<= eps"));
        let above = pml_meets(f64::from_bits(eps.to_bits() + 2), eps);
        assert!(!above.contains("<="), "{above}");
        assert!(
            above.starts_with("holds within the certified tolerance")
                && above.contains("+ 2.23e-16"),
            "{above}"
        );
    }
}
