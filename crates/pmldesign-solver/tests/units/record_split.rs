//! Tests of `record::split`.

use pmldesign_solver::internals::record::split::*;

#[test]
fn moves_keep_the_sum_and_the_floor() {
    let s = moved(&[512, 512], 0, 1, 256).unwrap();
    assert_eq!(s, vec![256, 768]);
    assert!(moved(&[30, 994], 0, 1, 16).is_none());
    assert_eq!(levels(&[256, 768], 2.0), vec![0.5, 1.5]);
    assert_eq!(pairs(3).count(), 6);
}
