//! Reading a stored record design: every design is re-certified as it is read
//! ([`Design`]'s reader), and every record-level figure is re-derived from the
//! designs and the sample and compared with what the file states: a file that
//! differs is refused, field by field.

use super::modes::{self, Columns};
use super::outcome::{self, Naive, RECORD_FORMAT, RecordDesign, RecordGuarantee, RecordUtility};
use super::{RecordMode, RecordProblem, check_split, invalid};
use crate::error::Result;
use crate::solution::design::Design;
use pmldesign_model::Notion;
use pmldesign_model::record::RecordSample;
use serde::{Deserialize, Deserializer};

/// The file as written, before anything in it is believed.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Stated {
    format_version: u32,
    mode: RecordMode,
    columns: Vec<String>,
    epsilon: f64,
    epsilons: Vec<f64>,
    #[serde(default)]
    radii: Vec<f64>,
    #[serde(default)]
    cells: Vec<Vec<String>>,
    #[serde(default)]
    decoded: Vec<Vec<String>>,
    leakage_about_record: Option<f64>,
    utility: RecordUtility,
    naive: Naive,
    guarantee: RecordGuarantee,
    designs: Vec<Design>,
    sample: RecordSample,
}

impl<'de> Deserialize<'de> for RecordDesign {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let stated = Stated::deserialize(d)?;
        stated.into_design().map_err(serde::de::Error::custom)
    }
}

impl Stated {
    fn into_design(self) -> Result<RecordDesign> {
        if self.format_version != RECORD_FORMAT {
            return Err(invalid(
                "format_version",
                self.format_version,
                format!("this version of pml reads record files of version {RECORD_FORMAT}"),
                "read it with the version of pml that wrote it",
            ));
        }
        same(
            "columns",
            &self.columns.join(","),
            &self.sample.columns().join(","),
        )?;
        let mut p = RecordProblem::new(self.sample.clone(), self.epsilon);
        if let Some(d) = self.guarantee.delta {
            p = p.delta(d);
        }
        p.validate()?;
        let columns = Columns {
            epsilons: self.epsilons.clone(),
            radii: self.radii.clone(),
            designs: self.designs.clone(),
            cells: self.cells.clone(),
        };
        self.check_levels(&p)?;
        self.check_designs(&p)?;
        let figures = outcome::derive(&p, self.mode, &columns)?;
        if self.decoded != figures.decoded {
            return Err(invalid(
                "decoded",
                self.decoded.len(),
                "the outputs' combinations are not the most likely ones at the estimate",
                "read a file that pml wrote",
            ));
        }
        same_number(
            "leakage_about_record",
            self.leakage_about_record,
            figures.leakage,
        )?;
        same(
            "utility.measure",
            &self.utility.measure,
            &figures.utility.measure,
        )?;
        same_number(
            "utility.value",
            Some(self.utility.value),
            Some(figures.utility.value),
        )?;
        same(
            "guarantee.statement",
            &self.guarantee.statement,
            &figures.statement,
        )?;
        same("guarantee.check", &self.guarantee.check, &figures.check)?;
        let naive = outcome::naive(&p)?;
        same_number(
            "naive.epsilon_per_column",
            Some(self.naive.epsilon_per_column),
            Some(naive.epsilon_per_column),
        )?;
        same_number(
            "naive.leakage_about_record",
            self.naive.leakage_about_record,
            naive.leakage_about_record,
        )?;
        same("naive.note", &self.naive.note, &naive.note)?;
        outcome::assemble_read(&p, self.mode, columns, figures, naive)
    }

    /// The levels add up to eps, as the mode makes them.
    fn check_levels(&self, p: &RecordProblem) -> Result<()> {
        let k = self.sample.columns().len();
        match self.mode {
            RecordMode::Auto => Err(invalid(
                "mode",
                "auto",
                "a stored design names the mode it used",
                "read a file that pml wrote",
            )),
            RecordMode::Joint => same_numbers("epsilons", &self.epsilons, &[p.epsilon]),
            RecordMode::Ldp => {
                same_numbers("epsilons", &self.epsilons, &vec![p.epsilon / k as f64; k])
            }
            RecordMode::Compose => check_split(&self.epsilons, p.epsilon, k),
        }
    }

    /// Each design is the one its mode makes for its column: its set (re-derived
    /// from the sample), its notion and level, its labels.
    fn check_designs(&self, p: &RecordProblem) -> Result<()> {
        let s = &self.sample;
        match self.mode {
            RecordMode::Joint => {
                let tuples = modes::cell_tuples(s);
                if self.designs.len() != 1 || self.cells != tuples {
                    return Err(invalid(
                        "cells",
                        self.cells.len(),
                        "a joint design lists every combination of the labels, in order",
                        "read a file that pml wrote",
                    ));
                }
                let d = &self.designs[0];
                same(
                    "designs[0].labels",
                    &d.labels.join(","),
                    &modes::cell_labels(&tuples).join(","),
                )?;
                same_notion(0, &d.notion, &Notion::Pml { epsilon: p.epsilon })?;
                let estimate = modes::joint_estimate(s)?;
                same_numbers(
                    "designs[0].prior",
                    &d.uncertainty.reference().to_vec(),
                    estimate.masses().as_slice().unwrap_or(&[]),
                )?;
                let stated_delta = d.guarantee.as_ref().map(|g| g.delta);
                same_number("designs[0].guarantee.delta", stated_delta, p.delta)
            }
            mode => {
                if self.designs.len() != s.columns().len() {
                    return Err(invalid(
                        "designs",
                        self.designs.len(),
                        "one design per column",
                        "read a file that pml wrote",
                    ));
                }
                let compose = mode == RecordMode::Compose;
                let radii: Vec<f64> = if compose {
                    (0..s.columns().len())
                        .map(|j| modes::radius_of(p, j, &self.epsilons))
                        .collect::<Result<_>>()?
                } else {
                    Vec::new()
                };
                same_numbers("radii", &self.radii, &radii)?;
                for (j, d) in self.designs.iter().enumerate() {
                    same(
                        &format!("designs[{j}].labels"),
                        &d.labels.join(","),
                        &s.labels(j).join(","),
                    )?;
                    let set = modes::column_set(s, j, if compose { radii[j] } else { 0.0 })?;
                    if d.uncertainty != set {
                        return Err(invalid(
                            &format!("designs[{j}].uncertainty"),
                            "as stated",
                            "the set is not the one this column's conditionals give",
                            "read a file that pml wrote",
                        ));
                    }
                    let notion = if compose {
                        Notion::Pml {
                            epsilon: self.epsilons[j],
                        }
                    } else {
                        Notion::Ldp {
                            epsilon: self.epsilons[j],
                        }
                    };
                    same_notion(j, &d.notion, &notion)?;
                }
                Ok(())
            }
        }
    }
}

fn same_notion(j: usize, stated: &Notion, derived: &Notion) -> Result<()> {
    if stated != derived {
        return Err(invalid(
            &format!("designs[{j}].notion"),
            stated.name(),
            format!(
                "the mode makes this column {} at {}",
                derived.name(),
                derived.epsilon()
            ),
            "read a file that pml wrote",
        ));
    }
    Ok(())
}

fn same(field: &str, stated: &str, derived: &str) -> Result<()> {
    if stated != derived {
        return Err(invalid(
            field,
            stated,
            format!("re-derived from the designs and the sample it is {derived:?}"),
            "read a file that pml wrote; a changed figure is refused",
        ));
    }
    Ok(())
}

/// Numbers equal up to a relative 1e-12 (re-derivation repeats the computation).
fn same_number(field: &str, stated: Option<f64>, derived: Option<f64>) -> Result<()> {
    let close = match (stated, derived) {
        (Some(a), Some(b)) => (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1e-300) || a == b,
        (None, None) => true,
        _ => false,
    };
    if !close {
        let show = |v: Option<f64>| v.map_or("none".to_string(), |v| v.to_string());
        return Err(invalid(
            field,
            show(stated),
            format!("re-derived it is {}", show(derived)),
            "read a file that pml wrote; a changed figure is refused",
        ));
    }
    Ok(())
}

fn same_numbers(field: &str, stated: &[f64], derived: &[f64]) -> Result<()> {
    if stated.len() != derived.len() {
        return Err(invalid(
            field,
            stated.len(),
            format!("re-derived there are {}", derived.len()),
            "read a file that pml wrote",
        ));
    }
    for (i, (a, b)) in stated.iter().zip(derived).enumerate() {
        same_number(&format!("{field}[{i}]"), Some(*a), Some(*b))?;
    }
    Ok(())
}

/// A record design file: `{"record": {...}}`.
#[derive(serde::Serialize)]
struct FileOut<'a> {
    record: &'a RecordDesign,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileIn {
    record: RecordDesign,
}

impl RecordDesign {
    /// The design file: `{"record": ...}`, pretty-printed.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&FileOut { record: self }).unwrap_or_default()
    }

    /// Reads a design file, re-certifying every design and re-deriving every
    /// record-level figure; a file that differs is refused naming the field.
    pub fn from_json(text: &str) -> Result<Self> {
        // A file saved with a byte-order mark is the same file.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        serde_json::from_str::<FileIn>(text)
            .map(|f| f.record)
            .map_err(|e| {
                invalid(
                    "record design",
                    "unreadable or altered",
                    e.to_string(),
                    "give a file that `pml design --column A --column B` wrote",
                )
            })
    }

    /// A parsed JSON document is a record design file (it has a `record` key).
    pub fn is_record_file(value: &serde_json::Value) -> bool {
        value.get("record").is_some()
    }
}
