//! Tests of `colgen::stabilise`.

use ndarray::Array1;
use pmldesign_solver::internals::colgen::stabilise::*;

/// A row centred at 0 gets the largest centre's width, and widening
/// scales it (relative to its own centre it was the point 0 forever);
/// where a centre is 0 the box starts at the seed's gap if wider.
#[test]
fn a_row_centred_at_zero_has_a_box_that_widens() {
    let mut b = DualBox::new(Array1::from(vec![0.5, 0.0, -0.25]), 1e-4);
    assert_eq!(b.edges(0), (0.5 - 5e-4, 0.5 + 5e-4));
    assert_eq!(b.edges(1), (-5e-4, 5e-4));
    assert_eq!(b.edges(2), (-0.25 - 2.5e-4, -0.25 + 2.5e-4));
    b.width[1] *= 10.0;
    assert_eq!(b.edges(1), (-5e-3, 5e-3));
    let [lower, upper] = b.columns(1);
    assert_eq!((lower.value, upper.value), (-5e-3, -5e-3));
    let b = DualBox::new(Array1::from(vec![0.5, 0.0, -0.25]), 0.125);
    assert_eq!(b.edges(0), (0.5 - 0.0625, 0.5 + 0.0625));
    let b = DualBox::new(Array1::from(vec![0.5, 0.25, 0.25]), 0.03);
    assert_eq!(b.edges(0), (0.5 - 5e-4, 0.5 + 5e-4));
    // A seed far below the bound starts it wide without a zero too.
    let b = DualBox::new(Array1::from(vec![0.5, 0.25, 0.25]), 0.125);
    assert_eq!(b.edges(0), (0.5 - 0.0625, 0.5 + 0.0625));
}
