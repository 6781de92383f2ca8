//! The last items of a search, met in the middle (docs/theory.md, "Pricing by
//! branch and bound"): every subset of the last `k` items is listed with its
//! weight, dual mass and largest masses in and out, sorted by weight and
//! summarised in a binary tree (least dual mass and largest masses per subtree).
//! A depth-first node that has decided every earlier item descends the tree only
//! where [`Family::box_bound`] can exceed the pruning threshold, instead of
//! branching on the last `k` items one by one: near-ties between many sets (dual
//! values nearly proportional to the masses, as at the optimum of a
//! mutual-information design) cost one tree walk instead of `2^k` leaves.

use super::{BOUND_TOL, DualFloor, Family, Items, Node, Search};

/// Items in the tree of a pass over `n` items at entering tolerance `tol`, for
/// duals summing to `scale`: 14 (`2^14` subsets) for a proof to a relative
/// 1e-8 or finer at `n >= 28`, where near-ties between many sets make the tree
/// pay (N = 32 exact, known prior: 2.0 s with 12 items, 1.0 s with 14, 1.2 and
/// 1.5 s with 13 and 15); 10 otherwise, where building it costs more than it
/// saves (N = 22 exact: 0.06 s with 10, 0.10 with 12, 0.30 with 14; N = 64 to a
/// gap of 1e-6: 0.6 s with 10, 0.7 with 12, 1.5 with 14; ALIP at N = 64: 0.8,
/// 1.8 and 2.3 s).
pub(crate) fn suffix_items(n: usize, tol: f64, scale: f64) -> usize {
    // A seeding pass (tolerance -inf) lays out its items as the proofs after it.
    let proof = tol == f64::NEG_INFINITY || super::fine_proof(tol, scale);
    n.min(if proof && n >= 28 { 14 } else { 10 })
}

/// One subset of the tree's items.
#[derive(Clone, Copy, Default)]
struct Subset {
    w: f64,
    l: f64,
    max_in: f64,
    max_out: f64,
    mask: u32,
}

/// Merges two lists sorted by weight into `out` (cleared first): doubling the
/// subsets item by item keeps them sorted without a sort.
fn merge_by_weight(
    a: impl Iterator<Item = Subset>,
    b: impl Iterator<Item = Subset>,
    out: &mut Vec<Subset>,
) {
    out.clear();
    let (mut a, mut b) = (a.peekable(), b.peekable());
    loop {
        let take_a = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) => x.w <= y.w,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => return,
        };
        out.extend(if take_a { a.next() } else { b.next() });
    }
}

/// Every subset of the last items of a search, in order of weight. It depends
/// only on those items, so searches whose last items agree share it.
#[derive(Clone)]
pub struct Suffix {
    /// The mass `p` of each subset.
    pub w: Vec<f64>,
    /// The weight `lambda` of each subset.
    pub l: Vec<f64>,
    /// The largest mass inside each subset.
    pub max_in: Vec<f64>,
    /// The largest mass among the items left out of each subset.
    pub max_out: Vec<f64>,
    /// The subset as a bit mask over the tree's items.
    pub mask: Vec<u32>,
    /// `L >= slope W + e` for the subsets below a tree node: the slope is the
    /// items' mean ratio `lambda(S) / p(S)`, `node_e` the least `L - slope W`.
    slope: f64,
    node_e: Vec<f64>,
    /// Per tree node (heap order, leaves at `size..2 size`): least dual mass
    /// and largest masses in and out below it.
    node_l: Vec<f64>,
    node_in: Vec<f64>,
    node_out: Vec<f64>,
}

impl Suffix {
    /// The tree of the items from `items.start` on ([`suffix_items`]).
    pub fn new(items: &Items) -> Self {
        let start = items.start;
        let mut subsets = vec![Subset::default()];
        let mut next = Vec::with_capacity(1 << (items.len() - start));
        for i in start..items.len() {
            let (p, lam) = (items.p[i], items.lambda[i]);
            let bit = 1u32 << (i - start);
            let without = subsets.iter().map(|s| Subset {
                max_out: s.max_out.max(p),
                ..*s
            });
            let with = subsets.iter().map(|s| Subset {
                w: s.w + p,
                l: s.l + lam,
                max_in: s.max_in.max(p),
                mask: s.mask | bit,
                ..*s
            });
            merge_by_weight(without, with, &mut next);
            std::mem::swap(&mut subsets, &mut next);
        }
        let w: Vec<f64> = subsets.iter().map(|s| s.w).collect();
        let l: Vec<f64> = subsets.iter().map(|s| s.l).collect();
        let max_in: Vec<f64> = subsets.iter().map(|s| s.max_in).collect();
        let max_out: Vec<f64> = subsets.iter().map(|s| s.max_out).collect();
        let mask = subsets.iter().map(|s| s.mask).collect();
        let size = w.len();
        let slope = {
            let (sw, sl): (f64, f64) = (start..items.len())
                .map(|i| (items.p[i], items.lambda[i]))
                .fold((0.0, 0.0), |(a, b), (p, l)| (a + p, b + l));
            if sw > 0.0 { sl / sw } else { 0.0 }
        };
        let mut node_e = vec![f64::INFINITY; 2 * size];
        for k in 0..size {
            node_e[size + k] = l[k] - slope * w[k];
        }
        let mut node_l = vec![f64::INFINITY; 2 * size];
        let mut node_in = vec![0.0f64; 2 * size];
        let mut node_out = vec![0.0f64; 2 * size];
        node_l[size..].copy_from_slice(&l);
        node_in[size..].copy_from_slice(&max_in);
        node_out[size..].copy_from_slice(&max_out);
        for k in (1..size).rev() {
            node_l[k] = node_l[2 * k].min(node_l[2 * k + 1]);
            node_e[k] = node_e[2 * k].min(node_e[2 * k + 1]);
            node_in[k] = node_in[2 * k].max(node_in[2 * k + 1]);
            node_out[k] = node_out[2 * k].max(node_out[2 * k + 1]);
        }
        Suffix {
            w,
            l,
            max_in,
            max_out,
            mask,
            slope,
            node_e,
            node_l,
            node_in,
            node_out,
        }
    }

    /// Every completion of `node` (which has decided the items before `start`)
    /// by a subset of the tree, offered to `search` where it can beat the
    /// threshold.
    pub(crate) fn complete(&self, family: &impl Family, search: &mut Search, node: &Node) {
        let (w_lo, w_hi) = family.window();
        let from = self.w.partition_point(|&w| node.w + w < w_lo - BOUND_TOL);
        let to = self.w.partition_point(|&w| node.w + w <= w_hi + BOUND_TOL);
        if from < to {
            self.descend(family, search, node, (1, 0, self.w.len()), (from, to));
        }
    }

    /// Visits tree node `k` covering positions `[lo, hi)`, restricted to
    /// `[from, to)`.
    fn descend(
        &self,
        family: &impl Family,
        search: &mut Search,
        node: &Node,
        (k, lo, hi): (usize, usize, usize),
        (from, to): (usize, usize),
    ) {
        if hi <= from || to <= lo {
            return;
        }
        search.found.nodes += 1;
        if hi - lo == 1 {
            self.leaf(family, search, node, lo);
            return;
        }
        let w = (
            node.w + self.w[lo.max(from)],
            node.w + self.w[hi.min(to) - 1],
        );
        let threshold = search.threshold();
        // Totals: L = node.l + L_j >= node.l + slope (W - node.w) + e.
        let floor = DualFloor {
            l_min: node.l + self.node_l[k],
            slope: self.slope,
            offset: node.l - self.slope * node.w + self.node_e[k],
        };
        let bound = family.box_bound(
            w,
            floor,
            node.max_in.max(self.node_in[k]),
            node.max_out.max(self.node_out[k]),
            threshold,
        );
        if bound <= threshold {
            return;
        }
        let mid = (lo + hi) / 2;
        self.descend(family, search, node, (2 * k, lo, mid), (from, to));
        self.descend(family, search, node, (2 * k + 1, mid, hi), (from, to));
    }

    /// The set of `node` completed by the tree's subset at position `j`.
    fn leaf(&self, family: &impl Family, search: &mut Search, node: &Node, j: usize) {
        let full = Node {
            depth: search.items.len(),
            w: node.w + self.w[j],
            l: node.l + self.l[j],
            max_in: node.max_in.max(self.max_in[j]),
            max_out: node.max_out.max(self.max_out[j]),
        };
        let taken = search.stack.len() + self.mask[j].count_ones() as usize;
        let n = search.items.len();
        if let Some(rc) = family.reduced_cost(&full, taken, n, full.max_out) {
            let mask = self.mask[j];
            let start = search.items.start;
            search.offer_with(rc, |set| {
                set.extend(
                    (0..32)
                        .filter(|b| mask >> b & 1 == 1)
                        .map(|b| start + b as usize),
                )
            });
        }
    }
}
