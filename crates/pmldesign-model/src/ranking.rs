//! Indices taken in sorted order, a few at a time: where a greedy step stops
//! after the first few of N items (the l1 ball's mass transfer, \[V\]
//! Algorithm 1's outputs up to mass delta), selecting the next 8, 32, 128, ...
//! costs O(N) where sorting all of them costs O(N log N) per column or row,
//! which at N = 4096 took most of a design's structured baselines and its
//! envelope.

use std::cmp::Ordering;

/// Calls `take` on each of `items` in the order of `order` (a total order:
/// break ties, by index for example, so the order is that of a full sort)
/// until it returns false: the first by one scan, then 8, 32, 128, ... of the
/// smallest remaining at a time.
pub(crate) fn in_order_until(
    mut items: Vec<usize>,
    order: impl Fn(&usize, &usize) -> Ordering,
    mut take: impl FnMut(usize) -> bool,
) {
    let Some(first) = (0..items.len()).min_by(|&a, &b| order(&items[a], &items[b])) else {
        return;
    };
    if !take(items.swap_remove(first)) {
        return;
    }
    let mut chunk = 8;
    let mut rest = items.as_mut_slice();
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
        chunk *= 4;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// The order of a full stable sort, for values with many ties (a few
    /// distinct ones) and every stopping point.
    #[test]
    fn the_order_is_a_full_sorts() {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(36);
        for n in [1usize, 2, 3, 9, 40, 300] {
            for levels in [2u32, 5, 1000] {
                let c: Vec<u32> = (0..n).map(|_| rng.random_range(0..levels)).collect();
                let mut want: Vec<usize> = (0..n).collect();
                want.sort_by(|&a, &b| c[b].cmp(&c[a]));
                for stop in [1, 7, 8, 9, 40, n] {
                    let mut got = Vec::new();
                    let order = |a: &usize, b: &usize| c[*b].cmp(&c[*a]).then(a.cmp(b));
                    in_order_until((0..n).collect(), order, |i| {
                        got.push(i);
                        got.len() < stop
                    });
                    assert_eq!(got, want[..stop.min(n)], "n {n} levels {levels}");
                }
            }
        }
    }
}
