//! Tests of `reference::structured::cover`.

use ndarray::array;
use pmldesign_solver::internals::reference::structured::cover::*;

#[test]
fn rows_sum_to_one_and_outputs_are_equally_likely() {
    let p = array![0.05, 0.3, 0.15, 0.25, 0.1, 0.15];
    let w = cover(p.view(), 7, 3);
    for row in w.rows() {
        assert!((row.sum() - 1.0).abs() < 1e-12);
    }
    for j in 0..7 {
        assert!((p.dot(&w.column(j)) - 1.0 / 7.0).abs() < 1e-12);
    }
}

#[test]
fn group_covers_have_whole_inputs_and_the_shortest_arc() {
    let w = group_cover(&[0, 1, 2, 0, 1, 2], 3, 2);
    for row in w.rows() {
        assert!((row.sum() - 1.0).abs() < 1e-15);
        assert_eq!(row.iter().filter(|&&v| v == 0.5).count(), 2);
    }
    // Groups of mass 0.2, 0.3, 0.5: arcs of 2 have 0.5, 0.8, 0.7.
    let (k, info) = shortest_arc(&[0.2, 0.3, 0.5], 0.45).unwrap();
    assert_eq!(k, 2);
    let want = [0.5f64, 0.8, 0.7].iter().map(|m| -m * m.ln()).sum::<f64>() / 2.0;
    assert!((info - want).abs() < 1e-15);
    assert_eq!(shortest_arc(&[0.2, 0.3, 0.5], 0.9), None);
}
