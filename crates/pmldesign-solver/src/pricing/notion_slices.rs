//! The label-loss slices of the other notions (docs/theory.md §4c): the box
//! `lo <= v_x <= hi` of PMC, ALIP and LIP for a known prior, the LDP staircase and
//! the line metric's walks, each minimised exactly.

use crate::colgen::oracle::Column;
use crate::pricing::labels::{LabelSlice, ratio_order};
use crate::pricing::line_metric::LineSlice;
use ndarray::{Array1, ArrayView1};
use pmldesign_model::{Metric, Notion, UncertaintySet};

/// The exact slice of `notion` when there is one (module docs).
pub(crate) fn slice_of(set: &UncertaintySet, notion: &Notion) -> Option<NotionSlice> {
    let r = set.reference();
    match notion {
        Notion::Ldp { epsilon }
        | Notion::Metric {
            epsilon,
            metric: Metric::Discrete,
        } => Some(NotionSlice::Staircase(StaircaseSlice {
            r,
            e: epsilon.exp(),
        })),
        Notion::Metric {
            epsilon,
            metric: Metric::Line,
        } => LineSlice::new(r, *epsilon).map(NotionSlice::Line),
        Notion::Pmc { .. } | Notion::Alip { .. } | Notion::Lip { .. } => {
            let UncertaintySet::Known { .. } = set else {
                return None;
            };
            Some(NotionSlice::Box(BoxSlice {
                r,
                lo: notion.lower().map_or(0.0, |l| (-l).exp()),
                hi: notion.upper().map_or(f64::INFINITY, f64::exp),
            }))
        }
        _ => None,
    }
}

/// The slices of the notions with exact pricing.
pub(crate) enum NotionSlice {
    Box(BoxSlice),
    Staircase(StaircaseSlice),
    Line(LineSlice),
}

impl LabelSlice for NotionSlice {
    fn normaliser(&self) -> ArrayView1<'_, f64> {
        match self {
            NotionSlice::Box(s) => s.r.view(),
            NotionSlice::Staircase(s) => s.r.view(),
            NotionSlice::Line(s) => s.r.view(),
        }
    }

    fn minimise(&self, a: ArrayView1<f64>) -> Array1<f64> {
        match self {
            NotionSlice::Box(s) => s.minimise(a),
            NotionSlice::Staircase(s) => s.minimise(a),
            NotionSlice::Line(s) => s.minimise(a),
        }
    }

    fn start(&self, value: &dyn Fn(ArrayView1<f64>) -> f64) -> Vec<Column> {
        let spike = |y: usize| match self {
            NotionSlice::Box(s) => s.spike(y),
            NotionSlice::Staircase(s) => s.spike(y),
            NotionSlice::Line(_) => (0.0, 0.0),
        };
        if let NotionSlice::Line(s) = self {
            return s.start(value);
        }
        spikes(self.normaliser().len(), spike, value)
    }
}

/// The randomized-response shaped columns `b 1 + (a - b) e_y` of a slice, when
/// every spike is strictly above its floor (their weights solving `V theta = 1`
/// are then all positive, a nondegenerate first basis); none otherwise.
fn spikes(
    n: usize,
    spike: impl Fn(usize) -> (f64, f64),
    value: &dyn Fn(ArrayView1<f64>) -> f64,
) -> Vec<Column> {
    let mut out = Vec::with_capacity(n);
    for y in 0..n {
        let (a, b) = spike(y);
        if a.is_nan() || a <= b * (1.0 + 1e-9) {
            return Vec::new();
        }
        let mut v = Array1::from_elem(n, b);
        v[y] = a;
        out.push(Column {
            value: value(v.view()),
            vector: v,
        });
    }
    out
}

/// `{lo <= v_x <= hi, r . v = 1}`: the PMC (`lo = e^-eps_l`), ALIP and LIP
/// (`hi = e^eps_u`) slices of a known prior r (\[D\] Thm 1, \[15\] Lemma 1).
pub struct BoxSlice {
    /// The known prior `r`.
    pub r: Array1<f64>,
    /// The lower end `lo` of every entry.
    pub lo: f64,
    /// The upper end `hi` of every entry.
    pub hi: f64,
}

impl BoxSlice {
    /// Fractional knapsack: every coordinate at `lo`, the rest of the mass
    /// filled in increasing order of `a_x / r_x` up to `hi`.
    pub fn minimise(&self, a: ArrayView1<f64>) -> Array1<f64> {
        let r = &self.r;
        let mut v = Array1::from_elem(r.len(), self.lo);
        let mut left = 1.0 - self.lo * r.sum();
        for i in ratio_order(a, r.view()) {
            let room = r[i] * (self.hi - self.lo);
            if room < left {
                v[i] = self.hi;
                left -= room;
            } else {
                v[i] += left.max(0.0) / r[i];
                break;
            }
        }
        v
    }

    /// `(a, b)`: the largest spike at y over the floor `b >= lo`.
    fn spike(&self, y: usize) -> (f64, f64) {
        let ry = self.r[y];
        let a = self.hi.min((1.0 - self.lo * (1.0 - ry)) / ry);
        (a, (1.0 - a * ry) / (1.0 - ry))
    }
}

/// `{m <= v_x <= e m, r . v = 1}`: the LDP slice (\[D\] Def 6), any r.
pub struct StaircaseSlice {
    /// The normalising vector `r` of `r . v = 1`.
    pub r: Array1<f64>,
    /// The ratio `e` (`e^eps`) of the largest entry to the smallest.
    pub e: f64,
}

impl StaircaseSlice {
    /// The best of the N + 1 prefixes `s` of the order of `a_x / r_x`:
    /// `v = m (1 + (e - 1) s)`, `m = 1 / (r . 1 + (e - 1) r . s)` (module docs).
    pub fn minimise(&self, a: ArrayView1<f64>) -> Array1<f64> {
        let (r, g) = (&self.r, self.e - 1.0);
        let order = ratio_order(a, r.view());
        let (a_total, r_total) = (a.sum(), r.sum());
        let (mut a_prefix, mut r_prefix) = (0.0, 0.0);
        let mut best = (a_total / r_total, 0);
        for (k, &i) in order.iter().enumerate() {
            a_prefix += a[i];
            r_prefix += r[i];
            let value = (a_total + g * a_prefix) / (r_total + g * r_prefix);
            if value < best.0 {
                best = (value, k + 1);
            }
        }
        let r_prefix: f64 = order[..best.1].iter().map(|&i| r[i]).sum();
        let m = 1.0 / (r_total + g * r_prefix);
        let mut v = Array1::from_elem(r.len(), m);
        for &i in &order[..best.1] {
            v[i] = self.e * m;
        }
        v
    }

    /// `(a, b)`: randomized response's column at y, `a = e b`.
    fn spike(&self, y: usize) -> (f64, f64) {
        let ry = self.r[y];
        let b = 1.0 / (1.0 - ry + self.e * ry);
        (self.e * b, b)
    }
}
