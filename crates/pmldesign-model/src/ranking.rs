//! Indices taken in sorted order, a few at a time: where a greedy step stops
//! after the first few of N items (the l1 ball's mass transfer, \[V\]
//! Algorithm 1's outputs up to mass delta), selecting the next 8, 32, 128, ...
//! costs O(N) where sorting all of them costs O(N log N) per column or row,
//! which at N = 4096 took most of a design's structured baselines and its
//! envelope.

use std::cmp::Ordering;

/// Calls `take` on each of `items` in the order of `order` (a total order:
/// break ties, by index for example, so the order is that of a full sort)
/// until it returns false: `at_least` of the smallest at once (a hint: how
/// many `take` surely asks for; the first alone by one scan when it is 1),
/// then 4 times as many of the remaining at a time, at least 8. The hint
/// changes the work, never the order.
pub fn in_order_until(
    mut items: Vec<usize>,
    order: impl Fn(&usize, &usize) -> Ordering,
    at_least: usize,
    mut take: impl FnMut(usize) -> bool,
) {
    let mut rest = items.as_mut_slice();
    if at_least <= 1 {
        let Some(first) = (0..rest.len()).min_by(|&a, &b| order(&rest[a], &rest[b])) else {
            return;
        };
        rest.swap(0, first);
        if !take(rest[0]) {
            return;
        }
        rest = &mut rest[1..];
    }
    let mut chunk = at_least.max(8);
    while !rest.is_empty() {
        let m = chunk.min(rest.len());
        if m < rest.len() {
            rest.select_nth_unstable_by(m - 1, &order);
        }
        let (head, tail) = rest.split_at_mut(m);
        head.sort_unstable_by(&order);
        if !head.iter().all(|&i| take(i)) {
            return;
        }
        rest = tail;
        chunk = chunk.saturating_mul(4);
    }
}

/// Most distinct values [`by_few_levels`] takes: the structured mechanisms'
/// columns hold one to three.
pub const LEVELS: usize = 4;

/// Calls `take` on each of `items` (ascending) by decreasing `key` (ties in
/// the order of `items`) until it returns false, one scan per distinct value,
/// when the keys hold at most [`LEVELS`] distinct values (by `total_cmp`);
/// returns false, without calling `take`, when they hold more. The order of
/// [`in_order_until`] in O(N) for the columns of structured mechanisms, whose
/// greedy steps can take thousands of items (an l1 ball of radius 0.1).
pub fn by_few_levels(
    items: &[usize],
    key: impl Fn(usize) -> f64,
    mut take: impl FnMut(usize) -> bool,
) -> bool {
    let mut levels: Vec<f64> = Vec::with_capacity(LEVELS);
    for &i in items {
        let v = key(i);
        if !levels.iter().any(|l| l.total_cmp(&v).is_eq()) {
            if levels.len() == LEVELS {
                return false;
            }
            levels.push(v);
        }
    }
    levels.sort_by(|a, b| b.total_cmp(a));
    for v in levels {
        for &i in items {
            if key(i).total_cmp(&v).is_eq() && !take(i) {
                return true;
            }
        }
    }
    true
}
