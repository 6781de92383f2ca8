//! Inputs released alike: equal rows of the mechanism.

use crate::mechanism::Mechanism;

/// Two rows are equal when no entry differs by more than this.
const EQUAL: f64 = 1e-12;

/// The inputs grouped by equal rows of `mechanism`, each group in increasing
/// order and the groups by their first input: the data determine only each
/// group's total mass. Each input joins the first group whose first row it
/// equals; only groups whose rows have a nearby signature (a fixed weighting of
/// the entries, within what `EQUAL` (1e-12) allows) are compared, so distinct rows
/// cost O(N M) in all instead of O(N^2 M) (53 % of an inversion at N = 1024).
pub fn equal_rows(mechanism: &Mechanism) -> Vec<Vec<usize>> {
    let w = mechanism.matrix();
    let weights: Vec<f64> = (0..w.ncols())
        .map(|j| 0.5 + (j as f64 * 0.618_033_988_749_895).fract())
        .collect();
    let total: f64 = weights.iter().sum();
    // |s(a) - s(b)| <= EQUAL * total for rows within EQUAL, plus rounding.
    let band = 2.0 * EQUAL * total + 1e3 * f64::EPSILON * total;
    let signature = |x: usize| -> f64 { w.row(x).iter().zip(&weights).map(|(a, c)| a * c).sum() };
    let mut groups: Vec<Vec<usize>> = Vec::new();
    // (signature of the group's first row, group index), sorted by signature.
    let mut firsts: Vec<(f64, usize)> = Vec::new();
    for x in 0..w.nrows() {
        let s = signature(x);
        let from = firsts.partition_point(|&(t, _)| t < s - band);
        let same = |g: usize| {
            w.row(groups[g][0])
                .iter()
                .zip(w.row(x))
                .all(|(a, b)| (a - b).abs() <= EQUAL)
        };
        let found = firsts[from..]
            .iter()
            .take_while(|&&(t, _)| t <= s + band)
            .map(|&(_, g)| g)
            .filter(|&g| same(g))
            .min();
        match found {
            Some(g) => groups[g].push(x),
            None => {
                let at = firsts.partition_point(|&(t, _)| t < s);
                firsts.insert(at, (s, groups.len()));
                groups.push(vec![x]);
            }
        }
    }
    groups
}
