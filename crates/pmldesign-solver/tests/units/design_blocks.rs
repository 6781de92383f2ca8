//! Tests of `design::blocks`.

use pmldesign_model::{Mechanism, Prior};
use pmldesign_solver::Utility;
use pmldesign_solver::internals::design::blocks::*;
use pmldesign_solver::internals::objective::utility::FInformation;

/// Two blocks with their own mechanisms: the coupling keeps each block's
/// densities, sums rows to 1, and every f-information is `sum_j m_j I_j`.
#[test]
fn the_coupling_keeps_densities_and_averages_information() {
    let p = Prior::new(vec![0.1, 0.2, 0.3, 0.15, 0.25]).unwrap();
    let blocks = vec![vec![0, 2], vec![1, 3, 4]];
    let w1 = Mechanism::new(ndarray::array![[0.7, 0.3], [0.2, 0.8]]).unwrap();
    let w2 = Mechanism::new(ndarray::array![
        [0.5, 0.5, 0.0],
        [0.1, 0.6, 0.3],
        [0.0, 0.2, 0.8]
    ])
    .unwrap();
    let mut designs = Vec::new();
    for (b, w) in blocks.iter().zip([w1, w2]) {
        let (mass, inner) = block_prior(&p, b).unwrap();
        designs.push((mass, inner, w));
    }
    let m = coupled(5, &blocks, &designs).unwrap();
    for f in [
        FInformation::mutual_information(),
        FInformation::chi_square(),
        FInformation::total_variation(),
        FInformation::hellinger(),
    ] {
        let want: f64 = designs
            .iter()
            .map(|(mass, inner, w)| mass * f.value(w, inner.masses()))
            .sum();
        let got = f.value(&m, p.masses());
        assert!((got - want).abs() < 1e-12, "{}: {got} {want}", f.name());
    }
    let max_density = |m: &Mechanism, r: &Prior| {
        let q = m.output_marginal(r);
        let w = m.matrix();
        (0..w.nrows())
            .flat_map(|x| (0..w.ncols()).map(move |y| (x, y)))
            .filter(|&(_, y)| q[y] > 0.0)
            .map(|(x, y)| w[[x, y]] / q[y])
            .fold(0.0, f64::max)
    };
    let blocks_max = designs
        .iter()
        .map(|(_, r, w)| max_density(w, r))
        .fold(0.0, f64::max);
    assert!((max_density(&m, &p) - blocks_max).abs() < 1e-12);
}
