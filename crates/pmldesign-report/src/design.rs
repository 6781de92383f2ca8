//! The report of one design, section by section: guarantee, mechanism, leakage
//! and prior, utility against randomized response, trade-off, certificate,
//! envelope. Every figure comes from the certified [`Design`].

use crate::ReportOptions;
use crate::chart::bar_chart;
use crate::document::{Page, facts, figure, note, para, table};
use crate::matrix::{Matrix, leakage_figure, mechanism_figure, prior_figure};
use crate::text::{certified, escape, level, num, short};
use pmldesign_model::Notion;
use pmldesign_model::statement::describe_set;
use pmldesign_solver::{Design, DesignStatus};

/// The objective's name and the sign that turns the design's utility into it
/// (a loss design stores minus its expected loss).
pub(crate) fn objective(d: &Design) -> (String, f64) {
    match &d.loss() {
        Some(l) => (format!("expected {} loss (lower is better)", l.name), -1.0),
        None => (
            format!("utility {} (higher is better)", d.utility_name()),
            1.0,
        ),
    }
}

/// The status in the words of the design file (`optimal`, `time_limit`, ...).
pub(crate) fn status_word(s: DesignStatus) -> &'static str {
    s.as_str()
}

/// The guarantee sentence: the sample guarantee when the design came from data,
/// else the certificate's clause over the set, in the CLI's words.
pub(crate) fn guarantee_sentence(d: &Design) -> String {
    let clause = format!(
        "Certificate (tolerance {:.0e}): {} over {}.",
        d.certificate().tolerance(),
        d.privacy_clause(),
        describe_set(d.uncertainty())
    );
    match d.guarantee().and_then(|g| g.statement()) {
        Some(s) => format!("Guarantee: {s}. {clause}"),
        None => clause,
    }
}

/// The whole page of a design.
pub fn page(d: &Design, o: &ReportOptions) -> String {
    let title = o.title.clone().unwrap_or_else(|| d.title());
    let mut p = Page::new(&title);
    p.guarantee(&guarantee_sentence(d));
    let mut head = String::new();
    if let Some(n) = d.note() {
        head.push_str(&note(&format!("Note: {n}.")));
    }
    head.push_str(&sample_facts(d));
    if !head.is_empty() {
        p.section("status", "Status", &head);
    }
    sections(&mut p, d, o, "");
    p.finish(&title)
}

/// The sections after the guarantee (also each column of a record, with `prefix`
/// making their ids unique).
pub(crate) fn sections(p: &mut Page, d: &Design, o: &ReportOptions, prefix: &str) {
    p.section(
        &format!("{prefix}mechanism"),
        "The mechanism",
        &mechanism(d),
    );
    p.section(
        &format!("{prefix}leakage"),
        "Leakage of each output, and the prior",
        &leakage(d),
    );
    p.section(
        &format!("{prefix}utility"),
        "Against randomized response",
        &against_baselines(d),
    );
    if let Some(t) = &o.tradeoff {
        let (name, _) = objective(d);
        let caption = format!(
            "Trade-off: the problem solved again at {} levels of eps under one budget of {} s, each point certified; the chosen eps is marked; a hollow circle stopped at the time limit (its certified bound shown), a cross was not computed.",
            t.points.len() - 1,
            short(t.budget_seconds)
        );
        let signed = crate::tradeoff::chart(t, &name_for_chart(d, &name));
        let mut html = figure(&signed, &caption);
        if let Some(chart) = crate::tradeoff::estimation_chart(t) {
            html.push_str(&figure(
                &chart,
                "Estimating the input distribution at each level: the error per row of the maximum-likelihood estimate (m E|p^ - p|^2 as the rows m grow), of this design and of randomized response at the same LDP eps; a point is missing where an input cannot be told apart. A design made for estimation (--utility estimation) has the least error at each level.",
            ));
        }
        p.section(&format!("{prefix}tradeoff"), "Trade-off with eps", &html);
    }
    p.section(
        &format!("{prefix}certificate"),
        "Certificate",
        &certificate(d, o),
    );
    if let Some(html) = crate::estimation::section(d) {
        p.section(
            &format!("{prefix}estimation"),
            "Estimating the input distribution from released rows",
            &html,
        );
    }
    if let Some(html) = crate::envelope::section(d) {
        p.section(
            &format!("{prefix}envelope"),
            "Post-processing envelope",
            &html,
        );
    }
}

fn name_for_chart(d: &Design, name: &str) -> String {
    if d.loss().is_some() {
        format!("{} (minus expected loss)", d.utility_name())
    } else {
        name.to_string()
    }
}

fn sample_facts(d: &Design) -> String {
    let Some(g) = &d.guarantee() else {
        return String::new();
    };
    let method = g.radius_method().describe();
    let mut rows = vec![
        ("samples m", g.samples().to_string()),
        ("delta", g.delta().to_string()),
        ("l1 radius beta", format!("{:.6} ({method})", g.beta())),
    ];
    if let Some(n) = g.radius_note() {
        rows.push(("note", n.to_string()));
    }
    facts(&rows)
}

fn mechanism(d: &Design) -> String {
    let rows = d.mechanism().to_rows();
    let outputs: Vec<String> = match d.loss() {
        Some(_) => d.outputs().iter().map(|y| format!("guess {y}")).collect(),
        None => d.outputs().to_vec(),
    };
    let prior = d.uncertainty().reference().to_vec();
    let m = Matrix {
        rows: &rows,
        inputs: d.labels(),
        outputs: &outputs,
        prior: &prior,
    };
    mechanism_figure(&m, "pml design --format csv")
}

fn leakage(d: &Design) -> String {
    let over = describe_set(d.uncertainty());
    let eps = match d.notion() {
        Notion::Pml { epsilon } => Some(*epsilon),
        _ => None,
    };
    let mut s = leakage_figure(
        "worst-case PML",
        &over,
        d.outputs(),
        d.certificate().worst_case_pml_per_output(),
        eps,
        &format!(
            "Worst-case PML of each output over {over}, re-measured by the certificate; the line is eps."
        ),
    );
    let prior = d.uncertainty().reference().to_vec();
    s.push_str(&prior_figure(
        d.labels(),
        &prior,
        "The prior the design is for (the centre of the set when it is a ball).",
    ));
    s
}

fn against_baselines(d: &Design) -> String {
    let (name, sign) = objective(d);
    let rel = |u: f64| {
        if d.utility_value().abs() > 1e-12 {
            format!("{:.1}%", 100.0 * u / d.utility_value())
        } else {
            "-".into()
        }
    };
    let mut rows = vec![vec![
        format!("optimal {} design", d.notion().name().to_uppercase()),
        "-".into(),
        certified(
            d.certificate().worst_case_pml(),
            d.certificate().target_epsilon(),
            d.certificate().tolerance(),
        ),
        num(sign * d.utility_value()),
        rel(d.utility_value()),
    ]];
    for r in d.baselines().rows() {
        rows.push(vec![
            d.baseline_label(&r),
            r.ldp_epsilon.map_or("-".into(), level),
            level(r.worst_case_pml),
            num(sign * r.utility),
            rel(r.utility),
        ]);
    }
    let values: Vec<f64> = rows
        .iter()
        .map(|r| r[3].parse().unwrap_or(f64::NAN))
        .collect();
    let labels: Vec<String> = rows.iter().map(|r| r[0].clone()).collect();
    let alt = format!(
        "Bar chart of the {name}: {}",
        rows.iter()
            .map(|r| format!("{} {}", r[0], r[3]))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut s = table(
        &["mechanism", "LDP e_r", "worst PML", &name, "vs design"],
        &rows,
    );
    s.push_str(&figure(
        &bar_chart(&alt, &name, &labels, &values, None),
        "The design against randomized response and the structured mechanisms of the literature (partitions, covers, closed forms), each calibrated to the same guarantee.",
    ));
    s
}

fn certificate(d: &Design, o: &ReportOptions) -> String {
    let c = d.certificate();
    let (name, sign) = objective(d);
    let (value, bound) = if d.loss().is_some() {
        ("expected loss", "lower bound (LP duality)")
    } else {
        ("utility", "upper bound (LP dual)")
    };
    let rows = vec![
        ("status", status_word(d.status()).to_string()),
        ("privacy", d.privacy_clause()),
        ("tolerance", format!("{:.0e}", c.tolerance())),
        (value, format!("{:.9} ({name})", sign * c.utility_value())),
        (bound, format!("{:.9}", sign * c.upper_bound())),
        ("gap", format!("{:.1e}", c.gap())),
        (
            "rows sum to 1 within",
            format!("{:.1e}", c.max_row_sum_error()),
        ),
        ("min entry", format!("{:.3e}", c.min_entry())),
        (
            "pricing",
            format!("{} ({} passes)", d.route(), d.iterations()),
        ),
    ];
    let file = o
        .design_file
        .clone()
        .unwrap_or_else(|| "design.json".into());
    let mut s = facts(&rows);
    s.push_str(&format!(
        "<p>Anyone can re-check this certificate from the design file: <code>pml assess --design {}</code>{}</p>",
        escape(&file),
        if o.design_file.is_none() { escape(" (write the file with pml design ... --format json --output design.json).") } else { ".".into() }
    ));
    s.push_str(&para("The privacy levels are re-measured on the matrix over the whole set of priors; the bound is the LP dual, re-priced over every extreme ray."));
    s
}
