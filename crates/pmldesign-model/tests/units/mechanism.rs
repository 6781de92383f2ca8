//! Tests of `mechanism`.

use ndarray::{Array2, Axis};
use pmldesign_model::mechanism::*;

#[test]
fn validates_rows() {
    assert!(Mechanism::from_rows(vec![vec![0.5, 0.5], vec![0.1, 0.9]]).is_ok());
    assert!(Mechanism::from_rows(vec![vec![0.5, 0.6], vec![0.1, 0.9]]).is_err());
    assert!(Mechanism::from_rows(vec![vec![1.5, -0.5], vec![0.1, 0.9]]).is_err());
    assert!(Mechanism::from_rows(vec![vec![1.0], vec![0.1, 0.9]]).is_err());
    let m = Mechanism::identity(3);
    assert_eq!(m.max_row_sum_error(), 0.0);
    assert_eq!(m.min_entry(), 0.0);
}

#[test]
fn any_layout_is_stored_row_major() {
    let a = Array2::from_shape_vec((2, 3), vec![0.5, 0.2, 0.3, 0.1, 0.6, 0.3]).unwrap();
    let selected = a.select(Axis(1), &[2, 0, 1]);
    let transposed = a.t().to_owned().reversed_axes();
    for m in [selected, transposed] {
        let w = Mechanism::new(m.clone()).unwrap();
        assert!(w.matrix().is_standard_layout());
        assert_eq!(w.matrix(), m.view());
    }
}
