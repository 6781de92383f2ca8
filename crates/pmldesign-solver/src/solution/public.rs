//! The file a receiver of a release gets (`pml publish`, Python's
//! `Design.public()`): the mechanism with its labels and outputs, how the data
//! were read (missing values, bins), the notion and level with the guarantee in
//! words, and the checks a receiver can redo without the sample: every row a
//! distribution, and the prior-free LDP level. It holds no prior, count, sample
//! size, prior-dependent figure, input path or digest: the data holder's design
//! file keeps those (re-verifying a ball needs its centre).
//!
//! A public file is untrusted input like a design file: reading it re-derives
//! its checks and its sentence and refuses a file whose statements differ.

use crate::solution::claims::altered;
use crate::solution::design::Design;
use pmldesign_model::measures::ldp_parameter;
use pmldesign_model::{Mechanism, Notion, UncertaintySet};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The `format` field of a public file.
pub const PUBLIC_FORMAT: &str = "pmldesign-public";

/// The version of the public file's layout.
pub const PUBLIC_VERSION: u32 = 1;

/// The reading settings a public file carries (the rest of a design's
/// provenance describes the data holder's input, and stays with them).
const PUBLIC_SETTINGS: [&str; 2] = ["nulls", "bins"];

/// Which set of priors the guarantee covers, without its centre or radius.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum PublicSet {
    /// One known distribution of X.
    Known,
    /// Every distribution within an l1 ball around the data's estimate.
    L1Ball,
    /// Every distribution in a polytope.
    Polytope,
}

/// What a receiver re-derives from the matrix alone.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublicChecks {
    /// The largest `|sum_y W[x][y] - 1|` over the rows.
    pub max_row_sum_error: f64,
    /// The LDP level `max_y ln(max_x W / min_x W)`, the same for every prior
    /// (`null` when infinite: some output excludes some input).
    #[serde(deserialize_with = "pmldesign_model::serde_float::null_is_infinite")]
    pub ldp_epsilon: f64,
}

/// A published design: what a receiver needs to read and estimate from a
/// release, and nothing about the sample. Built from a verified [`Design`]
/// ([`PublicDesign::of`]) or read back (verified, [`PublicDesign::from_json`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct PublicDesign {
    format: String,
    version: u32,
    notion: Notion,
    set: PublicSet,
    #[serde(skip_serializing_if = "Option::is_none")]
    delta: Option<f64>,
    guarantee: String,
    labels: Vec<String>,
    outputs: Vec<String>,
    settings: BTreeMap<String, String>,
    checks: PublicChecks,
    mechanism: Mechanism,
}

/// The fields of a public file as written, before their checks.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PublicFile {
    format: String,
    version: u32,
    notion: Notion,
    set: PublicSet,
    #[serde(default)]
    delta: Option<f64>,
    guarantee: String,
    labels: Vec<String>,
    outputs: Vec<String>,
    settings: BTreeMap<String, String>,
    checks: PublicChecks,
    mechanism: Mechanism,
}

impl PublicDesign {
    /// The `format` field that marks a public file.
    pub const FORMAT: &str = PUBLIC_FORMAT;

    /// The public part of `d`: its matrix, names, notion and the reading
    /// settings of its provenance, with the checks and sentence derived here.
    pub fn of(d: &Design) -> PublicDesign {
        let set = match d.uncertainty {
            UncertaintySet::Known { .. } => PublicSet::Known,
            UncertaintySet::L1Ball { .. } => PublicSet::L1Ball,
            _ => PublicSet::Polytope,
        };
        let delta = d.guarantee.as_ref().map(|g| g.delta);
        let settings = d.provenance.as_ref().map_or_else(BTreeMap::new, |p| {
            p.settings
                .iter()
                .filter(|(k, _)| PUBLIC_SETTINGS.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        });
        let checks = checks_of(&d.mechanism);
        PublicDesign {
            format: PUBLIC_FORMAT.into(),
            version: PUBLIC_VERSION,
            guarantee: statement(&d.notion, set, delta, checks.ldp_epsilon),
            notion: d.notion.clone(),
            set,
            delta,
            labels: d.labels.clone(),
            outputs: d.outputs.clone(),
            settings,
            checks,
            mechanism: d.mechanism.clone(),
        }
    }

    /// Whether `value` is a public file (its `format` field says so).
    pub fn is_public_file(value: &serde_json::Value) -> bool {
        value.get("format").and_then(|f| f.as_str()) == Some(PUBLIC_FORMAT)
    }

    /// Reads a public file, re-deriving its checks and its sentence; a file whose
    /// statements differ from what its matrix and notion give is refused.
    pub fn from_json(text: &str) -> crate::Result<PublicDesign> {
        let file: PublicFile = serde_json::from_str(text).map_err(not_public)?;
        PublicDesign::checked(file)
    }

    /// A public file's JSON value, read as [`PublicDesign::from_json`] reads its
    /// text (a part of a public record file).
    pub(crate) fn from_value(value: serde_json::Value) -> crate::Result<PublicDesign> {
        let file: PublicFile = serde_json::from_value(value).map_err(not_public)?;
        PublicDesign::checked(file)
    }

    /// The file's statements against their re-derivation.
    fn checked(f: PublicFile) -> crate::Result<PublicDesign> {
        if f.format != PUBLIC_FORMAT || f.version != PUBLIC_VERSION {
            let shown = format!("{} version {}", f.format, f.version);
            return Err(altered("format", shown, "not a public file this pml reads"));
        }
        f.notion.check()?;
        let (n, m) = (f.mechanism.inputs(), f.mechanism.outputs());
        names("labels", &f.labels, n)?;
        names("outputs", &f.outputs, m)?;
        if let Some(k) = f
            .settings
            .keys()
            .find(|k| !PUBLIC_SETTINGS.contains(&k.as_str()))
        {
            return Err(altered(
                &format!("settings.{k}"),
                k,
                "not a setting a public file holds",
            ));
        }
        let checks = checks_of(&f.mechanism);
        let agree = |a: f64, b: f64| {
            a == b
                || (a.is_finite() && b.is_finite() && (a - b).abs() <= 1e-9 * a.abs().max(b.abs()))
        };
        if !agree(f.checks.ldp_epsilon, checks.ldp_epsilon) {
            let why = format!("re-measured on the matrix it is {}", checks.ldp_epsilon);
            return Err(altered("checks.ldp_epsilon", f.checks.ldp_epsilon, &why));
        }
        if !agree(f.checks.max_row_sum_error, checks.max_row_sum_error) {
            let why = format!("re-measured it is {}", checks.max_row_sum_error);
            return Err(altered(
                "checks.max_row_sum_error",
                f.checks.max_row_sum_error,
                &why,
            ));
        }
        let said = statement(&f.notion, f.set, f.delta, checks.ldp_epsilon);
        if f.guarantee != said {
            return Err(altered(
                "guarantee",
                &f.guarantee,
                &format!("re-derived it reads {said:?}"),
            ));
        }
        Ok(PublicDesign {
            format: f.format,
            version: f.version,
            notion: f.notion,
            set: f.set,
            delta: f.delta,
            guarantee: said,
            labels: f.labels,
            outputs: f.outputs,
            settings: f.settings,
            checks,
            mechanism: f.mechanism,
        })
    }

    /// The JSON of the public file (pretty-printed, infinite levels as `null`).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The mechanism, `P(Y = y | X = x)` with rows in label order.
    pub fn mechanism(&self) -> &Mechanism {
        &self.mechanism
    }

    /// The names of the inputs (rows).
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// The names of the outputs (columns).
    pub fn outputs(&self) -> &[String] {
        &self.outputs
    }

    /// The notion and level the data holder's design was certified for.
    pub fn notion(&self) -> &Notion {
        &self.notion
    }

    /// The guarantee in words.
    pub fn guarantee(&self) -> &str {
        &self.guarantee
    }

    /// What was re-derived from the matrix.
    pub fn checks(&self) -> PublicChecks {
        self.checks
    }

    /// A reading setting of the design (`nulls`, `bins`), as `pml design` wrote it.
    pub fn setting(&self, name: &str) -> Option<&str> {
        self.settings.get(name).map(String::as_str)
    }

    /// What a receiver cannot re-verify from this file, and why (the rows and
    /// the LDP level are re-checked on reading; the data holder's design file
    /// certifies the rest).
    pub fn unverified(&self) -> String {
        match self.notion {
            Notion::Ldp { .. } | Notion::Metric { .. } => "the mechanism's optimality".into(),
            ref n => format!(
                "the {} guarantee, which depends on the distribution of X that the file leaves out, and the mechanism's optimality",
                n.label()
            ),
        }
    }
}

/// The checks a receiver redoes on `m`.
fn checks_of(m: &Mechanism) -> PublicChecks {
    PublicChecks {
        max_row_sum_error: m.max_row_sum_error(),
        ldp_epsilon: ldp_parameter(m),
    }
}

/// `count` distinct, non-empty names, or an error naming `field`.
fn names(field: &str, names: &[String], count: usize) -> crate::Result<()> {
    let distinct: std::collections::HashSet<&String> = names.iter().collect();
    if names.len() != count || distinct.len() != count || names.iter().any(|n| n.is_empty()) {
        let why = format!("the mechanism needs {count} distinct, non-empty names");
        return Err(altered(field, names.len(), &why));
    }
    Ok(())
}

/// The guarantee in words, from what the file states (never from the sample).
fn statement(notion: &Notion, set: PublicSet, delta: Option<f64>, ldp: f64) -> String {
    let prior = match (notion, set, delta) {
        (Notion::Ldp { .. } | Notion::Metric { .. }, _, _) => {
            "for every distribution of X".to_string()
        }
        (_, PublicSet::Known, _) => {
            "for the distribution of X the data holder designed for".to_string()
        }
        (_, PublicSet::L1Ball, Some(delta)) => format!(
            "for the true distribution of X, with probability at least 1 - {delta:e} over the data holder's sample"
        ),
        (_, PublicSet::L1Ball, None) => {
            "for every distribution of X within an l1 ball around the data holder's estimate".into()
        }
        (_, PublicSet::Polytope, _) => {
            "for every distribution of X in the polytope the data holder chose".into()
        }
    };
    let ldp = if ldp.is_finite() {
        format!("at most {}-LDP", pmldesign_model::printed::level(ldp))
    } else {
        "of no finite LDP level".into()
    };
    format!(
        "each released value is {} {prior}; the mechanism is {ldp} (for every distribution of X). Relative to the distribution of X alone: an adversary who also knows correlated columns released beside it holds another prior (release such columns as one record, or rely on the LDP level)",
        notion.label()
    )
}

/// The error of a file that does not parse as a public design file.
fn not_public(e: serde_json::Error) -> crate::SolverError {
    crate::SolverError::from(pmldesign_model::ModelError::invalid(
        "public file",
        "its JSON",
        format!("not a public design file ({e})"),
        "give the output of `pml publish`",
    ))
}
