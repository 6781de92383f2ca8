//! `pml assess` as text: the report on a mechanism (its matrix, the figures under
//! the prior and over a set of priors, the tail curve) and the verdict on a
//! design, as a table or JSON. Every number comes from the library.

use super::design::meets;
use super::matrix::matrix_table;
use super::number::{level, num, opt_level, short};
use super::words::describe_assessed_set;
use crate::args::assess::AssessFormat;
use crate::error::CliError;
use pmldesign_model::envelope::EnvelopeBounds;
use pmldesign_model::measures::{Assessment, SetAssessment, Theorem4Check};
use pmldesign_solver::labels::numbered;
use pmldesign_solver::{Design, Repricing, Route, Verification};
use serde_json::json;
use std::fmt::Write as _;

pub use pmldesign_app::{Audit, RadiusSource};
use pmldesign_app::{RecordVerdict, Verdict};

/// Renders the assessment of a mechanism as JSON or as a report for people.
pub fn render_assessment(r: &Audit, format: AssessFormat) -> Result<String, CliError> {
    match format {
        AssessFormat::Json => super::own_version(&r.to_json()),
        AssessFormat::Table => {
            let mut s = to_table(r);
            if let Some((name, smallest)) = r.metric_level() {
                let _ = writeln!(
                    s,
                    "\nMetric privacy ({name} distance): smallest eps with W[x][y] <= e^(eps d(x, x')) W[x'][y]: {}",
                    level(smallest)
                );
            }
            Ok(s)
        }
    }
}

/// Renders the verdict on a verified design (`pml assess --design`), read from
/// `source`.
pub fn render_verdict(
    d: &Design,
    v: &Verification,
    source: &str,
    format: AssessFormat,
) -> Result<String, CliError> {
    match format {
        AssessFormat::Json => super::own_version(&Verdict::new(d, v, source).to_json()),
        AssessFormat::Table => Ok(verdict_table(d, v, source)),
    }
}

/// The verdict of a verified record design: every column's design re-certified and
/// re-verified, every record-level figure re-derived.
pub fn render_record_verdict(
    r: &pmldesign_solver::RecordDesign,
    verified: &[Verification],
    source: &str,
    format: AssessFormat,
) -> Result<String, CliError> {
    match format {
        AssessFormat::Json => {
            super::own_version(&RecordVerdict::new(r, verified, source).to_json())
        }
        AssessFormat::Table => Ok(format!(
            "Verified {source}: a record design; every design re-certified and verified, every figure of the record re-derived.\n{}",
            crate::render::record::render_record(r, crate::args::Format::Table)?
        )),
    }
}

/// The verdict of a verified design, for people.
fn verdict_table(d: &Design, v: &Verification, source: &str) -> String {
    let c = d.certificate();
    let mut s = format!("Verified {source}: every check passed.\n");
    let set = describe_assessed_set(d.uncertainty());
    let _ = writeln!(s, "  privacy  {} over {set} (re-measured)", meets(d));
    let _ = writeln!(
        s,
        "  rows     sum to 1 within {:.1e}; min entry {:.3e}",
        c.max_row_sum_error(),
        c.min_entry()
    );
    // A loss is reported as it is minimised: its value and lower bounds negated.
    let (what, sign, bound) = match &d.loss() {
        Some(l) => (format!("expected {} loss", l.name), -1.0, "lower bound"),
        None => (d.utility_name().to_string(), 1.0, "upper bound"),
    };
    let value = sign * v.utility_value;
    let _ = writeln!(s, "  value    {what} {value:.9}, re-measured on the matrix");
    let dual = match (v.repricing, v.dual_bound.map(|b| sign * b)) {
        (Repricing::Exact, Some(b)) if d.loss().is_some() => {
            format!("proves the {bound} {b:.9}, re-checked against the loss LP")
        }
        (Repricing::Exact, Some(b)) => {
            format!("proves the {bound} {b:.9}, re-priced over every ray of the design's cone")
        }
        (Repricing::Containing, Some(b)) => format!(
            "proves the {bound} {b:.9}, re-priced over every ray of a cone containing the design's"
        ),
        (Repricing::NoDual, _) if d.route() == Route::Blocks => {
            "none: assembled from designs of blocks, bounded by the a-priori bound".into()
        }
        (Repricing::NoDual, _) if d.route() == Route::BuiltStart => {
            "none: the start built for estimation (no LP followed it), bounded by the floors".into()
        }
        (Repricing::NoDual, _) if d.route() == Route::Baseline => {
            "none: the best structured baseline (the time limit ended before the search beat it), bounded a priori and by the identity's utility".into()
        }
        (Repricing::NoDual, _) => "none (no LP was needed)".into(),
        _ => "not re-priced (beyond the enumeration limits); the identity's utility bounds the optimum".into(),
    };
    let _ = writeln!(s, "  dual     {dual}");
    let status = json!(d.status());
    let _ = writeln!(
        s,
        "  bound    {bound} {:.9} holds (gap {:.1e}); status {} holds",
        sign * c.upper_bound(),
        c.gap(),
        status.as_str().unwrap_or("-")
    );
    let _ = writeln!(
        s,
        "  claims   every figure the file states re-derived and agreeing (README, Design files)"
    );
    if let Some(p) = &d.provenance() {
        let _ = writeln!(
            s,
            "  from     {}, {} (sha256 {}): informational, not checked",
            p.tool, p.input, p.input_sha256
        );
    }
    s
}

/// "tight" when a bound's slack over the exact value is rounding, else the slack.
fn verdict(slack: f64, bound: f64) -> String {
    if slack.abs() <= 1e-9 * (1.0 + bound.abs()) {
        "tight".into()
    } else {
        format!("exact C is {} below", num(slack))
    }
}

/// One labelled line of a report section: name, value, note.
fn row(s: &mut String, name: &str, value: String, note: String) {
    let _ = writeln!(s, "  {name:<40} {value:>12}  {note}");
}

fn to_table(r: &Audit) -> String {
    let (a, source) = (r.assessment(), r.source_name());
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Assessment of {source}  ({} inputs x {} outputs)\n",
        a.mechanism.inputs(),
        a.mechanism.outputs()
    );
    s.push_str(&assessed_matrix(a, r.label_names()));
    prior_table(&mut s, a, r.envelope());
    prior_free_table(&mut s, a);
    tail_table(&mut s, a);
    if let Some(u) = &a.uncertainty {
        set_table(&mut s, u, a.eps_min, r.radius_source());
    }
    s
}

/// The mechanism with the prior beside it and, under it, P(y), PML(y), PMC(y) and
/// the worst-case PML(y) over the set.
fn assessed_matrix(a: &Assessment, labels: &[String]) -> String {
    let cells = |values: &[Option<f64>]| values.iter().map(|l| opt_level(*l)).collect();
    let mut footer = vec![
        (
            "P(y)",
            a.output_probabilities
                .iter()
                .map(|q| format!("{q:.6}"))
                .collect(),
        ),
        ("PML(y)", cells(&a.pml_per_outcome)),
        ("PMC(y)", cells(&a.pmc_per_outcome)),
    ];
    if let Some(u) = &a.uncertainty {
        footer.push(("worst PML(y)", cells(&u.worst_case_pml_per_outcome)));
    }
    let outputs = numbered("y", a.mechanism.outputs());
    matrix_table(
        labels,
        a.prior.masses(),
        &outputs,
        &a.mechanism,
        13,
        &footer,
    )
}

/// The figures under the prior: eps_min, the envelope, the region, eps_max and
/// the PMC.
fn prior_table(s: &mut String, a: &Assessment, env: &EnvelopeBounds) {
    s.push_str("\nUnder the prior:\n");
    row(
        s,
        "eps_min (PML of the mechanism)",
        level(a.eps_min),
        format!("e^eps = {}", level(a.exp_eps_min)),
    );
    let bound = if env.exact {
        "exact".to_string()
    } else {
        format!("lower bound {}", num(env.lower))
    };
    row(
        s,
        &format!("PML envelope at delta = {} ([V])", env.delta),
        level(env.upper),
        format!(
            "{bound}: for every post-processing, P(leakage > it) <= delta; raw eps_Y {}",
            level(env.left_quantile)
        ),
    );
    let k = a.privacy_region;
    row(
        s,
        "privacy region ([E] Def 4)",
        format!("{k} of {}", a.region_thresholds.len() - 1),
        format!(
            "[{}, {}); a column has at most {} zero(s)",
            num(a.region_thresholds[k - 1]),
            num(a.region_thresholds[k]),
            k - 1
        ),
    );
    row(
        s,
        "eps_max = -ln min p",
        level(a.eps_max),
        "every mechanism is eps_max-PML".into(),
    );
    row(
        s,
        "PMC ([D] Thm 1)",
        level(a.pmc),
        format!(
            "information density >= -PMC; ALIP ({}, {}), LIP {}",
            level(a.pmc),
            level(a.eps_min),
            level(a.lip_parameter)
        ),
    );
}

/// The prior-free figures: the LDP parameter and the maximal leakage.
fn prior_free_table(s: &mut String, a: &Assessment) {
    s.push_str("\nPrior-free:\n");
    row(
        s,
        "LDP parameter",
        level(a.ldp_parameter),
        "max_y ln(max_x W / min_x W)".into(),
    );
    row(
        s,
        "maximal leakage",
        level(a.maximal_leakage),
        "ln sum_y max_x W[x][y]".into(),
    );
}

/// The (eps, delta) tail curve, from eps = 0.
fn tail_table(s: &mut String, a: &Assessment) {
    s.push_str("\n(eps, delta) tail curve ([E] Def 3): delta(eps) = P(l(Y) > eps)\n");
    let _ = writeln!(s, "  {:>12} {:>12}", "eps from", "delta");
    if a.tail_curve.first().is_some_and(|t| t.epsilon > 0.0) {
        let _ = writeln!(s, "  {:>12} {:>12}", num(0.0), num(1.0));
    }
    for t in &a.tail_curve {
        let _ = writeln!(s, "  {:>12} {:>12}", num(t.epsilon), level(t.delta));
    }
}

fn set_table(s: &mut String, u: &SetAssessment, eps_min: f64, radius: Option<&RadiusSource>) {
    let _ = writeln!(s, "\nOver {}:", describe_assessed_set(&u.set));
    if let Some(r) = radius {
        let _ = writeln!(
            s,
            "  (radius from delta = {} and m = {} samples, {}: holds the true prior w.p. >= 1 - delta)",
            r.delta, r.samples, r.method
        );
    }
    row(
        s,
        "leakage capacity C ([E] Def 5)",
        level(u.leakage_capacity),
        "exact worst-case PML over the set".into(),
    );
    row(
        s,
        "sensitivity S = C - eps_min ([E] Def 6)",
        level(u.sensitivity),
        "exact".into(),
    );
    row(
        s,
        "Lipschitz constant e^C ([E] Thm 3)",
        level(u.lipschitz_constant),
        "|eps_min(P) - eps_min(Q)| <= e^C |P - Q|_1".into(),
    );
    if let Some(t) = &u.theorem4 {
        theorem4_rows(s, t, eps_min);
    }
}

/// [E] Theorem 4 and Corollary 2 beside the exact capacity of an l1 ball.
fn theorem4_rows(s: &mut String, t: &Theorem4Check, eps_min: f64) {
    match (t.sensitivity_bound, t.capacity_bound, t.capacity_slack) {
        (Some(sb), Some(cb), Some(slack)) => {
            let verdict = verdict(slack, cb);
            row(
                s,
                &format!("Theorem 4 bound on S (region {})", t.region),
                level(sb),
                format!("C <= eps_min + bound = {}: {verdict}", level(cb)),
            );
        }
        _ => row(
            s,
            "Theorem 4 bound on S",
            "-".into(),
            format!("needs beta < 2 min p (beta = {})", short(t.beta)),
        ),
    }
    match (t.corollary2_bound, t.corollary2_slack) {
        (Some(b), Some(slack)) => row(
            s,
            "Corollary 2 bound on C",
            level(b),
            format!(
                "eps - ln(1 - e^eps beta/2), any region: {}",
                verdict(slack, b)
            ),
        ),
        _ => row(
            s,
            "Corollary 2 bound on C",
            "-".into(),
            "vacuous: needs beta e^eps < 2".into(),
        ),
    }
    if t.eps_min_at_center != eps_min {
        row(
            s,
            "eps_min at the centre of the ball",
            level(t.eps_min_at_center),
            "the bounds are taken there".into(),
        );
    }
}
