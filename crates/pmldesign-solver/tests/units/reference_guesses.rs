//! Tests of `reference::guesses`.

use ndarray::{Array2, array};
use pmldesign_model::Mechanism;
use pmldesign_solver::internals::objective::loss::LabelledLoss;
use pmldesign_solver::internals::reference::guesses::*;

/// Merged columns released as the guesses they stand for: the matrix the
/// column-by-column sum gives, and the same expected loss.
#[test]
fn merged_guesses_release_the_summed_columns() {
    let m = Mechanism::new(array![[0.5, 0.3, 0.2], [0.1, 0.1, 0.8], [0.2, 0.6, 0.2]]).unwrap();
    let r = array![0.5, 0.3, 0.2];
    let d = array![[0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0]];
    let c = weighted_loss(r.view(), d.view());
    let g = Guessed::of(&m, &LabelledLoss::new(&c)).unwrap();
    let released = g.released().unwrap();
    let by_column = |y: usize| {
        (0..3)
            .map(|g| (0..3).map(|x| c[[x, g]] * m.matrix()[[x, y]]).sum::<f64>())
            .enumerate()
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap()
            .0
    };
    let mut expected = Array2::<f64>::zeros((3, 3));
    for y in 0..3 {
        for x in 0..3 {
            expected[[x, by_column(y)]] += m.matrix()[[x, y]];
        }
    }
    assert_eq!(released.matrix(), expected.view());
    let direct =
        pmldesign_solver::internals::objective::loss::expected_loss(&released, r.view(), d.view());
    assert!((g.expected_loss(r.view(), d.view()) - direct).abs() < 1e-15);
    assert_eq!(g.merged().outputs(), g.labels.len());
}
