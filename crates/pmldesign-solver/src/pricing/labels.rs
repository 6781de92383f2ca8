//! Exact pricing of a label loss over the slice `{v in cone, r . v = 1}` of a
//! known prior or \[E\] Prop 2's ball: for each label, the minimum of a linear
//! function over the slice, a fractional knapsack (docs/theory.md §4).

use crate::colgen::oracle::{Column, Pricing, RayOracle};
use crate::cones::sparse::Constraints;
use crate::objective::loss::LabelledLoss;
use crate::objective::utility::Utility;
use ndarray::{Array1, ArrayView1};
use rayon::prelude::*;

/// The slice `{v in cone, r . v = 1}` of the cone for exact pricing: a known prior
/// (`h = 0`) or the ball under Proposition 2 (`h = beta/2`).
#[derive(Debug, Clone)]
pub(crate) struct Slice {
    /// The normaliser r (p or p^), the only functional.
    pub(crate) r: Array1<f64>,
    /// `E` or `E'`.
    pub(crate) e: f64,
    /// `beta/2`, or 0 for a known prior.
    pub(crate) h: f64,
}

/// The inputs in increasing order of cost per unit of mass, `a_x / r_x`: the
/// order of the greedy (fractional-knapsack) fill of a slice `r . v = 1`.
pub(crate) fn ratio_order(a: ArrayView1<f64>, r: ArrayView1<f64>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..a.len()).collect();
    order.sort_by(|&i, &j| (a[i] / r[i]).total_cmp(&(a[j] / r[j])));
    order
}

impl Slice {
    pub(crate) fn new(cons: &Constraints) -> Option<Self> {
        (cons.functionals.len() == 1).then(|| Slice {
            r: cons.functionals[0].clone(),
            e: cons.e,
            h: cons.h,
        })
    }

    /// A minimiser of `a . v` over the slice (module docs).
    pub(crate) fn minimise(&self, a: ArrayView1<f64>) -> Array1<f64> {
        let n = a.len();
        let r = &self.r;
        let order = ratio_order(a, r.view());
        // Greedy fill of mass 1 - t above the floor t, each coordinate up to cap.
        let fill = |t: f64, cap: f64| -> Array1<f64> {
            let mut v = Array1::from_elem(n, t);
            let mut left = 1.0 - t;
            for &i in &order {
                let room = r[i] * (cap - t);
                if room < left {
                    v[i] = cap;
                    left -= room;
                } else {
                    v[i] = t + left / r[i];
                    break;
                }
            }
            v
        };
        if self.h == 0.0 {
            return fill(0.0, self.e);
        }
        // Ball: candidates t = 0 (if E' >= 1), t = 1 (v = 1) and the breakpoints
        // t_k = (1 - P_k E') / (1 - P_k + P_k E' h), where the first k coordinates
        // in the order sit at U(t) = E'(1 + h t) and the others at t.
        let (e, h) = (self.e, self.h);
        let a_total: f64 = a.sum();
        let mut best_value = a_total; // t = 1
        let mut best: Option<(f64, usize)> = None; // (t, k); None is v = 1
        let (mut mass, mut a_prefix) = (0.0, 0.0);
        for (k, &i) in order.iter().enumerate() {
            mass += r[i];
            a_prefix += a[i];
            let t = (1.0 - mass * e) / (1.0 - mass + mass * e * h);
            if (0.0..=1.0).contains(&t) {
                let value = t * a_total + (e * (1.0 + h * t) - t) * a_prefix;
                if value < best_value {
                    best_value = value;
                    best = Some((t, k + 1));
                }
            }
        }
        if e >= 1.0 {
            let v = fill(0.0, e);
            if a.dot(&v) < best_value {
                return v;
            }
        }
        match best {
            None => Array1::ones(n),
            Some((t, k)) => {
                let mut v = Array1::from_elem(n, t);
                let u = e * (1.0 + h * t);
                for &i in &order[..k] {
                    v[i] = u;
                }
                v
            }
        }
    }
}

/// The slice `{v in cone, r . v = 1}` of a column cone on which a linear function
/// is minimised exactly: what column generation for losses prices over (this
/// module's [`Slice`] for PML; the `notion_loss` module for the other notions).
pub(crate) trait LabelSlice: Sync {
    /// The normaliser r.
    fn normaliser(&self) -> ArrayView1<'_, f64>;
    /// A minimiser of `a . v` over the slice.
    fn minimise(&self, a: ArrayView1<f64>) -> Array1<f64>;
    /// A first basis for the master (none by default: the all-ones column).
    fn start(&self, _value: &dyn Fn(ArrayView1<f64>) -> f64) -> Vec<Column> {
        Vec::new()
    }
}

impl LabelSlice for Slice {
    fn normaliser(&self) -> ArrayView1<'_, f64> {
        self.r.view()
    }

    fn minimise(&self, a: ArrayView1<f64>) -> Array1<f64> {
        Slice::minimise(self, a)
    }

    fn start(&self, value: &dyn Fn(ArrayView1<f64>) -> f64) -> Vec<Column> {
        crate::colgen::start::spikes(self.r.view(), self.e, self.h, value)
    }
}

/// Pricing over the whole slice, one exact minimisation per label.
pub(crate) struct LossOracle<'a, S: LabelSlice> {
    pub(crate) slice: S,
    pub(crate) loss: LabelledLoss<'a>,
}

impl<S: LabelSlice> RayOracle for LossOracle<'_, S> {
    fn dimension(&self) -> usize {
        self.slice.normaliser().len()
    }

    fn price(&self, lambda: &Array1<f64>, tol: f64, keep: usize) -> Pricing {
        let n = self.dimension();
        let r = self.slice.normaliser();
        let mut found: Vec<(f64, Column)> = (0..n)
            .into_par_iter()
            .map(|y| {
                let a = &self.loss.c.column(y) + lambda;
                let v = self.slice.minimise(a.view());
                let value = self.loss.column_value(v.view(), r);
                (value - lambda.dot(&v), Column { vector: v, value })
            })
            .collect();
        let max_reduced_cost = found.iter().map(|f| f.0).fold(f64::NEG_INFINITY, f64::max);
        found.retain(|f| f.0 > tol);
        found.sort_by(|a, b| b.0.total_cmp(&a.0));
        found.truncate(keep);
        Pricing {
            max_reduced_cost,
            entering: found,
            priced: n as u64,
        }
    }

    fn start(&self) -> Vec<Column> {
        let r = self.slice.normaliser();
        self.slice.start(&|v| self.loss.column_value(v, r))
    }
}
