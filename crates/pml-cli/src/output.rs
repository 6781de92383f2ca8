//! Formatting of results as tables, JSON and CSV. No mathematics here: every
//! number comes from the library.

use crate::args::Format;
use crate::error::CliError;
pub use crate::format::num;
use crate::format::{csv_field, describe_set, envelope_statement, finite_or_null};
use pml_model::envelope::EnvelopeBounds;
use pml_model::{Mechanism, Notion, UncertaintySet};
use pml_solver::loss::LossDesign;
use pml_solver::{Comparison, Design, DesignStatus, RandomizedResponse, SampleDesign};
use serde_json::{Value, json};
use std::fmt::Write;

/// Renders a design in the chosen format.
pub fn render_design(
    d: &Design,
    envelope: &EnvelopeBounds,
    labels: &[String],
    format: Format,
) -> Result<String, CliError> {
    render(d, None, envelope, labels, format)
}

/// Renders a design from samples: the design, then its (eps, delta) guarantee.
pub fn render_sample_design(
    sd: &SampleDesign,
    envelope: &EnvelopeBounds,
    labels: &[String],
    format: Format,
) -> Result<String, CliError> {
    render(&sd.design, Some(sd), envelope, labels, format)
}

/// A design, with the guarantee of the sample it came from if there is one.
fn render(
    d: &Design,
    sample: Option<&SampleDesign>,
    envelope: &EnvelopeBounds,
    labels: &[String],
    format: Format,
) -> Result<String, CliError> {
    Ok(match format {
        Format::Json => {
            let mut v = design_json(d, labels);
            if let Some(sd) = sample {
                v["guarantee"] = guarantee_json(sd);
            }
            v["envelope"] = envelope_json(envelope);
            pretty(&v)?
        }
        Format::Csv => matrix_csv(d, labels)?,
        Format::Table => {
            let mut s = design_table(d, labels);
            s.push_str(&envelope_table(envelope));
            if let Some(sd) = sample {
                s.push_str(&guarantee_table(sd));
            }
            s
        }
    })
}

/// Pretty JSON with a final newline.
pub fn pretty(v: &Value) -> Result<String, CliError> {
    let mut s = serde_json::to_string_pretty(v).map_err(|e| CliError::Failure(e.to_string()))?;
    s.push('\n');
    Ok(s)
}

fn guarantee_json(sd: &SampleDesign) -> Value {
    json!({
        "statement": sd.statement,
        "samples": sd.samples,
        "delta": sd.delta,
        "beta": sd.beta,
        "radius_method": sd.radius_method,
        "radius_note": sd.radius_note,
        "empirical_prior": sd.design.uncertainty.reference().to_vec(),
        "simpler_route": sd.simpler_route.as_ref().map(|r| json!({
            "description": "design for the estimate alone at eps0 with e^-eps0 = e^-eps + beta/2 ([E] eqs. 8, 13)",
            "epsilon_for_estimate": r.epsilon_for_estimate,
            "mechanism": r.mechanism.to_rows(),
            "utility": r.utility,
            "worst_case_pml": r.worst_case_pml,
        })),
        "designed_utility": sd.design.utility_value,
    })
}

fn guarantee_table(sd: &SampleDesign) -> String {
    let mut s = format!(
        "\nGuarantee: {}.\n  samples m = {}, delta = {}, l1 radius beta = {:.6} ({})\n",
        sd.statement,
        sd.samples,
        sd.delta,
        sd.beta,
        match sd.radius_method {
            pml_solver::RadiusMethod::DistributionFree => "distribution-free, eq. (7)",
            pml_solver::RadiusMethod::Kappa => "Theorem 2 with phi(kappa)",
        }
    );
    if let Some(n) = &sd.radius_note {
        s.push_str(&format!("  note: {n}\n"));
    }
    match &sd.simpler_route {
        Some(r) => s.push_str(&format!(
            "  simpler route (eps0-PML for the estimate, eps0 = {:.6}, eqs. 8/13): {} = {:.6} vs {:.6} designed over the ball\n",
            r.epsilon_for_estimate, sd.design.utility_name, r.utility, sd.design.utility_value
        )),
        None => s.push_str(
            "  simpler route: none (e^-eps + beta/2 > 1: no level for the estimate alone reaches eps)\n",
        ),
    }
    s
}

fn output_names(d: &Design) -> Vec<String> {
    (1..=d.mechanism.outputs())
        .map(|i| format!("y{i}"))
        .collect()
}

fn note(d: &Design) -> Option<String> {
    match d.status {
        DesignStatus::NoPrivacyNeeded => Some(format!(
            "eps = {} is at least the identity's worst-case PML ({:.6}): every mechanism qualifies, so the identity (optimal for every utility) is returned",
            d.epsilon,
            d.uncertainty
                .worst_case_pml(&pml_model::Mechanism::identity(d.uncertainty.len()))
        )),
        DesignStatus::TimeLimit => Some(format!(
            "the time limit stopped the search after {} pricing passes: the mechanism is valid and certified private, and at most {:.3e} ({:.3}%) below the optimal utility",
            d.iterations,
            d.certificate.gap,
            100.0 * d.certificate.gap / d.certificate.upper_bound.abs().max(f64::MIN_POSITIVE)
        )),
        DesignStatus::GapLimit => Some(format!(
            "stopped at a certified gap of {:.3e} ({:.2e} relative) after {} pricing passes: the mechanism is valid and certified private, and at most that far below the optimal utility",
            d.certificate.gap,
            d.certificate.gap / d.certificate.upper_bound.abs().max(f64::MIN_POSITIVE),
            d.iterations,
        )),
        DesignStatus::Optimal => None,
    }
}

fn rr_json(r: &RandomizedResponse) -> Value {
    json!({
        "ldp_epsilon": finite_or_null(r.ldp_epsilon),
        "mechanism": r.mechanism.to_rows(),
        "worst_case_pml": r.worst_case_pml,
        "utility": r.utility,
    })
}

/// The JSON object of `pml design --format json`.
pub fn design_json(d: &Design, labels: &[String]) -> Value {
    let c = &d.certificate;
    json!({
        "prior": d.uncertainty.reference().to_vec(),
        "labels": labels,
        "notion": d.notion,
        "epsilon": d.epsilon,
        "exp_epsilon": d.epsilon.exp(),
        "uncertainty": d.uncertainty,
        "status": d.status,
        "note": note(d),
        "utility": { "name": d.utility_name, "value": d.utility_value },
        "outputs": output_names(d),
        "mechanism": d.mechanism.to_rows(),
        "output_probabilities": d.output_probabilities,
        "pml_per_output": d.pml_per_output,
        "pmc_per_output": d.pmc_per_output.iter().map(|x| finite_or_null(*x)).collect::<Vec<_>>(),
        "certificate": {
            "worst_case_pml": c.worst_case_pml,
            "worst_case_pml_per_output": c.worst_case_pml_per_output,
            "target_epsilon": c.target_epsilon,
            "levels": c.levels,
            "max_row_sum_error": c.max_row_sum_error,
            "min_entry": c.min_entry,
            "utility_value": c.utility_value,
            "upper_bound": c.upper_bound,
            "gap": c.gap,
            "dual": c.dual,
        },
        "baselines": {
            "randomized_response": {
                "same_ldp": rr_json(&d.baselines.same_ldp),
                "pml_calibrated": rr_json(&d.baselines.pml_calibrated),
            }
        },
        "solver": {
            "extreme_rays": d.rays,
            "pricing_passes": d.iterations,
            "rays_priced": d.rays_priced,
            "pricing": d.pricing,
        },
    })
}

/// The mechanism as CSV: a header `input,y1,..,yM`, then one row per input.
fn matrix_csv(d: &Design, labels: &[String]) -> Result<String, CliError> {
    mechanism_csv(&d.mechanism, &output_names(d), labels)
}

/// A mechanism as CSV: a header `input,<outputs>`, then one row per input.
fn mechanism_csv(
    mechanism: &Mechanism,
    outputs: &[String],
    labels: &[String],
) -> Result<String, CliError> {
    let mut s = String::from("input");
    for y in outputs {
        write!(s, ",{}", csv_field(y)).expect("string write");
    }
    s.push('\n');
    for (label, row) in labels.iter().zip(mechanism.to_rows()) {
        s.push_str(&csv_field(label));
        for v in row {
            write!(s, ",{v}").expect("string write");
        }
        s.push('\n');
    }
    Ok(s)
}

/// The table of `pml design` for people.
fn design_table(d: &Design, labels: &[String]) -> String {
    let mut s = String::new();
    let c = &d.certificate;
    let w = |s: &mut String, t: String| s.push_str(&t);
    w(
        &mut s,
        match d.notion {
            Notion::Pml { .. } => format!(
                "Optimal {}-PML mechanism  (eps = {:.6}, e^eps = {:.6}; {})\n",
                "eps",
                d.epsilon,
                d.epsilon.exp(),
                describe_set(&d.uncertainty)
            ),
            n => format!(
                "Optimal {} mechanism  ({})\n",
                n.label(),
                describe_set(&d.uncertainty)
            ),
        },
    );
    if let Some(n) = note(d) {
        w(&mut s, format!("note: {n}\n"));
    }
    let width = labels.iter().map(|l| l.len()).max().unwrap_or(1).max(8);
    let names = output_names(d);
    w(&mut s, format!("\n{:<width$} {:>8}", "input", "prior"));
    for y in &names {
        w(&mut s, format!(" {y:>9}"));
    }
    s.push('\n');
    let prior = d.uncertainty.reference();
    for (x, label) in labels.iter().enumerate() {
        w(&mut s, format!("{label:<width$} {:>8.4}", prior[x]));
        for v in d.mechanism.matrix().row(x) {
            w(&mut s, format!(" {v:>9.6}"));
        }
        s.push('\n');
    }
    w(&mut s, format!("{:<width$} {:>8}", "P(y)", ""));
    for q in &d.output_probabilities {
        w(&mut s, format!(" {q:>9.6}"));
    }
    s.push('\n');
    w(&mut s, format!("{:<width$} {:>8}", "PML(y)", ""));
    for l in &d.pml_per_output {
        w(&mut s, format!(" {l:>9.6}"));
    }
    s.push('\n');
    if !matches!(d.notion, Notion::Pml { .. } | Notion::Ldp { .. }) {
        w(&mut s, format!("{:<width$} {:>8}", "PMC(y)", ""));
        for l in &d.pmc_per_output {
            w(&mut s, format!(" {:>9}", num(*l)));
        }
        s.push('\n');
    }
    if !matches!(d.uncertainty, UncertaintySet::Known { .. }) {
        w(&mut s, format!("{:<width$} {:>8}", "worst", ""));
        for l in &c.worst_case_pml_per_output {
            w(&mut s, format!(" {l:>9.6}"));
        }
        s.push('\n');
    }
    let meets = match d.notion {
        Notion::Pml { .. } => pml_meets(c.worst_case_pml, c.target_epsilon),
        n => format!(
            "measured PML {}, PMC {}, LDP {} meet {}",
            num(c.levels.pml),
            num(c.levels.pmc),
            num(c.levels.ldp),
            n.label()
        ),
    };
    w(
        &mut s,
        format!(
            "\nCertificate: {meets}; rows sum to 1 within {:.1e}; min entry {:.3e}\n",
            c.max_row_sum_error, c.min_entry
        ),
    );
    w(
        &mut s,
        format!(
            "             utility {:.9} <= upper bound {:.9} (gap {:.1e}): {}\n",
            c.utility_value,
            c.upper_bound,
            c.gap,
            match d.status {
                DesignStatus::TimeLimit => "stopped by the time limit",
                DesignStatus::GapLimit => "stopped at the gap tolerance",
                _ => "optimal",
            }
        ),
    );
    let u = &d.utility_name;
    w(
        &mut s,
        format!(
            "\n{:<34} {:>10} {:>14} {:>12} {:>9}\n",
            "mechanism", "LDP e_r", "worst PML", u, "vs design"
        ),
    );
    let rel = |v: f64| {
        if d.utility_value > 0.0 {
            format!("{:>8.1}%", 100.0 * v / d.utility_value)
        } else {
            format!("{:>9}", "-")
        }
    };
    w(
        &mut s,
        format!(
            "{:<34} {:>10} {:>14.6} {:>12.6} {}\n",
            &format!("optimal {} design", d.notion.name().to_uppercase()),
            "-",
            c.worst_case_pml,
            d.utility_value,
            rel(d.utility_value)
        ),
    );
    for (name, r) in [
        ("randomized response, same LDP eps", &d.baselines.same_ldp),
        ("randomized response, same PML", &d.baselines.pml_calibrated),
    ] {
        let er = if r.ldp_epsilon.is_finite() {
            format!("{:.6}", r.ldp_epsilon)
        } else {
            "inf".to_string()
        };
        w(
            &mut s,
            format!(
                "{:<34} {:>10} {:>14.6} {:>12.6} {}\n",
                name,
                er,
                r.worst_case_pml,
                r.utility,
                rel(r.utility)
            ),
        );
    }
    s
}

/// Renders `pml compare`: a table, or the same as JSON (CSV has no meaning here).
pub fn render_comparison(
    c: &Comparison,
    labels: &[String],
    format: Format,
) -> Result<String, CliError> {
    match format {
        Format::Json => {
            let rows: Vec<Value> = c
                .rows
                .iter()
                .map(|r| {
                    json!({
                        "label": r.label,
                        "notion": r.notion,
                        "status": r.status,
                        "utility": r.utility,
                        "upper_bound": r.upper_bound,
                        "worst_case_pml": finite_or_null(r.levels.pml),
                        "pmc": finite_or_null(r.levels.pmc),
                        "ldp_epsilon": finite_or_null(r.levels.ldp),
                        "maximal_leakage": r.levels.maximal_leakage,
                        "mechanism": r.mechanism.to_rows(),
                    })
                })
                .collect();
            pretty(&json!({
                "prior": c.uncertainty.reference().to_vec(),
                "labels": labels,
                "epsilon": c.epsilon,
                "uncertainty": c.uncertainty,
                "utility": c.utility_name,
                "rows": rows,
            }))
        }
        Format::Csv => Err(CliError::Usage(
            "invalid --format csv for pml compare: it prints several mechanisms; use --format table or json".into(),
        )),
        Format::Table => {
            let mut s = format!(
                "Optimal mechanisms at a common level eps = {:.6} ({}; utility {})\n\n",
                c.epsilon,
                describe_set(&c.uncertainty),
                c.utility_name
            );
            let u = &c.utility_name;
            s.push_str(&format!(
                "{:<30} {:>8} {:>12} {:>11} {:>11} {:>11} {:>11} {:>7}\n",
                "notion", "outputs", u, "worst PML", "PMC", "LDP e_r", "max leak", "status"
            ));
            for r in &c.rows {
                let status = match r.status {
                    Some(DesignStatus::Optimal) => "optimal",
                    Some(DesignStatus::NoPrivacyNeeded) => "identity",
                    Some(DesignStatus::TimeLimit) => "time",
                    Some(DesignStatus::GapLimit) => "gap",
                    None => "-",
                };
                s.push_str(&format!(
                    "{:<30} {:>8} {:>12.6} {:>11} {:>11} {:>11} {:>11.6} {:>7}\n",
                    r.label,
                    r.mechanism.outputs(),
                    r.utility,
                    num(r.levels.pml),
                    num(r.levels.pmc),
                    num(r.levels.ldp),
                    r.levels.maximal_leakage,
                    status
                ));
            }
            Ok(s)
        }
    }
}

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
        "\nPost-processing-safe guarantee at delta = {} ([V] envelope):\n  raw (eps, delta)-PML level {:.6} (not closed under post-processing)\n  envelope in [{:.6}, {:.6}]{}\n  publishable: {}\n",
        b.delta,
        b.left_quantile,
        b.lower,
        b.upper,
        if b.exact { ": exact" } else { "" },
        envelope_statement(b)
    )
}

/// Renders `pml design --utility loss`: outputs are guesses, named by the labels.
pub fn render_loss_design(
    d: &LossDesign,
    set: &UncertaintySet,
    sample: Option<(f64, u64)>,
    labels: &[String],
    format: Format,
) -> Result<String, CliError> {
    let outputs: Vec<String> = labels.iter().map(|l| format!("guess {l}")).collect();
    let c = &d.certificate;
    // With --delta: the (eps, delta) statement over the sample ([E] Sec. III).
    let guarantee = sample.map(|(delta, m)| {
        format!(
            "with probability at least 1 - {delta} over the sample of {m}, the mechanism is {:.6}-PML for the true distribution",
            d.epsilon
        )
    });
    Ok(match format {
        Format::Json => pretty(&json!({
            "prior": set.reference().to_vec(),
            "labels": labels,
            "notion": "pml",
            "epsilon": d.epsilon,
            "exp_epsilon": d.epsilon.exp(),
            "uncertainty": set,
            "status": d.status,
            "loss": d.loss_name,
            "method": d.method,
            "expected_loss": d.expected_loss,
            "lower_bound": d.lower_bound,
            "outputs": outputs,
            "mechanism": d.mechanism.to_rows(),
            "certificate": {
                "worst_case_pml": c.worst_case_pml,
                "worst_case_pml_per_output": c.worst_case_pml_per_output,
                "target_epsilon": c.target_epsilon,
                "max_row_sum_error": c.max_row_sum_error,
                "min_entry": c.min_entry,
                "utility_value": c.utility_value,
                "upper_bound": c.upper_bound,
                "gap": c.gap,
            },
            "solver": { "method": d.method, "pricing_passes": d.iterations },
            "guarantee": guarantee,
        }))?,
        Format::Csv => mechanism_csv(&d.mechanism, &outputs, labels)?,
        Format::Table => {
            let mut s = format!(
                "Least expected {} loss under eps-PML  (eps = {:.6}, e^eps = {:.6}; {})\n\n",
                d.loss_name,
                d.epsilon,
                d.epsilon.exp(),
                describe_set(set)
            );
            let width = labels.iter().map(|l| l.len()).max().unwrap_or(1).max(8);
            let prior = set.reference();
            s.push_str(&format!("{:<width$} {:>8}", "input", "prior"));
            for y in labels {
                s.push_str(&format!(" {:>9}", format!("->{y}")));
            }
            s.push('\n');
            for (x, label) in labels.iter().enumerate() {
                s.push_str(&format!("{label:<width$} {:>8.4}", prior[x]));
                for v in d.mechanism.matrix().row(x) {
                    s.push_str(&format!(" {v:>9.6}"));
                }
                s.push('\n');
            }
            s.push_str(&format!(
                "\nExpected loss {:.9} >= lower bound {:.9} (gap {:.1e}, LP duality); {:?} ({} passes), {:?}\n",
                d.expected_loss, d.lower_bound, c.gap, d.method, d.iterations, d.status
            ));
            s.push_str(&format!(
                "Certificate: {}; rows sum to 1 within {:.1e}; min entry {:.3e}\n",
                pml_meets(c.worst_case_pml, c.target_epsilon),
                c.max_row_sum_error,
                c.min_entry
            ));
            if let Some(g) = &guarantee {
                s.push_str(&format!("Guarantee: {g}\n"));
            }
            s
        }
    })
}

/// The certificate's PML clause: `<=` only when the measured worst case is at
/// most the target; a value above it (by rounding, within the certified
/// tolerance) is printed as such, with enough digits to see it.
fn pml_meets(worst: f64, target: f64) -> String {
    if worst <= target {
        format!("worst-case PML {worst:.9} <= eps {target:.9}")
    } else {
        format!(
            "worst-case PML {worst:.17} exceeds eps {target:.17} by {:.1e} (rounding, within the certified tolerance {:.0e})",
            worst - target,
            pml_solver::certificate::PML_TOLERANCE
        )
    }
}

#[cfg(test)]
mod tests {
    use super::pml_meets;

    #[test]
    fn the_table_never_prints_at_most_for_a_value_above_the_target() {
        let eps = std::f64::consts::LN_2;
        assert!(pml_meets(eps, eps).contains("<= eps"));
        let above = pml_meets(f64::from_bits(eps.to_bits() + 2), eps);
        assert!(!above.contains("<="), "{above}");
        assert!(
            above.contains("exceeds eps") && above.contains("by 2.2e-16"),
            "{above}"
        );
    }
}
