//! Tests of `pricing::branch_bound::halves`.

use pmldesign_solver::internals::pricing::branch_bound::Items;
use pmldesign_solver::internals::pricing::branch_bound::halves::*;

/// The merged tree lists every subset of its items once, in order of
/// weight, with its totals and largest masses in and out.
#[test]
fn the_tree_lists_every_subset_once_by_weight() {
    let p = [0.3, 0.05, 0.2, 0.05, 0.15, 0.1, 0.15];
    let lambda = [0.2, 0.1, 0.3, 0.02, 0.1, 0.4, 0.05];
    let items = Items::new(&p, &lambda, Some(0), 5);
    let tree = Suffix::new(&items);
    assert_eq!(tree.w.len(), 32);
    assert!(tree.w.windows(2).all(|w| w[0] <= w[1]));
    let mut masks = tree.mask.clone();
    masks.sort_unstable();
    assert_eq!(masks, (0..32).collect::<Vec<u32>>());
    for (k, &mask) in tree.mask.iter().enumerate() {
        let (mut w, mut l, mut max_in, mut max_out) = (0.0, 0.0, 0.0f64, 0.0f64);
        for b in 0..5 {
            let i = items.start + b;
            if mask >> b & 1 == 1 {
                (w, l, max_in) = (w + items.p[i], l + items.lambda[i], max_in.max(items.p[i]));
            } else {
                max_out = max_out.max(items.p[i]);
            }
        }
        assert!((tree.w[k] - w).abs() < 1e-15 && (tree.l[k] - l).abs() < 1e-15);
        assert_eq!((tree.max_in[k], tree.max_out[k]), (max_in, max_out));
    }
}
