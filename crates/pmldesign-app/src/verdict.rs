//! The verdict on a stored design, as `pml assess --design` and Python's
//! `Design.verify` answer it: the design read back (its privacy re-measured over
//! the whole set of priors), its utility re-measured and its dual re-priced
//! (docs/theory.md §4, "Checking a stored design"), and what that proved.

use crate::json::versioned;
use pmldesign_solver::{Design, RecordDesign, Verification};
use serde_json::{Value, json};

/// The verdict on one verified design, read from `source` (a file's name, or
/// `<design>` for a design in memory).
#[derive(Debug, Clone, Copy)]
pub struct Verdict<'a> {
    design: &'a Design,
    verification: &'a Verification,
    source: &'a str,
}

impl<'a> Verdict<'a> {
    /// The verdict on `design`, which `verification` re-checked.
    pub fn new(design: &'a Design, verification: &'a Verification, source: &'a str) -> Self {
        Verdict {
            design,
            verification,
            source,
        }
    }

    /// The JSON of `pml assess --design FILE --format json`.
    pub fn to_json(&self) -> Value {
        let d = self.design;
        versioned(json!({
            "source": self.source,
            "verdict": "verified",
            "status": d.status(),
            "notion": d.notion(),
            "utility": d.utility_name(),
            "verification": self.verification,
            "certificate": d.certificate(),
            "provenance": d.provenance(),
        }))
    }
}

/// The verdict on a verified record design: every column's design re-certified
/// and re-verified (`verified`, one per design), every record-level figure
/// re-derived.
#[derive(Debug, Clone, Copy)]
pub struct RecordVerdict<'a> {
    record: &'a RecordDesign,
    verified: &'a [Verification],
    source: &'a str,
}

impl<'a> RecordVerdict<'a> {
    /// The verdict on `record`, whose designs `verified` re-checked in order.
    pub fn new(record: &'a RecordDesign, verified: &'a [Verification], source: &'a str) -> Self {
        RecordVerdict {
            record,
            verified,
            source,
        }
    }

    /// The JSON of `pml assess --design RECORD --format json`.
    pub fn to_json(&self) -> Value {
        let r = self.record;
        versioned(json!({
            "source": self.source,
            "verdict": "verified",
            "mode": r.mode(),
            "columns": r.columns(),
            "epsilon": r.epsilon(),
            "leakage_about_record": r.leakage_about_record(),
            "guarantee": r.guarantee(),
            "verifications": self.verified,
        }))
    }
}
