//! Tests of `ranking`.

use pmldesign_model::internals::ranking::*;
use rand::{RngExt, SeedableRng};

/// The order of a full stable sort, for values with many ties (a few
/// distinct ones), every stopping point and hints below, at and past it;
/// and by levels where there are few.
#[test]
fn the_order_is_a_full_sorts() {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(36);
    for n in [1usize, 2, 3, 9, 40, 300] {
        for levels in [2u32, 5, 1000] {
            let c: Vec<u32> = (0..n).map(|_| rng.random_range(0..levels)).collect();
            let mut want: Vec<usize> = (0..n).collect();
            want.sort_by(|&a, &b| c[b].cmp(&c[a]));
            for (stop, hint) in [1, 7, 8, 9, 40, n]
                .into_iter()
                .flat_map(|s| [(s, 1), (s, s), (s, 20)])
            {
                let mut got = Vec::new();
                let order = |a: &usize, b: &usize| c[*b].cmp(&c[*a]).then(a.cmp(b));
                in_order_until((0..n).collect(), order, hint, |i| {
                    got.push(i);
                    got.len() < stop
                });
                assert_eq!(
                    got,
                    want[..stop.min(n)],
                    "n {n} levels {levels} hint {hint}"
                );
                let mut got = Vec::new();
                let items: Vec<usize> = (0..n).collect();
                let few = by_few_levels(
                    &items,
                    |i| f64::from(c[i]),
                    |i| {
                        got.push(i);
                        got.len() < stop
                    },
                );
                let distinct = c.iter().collect::<std::collections::BTreeSet<_>>().len();
                assert_eq!(few, distinct <= LEVELS);
                if few {
                    assert_eq!(got, want[..stop.min(n)], "n {n} levels {levels}");
                } else {
                    assert!(got.is_empty());
                }
            }
        }
    }
}
