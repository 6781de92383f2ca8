//! Inputs released alike: equal rows of the mechanism.

use crate::mechanism::Mechanism;

/// Two rows are equal when no entry differs by more than this.
const EQUAL: f64 = 1e-12;

/// The inputs grouped by equal rows of `mechanism`, each group in increasing
/// order and the groups by their first input: the data determine only each
/// group's total mass.
pub fn equal_rows(mechanism: &Mechanism) -> Vec<Vec<usize>> {
    let w = mechanism.matrix();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for x in 0..w.nrows() {
        let same = |g: &Vec<usize>| {
            w.row(g[0])
                .iter()
                .zip(w.row(x))
                .all(|(a, b)| (a - b).abs() <= EQUAL)
        };
        match groups.iter_mut().find(|g| same(g)) {
            Some(g) => g.push(x),
            None => groups.push(vec![x]),
        }
    }
    groups
}
