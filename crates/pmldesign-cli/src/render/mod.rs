//! Everything `pml` prints: tables for people, JSON and CSV, one module per report,
//! and the shared pieces (numbers, CSV cells, words). No mathematics here: every
//! number comes from the library. Rendering returns strings; writing them is
//! [`crate::io`]'s.

pub mod apply;
pub mod assess;
pub mod bounds;
pub mod compare;
pub mod csv;
pub mod design;
pub mod envelope;
pub mod estimate;
pub mod estimate_record;
pub mod matrix;
pub mod number;
pub mod record;
pub mod report;
pub mod words;

use crate::error::CliError;
use pmldesign_app::versioned;

/// Pretty JSON with a final newline and `format_version` first (through a
/// `serde_json::Value`: for the small reports).
pub fn pretty(v: &impl serde::Serialize) -> Result<String, CliError> {
    let v = versioned(serde_json::to_value(v).map_err(failed)?);
    own_version(&v)
}

/// Pretty JSON with a final newline, written straight from `v`, which carries
/// its own `format_version` (a design). Through a `serde_json::Value` first,
/// an LDP design at N = 2048 peaked at 1147 MB instead of 860 MB.
pub fn own_version(v: &impl serde::Serialize) -> Result<String, CliError> {
    let mut s = serde_json::to_string_pretty(v).map_err(failed)?;
    s.push('\n');
    Ok(s)
}

fn failed(e: serde_json::Error) -> CliError {
    CliError::Failure(e.to_string())
}
