//! Tests of `pricing::branch_bound::lattice`.

use pmldesign_solver::internals::pricing::branch_bound::lattice::*;

#[test]
fn counts_give_their_sample_size() {
    let counts = [68315.0, 31870.0, 20402.0, 353.0, 179060.0];
    let m: f64 = counts.iter().sum();
    let p: Vec<f64> = counts.iter().map(|c| c / m).collect();
    let lattice = Lattice::of(&p).unwrap();
    assert!((lattice.unit * m - 1.0).abs() < 1e-12, "{lattice:?}");
    assert!(lattice.slack < 1e-11);
}

#[test]
fn decimals_have_their_unit_and_generic_masses_none() {
    let lattice = Lattice::of(&[0.4, 0.2, 0.2, 0.2]).unwrap();
    assert!((lattice.unit - 0.2).abs() < 1e-15);
    assert_eq!(
        Lattice::of(&[0.3, 1.0 - 0.3]).map(|l| (l.unit * 10.0).round()),
        Some(1.0)
    );
    let s = 1.0 + std::f64::consts::PI + std::f64::consts::E;
    let generic = [1.0 / s, std::f64::consts::PI / s, std::f64::consts::E / s];
    assert_eq!(Lattice::of(&generic), None);
}

#[test]
fn narrowing_keeps_every_set_weight() {
    let counts = [7.0, 5.0, 3.0, 2.0];
    let p: Vec<f64> = counts.iter().map(|c| c / 17.0).collect();
    let lattice = Lattice::of(&p).unwrap();
    let window = (0.3, 0.55);
    let (lo, hi) = lattice.narrow(window);
    assert!((lo - 6.0 / 17.0).abs() < 1e-11 && (hi - 9.0 / 17.0).abs() < 1e-11);
    for mask in 0..16u32 {
        let w: f64 = (0..4).filter(|b| mask >> b & 1 == 1).map(|b| p[b]).sum();
        let inside = w >= window.0 && w <= window.1;
        assert_eq!(inside, w >= lo && w <= hi, "{mask}: {w}");
    }
}
