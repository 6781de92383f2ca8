//! Numeric columns cut at public edges into ordered categories (`--bins`).
//!
//! The edges must be public (chosen without looking at the data): edges taken from
//! the data (quantiles, the minimum and maximum) depend on the secrets and leak
//! through the alphabet itself, so the tool takes only edges given to it. Bin i holds
//! the values `e_i <= v < e_{i+1}`, the last one its right edge too; its label is
//! the interval, `[0, 10)`, and the bins keep their numeric order, so the line
//! metric and the absolute loss over them are the natural ordinal choices.
//!
//! ```
//! use pmldesign_data::Bins;
//! let bins = Bins::parse("--bins", "0,10,20,inf")?;
//! assert_eq!(bins.labels(), ["[0, 10)", "[10, 20)", "[20, inf)"]);
//! assert_eq!(bins.index_of("9.5"), Some(0));
//! assert_eq!(bins.index_of("20"), Some(2));
//! assert_eq!(bins.index_of("-1"), None);
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

use crate::privatise::ColumnPrivatiser;
use pmldesign_model::{ModelError, Result};

/// The most bins one cut makes (an alphabet far beyond any a design is made for).
pub const MAX_BINS: usize = 100_000;

/// Public edges `e_0 < e_1 < ... < e_K` and the labels of the K bins between them.
#[derive(Debug, Clone, PartialEq)]
pub struct Bins {
    edges: Vec<f64>,
    labels: Vec<String>,
}

impl Bins {
    /// The bins between `edges`: at least two, strictly increasing, not NaN;
    /// `-inf` only first and `inf` only last. An error names `field`.
    pub fn new(field: &str, edges: Vec<f64>) -> Result<Self> {
        let bad = |why: String| {
            let shown: Vec<String> = edges.iter().map(|e| e.to_string()).collect();
            ModelError::invalid(
                field,
                shown.join(","),
                why,
                "give at least two public edges in increasing order, e.g. 0,10,20,inf",
            )
        };
        if edges.len() < 2 || edges.len() > MAX_BINS + 1 {
            return Err(bad(format!(
                "{} edges make {} bins (1 to {MAX_BINS})",
                edges.len(),
                edges.len().saturating_sub(1)
            )));
        }
        if let Some(i) = edges.iter().position(|e| e.is_nan()) {
            return Err(bad(format!("edge {} is not a number", i + 1)));
        }
        if let Some(i) = (1..edges.len()).find(|&i| edges[i] <= edges[i - 1]) {
            return Err(bad(format!(
                "the edges are not strictly increasing ({} then {})",
                edges[i - 1],
                edges[i]
            )));
        }
        let last = edges.len() - 1;
        if edges[1..].contains(&f64::NEG_INFINITY) || edges[..last].contains(&f64::INFINITY) {
            return Err(bad(
                "-inf may only be the first edge and inf the last".into()
            ));
        }
        let labels = (0..last).map(|i| label(&edges, i)).collect();
        Ok(Bins { edges, labels })
    }

    /// The bins of comma-separated edges (`0,10,20,inf`), as [`Bins::new`] takes them.
    pub fn parse(field: &str, text: &str) -> Result<Self> {
        let edges = text
            .split(',')
            .map(|t| match t.trim() {
                "inf" | "+inf" => Ok(f64::INFINITY),
                "-inf" => Ok(f64::NEG_INFINITY),
                t => t.parse::<f64>().ok().filter(|v| v.is_finite()).ok_or(t),
            })
            .collect::<std::result::Result<Vec<f64>, &str>>()
            .map_err(|t| {
                ModelError::invalid(
                    field,
                    format!("{text:?}"),
                    format!("{t:?} is not a number"),
                    "give numbers separated by commas, e.g. 0,10,20,inf",
                )
            })?;
        Bins::new(field, edges)
    }

    /// The edges, in increasing order.
    pub fn edges(&self) -> &[f64] {
        &self.edges
    }

    /// The label of each bin, in numeric order: `[a, b)`, the last `[a, b]`
    /// (`[a, inf)` when unbounded).
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// Whether `labels` are these bins' labels, in order, perhaps with the
    /// category of nulls ([`crate::NULL_LABEL`]): the inputs of a design counted
    /// with these bins.
    pub fn names(&self, labels: &[String]) -> bool {
        let own = labels.iter().filter(|l| *l != crate::NULL_LABEL);
        own.eq(self.labels.iter())
    }

    /// The edges as [`Bins::parse`] reads them back (recorded in a design).
    pub fn text(&self) -> String {
        let shown: Vec<String> = self.edges.iter().map(|e| e.to_string()).collect();
        shown.join(",")
    }

    /// The bin of a value written as a number (white space around it allowed);
    /// `None` for text that is not a number or a number outside the edges.
    pub fn index_of(&self, value: &str) -> Option<usize> {
        self.index_of_number(value.trim().parse().ok()?)
    }

    /// What a privatiser over the bins' labels is fed for `value`: the label of
    /// its bin when it is a number within the edges, else `value` as it is (so a
    /// bin's own label, or [`crate::NULL_LABEL`], is still accepted).
    pub fn cut<'a>(&'a self, value: &'a [u8]) -> &'a [u8] {
        let bin = std::str::from_utf8(value)
            .ok()
            .and_then(|v| self.index_of(v));
        bin.map_or(value, |i| self.labels[i].as_bytes())
    }

    /// The bin of a number; `None` for NaN or a number outside the edges.
    pub fn index_of_number(&self, v: f64) -> Option<usize> {
        if v.is_nan() {
            return None;
        }
        let last = self.edges.len() - 1;
        if v < self.edges[0] || v > self.edges[last] {
            return None;
        }
        // The number of edges <= v, less one: the bin whose left edge is the last such.
        let i = self.edges.partition_point(|&e| e <= v);
        Some((i - 1).min(last - 1))
    }
}

/// The label of bin `i` between `edges[i]` and `edges[i + 1]`.
fn label(edges: &[f64], i: usize) -> String {
    let (a, b) = (edges[i], edges[i + 1]);
    let open = if a == f64::NEG_INFINITY { "(" } else { "[" };
    let close = if i + 2 == edges.len() && b.is_finite() {
        "]"
    } else {
        ")"
    };
    format!("{open}{a}, {b}{close}")
}

/// A privatiser of a numeric column: each number is privatised as the label of
/// its bin by `inner`, a privatiser over the bins' labels. A value that is not a
/// number within the edges is passed on as it is (so a bin's own label, or
/// [`crate::NULL_LABEL`], is still accepted).
#[derive(Debug, Clone)]
pub struct Binned<P> {
    bins: Bins,
    inner: P,
}

impl<P: ColumnPrivatiser> Binned<P> {
    /// `inner` fed the label of each value's bin.
    pub fn new(bins: Bins, inner: P) -> Self {
        Binned { bins, inner }
    }
}

impl<P: ColumnPrivatiser> ColumnPrivatiser for Binned<P> {
    fn privatise(&mut self, row: u64, value: &[u8], out: &mut Vec<u8>) -> bool {
        let label = self.bins.cut(value);
        self.inner.privatise(row, label, out)
    }

    fn alphabet(&self) -> &[String] {
        self.inner.alphabet()
    }

    fn counts(&self) -> Option<&[u64]> {
        self.inner.counts()
    }
}

/// Whether every label reads as a number: a column taken as unordered categories
/// that a user may have meant to bin.
pub fn looks_numeric(labels: &[String]) -> bool {
    !labels.is_empty() && labels.iter().all(|l| l.trim().parse::<f64>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_fall_in_half_open_bins_the_last_closed() {
        let b = Bins::parse("bins", "0, 1.5, 3").unwrap();
        assert_eq!(b.labels(), ["[0, 1.5)", "[1.5, 3]"]);
        let at = |v: &str| b.index_of(v);
        assert_eq!(
            [at("0"), at("1.49"), at("1.5"), at("3"), at(" 2 ")],
            [Some(0), Some(0), Some(1), Some(1), Some(1)]
        );
        assert_eq!(
            [at("-0.1"), at("3.01"), at("x"), at("NaN"), at("")],
            [None; 5]
        );
        let open = Bins::parse("bins", "-inf,0,inf").unwrap();
        assert_eq!(open.labels(), ["(-inf, 0)", "[0, inf)"]);
        assert_eq!(
            [open.index_of("-1e300"), open.index_of("1e300")],
            [Some(0), Some(1)]
        );
        assert_eq!(Bins::parse("bins", &open.text()).unwrap(), open);
        let mut named = open.labels().to_vec();
        assert!(open.names(&named));
        named.push(crate::NULL_LABEL.into());
        assert!(open.names(&named));
        named.swap(0, 1);
        assert!(!open.names(&named) && !open.names(&named[..1]));
    }

    #[test]
    fn bad_edges_are_refused_naming_the_field() {
        for (text, why) in [
            ("5", "1 edges"),
            ("0,0", "not strictly increasing"),
            ("0,x", "\"x\" is not a number"),
            ("inf,0", "not strictly increasing"),
            ("0,inf,5", "not strictly increasing"),
            ("0,nan", "is not a number"),
        ] {
            let e = Bins::parse("--bins", text).unwrap_err().to_string();
            assert!(e.contains("--bins") && e.contains(why), "{text}: {e}");
        }
        assert!(looks_numeric(&["1".into(), " 2.5".into()]));
        assert!(!looks_numeric(&["1".into(), "b".into()]));
    }
}
