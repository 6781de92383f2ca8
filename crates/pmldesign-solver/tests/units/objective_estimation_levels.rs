//! Tests of `objective::estimation_levels`.

use pmldesign_solver::internals::objective::estimation_levels::*;

/// Under the uniform prior (one level) the floor is k-subset selection's
/// figure, the optimum there; at two levels it matches a convex solver's
/// optimum (cvxpy with Clarabel over the same orbits).
#[test]
fn the_floor_meets_known_optima() {
    let one = Levels {
        sizes: vec![8],
        masses: vec![0.125],
    };
    let f = level_floor(&one, 1.0).unwrap() - 8.0 * 0.125 * 0.125;
    assert!((f - 22.611384531922248).abs() < 1e-7 * f, "{f}");
    let (a, b) = (1.0 / 6.5, 0.7 / 6.5);
    let two = Levels {
        sizes: vec![3, 5],
        masses: vec![a, b],
    };
    let f = level_floor(&two, 1.0).unwrap() - 3.0 * a * a - 5.0 * b * b;
    assert!((f - 22.589813972409708).abs() < 1e-6 * f, "{f}");
}
