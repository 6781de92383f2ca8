//! The record's channel, the product of the columns' (`W(y|x) = prod_j Wj(yj|xj)`,
//! docs/theory.md §12), measured at the sample's joint estimate.

use super::RecordSample;
use crate::mechanism::Mechanism;

/// The most entries (observed records x outputs) a measurement holds.
pub const MAX_MEASURED: usize = 1 << 24;

/// What the record's channel leaks about the whole record at the joint estimate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RecordLeakage {
    /// `max_y ln max_x W(y|x) / P(y)` over observed records x: PML about the record.
    pub pml: f64,
    /// `I(X; Y)` in nats.
    pub mutual_information: f64,
}

/// The number of outputs of the product of `mechanisms`, if it fits.
pub fn product_outputs(mechanisms: &[&Mechanism]) -> Option<usize> {
    mechanisms
        .iter()
        .try_fold(1usize, |acc, m| acc.checked_mul(m.outputs()))
}

/// Row `tuple` of the product channel (row-major over the columns' outputs).
pub fn product_row(mechanisms: &[&Mechanism], tuple: &[usize], out: &mut Vec<f64>) {
    out.clear();
    out.push(1.0);
    for (m, &x) in mechanisms.iter().zip(tuple) {
        let row = m.matrix().row(x).to_owned();
        let previous = std::mem::take(out);
        out.extend(
            previous
                .iter()
                .flat_map(|&a| row.iter().map(move |&b| a * b)),
        );
    }
}

/// The product channel of `mechanisms` (one per column) at the sample's joint
/// estimate, or `None` past [`MAX_MEASURED`] entries.
pub fn product_leakage(s: &RecordSample, mechanisms: &[&Mechanism]) -> Option<RecordLeakage> {
    let outputs = product_outputs(mechanisms)?;
    measure(s, outputs, |tuple, out| product_row(mechanisms, tuple, out))
}

/// A channel on the joint alphabet (row = [`RecordSample::cell_index`]) at the
/// sample's joint estimate, or `None` past [`MAX_MEASURED`] entries.
pub fn joint_leakage(s: &RecordSample, mechanism: &Mechanism) -> Option<RecordLeakage> {
    measure(s, mechanism.outputs(), |tuple, out| {
        out.clear();
        out.extend(mechanism.matrix().row(s.cell_index(tuple)).iter());
    })
}

/// PML and mutual information of the channel whose row for each observed tuple
/// `row` writes, with `outputs` outputs, at the estimate `count / m`.
fn measure(
    s: &RecordSample,
    outputs: usize,
    row: impl Fn(&[usize], &mut Vec<f64>),
) -> Option<RecordLeakage> {
    let tuples = s.tuples();
    if tuples.len().checked_mul(outputs)? > MAX_MEASURED {
        return None;
    }
    let m = s.rows() as f64;
    let mut rows = Vec::with_capacity(tuples.len() * outputs);
    let mut buffer = Vec::with_capacity(outputs);
    let mut p_y = vec![0.0; outputs];
    let mut max_w = vec![0.0f64; outputs];
    for (t, c) in tuples {
        row(t, &mut buffer);
        let p = *c as f64 / m;
        for (y, &w) in buffer.iter().enumerate() {
            p_y[y] += p * w;
            max_w[y] = max_w[y].max(w);
        }
        rows.extend_from_slice(&buffer);
    }
    let pml = (0..outputs)
        .filter(|&y| p_y[y] > 0.0)
        .map(|y| (max_w[y] / p_y[y]).ln())
        .fold(0.0, f64::max);
    let mut mi = 0.0;
    for ((_, c), r) in tuples.iter().zip(rows.chunks_exact(outputs)) {
        let p = *c as f64 / m;
        for (y, &w) in r.iter().enumerate() {
            if w > 0.0 {
                mi += p * w * (w / p_y[y]).ln();
            }
        }
    }
    Some(RecordLeakage {
        pml,
        mutual_information: mi.max(0.0),
    })
}
