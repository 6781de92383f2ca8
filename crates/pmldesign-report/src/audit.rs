//! The report of `pml assess --mechanism`: a given mechanism audited under a
//! prior and, optionally, a set of priors. Every figure comes from the model's
//! [`Assessment`] (\[E\] Thm 1, Defs 3-6) and its envelope (\[V\] Thm 3).

use crate::chart::{Axes, Series, line_chart};
use crate::colormap::SERIES;
use crate::document::{Page, facts, figure, para};
use crate::envelope::bounds_section;
use crate::matrix::{Matrix, leakage_figure, mechanism_figure, prior_figure};
use crate::text::level;
use pmldesign_model::envelope::EnvelopeBounds;
use pmldesign_model::measures::Assessment;
use pmldesign_model::statement::describe_set;
use pmldesign_solver::labels::numbered;

/// What an audit shows: the assessment, its envelope bounds, the labels and the
/// file the mechanism came from.
pub struct Audit<'a> {
    /// Every leakage figure of the mechanism.
    pub assessment: &'a Assessment,
    /// The post-processing envelope at the chosen delta.
    pub envelope: &'a EnvelopeBounds,
    /// Input labels.
    pub labels: &'a [String],
    /// The mechanism file, as given.
    pub source: &'a str,
}

/// The whole page of an audit.
pub fn page(a: &Audit) -> String {
    let s = a.assessment;
    let title = format!("Audit of the mechanism {}", a.source);
    let mut p = Page::new(&title);
    p.guarantee(&sentence(s));
    let outputs = numbered("y", s.mechanism.outputs());
    let rows = s.mechanism.to_rows();
    let prior = s.prior.masses().to_vec();
    let m = Matrix {
        rows: &rows,
        inputs: a.labels,
        outputs: &outputs,
        prior: &prior,
    };
    p.section(
        "mechanism",
        "The mechanism",
        &mechanism_figure(&m, "the mechanism file"),
    );
    p.section(
        "leakage",
        "Leakage of each output, and the prior",
        &leakage(s, &m),
    );
    p.section("measures", "Every measure", &measures(s));
    p.section("tail", "The (eps, delta) tail curve", &tail(s));
    p.section(
        "envelope",
        "Post-processing envelope",
        &bounds_section(a.envelope, &s.mechanism, &s.prior),
    );
    p.finish(&title)
}

/// The audit in one sentence: the smallest eps under the prior, and over the set.
fn sentence(s: &Assessment) -> String {
    let mut t = format!(
        "Under the prior, the mechanism is eps-PML for every eps >= {} (e^eps = {}), the largest PML of any output.",
        level(s.eps_min),
        level(s.exp_eps_min)
    );
    if let Some(u) = &s.uncertainty {
        t.push_str(&format!(
            " Over {}, its worst-case PML is {} (the leakage capacity).",
            describe_set(&u.set),
            level(u.leakage_capacity)
        ));
    }
    t
}

/// The PML of each output (under the prior, and over the set), then the prior
/// itself; `m` gives the labels and the prior.
fn leakage(s: &Assessment, m: &Matrix) -> String {
    let outputs = m.outputs;
    let values: Vec<f64> = s.pml_per_outcome.iter().map(|l| l.unwrap_or(0.0)).collect();
    let mut html = leakage_figure(
        "PML",
        "the prior",
        outputs,
        &values,
        None,
        "PML of each output under the prior (an output that never occurs leaks nothing and is drawn at 0).",
    );
    if let Some(u) = &s.uncertainty {
        let worst: Vec<f64> = u
            .worst_case_pml_per_outcome
            .iter()
            .map(|l| l.unwrap_or(0.0))
            .collect();
        let over = describe_set(&u.set);
        html.push_str(&leakage_figure(
            "worst-case PML",
            &over,
            outputs,
            &worst,
            None,
            &format!("Worst-case PML of each output over {over}, measured exactly."),
        ));
    }
    html.push_str(&prior_figure(m.inputs, m.prior, "The prior."));
    html
}

fn measures(s: &Assessment) -> String {
    let mut rows = vec![
        ("eps_min (largest PML under the prior)", level(s.eps_min)),
        (
            "eps_max = -ln min p (every mechanism is eps_max-PML)",
            level(s.eps_max),
        ),
        ("privacy region of eps_min", s.privacy_region.to_string()),
        ("PMC (smallest eps-PMC)", level(s.pmc)),
        ("LIP parameter", level(s.lip_parameter)),
        ("LDP parameter", level(s.ldp_parameter)),
        ("maximal leakage", level(s.maximal_leakage)),
    ];
    if let Some(u) = &s.uncertainty {
        rows.push(("leakage capacity over the set", level(u.leakage_capacity)));
        rows.push(("sensitivity over the set", level(u.sensitivity)));
        rows.push(("Lipschitz constant e^C", level(u.lipschitz_constant)));
    }
    let mut html = facts(&rows);
    html.push_str(&para(
        "All in nats; PML and PMC per output as in the JSON of pml assess.",
    ));
    html
}

fn tail(s: &Assessment) -> String {
    let mut points = vec![(0.0, 1.0)];
    for t in &s.tail_curve {
        if let Some(&(_, last)) = points.last() {
            points.push((t.epsilon, last));
        }
        points.push((t.epsilon, t.delta));
    }
    let alt = format!(
        "Step chart of delta(eps) = P(l(Y) > eps) under the prior: from 1 at eps = 0 to 0 at eps_min = {}",
        level(s.eps_min)
    );
    let series = [Series {
        name: "delta(eps) = P(l(Y) > eps)".into(),
        points,
        colour: SERIES[0],
        dashed: false,
        markers: false,
    }];
    let axes = Axes {
        x_label: "eps (nats)",
        y_label: "delta",
        log_x: false,
    };
    figure(
        &line_chart(&alt, &axes, &series, &[]),
        "The mechanism is (eps, delta)-PML for every point on or above the curve ([E] Def 3); post-processing can exceed it, the envelope below cannot.",
    )
}
