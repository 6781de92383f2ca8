//! # pmldesign-report
//!
//! One self-contained HTML document from a certified design: inline SVG and CSS,
//! a PNG as a `data:` URI for large mechanisms, no script, no external resource.
//! Every figure comes from a [`Design`] (or [`RecordDesign`]) the solver certified
//! or re-verified on reading; nothing here performs I/O, and the same input gives
//! the same bytes.
//!
//! ```
//! use pmldesign_model::{Prior, UncertaintySet};
//! use pmldesign_solver::{FInformation, Problem};
//!
//! let set = UncertaintySet::known(Prior::new(vec![0.4, 0.2, 0.2, 0.2])?);
//! let d = Problem::new(set).epsilon(0.5).utility(FInformation::mutual_information()).solve()?;
//! let html = pmldesign_report::design(&d, &pmldesign_report::ReportOptions::default());
//! assert!(html.starts_with("<!DOCTYPE html>") && html.contains("worst-case PML"));
//! # Ok::<(), pmldesign_solver::SolverError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

// Layers, bottom to top (scripts/layers.json): `text`, `colormap` < `document`,
// `chart`, `heatmap` < `matrix` < `envelope`, `tradeoff` < `design`, `curve` <
// `record`, `audit`, `comparison`.
mod audit;
/// The SVG line and bar charts of the reports, public for the figure examples
/// (`standalone` writes one as an SVG file of its own).
pub mod chart;
mod colormap;
mod comparison;
mod curve;
mod design;
mod document;
mod envelope;
mod estimation;
mod heatmap;
mod matrix;
mod record;
mod text;
mod tradeoff;

pub use colormap::viridis;
pub use heatmap::{RASTER_MAX, SVG_MAX_INPUTS};
pub use matrix::TABLE_MAX_INPUTS;
pub use tradeoff::{
    POINTS as TRADEOFF_POINTS, PointOutcome, Tradeoff, TradeoffPoint, budget as tradeoff_budget,
    tradeoff,
};

pub use audit::Audit;
pub use curve::EnvelopeCurve;

use pmldesign_solver::{Comparison, Design, RecordDesign};

/// What a report shows beyond the design itself.
#[derive(Debug, Clone, Default)]
pub struct ReportOptions {
    /// The page's heading (default: the design's title line, as `pml design`
    /// prints it).
    pub title: Option<String>,
    /// The design file to name in the re-check command `pml assess --design FILE`
    /// (default: `design.json`, with how to write it).
    pub design_file: Option<String>,
    /// The trade-off curve to draw ([`tradeoff`]); `None` for the compact report.
    pub tradeoff: Option<Tradeoff>,
}

/// The report of a single design: the guarantee in a sentence, the mechanism as
/// a heatmap (SVG up to [`SVG_MAX_INPUTS`] inputs, a PNG above; numbers up to
/// [`TABLE_MAX_INPUTS`]), the leakage of each output against eps and the prior,
/// the design against randomized response, the trade-off curve when
/// `options.tradeoff` has one, the certificate and the envelope.
pub fn design(d: &Design, options: &ReportOptions) -> String {
    design::page(d, options)
}

/// The report of a record design: its guarantee, each column's split of eps and
/// the record's measured leakage, then each column's design (without trade-off).
pub fn record(r: &RecordDesign, options: &ReportOptions) -> String {
    record::page(r, options)
}

/// The report of an audit (`pml assess --mechanism`): the mechanism, the PML of
/// each output under the prior (and over the set), every measure, the tail
/// curve and the post-processing envelope.
pub fn audit(a: &Audit) -> String {
    audit::page(a)
}

/// The report of `pml compare`: every notion's design side by side with
/// randomized response, then each mechanism.
pub fn comparison(c: &Comparison, labels: &[String]) -> String {
    comparison::page(c, labels)
}

/// The report of `pml envelope`: the envelope bounds over delta (and the LP's
/// bracket), the numbers, the mechanism and the prior.
pub fn envelope(e: &EnvelopeCurve) -> String {
    curve::page(e)
}

/// The chart of [`envelope`]'s page as a standalone SVG document (`pml envelope
/// --plot`): one chart stack for pages and files.
pub fn envelope_svg(e: &EnvelopeCurve) -> String {
    curve::svg(e)
}
