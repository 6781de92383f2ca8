//! Where a design came from: the program that wrote it, the settings of its run
//! and a digest of its input (README, "Design files"). Informational, never a claim:
//! reading a design keeps the block as written and checks only its layout; no
//! figure of a design depends on it.

use crate::settings::Settings;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The provenance block of a design file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// The program and version that wrote the design (`pml 0.1.0`,
    /// `pmldesign 0.1.0` for the library, the Python package's name in Python).
    pub tool: String,
    /// The settings of the run by name, as the program states them.
    pub settings: BTreeMap<String, String>,
    /// What [`Provenance::input_sha256`] digests: `problem` (the set or the
    /// sample, the notion and the objective as the library received them), or
    /// what the program hashed instead (`data file NAME`, `counts file NAME`).
    pub input: String,
    /// SHA-256 of that input, in lowercase hex.
    pub input_sha256: String,
}

impl Provenance {
    /// The library's block: its version, `settings`, and the digest of the
    /// problem's canonical description `problem`.
    pub(crate) fn of_problem(settings: &Settings, problem: &str) -> Self {
        Provenance {
            tool: format!("pmldesign {}", env!("CARGO_PKG_VERSION")),
            settings: settings_by_name(settings),
            input: "problem".into(),
            input_sha256: sha256_hex(problem.as_bytes()),
        }
    }

    /// The block with the input replaced: `what` was hashed, to `sha256` (hex;
    /// a program that read a file states the file's digest, which anyone can
    /// re-check with `sha256sum`).
    pub fn with_input(mut self, what: impl Into<String>, sha256: impl Into<String>) -> Self {
        self.input = what.into();
        self.input_sha256 = sha256.into();
        self
    }

    /// The block with the program named `tool`.
    pub fn with_tool(mut self, tool: impl Into<String>) -> Self {
        self.tool = tool.into();
        self
    }
}

/// SHA-256 of `bytes` in lowercase hex.
fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The serde name of a loss method (`column_generation`, `inner_outer`, ...).
fn loss_method_name(m: crate::settings::LossMethod) -> String {
    match serde_json::to_value(m) {
        Ok(serde_json::Value::String(name)) => name,
        _ => format!("{m:?}").to_lowercase(),
    }
}

/// The settings that shape a design, by name.
fn settings_by_name(s: &Settings) -> BTreeMap<String, String> {
    let cg = &s.column_generation;
    let time_limit = cg
        .time_limit
        .map_or("none".to_string(), |t| format!("{} s", t.as_secs_f64()));
    [
        ("pricing", format!("{:?}", s.pricing).to_lowercase()),
        // As `loss.method` names it (`column_generation`, not the Debug name).
        ("loss_method", loss_method_name(s.loss_method)),
        ("max_alphabet", s.max_alphabet.to_string()),
        ("gap_tolerance", format!("{:e}", cg.gap_tolerance)),
        ("pricing_tolerance", format!("{:e}", cg.pricing_tolerance)),
        ("batch", cg.batch.to_string()),
        ("max_iterations", cg.max_iterations.to_string()),
        ("time_limit", time_limit),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}
