//! Tests of `reference::structured::partition`.

use ndarray::array;
use pmldesign_solver::internals::reference::structured::partition::*;

#[test]
fn lpt_balances_and_contiguous_keeps_order() {
    let p = array![0.4, 0.1, 0.2, 0.3];
    let g = Balanced::new(p.view()).groups(2);
    let mass = |h: usize| (0..4).filter(|&x| g[x] == h).map(|x| p[x]).sum::<f64>();
    assert!((mass(0) - 0.5).abs() < 1e-12 && (mass(1) - 0.5).abs() < 1e-12);
    assert_eq!(contiguous(p.view(), 2), vec![0, 0, 1, 1]);
    let w = shape(&[0, 2, 2, 0], 3);
    assert_eq!(w.ncols(), 2);
    assert_eq!(w.row(1).to_vec(), vec![0.0, 1.0]);
}
