//! The file the receivers of a `compose` or `ldp` record release get (`pml
//! publish` of a record design, Python's `RecordDesign.public()`): each column
//! is released by its own design, so the file is one public part per column (the
//! content of a one-column [`PublicDesign`]) with the record's columns, mode and
//! total level, and the record's guarantee in words. It holds no prior, count,
//! sample size, radius or path. A `joint` record has none: its alphabet is the
//! sample's combinations.
//!
//! Reading one re-checks every part as a one-column public file is re-checked,
//! and re-derives the record's sentence from the parts' levels; a file whose
//! statements differ is refused naming the field.

use super::outcome::stated;
use super::{RecordDesign, RecordMode};
use crate::error::Result;
use crate::solution::claims::altered;
use crate::solution::public::PublicDesign;
use crate::tolerance::PML_TOLERANCE;
use pmldesign_model::ModelError;
use serde::{Deserialize, Serialize};

/// The `format` field of a public record file.
pub const PUBLIC_RECORD_FORMAT: &str = "pmldesign-public-record";

/// The version of the public record file's layout.
pub const PUBLIC_RECORD_VERSION: u32 = 1;

/// A published `compose` or `ldp` record design: what a receiver needs to read
/// and estimate from the released columns, and nothing about the sample.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct PublicRecord {
    format: String,
    version: u32,
    mode: RecordMode,
    columns: Vec<String>,
    epsilon: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    delta: Option<f64>,
    guarantee: String,
    parts: Vec<PublicDesign>,
}

/// The fields of a public record file as written, before their checks.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PublicRecordFile {
    format: String,
    version: u32,
    mode: RecordMode,
    columns: Vec<String>,
    epsilon: f64,
    #[serde(default)]
    delta: Option<f64>,
    guarantee: String,
    parts: Vec<serde_json::Value>,
}

impl PublicRecord {
    /// The `format` field that marks a public record file.
    pub const FORMAT: &str = PUBLIC_RECORD_FORMAT;

    /// The public file of `r` (a verified record design): one public part per
    /// column, the sentence derived here. A `joint` record is refused with the
    /// reason.
    pub fn of(r: &RecordDesign) -> Result<PublicRecord> {
        if !matches!(r.mode, RecordMode::Compose | RecordMode::Ldp) {
            return Err(ModelError::invalid(
                "record mode",
                r.mode.name(),
                "a joint record has no public file: its alphabet is the sample's combinations, which the file would publish",
                "hand the design file only to those who may see the sample, or design the record with --record compose or ldp",
            )
            .into());
        }
        let parts: Vec<PublicDesign> = r.designs.iter().map(PublicDesign::of).collect();
        let delta = r.guarantee.delta;
        let guarantee = sentence(&r.columns, r.mode, r.epsilon, delta, &parts);
        Ok(PublicRecord {
            format: PUBLIC_RECORD_FORMAT.into(),
            version: PUBLIC_RECORD_VERSION,
            mode: r.mode,
            columns: r.columns.clone(),
            epsilon: r.epsilon,
            delta,
            guarantee,
            parts,
        })
    }

    /// Whether `value` is a public record file (its `format` field says so).
    pub fn is_public_record_file(value: &serde_json::Value) -> bool {
        value.get("format").and_then(|f| f.as_str()) == Some(PUBLIC_RECORD_FORMAT)
    }

    /// Reads a public record file: every part re-checked, the levels and the
    /// sentence re-derived; a file whose statements differ is refused.
    pub fn from_json(text: &str) -> Result<PublicRecord> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let f: PublicRecordFile = serde_json::from_str(text).map_err(|e| {
            ModelError::invalid(
                "public record file",
                "its JSON",
                format!("not a public record file ({e})"),
                "give the output of `pml publish` of a record design",
            )
        })?;
        PublicRecord::checked(f)
    }

    /// The file's statements against their re-derivation.
    fn checked(f: PublicRecordFile) -> Result<PublicRecord> {
        if f.format != PUBLIC_RECORD_FORMAT || f.version != PUBLIC_RECORD_VERSION {
            let shown = format!("{} version {}", f.format, f.version);
            return Err(altered(
                "format",
                shown,
                "not a public record file this pml reads",
            ));
        }
        let notion_of = match f.mode {
            RecordMode::Compose => "pml",
            RecordMode::Ldp => "ldp",
            other => {
                return Err(altered(
                    "mode",
                    other.name(),
                    "a joint record has no public file",
                ));
            }
        };
        let distinct: std::collections::HashSet<&String> = f.columns.iter().collect();
        if f.columns.len() < 2
            || distinct.len() != f.columns.len()
            || f.parts.len() != f.columns.len()
        {
            let why = "a record needs two or more distinct columns, one part each";
            return Err(altered("columns", f.columns.len(), why));
        }
        let mut parts = Vec::with_capacity(f.parts.len());
        for (j, part) in f.parts.into_iter().enumerate() {
            let p = PublicDesign::from_value(part).map_err(|e| {
                altered(&format!("parts[{j}]"), "its public design", &e.to_string())
            })?;
            if p.notion().name() != notion_of {
                let why = format!(
                    "a {} record's columns are released under {notion_of}",
                    f.mode.name()
                );
                return Err(altered(
                    &format!("parts[{j}].notion"),
                    p.notion().name(),
                    &why,
                ));
            }
            parts.push(p);
        }
        let total: f64 = parts.iter().map(|p| p.notion().epsilon()).sum();
        if !(f.epsilon.is_finite() && total <= f.epsilon + PML_TOLERANCE) {
            let why = format!("the columns' levels add up to {total}, above it");
            return Err(altered("epsilon", f.epsilon, &why));
        }
        let said = sentence(&f.columns, f.mode, f.epsilon, f.delta, &parts);
        if f.guarantee != said {
            return Err(altered(
                "guarantee",
                &f.guarantee,
                &format!("re-derived it reads {said:?}"),
            ));
        }
        Ok(PublicRecord {
            format: f.format,
            version: f.version,
            mode: f.mode,
            columns: f.columns,
            epsilon: f.epsilon,
            delta: f.delta,
            guarantee: said,
            parts,
        })
    }

    /// The JSON of the public record file (pretty-printed).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The record's columns, in release order (released as `{column}_private`).
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// `compose` or `ldp`.
    pub fn mode(&self) -> RecordMode {
        self.mode
    }

    /// The total level about the whole record.
    pub fn epsilon(&self) -> f64 {
        self.epsilon
    }

    /// The public part of each column, in the columns' order.
    pub fn parts(&self) -> &[PublicDesign] {
        &self.parts
    }

    /// The record's guarantee in words.
    pub fn guarantee(&self) -> &str {
        &self.guarantee
    }

    /// What a receiver cannot re-verify from this file.
    pub fn unverified(&self) -> String {
        match self.mode {
            RecordMode::Ldp => "the designs' optimality".into(),
            _ => "the record's PML guarantee, which depends on the distribution of the record that the file leaves out, and the designs' optimality".into(),
        }
    }
}

/// The record's sentence from its columns, mode, total level and delta, and the
/// parts' levels.
fn sentence(
    columns: &[String],
    mode: RecordMode,
    epsilon: f64,
    delta: Option<f64>,
    parts: &[PublicDesign],
) -> String {
    let epsilons: Vec<f64> = parts.iter().map(|p| p.notion().epsilon()).collect();
    stated(columns, mode, (epsilon, &epsilons, delta), None)
}
