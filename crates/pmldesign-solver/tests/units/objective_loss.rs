//! Tests of `objective::loss`.

use ndarray::{Array1, Axis};
use pmldesign_solver::internals::objective::loss::*;

/// The built-in losses price a column's labels in linear time, to the
/// matrix's costs; a user matrix stays a matrix.
#[test]
fn shapes_price_as_their_matrices() {
    let n = 7;
    let p = Array1::from_shape_fn(n, |x| 0.05 + 0.02 * x as f64);
    let v = Array1::from_shape_fn(n, |x| {
        if x % 3 == 0 {
            0.0
        } else {
            1.0 + x as f64 / 3.0
        }
    });
    for (loss, shape) in [
        (Loss::Hamming, "Hamming"),
        (Loss::Absolute, "Absolute"),
        (Loss::Squared, "Squared"),
    ] {
        let d = loss.matrix(n).unwrap();
        let c = &d * &p.view().insert_axis(Axis(1));
        let fast = LabelledLoss::new(&c);
        assert!(format!("{:?}", fast.shape).starts_with(shape));
        let general = LabelledLoss::with_shape(&c, &Shape::Matrix);
        let (a, b) = (fast.costs(v.view()), general.costs(v.view()));
        assert!(
            a.iter()
                .zip(&b)
                .all(|(a, b)| (a - b).abs() <= 1e-14 * (1.0 + b.abs())),
            "{a} {b}"
        );
    }
    let mut c = Loss::Hamming.matrix(n).unwrap();
    c[[2, 5]] = 0.5;
    assert_eq!(Shape::of(&c), Shape::Matrix);
}
