//! The report of `pml envelope`: the post-processing envelope of a given
//! mechanism over delta (\[V\] Thm 3 and Algorithm 1), with the LP's bracket
//! beside it when it was computed, and the statement a data holder can publish.

use crate::chart::{Axes, Mark, Series, line_chart, standalone};
use crate::colormap::SERIES;
use crate::document::{Page, figure, table};
use crate::matrix::{Matrix, mechanism_figure, prior_figure};
use crate::text::{num, short};
use pmldesign_model::envelope::EnvelopeBounds;
use pmldesign_model::{Mechanism, Prior};
use pmldesign_solver::labels::numbered;

/// What `pml envelope` computed: the bounds over a grid of delta, the LP's
/// bracket `(lower, upper)` at each delta when asked for, and the statement at
/// the headline delta.
pub struct EnvelopeCurve<'a> {
    /// The mechanism file, as given.
    pub source: &'a str,
    /// The mechanism and its prior.
    pub mechanism: &'a Mechanism,
    /// The prior the leakage is measured under.
    pub prior: &'a Prior,
    /// Input labels.
    pub labels: &'a [String],
    /// The bounds at each delta of the grid.
    pub curve: &'a [EnvelopeBounds],
    /// The LP's bracket at each delta of the grid (`pml envelope --lp`).
    pub lp: Option<Vec<(f64, f64)>>,
    /// The headline delta and the statement published there.
    pub delta: f64,
    /// The statement, in the CLI's words.
    pub statement: &'a str,
}

/// The whole page of an envelope.
pub fn page(e: &EnvelopeCurve) -> String {
    let title = format!("Post-processing envelope of {}", e.source);
    let mut p = Page::new(&title);
    p.guarantee(&format!("Statement: {}.", e.statement));
    p.section("curve", "The envelope over delta", &chart(e));
    p.section("table", "The numbers", &numbers(e));
    let rows = e.mechanism.to_rows();
    let prior = e.prior.masses().to_vec();
    let outputs = numbered("y", e.mechanism.outputs());
    let m = Matrix {
        rows: &rows,
        inputs: e.labels,
        outputs: &outputs,
        prior: &prior,
    };
    let mut s = mechanism_figure(&m, "the mechanism file");
    s.push_str(&prior_figure(
        e.labels,
        &prior,
        "The prior the leakage is measured under.",
    ));
    p.section("mechanism", "The mechanism and the prior", &s);
    p.finish(&title)
}

fn line(name: &str, points: Vec<(f64, f64)>, colour: usize, dashed: bool) -> Series {
    Series {
        name: name.into(),
        points,
        colour: SERIES[colour],
        dashed,
        markers: false,
    }
}

/// The chart alone as an SVG file (`pml envelope --plot`).
pub fn svg(e: &EnvelopeCurve) -> String {
    standalone(&plot(e))
}

/// The envelope's line chart, on the page and in the file alike.
fn plot(e: &EnvelopeCurve) -> String {
    let axes = Axes {
        x_label: "delta (log scale)",
        y_label: "eps (nats)",
        log_x: true,
    };
    line_chart(&alt(e), &axes, &series(e), &marks(e))
}

fn chart(e: &EnvelopeCurve) -> String {
    figure(
        &plot(e),
        "The envelope eps_c(delta) lies between the bounds: for every post-processing Z of the output, P(l(X -> Z) > eps_c(delta)) <= delta. The raw level can be exceeded by post-processing.",
    )
}

fn series(e: &EnvelopeCurve) -> Vec<Series> {
    let pick = |f: fn(&EnvelopeBounds) -> f64| e.curve.iter().map(|b| (b.delta, f(b))).collect();
    let mut series = vec![
        line(
            "upper bound on eps_c(delta) (Thm 3)",
            pick(|b| b.upper),
            0,
            false,
        ),
        line("lower bound on eps_c(delta)", pick(|b| b.lower), 1, true),
        line(
            "raw eps_Y(delta) (not closed under post-processing)",
            pick(|b| b.left_quantile),
            3,
            true,
        ),
    ];
    if let Some(lp) = &e.lp {
        let upper = e
            .curve
            .iter()
            .zip(lp)
            .map(|(b, v)| (b.delta, v.1))
            .collect();
        series.push(line("LP: no post-processing leaks more", upper, 2, false));
    }
    series
}

fn alt(e: &EnvelopeCurve) -> String {
    format!(
        "Envelope bounds of the mechanism over {} values of delta from {} to {}; at delta = {}: {}",
        e.curve.len(),
        short(e.curve.first().map_or(0.0, |b| b.delta)),
        short(e.curve.last().map_or(0.0, |b| b.delta)),
        short(e.delta),
        e.statement
    )
}

fn marks(e: &EnvelopeCurve) -> [Mark; 1] {
    [Mark::Vertical(
        e.delta,
        format!("delta = {}", short(e.delta)),
    )]
}

fn numbers(e: &EnvelopeCurve) -> String {
    let rows: Vec<Vec<String>> = e
        .curve
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let mut r = vec![
                short(b.delta),
                num(b.left_quantile),
                num(b.lower),
                num(b.upper),
            ];
            if let Some(lp) = &e.lp {
                r.push(num(lp[i].0));
                r.push(num(lp[i].1));
            }
            r
        })
        .collect();
    let mut head = vec!["delta", "raw eps_Y", "lower", "upper (Thm 3)"];
    if e.lp.is_some() {
        head.extend(["LP lower", "LP upper"]);
    }
    table(&head, &rows)
}
