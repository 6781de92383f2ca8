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
// `chart`, `heatmap` < `envelope`, `tradeoff` < `design` < `record`.
mod chart;
mod colormap;
mod design;
mod document;
mod envelope;
mod heatmap;
mod record;
mod text;
mod tradeoff;

pub use colormap::viridis;
pub use design::TABLE_MAX_INPUTS;
pub use heatmap::{RASTER_MAX, SVG_MAX_INPUTS};
pub use tradeoff::{POINTS as TRADEOFF_POINTS, PointOutcome, Tradeoff, TradeoffPoint, tradeoff};

use pmldesign_solver::{Design, RecordDesign};

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
