//! Figures of a matrix and its vectors that every page shows: the mechanism as a
//! heatmap (numbers below it for small alphabets), the leakage of each output
//! against a level, and the prior. Designs, audits and comparisons share them.

use crate::chart::bar_chart;
use crate::document::{figure, note};
use crate::heatmap::{Grid, heatmap, numbers_table};
use crate::text::{num, short};

/// The largest alphabet whose matrix is also printed as numbers.
pub const TABLE_MAX_INPUTS: usize = 20;

/// A mechanism to draw: its rows (inputs), the labels of inputs and outputs, and
/// the prior printed beside the numbers.
pub struct Matrix<'a> {
    /// One row per input, `P(y | x)`.
    pub rows: &'a [Vec<f64>],
    /// Input labels.
    pub inputs: &'a [String],
    /// Output labels.
    pub outputs: &'a [String],
    /// The prior (one mass per input).
    pub prior: &'a [f64],
}

/// The heatmap of `m` with its caption, and its numbers up to
/// [`TABLE_MAX_INPUTS`] inputs (`more` says where the rest are written).
pub fn mechanism_figure(m: &Matrix, more: &str) -> String {
    let grid = Grid {
        rows: m.rows,
        row_labels: m.inputs,
        col_labels: m.outputs,
    };
    let (n, k) = (m.rows.len(), m.outputs.len());
    let alt =
        format!("Heatmap of the mechanism P(y | x): {n} inputs by {k} outputs, darker is smaller");
    let mut s = figure(
        &heatmap(&grid, &alt),
        &format!(
            "The mechanism W = P(y | x): one row per input x ({n}), one column per output y ({k}); each row sums to 1."
        ),
    );
    if n <= TABLE_MAX_INPUTS {
        s.push_str(&numbers_table(&grid, m.prior));
    } else {
        s.push_str(&note(&format!(
            "The numbers are printed up to {TABLE_MAX_INPUTS} inputs; {more} writes them all."
        )));
    }
    s
}

/// The bar chart of each output's leakage (`what`, e.g. "worst-case PML", over
/// the priors `over`) with the level `eps` drawn as a line when there is one.
pub fn leakage_figure(
    what: &str,
    over: &str,
    outputs: &[String],
    values: &[f64],
    eps: Option<f64>,
    caption: &str,
) -> String {
    let largest = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let alt = format!(
        "Bar chart of the {what} of each of {} outputs over {over}; largest {}{}",
        values.len(),
        num(largest),
        eps.map_or(String::new(), |e| format!(", against eps {}", num(e)))
    );
    let reference = eps.map(|e| (e, format!("eps = {}", short(e))));
    figure(
        &bar_chart(&alt, &format!("{what} (nats)"), outputs, values, reference),
        caption,
    )
}

/// The bar chart of a prior over the inputs.
pub fn prior_figure(labels: &[String], prior: &[f64], caption: &str) -> String {
    let alt = format!(
        "Bar chart of the prior over {} inputs; largest mass {}",
        prior.len(),
        num(prior.iter().copied().fold(0.0, f64::max))
    );
    figure(&bar_chart(&alt, "P(x)", labels, prior, None), caption)
}
