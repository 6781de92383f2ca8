//! Tests of `design::systematic`.

use ndarray::Array1;
use pmldesign_solver::internals::design::systematic::*;

/// Every piece has mass 1 and keeps its densities within the levels (eps-PML,
/// and LIP's two levels), the pieces' mean is 1 at every input (each input is
/// laid once per order), and the same prior, levels and count give the same
/// pieces.
#[test]
fn pieces_meet_the_levels_and_cover_every_input_alike() {
    // A geometric prior over 40 inputs.
    let w = Array1::from_shape_fn(40, |i| 0.9f64.powi(i as i32));
    let p = &w / w.sum();
    for (lo, hi) in [(0.0, 1.5f64.exp()), ((-0.5f64).exp(), 1.5f64.exp())] {
        let pieces = systematic_pieces(p.view(), (lo, hi), 200).unwrap();
        let n = pieces.nrows();
        // n = floor(r / room) for r = floor(200 room) orders: at most 200, and
        // fewer than 1 / room short of it.
        assert!(
            n <= 200 && (n as f64) > 199.0 - (hi - lo) / (1.0 - lo),
            "{n}"
        );
        for q in pieces.rows() {
            assert!((p.dot(&q) - 1.0).abs() <= 1e-12, "{}", p.dot(&q));
            assert!(q.iter().all(|&v| v >= lo && v <= hi * (1.0 + 1e-12)), "{q}");
        }
        let mean = pieces.mean_axis(ndarray::Axis(0)).unwrap();
        assert!(mean.iter().all(|m| (m - 1.0).abs() <= 1e-12), "{mean}");
        assert_eq!(pieces, systematic_pieces(p.view(), (lo, hi), 200).unwrap());
        // Different pieces, not one repeated.
        assert!(
            pieces
                .rows()
                .into_iter()
                .skip(1)
                .any(|q| q != pieces.row(0))
        );
    }
}

/// Where a piece and the largest mass together pass 1, an input at the end of
/// one order could not be kept out of the piece that starts the next: no
/// pieces.
#[test]
fn no_pieces_where_an_input_could_be_laid_twice_in_one() {
    let p = Array1::from(vec![0.7, 0.1, 0.1, 0.1]);
    // eps 0.5: a piece holds e^-0.5 = 0.61 of the mass.
    assert!(systematic_pieces(p.view(), (0.0, 0.5f64.exp()), 50).is_none());
    // eps 2: 0.14, and 0.14 + 0.7 < 1.
    assert!(systematic_pieces(p.view(), (0.0, 2f64.exp()), 50).is_some());
}
