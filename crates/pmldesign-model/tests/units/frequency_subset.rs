//! Tests of `frequency::subset`.

use pmldesign_model::internals::frequency::subset::*;

#[test]
fn top_coefficients_are_the_sums_one_at_a_time() {
    let u: Vec<f64> = (0..9).map(|i| 1.0 / (1.0 + i as f64).sqrt()).collect();
    let v: Vec<f64> = (0..9).map(|i| (0.3 * i as f64).exp()).collect();
    let one = |r: usize| (0..=r).map(|s| u[s] * v[r - s]).sum::<f64>();
    for d in 0..9 {
        let low = |k: usize| if k <= d { one(d - k) } else { 0.0 };
        let want = [low(0), low(1), low(2)];
        assert_eq!(
            top_coefficients(&u, &v, d).map(f64::to_bits),
            want.map(f64::to_bits)
        );
    }
}

#[test]
fn groups_name_one_pair_per_group_pair() {
    let p = ndarray::array![0.3, 0.1, 0.3, 0.3];
    let g = MassGroups::new(p.view());
    assert_eq!(g.order, vec![1, 0, 2, 3]);
    assert_eq!(g.reps, vec![0, 1]);
    assert_eq!(
        g.partner,
        vec![Some((0, false)), Some((1, false)), Some((1, true)), None]
    );
}
