//! Partitions of the inputs into K groups (docs/theory.md §5b): balanced by the
//! reference prior's mass, or contiguous in the inputs' order (for ordered
//! losses). A partition's shape is the deterministic mechanism that releases the
//! group of its input.

use ndarray::{Array2, ArrayView1};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Longest-processing-time (LPT) partitions of one set of masses: inputs by
/// decreasing mass (ties by index, sorted once for every K), each to the group
/// of least mass so far (ties by group index). Its lightest group has at least
/// 3/4 of the mass of the best partition's lightest group (Deuermeyer, Friesen
/// and Langston 1982), and nearly all of it when the masses are small beside 1/K.
pub struct Balanced<'a> {
    masses: ArrayView1<'a, f64>,
    order: Vec<usize>,
}

impl<'a> Balanced<'a> {
    /// The masses' order, largest first (ties by index).
    pub fn new(masses: ArrayView1<'a, f64>) -> Self {
        let mut order: Vec<usize> = (0..masses.len()).collect();
        order.sort_by(|&a, &b| masses[b].total_cmp(&masses[a]).then(a.cmp(&b)));
        Balanced { masses, order }
    }

    /// The group of each input in the LPT partition into `k` groups.
    pub fn groups(&self, k: usize) -> Vec<usize> {
        // Min-heap on (mass, group index).
        let mut heap: BinaryHeap<Reverse<(OrdF64, usize)>> =
            (0..k).map(|g| Reverse((OrdF64(0.0), g))).collect();
        let mut group = vec![0; self.masses.len()];
        for &x in &self.order {
            if let Some(Reverse((OrdF64(m), g))) = heap.pop() {
                group[x] = g;
                heap.push(Reverse((OrdF64(m + self.masses[x]), g)));
            }
        }
        group
    }
}

/// Contiguous partition: input x joins group `floor(K (c_x + p_x / 2))`, with
/// `c_x` the mass of the inputs before it (the group whose share of the unit
/// interval holds the midpoint of x's own share).
pub fn contiguous(masses: ArrayView1<f64>, k: usize) -> Vec<usize> {
    let mut before = 0.0;
    masses
        .iter()
        .map(|&p| {
            let g = ((k as f64) * (before + p / 2.0)).floor() as usize;
            before += p;
            g.min(k - 1)
        })
        .collect()
}

/// The deterministic mechanism releasing each input's group, empty groups left
/// out (so every column is used).
pub fn shape(group: &[usize], k: usize) -> Array2<f64> {
    let mut used = vec![false; k];
    for &g in group {
        used[g] = true;
    }
    let mut column = vec![usize::MAX; k];
    let mut m = 0;
    for g in 0..k {
        if used[g] {
            column[g] = m;
            m += 1;
        }
    }
    let mut w = Array2::zeros((group.len(), m));
    for (x, &g) in group.iter().enumerate() {
        w[[x, column[g]]] = 1.0;
    }
    w
}

/// A total order on finite masses for the heap.
#[derive(Debug, Clone, Copy, PartialEq)]
struct OrdF64(f64);

impl Eq for OrdF64 {}

impl PartialOrd for OrdF64 {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for OrdF64 {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}
