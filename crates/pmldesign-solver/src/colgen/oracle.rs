//! The seam between column generation and pricing: a [`RayOracle`] returns the
//! rays of largest reduced cost for a dual lambda with a certified bound on the
//! rest ([`Pricing`]); [`TopK`] keeps the best few.

use crate::settings::Interrupt;
use ndarray::Array1;
use std::collections::BinaryHeap;
use std::time::Instant;

/// How far one pricing pass may go.
#[derive(Debug, Clone)]
pub struct PassControl {
    /// Stops the pass once set (Ctrl-C).
    pub interrupt: Interrupt,
    /// Multiplies the node cap of a pass that finds no entering ray (a proof);
    /// 1 by default, raised while a time limit leaves room
    /// (`engine::solve_with_oracle`).
    pub effort: u64,
    /// The run's deadline: a pass that reaches it stops with the bound of what
    /// it left unpriced (`+inf` where an enumeration stops part-way).
    pub deadline: Option<Instant>,
}

impl PassControl {
    /// Whether the pass must stop now (Ctrl-C or the deadline).
    pub fn stop(&self) -> bool {
        self.interrupt.or_past(self.deadline)
    }
}

impl Default for PassControl {
    fn default() -> Self {
        PassControl {
            interrupt: Interrupt::default(),
            effort: 1,
            deadline: None,
        }
    }
}

/// A column of the master problem: a ray and its utility `mu(v)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The ray v, normalised by `r . v = 1`.
    pub vector: Array1<f64>,
    /// `mu(v)`.
    pub value: f64,
}

/// The result of one pricing pass.
#[derive(Debug, Clone, Default)]
pub struct Pricing {
    /// `max_k (mu(v_k) - lambda . v_k)` over every ray (`-inf` if there are none),
    /// or an upper bound on it: a search may stop proving at the tolerance, or at
    /// its deadline with the bound of the nodes left open.
    pub max_reduced_cost: f64,
    /// Up to `keep` rays of largest reduced cost above the tolerance, best first.
    pub entering: Vec<(f64, Column)>,
    /// Rays priced.
    pub priced: u64,
}

/// Access to every extreme ray of a cone, for pricing.
pub trait RayOracle: Sync {
    /// Dimension N.
    fn dimension(&self) -> usize;
    /// One pass over every ray: the largest reduced cost under lambda and up to
    /// `keep` rays whose reduced cost exceeds `tol`.
    fn price(&self, lambda: &Array1<f64>, tol: f64, keep: usize) -> Pricing;
    /// [`Self::price`] under `control`: stopped early once its interrupt is
    /// set (Ctrl-C), with a bound that still holds (branch and bound keeps the
    /// bounds of the nodes it leaves open), and with its effort's share of
    /// nodes for a proof. Oracles that cannot stop inside a pass finish it.
    fn price_with(
        &self,
        lambda: &Array1<f64>,
        tol: f64,
        keep: usize,
        control: &PassControl,
    ) -> Pricing {
        let _ = control;
        self.price(lambda, tol, keep)
    }
    /// N columns of the cone (rays or not: any column of the cone is a feasible
    /// master column) whose weights solving `V theta = 1` are all positive: a
    /// nondegenerate first basis for the master. The default start is the
    /// all-ones column alone, a vertex with N - 1 basic zeros, from which the
    /// duals are arbitrary and column generation can stall for many passes.
    fn start(&self) -> Vec<Column> {
        Vec::new()
    }
}

/// A total order on the items of a [`TopK`], to break ties of reduced cost: the
/// kept set is then the `keep` best by (reduced cost, this order), whatever order
/// the items arrive in, so that parallel pricing returns the same columns at any
/// thread count.
pub(crate) trait Tiebreak {
    /// The order of two items of equal reduced cost (`Less`: `self` is kept first).
    fn tiebreak(&self, other: &Self) -> std::cmp::Ordering;
}

impl Tiebreak for usize {
    fn tiebreak(&self, other: &Self) -> std::cmp::Ordering {
        self.cmp(other)
    }
}

impl Tiebreak for Vec<usize> {
    fn tiebreak(&self, other: &Self) -> std::cmp::Ordering {
        self.cmp(other)
    }
}

impl Tiebreak for Column {
    fn tiebreak(&self, other: &Self) -> std::cmp::Ordering {
        let by_entry = self
            .vector
            .iter()
            .zip(other.vector.iter())
            .map(|(a, b)| a.total_cmp(b))
            .find(|o| o.is_ne());
        by_entry
            .unwrap_or_else(|| self.vector.len().cmp(&other.vector.len()))
            .then_with(|| self.value.total_cmp(&other.value))
    }
}

impl<T: Tiebreak> PartialEq for Entry<T> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl<T: Tiebreak> Eq for Entry<T> {}

impl<T: Tiebreak> PartialOrd for Entry<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The worse entry is the greater (the heap's root is the first to go): a smaller
/// reduced cost, then the later item in the [`Tiebreak`] order.
impl<T: Tiebreak> Ord for Entry<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .0
            .total_cmp(&self.0)
            .then_with(|| self.1.tiebreak(&other.1))
    }
}

/// Keeps the `keep` best `(reduced cost, item)` pairs (a min-heap on the cost).
pub(crate) struct TopK<T> {
    keep: usize,
    heap: BinaryHeap<Entry<T>>,
}

/// Heap entry ordered by reversed reduced cost, so the heap's top is the worst.
struct Entry<T>(f64, T);

impl<T: Tiebreak> TopK<T> {
    pub(crate) fn new(keep: usize) -> Self {
        TopK {
            keep,
            heap: BinaryHeap::new(),
        }
    }

    /// The smallest reduced cost that may still enter (an item at exactly this
    /// cost enters if it comes earlier in the [`Tiebreak`] order).
    pub(crate) fn threshold(&self) -> f64 {
        if self.heap.len() < self.keep {
            f64::NEG_INFINITY
        } else {
            self.heap.peek().map_or(f64::INFINITY, |e| e.0)
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    pub(crate) fn push(&mut self, rc: f64, item: T) {
        if self.keep == 0 {
            return;
        }
        let entry = Entry(rc, item);
        if self.heap.len() < self.keep {
            self.heap.push(entry);
        } else if self.heap.peek().is_some_and(|worst| entry < *worst) {
            self.heap.pop();
            self.heap.push(entry);
        }
    }

    pub(crate) fn merge(mut self, other: TopK<T>) -> Self {
        for Entry(rc, item) in other.heap {
            self.push(rc, item);
        }
        self
    }

    pub(crate) fn into_sorted(self) -> Vec<(f64, T)> {
        // Ascending in the reversed order is descending in reduced cost.
        self.heap
            .into_sorted_vec()
            .into_iter()
            .map(|Entry(rc, item)| (rc, item))
            .collect()
    }
}
