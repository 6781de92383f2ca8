//! The analyst's half of a record release (docs/theory.md §13): from the counts
//! of released tuples, the joint distribution of the record's columns by maximum
//! likelihood (EM) over its cells, and each column's marginal as the sum of its
//! cells' masses (so that the joint and every marginal sum to 1). The record's channel
//! is the joint design with its outputs merged where they are written alike
//! (`joint`), or the product of the columns' designs (`compose`, `ldp`). A cell
//! or a marginal that the released data do not determine is estimated without an
//! interval ([`FunctionalValue::identifiable`]).

use crate::error::Result;
use crate::record::{PublicRecord, RecordDesign, RecordMode};
use pmldesign_model::frequency::{FrequencySettings, FunctionalValue, estimate_functionals};
use pmldesign_model::{Mechanism, ModelError};
use serde::{Deserialize, Serialize};

/// The largest channel (cells x released tuples) estimated over.
pub const MAX_CHANNEL_ENTRIES: usize = 1 << 22;

/// The estimate of a record's joint distribution and of its marginals.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordEstimate {
    /// The record's columns.
    pub columns: Vec<String>,
    /// Each cell (one value per column) and its estimated mass.
    pub joint: Vec<(Vec<String>, FunctionalValue)>,
    /// Per column, each value and its estimated marginal mass.
    pub marginals: Vec<Vec<(String, FunctionalValue)>>,
    /// Released rows counted.
    pub rows: u64,
    /// `sum n ln q` at the estimate.
    pub log_likelihood: f64,
    /// EM's iterations and Newton steps.
    pub iterations: usize,
    /// Whether the likelihood gap certifies the maximum within the cap.
    pub converged: bool,
    /// The maximum log-likelihood exceeds the estimate's by at most this many
    /// nats.
    #[serde(default)]
    pub likelihood_gap: Option<f64>,
    /// The confidence of the intervals.
    pub confidence: f64,
}

/// The record's channel: its cells, the tuples it releases, and the matrix.
struct Channel {
    cells: Vec<Vec<String>>,
    released: Vec<Vec<String>>,
    matrix: Mechanism,
}

/// Estimates the record behind `released` (each released tuple, one value per
/// column in the record's order, with its count). A tuple the design never
/// writes is an error naming it.
pub fn estimate_record(
    r: &RecordDesign,
    released: &[(Vec<String>, u64)],
    settings: &FrequencySettings,
) -> Result<RecordEstimate> {
    estimate_over(&r.columns, channel(r)?, released, settings)
}

/// [`estimate_record`] from a public record file: the same estimate as from the
/// design it was published from (the channel is the product of its parts).
pub fn estimate_public_record(
    p: &PublicRecord,
    released: &[(Vec<String>, u64)],
    settings: &FrequencySettings,
) -> Result<RecordEstimate> {
    let parts: Vec<Part<'_>> = (p.parts().iter())
        .map(|d| (d.labels(), d.outputs(), d.mechanism()))
        .collect();
    estimate_over(p.columns(), product_channel(&parts)?, released, settings)
}

/// The estimate of the record of `columns` over its channel.
fn estimate_over(
    columns: &[String],
    channel: Channel,
    released: &[(Vec<String>, u64)],
    settings: &FrequencySettings,
) -> Result<RecordEstimate> {
    let mut counts = vec![0u64; channel.released.len()];
    let index: std::collections::HashMap<&[String], usize> = (channel.released.iter())
        .enumerate()
        .map(|(t, v)| (v.as_slice(), t))
        .collect();
    for (tuple, n) in released {
        let Some(&t) = index.get(tuple.as_slice()) else {
            return Err(ModelError::invalid(
                "released",
                format!("{tuple:?}"),
                "the record design never releases this combination of values",
                "count the released columns ({column}_private) of data the design privatised",
            )
            .into());
        };
        counts[t] += n;
    }
    let k = columns.len();
    let mut functionals: Vec<Vec<f64>> = (0..channel.cells.len())
        .map(|c| {
            (0..channel.cells.len())
                .map(|i| f64::from(u8::from(i == c)))
                .collect()
        })
        .collect();
    let values: Vec<Vec<String>> = (0..k).map(|j| column_values(&channel.cells, j)).collect();
    for (j, vs) in values.iter().enumerate() {
        for v in vs {
            let on = |cell: &Vec<String>| f64::from(u8::from(&cell[j] == v));
            functionals.push(channel.cells.iter().map(on).collect());
        }
    }
    let f = estimate_functionals(&channel.matrix, &counts, &functionals, settings)?;
    let mut rest = f.values.into_iter();
    let joint = channel.cells.into_iter().zip(rest.by_ref()).collect();
    let marginals = values
        .into_iter()
        .map(|vs| vs.into_iter().zip(rest.by_ref()).collect())
        .collect();
    Ok(RecordEstimate {
        columns: columns.to_vec(),
        joint,
        marginals,
        rows: f.rows,
        log_likelihood: f.log_likelihood,
        iterations: f.iterations,
        converged: f.converged,
        likelihood_gap: f.likelihood_gap,
        confidence: f.confidence,
    })
}

/// The values column `j` takes over `cells`, in first-seen order.
fn column_values(cells: &[Vec<String>], j: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in cells {
        if !out.contains(&c[j]) {
            out.push(c[j].clone());
        }
    }
    out
}

/// The channel a record design releases through.
fn channel(r: &RecordDesign) -> Result<Channel> {
    match r.mode {
        RecordMode::Joint => joint_channel(r),
        _ => {
            let parts: Vec<Part<'_>> = (r.designs.iter())
                .map(|d| (&d.labels[..], &d.outputs[..], &d.mechanism))
                .collect();
            product_channel(&parts)
        }
    }
}

/// A column's release: its labels, its outputs and its mechanism.
type Part<'a> = (&'a [String], &'a [String], &'a Mechanism);

/// `joint`: the design over the cells, its outputs merged by the tuple each is
/// written as.
fn joint_channel(r: &RecordDesign) -> Result<Channel> {
    let w = r.designs[0].mechanism.matrix();
    let mut released: Vec<Vec<String>> = Vec::new();
    let mut of_output = Vec::with_capacity(r.decoded.len());
    for t in &r.decoded {
        let at = released.iter().position(|s| s == t).unwrap_or_else(|| {
            released.push(t.clone());
            released.len() - 1
        });
        of_output.push(at);
    }
    let mut rows = vec![vec![0.0; released.len()]; w.nrows()];
    for (x, row) in rows.iter_mut().enumerate() {
        for (y, &t) in of_output.iter().enumerate() {
            row[t] += w[[x, y]];
        }
    }
    check_size(w.nrows(), released.len())?;
    Ok(Channel {
        cells: r.cells.clone(),
        released,
        matrix: Mechanism::from_rows(rows)?,
    })
}

/// `compose`, `ldp`: each column released by its own design, independently.
fn product_channel(parts: &[Part<'_>]) -> Result<Channel> {
    let inputs: usize = parts.iter().map(|p| p.0.len()).product();
    let outputs: usize = parts.iter().map(|p| p.1.len()).product();
    check_size(inputs, outputs)?;
    let cells = product(parts.iter().map(|p| p.0.len()).collect());
    let tuples = product(parts.iter().map(|p| p.1.len()).collect());
    let rows = cells
        .iter()
        .map(|c| {
            tuples
                .iter()
                .map(|t| {
                    let each = parts.iter().enumerate();
                    each.map(|(j, p)| p.2.matrix()[[c[j], t[j]]]).product()
                })
                .collect()
        })
        .collect();
    let labels: Vec<&[String]> = parts.iter().map(|p| p.0).collect();
    let outputs: Vec<&[String]> = parts.iter().map(|p| p.1).collect();
    Ok(Channel {
        cells: cells.iter().map(|c| named(c, &labels)).collect(),
        released: tuples.iter().map(|t| named(t, &outputs)).collect(),
        matrix: Mechanism::from_rows(rows)?,
    })
}

/// The names of an index tuple, `names[j]` naming column j's indices.
fn named(idx: &[usize], names: &[&[String]]) -> Vec<String> {
    idx.iter().zip(names).map(|(&i, n)| n[i].clone()).collect()
}

/// Every index tuple of a product of alphabets of these sizes, the last fastest.
fn product(sizes: Vec<usize>) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    for n in sizes {
        out = out
            .into_iter()
            .flat_map(|t| {
                (0..n).map(move |i| {
                    let mut t = t.clone();
                    t.push(i);
                    t
                })
            })
            .collect();
    }
    out
}

/// A channel past [`MAX_CHANNEL_ENTRIES`] is refused.
fn check_size(cells: usize, released: usize) -> Result<()> {
    if cells.saturating_mul(released) > MAX_CHANNEL_ENTRIES {
        return Err(ModelError::invalid(
            "record",
            format!("{cells} cells x {released} released tuples"),
            format!("the record's channel is larger than {MAX_CHANNEL_ENTRIES} entries"),
            "estimate each column alone, from its own design",
        )
        .into());
    }
    Ok(())
}
