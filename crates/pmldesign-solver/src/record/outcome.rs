//! A record design: plain data, its figures derived in one place ([`derive`]) for
//! the solver and for the reader of a stored file ([`super::verify`]).

use super::modes::{self, Columns};
use super::{MEASURED_CELLS, RecordMode, RecordProblem};
use crate::error::{Result, SolverError};
use crate::solution::design::Design;
use crate::tolerance::PML_TOLERANCE;
use pmldesign_model::Mechanism;
use pmldesign_model::record::RecordSample;
use pmldesign_model::record::product::{RecordLeakage, joint_leakage, product_leakage};
use serde::{Deserialize, Serialize};

/// The version of the record design file this code writes.
pub const RECORD_FORMAT: u32 = 1;

/// The release of a whole record and its guarantee (docs/theory.md §12).
#[derive(Debug, Clone, Serialize)]
pub struct RecordDesign {
    /// Version of this file's layout.
    pub(crate) format_version: u32,
    /// `joint`, `compose` or `ldp`.
    pub(crate) mode: RecordMode,
    /// The record's columns, in release order.
    pub(crate) columns: Vec<String>,
    /// The total level eps about the whole record.
    pub(crate) epsilon: f64,
    /// One level per column (`compose`, `ldp`), or the one of `joint`.
    pub(crate) epsilons: Vec<f64>,
    /// `compose`: the radius of each column's ball around its marginal (0: the
    /// marginal alone).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) radii: Vec<f64>,
    /// `joint`: the value tuple of each joint label, in the design's label order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) cells: Vec<Vec<String>>,
    /// `joint`: the value tuple each output is written as, one per output: the
    /// combination most likely given the output at the joint estimate (a fixed
    /// map of the output, so the guarantee is kept).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) decoded: Vec<Vec<String>>,
    /// PML about the whole record, re-measured on the record's channel at the
    /// sample's joint estimate (where it has at most 4096 cells).
    pub(crate) leakage_about_record: Option<f64>,
    /// The record's utility, and which one.
    pub(crate) utility: RecordUtility,
    /// What per-column designs at eps/k leak about the record: not a guarantee.
    pub(crate) naive: Naive,
    /// The guarantee about the whole record.
    pub(crate) guarantee: RecordGuarantee,
    /// One design per column, or the one of `joint`.
    pub(crate) designs: Vec<Design>,
    /// The observed records the designs are for.
    pub(crate) sample: RecordSample,
}

/// Read access: a record design is what its run, or a file's re-derivation,
/// made it; only its designs' provenance can be edited
/// ([`RecordDesign::provenance_mut`]).
impl RecordDesign {
    /// Version of this file's layout.
    pub fn format_version(&self) -> u32 {
        self.format_version
    }

    /// `joint`, `compose` or `ldp`.
    pub fn mode(&self) -> RecordMode {
        self.mode
    }

    /// The record's columns, in release order.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }

    /// The total level eps about the whole record.
    pub fn epsilon(&self) -> f64 {
        self.epsilon
    }

    /// One level per column (`compose`, `ldp`), or the one of `joint`.
    pub fn epsilons(&self) -> &[f64] {
        &self.epsilons
    }

    /// `compose`: the radius of each column's ball around its marginal (0: the
    /// marginal alone).
    pub fn radii(&self) -> &[f64] {
        &self.radii
    }

    /// `joint`: the value tuple of each joint label, in the design's label order.
    pub fn cells(&self) -> &[Vec<String>] {
        &self.cells
    }

    /// `joint`: the value tuple each output is written as, one per output: the
    /// combination most likely given the output at the joint estimate (a fixed
    /// map of the output, so the guarantee is kept).
    pub fn decoded(&self) -> &[Vec<String>] {
        &self.decoded
    }

    /// PML about the whole record, re-measured on the record's channel at the
    /// sample's joint estimate (where it has at most 4096 cells).
    pub fn leakage_about_record(&self) -> Option<f64> {
        self.leakage_about_record
    }

    /// The record's utility, and which one.
    pub fn utility(&self) -> &RecordUtility {
        &self.utility
    }

    /// What per-column designs at eps/k leak about the record: not a guarantee.
    pub fn naive(&self) -> &Naive {
        &self.naive
    }

    /// The guarantee about the whole record.
    pub fn guarantee(&self) -> &RecordGuarantee {
        &self.guarantee
    }

    /// One design per column, or the one of `joint`.
    pub fn designs(&self) -> &[Design] {
        &self.designs
    }

    /// The observed records the designs are for.
    pub fn sample(&self) -> &RecordSample {
        &self.sample
    }

    /// The provenance of design `i` (a column's, or the joint one) to edit:
    /// informational, outside every claim the record makes.
    pub fn provenance_mut(&mut self, i: usize) -> Option<&mut crate::Provenance> {
        self.designs.get_mut(i)?.provenance_mut()
    }
}

/// The guarantee of a release about the whole record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordGuarantee {
    /// The failure probability over the sample, if the guarantee is for the true
    /// distribution.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<f64>,
    /// The guarantee, in words, citing the composition theorem.
    pub statement: String,
    /// What the re-measurement on the record's channel covers.
    pub check: String,
}

/// The utility of a release of the record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordUtility {
    /// `record_mutual_information` (I(X; Y1..Yk) on the record's channel) or
    /// `sum_of_column_utilities` (past 4096 cells).
    pub measure: String,
    /// Its value, in nats.
    pub value: f64,
}

/// The naive release: each column designed for its marginal at eps/k.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Naive {
    /// The level of each column.
    pub epsilon_per_column: f64,
    /// What it leaks about the record at the estimate (where measured).
    pub leakage_about_record: Option<f64>,
    /// Says that this is not a guarantee.
    pub note: String,
}

/// Every figure of a release that follows from its designs and its sample.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Figures {
    pub leakage: Option<f64>,
    pub decoded: Vec<Vec<String>>,
    pub utility: RecordUtility,
    pub statement: String,
    pub check: String,
}

/// The record's utility: I(X; Y) on its channel where it has at most 4096 cells,
/// else the sum of the columns' (mutual information) utilities.
pub(super) fn utility(s: &RecordSample, designs: &[Design]) -> RecordUtility {
    match measured(s, designs) {
        Some(l) => RecordUtility {
            measure: "record_mutual_information".into(),
            value: l.mutual_information,
        },
        None => RecordUtility {
            measure: "sum_of_column_utilities".into(),
            value: designs.iter().map(|d| d.utility_value).sum(),
        },
    }
}

/// The record's channel at the joint estimate: one design over the cells, or the
/// product of one per column; `None` past [`MEASURED_CELLS`] cells.
pub(super) fn measured(s: &RecordSample, designs: &[Design]) -> Option<RecordLeakage> {
    if s.cells()? > MEASURED_CELLS {
        return None;
    }
    if designs.len() == 1 {
        return joint_leakage(s, &designs[0].mechanism);
    }
    let mechanisms: Vec<&Mechanism> = designs.iter().map(|d| &d.mechanism).collect();
    product_leakage(s, &mechanisms)
}

/// The figures of a release: measured, checked against eps, stated.
pub(super) fn derive(p: &RecordProblem, mode: RecordMode, c: &Columns) -> Result<Figures> {
    let leakage = measured(&p.sample, &c.designs).map(|l| l.pml);
    if let Some(l) = leakage
        && l > p.epsilon + PML_TOLERANCE
    {
        return Err(SolverError::Certificate(format!(
            "the release leaks {l} about the record at the estimate, above eps = {}",
            p.epsilon
        )));
    }
    let rests = match mode {
        RecordMode::Joint => "the statement rests on the design's certificate over its set",
        _ => "the statement rests on each column's certificate over its set",
    };
    let check = match leakage {
        Some(l) => format!(
            "re-measured on the record's channel at the sample's joint estimate: {l} <= {} (tolerance {PML_TOLERANCE:e}); {rests}",
            p.epsilon
        ),
        None => {
            format!("the record has more than {MEASURED_CELLS} cells: not re-measured; {rests}")
        }
    };
    Ok(Figures {
        leakage,
        decoded: decode(&p.sample, mode, c),
        utility: utility(&p.sample, &c.designs),
        statement: statement(p, mode, &c.epsilons),
        check,
    })
}

/// The naive release's figures (its designs solved anew).
pub(super) fn naive(p: &RecordProblem) -> Result<Naive> {
    let designs = modes::naive(p)?;
    Ok(Naive {
        epsilon_per_column: p.epsilon / p.sample.columns().len() as f64,
        leakage_about_record: measured(&p.sample, &designs).map(|l| l.pml),
        note: "each column designed for its own marginal at eps/k: not a guarantee about the record when the columns are correlated".into(),
    })
}

/// The design of `p` released by `mode` with `columns`.
pub(super) fn assemble(
    p: &RecordProblem,
    mode: RecordMode,
    columns: Columns,
) -> Result<RecordDesign> {
    let figures = derive(p, mode, &columns)?;
    assemble_read(p, mode, columns, figures, naive(p)?)
}

/// The design with its figures already derived (solved, or read and re-derived).
pub(super) fn assemble_read(
    p: &RecordProblem,
    mode: RecordMode,
    columns: Columns,
    figures: Figures,
    naive: Naive,
) -> Result<RecordDesign> {
    Ok(RecordDesign {
        format_version: RECORD_FORMAT,
        mode,
        columns: p.sample.columns().to_vec(),
        epsilon: p.epsilon,
        epsilons: columns.epsilons,
        radii: columns.radii,
        decoded: figures.decoded,
        cells: columns.cells,
        leakage_about_record: figures.leakage,
        utility: figures.utility,
        naive,
        guarantee: RecordGuarantee {
            delta: p.delta,
            statement: figures.statement,
            check: figures.check,
        },
        designs: columns.designs,
        sample: p.sample.clone(),
    })
}

/// `joint`: for each output y, the tuple of `argmax_x p^(x) W(y|x)` over the
/// combinations x (the first on a tie); empty for the other modes.
fn decode(s: &RecordSample, mode: RecordMode, c: &Columns) -> Vec<Vec<String>> {
    if mode != RecordMode::Joint {
        return Vec::new();
    }
    let w = c.designs[0].mechanism.matrix();
    let mut weight = vec![0.0; w.nrows()];
    for (t, count) in s.tuples() {
        weight[s.cell_index(t)] = *count as f64;
    }
    (0..w.ncols())
        .map(|y| {
            let mut best = 0;
            for x in 1..w.nrows() {
                if weight[x] * w[[x, y]] > weight[best] * w[[best, y]] {
                    best = x;
                }
            }
            c.cells[best].clone()
        })
        .collect()
}

/// The guarantee in words, citing the composition theorem.
fn statement(p: &RecordProblem, mode: RecordMode, epsilons: &[f64]) -> String {
    let level = (p.epsilon, epsilons, p.delta);
    stated(p.sample.columns(), mode, level, Some(&p.sample))
}

/// The guarantee of a release of `columns` at `(epsilon, epsilons, delta)` in
/// words, from the sample where there is one; without it (a public record file),
/// from those alone, the estimates and cells of the sample left unnamed.
pub(super) fn stated(
    columns: &[String],
    mode: RecordMode,
    (eps, epsilons, delta): (f64, &[f64], Option<f64>),
    sample: Option<&RecordSample>,
) -> String {
    let names = columns.join(", ");
    let outputs = columns
        .iter()
        .map(|c| format!("{c}_private"))
        .collect::<Vec<_>>()
        .join(", ");
    let sum = epsilons
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join(" + ");
    let (lead, prior) = match (delta, sample) {
        (Some(d), Some(s)) if mode == RecordMode::Compose => (
            format!(
                "With probability at least 1 - {d} over the sample ({d} shared equally by the {} estimates the balls rest on), ",
                pmldesign_model::record::radius::events(s)
            ),
            "the true distribution",
        ),
        (Some(d), None) if mode == RecordMode::Compose => (
            format!(
                "With probability at least 1 - {d} over the data holder's sample ({d} shared equally by the estimates the balls rest on), "
            ),
            "the true distribution",
        ),
        (Some(d), _) => (
            format!("With probability at least 1 - {d} over the sample, "),
            "the true distribution",
        ),
        (None, Some(_)) => (String::new(), "the sample's joint estimate"),
        (None, None) => (String::new(), "the data holder's joint estimate"),
    };
    match mode {
        RecordMode::Ldp => format!(
            "({outputs}) is {eps}-LDP, so {eps}-PML about the whole record ({names}) for every distribution: each column is {}-LDP and the levels add up (thesis Theorem 5.24 (i))",
            epsilons.first().copied().unwrap_or(eps)
        ),
        RecordMode::Joint => format!(
            "{lead}the release of ({names}) through one design over their {} combinations is {eps}-PML about the whole record for {prior}",
            sample.and_then(RecordSample::cells).unwrap_or(0)
        ),
        _ => format!(
            "{lead}({outputs}) is {eps}-PML about the whole record ({names}) for {prior}: the columns' levels {sum} add up (thesis Theorem 5.24 (i)), each column's design holding for every prior in the l1 ball that holds its conditional priors"
        ),
    }
}

impl RecordDesign {
    /// The leakage about the record at the estimate as printed: rounded up, or
    /// the total eps where it is above it by no more than the certified
    /// tolerance ([`pmldesign_model::printed::certified`]); `None` where it was
    /// not measured.
    pub fn printed_leakage(&self) -> Option<String> {
        let x = self.leakage_about_record?;
        Some(pmldesign_model::printed::certified(
            x,
            self.epsilon,
            PML_TOLERANCE,
        ))
    }
}
