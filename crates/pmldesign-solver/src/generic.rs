//! Generic extreme-ray enumeration for pointed polyhedral cones in the non-negative
//! orthant, by the double description method (Motzkin et al.; Fukuda & Prodon,
//! "Double description method revisited", 1996) with the combinatorial adjacency test.
//!
//! This is the reference against which the closed-form ray families of docs/theory.md §4 are
//! checked: it knows nothing about PML and works for any cone `{c : A c >= 0}` that
//! lies in the orthant.
//!
//! # Algorithm
//!
//! The initial double-description pair is the orthant itself: the N unit rows
//! `c_x >= 0` (always added, whether or not `A` repeats them) and the N unit rays.
//! The rows of `A` are then added one at a time. For a row `a`, the current rays are
//! split into positive, zero and negative sets by the sign of `a . r`; positive and
//! zero rays are kept, negative rays are dropped and every *adjacent* pair
//! (positive `p`, negative `q`) yields the new ray `(a.p) q - (a.q) p`, which lies on
//! the hyperplane `a . c = 0`. Two rays are adjacent iff their common zero set `I`
//! (over the rows added so far) has at least `N - 2` rows and no third ray is zero
//! on every row of `I` (the combinatorial test of Fukuda & Prodon).
//!
//! Every ray is a non-negative combination of unit vectors with positive weights,
//! so its coordinates are sums of non-negative terms: exact zeros stay exact and each
//! coordinate keeps a small *relative* error. The sign test therefore compares
//! `|a . r|` with `ZERO_TOL * sum_i |a_i| r_i`, the scale of the rounding error in
//! the dot product. At the end every ray is polished: the null vector of its active
//! rows (rank `N - 1` for an extreme ray of a pointed cone) is recomputed by
//! Gaussian elimination with complete pivoting, rays whose active rows have a lower
//! rank are dropped as not extreme, and near-duplicates are merged.

use ndarray::{Array1, Array2};
use std::collections::HashMap;
use std::time::Instant;

/// Relative tolerance of the sign test `|a . r| <= ZERO_TOL * sum_i |a_i| |r_i|`.
const ZERO_TOL: f64 = 1e-11;
/// Absolute floor of the sign test, relative to `sum_i |a_i| max_i |r_i|`: the
/// rounding noise of entries that are cancellations (`e^eps v_x - 1` at a
/// threshold), which `sum_i |a_i| |r_i|` does not see when they are all the ray
/// meets.
const ABS_ZERO_TOL: f64 = 1e-14;
/// Relative pivot tolerance of the rank computation (rows scaled to max-abs 1).
const RANK_TOL: f64 = 1e-9;
/// Entries of a constraint row (scaled to max-abs 1) at most this are rounding
/// residues and are set to zero.
const SNAP_TOL: f64 = 1e-13;
/// Constraint rows (scaled to max-abs 1) on the same grid of this spacing are merged.
const ROW_MERGE_TOL: f64 = 1e-12;
/// Two rays normalised by `normaliser . v = 1` are the same if their coordinates
/// differ by less than this.
const DEDUP_TOL: f64 = 1e-9;
/// A polished ray replaces the computed one only if they agree to this (max-abs
/// normalised; otherwise the computed ray is kept), and two rays with the same zero
/// set during the enumeration are merged only if they agree to this.
const POLISH_TOL: f64 = 1e-6;

/// A ray of the current double-description pair: its direction (max-abs 1, all
/// coordinates >= 0) and the bitset of processed rows on which it is zero.
#[derive(Debug, Clone)]
struct Ray {
    v: Vec<f64>,
    zero: Vec<u64>,
}

/// Extreme rays of {c : A c >= 0} (A includes c >= 0 rows), each normalised so that
/// normaliser . v = 1 (normaliser is a positive vector). Exact up to floating-point
/// tolerance; deduplicated.
///
/// Computed by the double description method (Fukuda & Prodon) started from the
/// orthant, so the unit rows `c_x >= 0` are always imposed, whether or not `A` lists
/// them; repeated, redundant or all-zero rows are harmless. The rays come back in
/// lexicographic order, so the result is deterministic. A cone that is `{0}` has no
/// rays and gives an empty vector.
///
/// # Panics
///
/// If `normaliser.len()` differs from the number of columns of `inequalities`, if a
/// normaliser entry is not finite and positive, or if an inequality entry is not
/// finite.
pub fn extreme_rays(
    inequalities: &Array2<f64>,
    normaliser: &Array1<f64>,
    budget: u64,
    deadline: Option<Instant>,
) -> Result<Vec<Array1<f64>>, Exhausted> {
    let n = inequalities.ncols();
    assert_eq!(
        normaliser.len(),
        n,
        "normaliser has length {} but the inequalities have {n} columns",
        normaliser.len()
    );
    assert!(
        normaliser.iter().all(|w| w.is_finite() && *w > 0.0),
        "the normaliser must be finite and positive: {normaliser}"
    );
    assert!(
        inequalities.iter().all(|x| x.is_finite()),
        "the inequality matrix has a non-finite entry"
    );
    if n == 0 {
        return Ok(Vec::new());
    }

    let rows = constraint_rows(inequalities);
    let words = rows.len().div_ceil(64);

    // Initial DD pair: the orthant, with rays e_i zero on every unit row but the i-th.
    let mut rays: Vec<Ray> = (0..n)
        .map(|i| {
            let mut zero = vec![0u64; words];
            for j in (0..n).filter(|j| *j != i) {
                set_bit(&mut zero, j);
            }
            Ray {
                v: unit(n, i),
                zero,
            }
        })
        .collect();

    let mut work = 0u64;
    for k in n..rows.len() {
        let values: Vec<f64> = rays.iter().map(|r| signed_value(&rows[k], &r.v)).collect();
        work = work.saturating_add(row_work(&values));
        let late = deadline.is_some_and(|d| Instant::now() >= d);
        if work > budget || late {
            return Err(Exhausted {
                row: k,
                rows: rows.len(),
                rays: rays.len(),
                budget: (!late).then_some(budget),
            });
        }
        rays = add_row(rays, &values, &rows, k, n);
        if rays.is_empty() {
            return Ok(Vec::new());
        }
    }

    Ok(finalise(rays, &rows, normaliser))
}

/// Steps of the double description's work budget ([`extreme_rays`]) that a
/// run of the test suite stays far below (its largest enumeration takes
/// 1.3e8), and that a run split into ten thousand near-duplicate rays by
/// degenerate constraints reaches within seconds (issue 13: a cone of six
/// coordinates at levels near 1e-11 grew to 15,000 rays and ran for minutes).
pub(crate) const WORK_BUDGET: u64 = 2_000_000_000;

/// Why [`extreme_rays`] stopped short: its work (pairs of rays on the two
/// sides of a constraint, times the words of the adjacency test) passed the
/// budget, or the deadline passed.
#[derive(Debug, Clone, PartialEq)]
pub struct Exhausted {
    /// The constraint at which it stopped, and how many there are.
    pub row: usize,
    pub rows: usize,
    /// Rays of the cone so far.
    pub rays: usize,
    /// The work budget it passed (`None`: the deadline).
    pub budget: Option<u64>,
}

impl std::fmt::Display for Exhausted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (row, rows, rays) = (self.row, self.rows, self.rays);
        match self.budget {
            Some(b) => write!(
                f,
                "ray enumeration passed its budget of {:e} steps",
                b as f64
            )?,
            None => write!(f, "the time limit passed during ray enumeration")?,
        }
        write!(f, " at constraint {row} of {rows} with {rays} rays")
    }
}

/// The work of adding a row to a cone whose rays take `values` on it: its
/// positive-negative pairs, each tested for adjacency over a bitset of the rays.
fn row_work(values: &[f64]) -> u64 {
    let pos = values.iter().filter(|v| **v > 0.0).count() as u64;
    let neg = values.iter().filter(|v| **v < 0.0).count() as u64;
    pos * neg * (1 + values.len() as u64 / 64)
}

/// The constraint list: the N unit rows of the orthant, then the distinct non-zero
/// rows of `A`, each scaled to max-abs 1 with entries below `SNAP_TOL` set to zero.
///
/// Rows such as `e^eps v - e_x` are computed with cancellation, so an entry that is
/// zero in exact arithmetic can come out as a rounding residue of ~1e-16. Left in,
/// such a residue is a (spurious) constraint on the rays supported where it sits,
/// and repeated rows that differ only by rounding classify the same ray differently;
/// both split one degenerate ray into a cluster of near-identical rays with
/// different zero sets, which defeats the combinatorial adjacency test. Snapping
/// and merging move each row by at most `SNAP_TOL` (resp. `ROW_MERGE_TOL`), far
/// below the `ZERO_TOL` resolution of the sign test.
fn constraint_rows(inequalities: &Array2<f64>) -> Vec<Vec<f64>> {
    let n = inequalities.ncols();
    let mut rows: Vec<Vec<f64>> = (0..n).map(|i| unit(n, i)).collect();
    let mut seen: HashMap<Vec<i64>, ()> = HashMap::new();
    for row in &rows {
        seen.insert(row_key(row), ());
    }
    for r in inequalities.rows() {
        let mut row = r.to_vec();
        if !normalise_max(&mut row) {
            continue;
        }
        for x in row.iter_mut() {
            if x.abs() <= SNAP_TOL {
                *x = 0.0;
            }
        }
        if seen.insert(row_key(&row), ()).is_none() {
            rows.push(row);
        }
    }
    rows
}

/// Hash key of a row scaled to max-abs 1: its entries on a grid of `ROW_MERGE_TOL`.
fn row_key(row: &[f64]) -> Vec<i64> {
    row.iter()
        .map(|x| (x / ROW_MERGE_TOL).round() as i64)
        .collect()
}

/// One double-description step: intersect the current cone (rows `0..k`) with the
/// half-space `rows[k] . c >= 0`, on which the rays take `values`.
fn add_row(rays: Vec<Ray>, values: &[f64], rows: &[Vec<f64>], k: usize, n: usize) -> Vec<Ray> {
    let a = &rows[k];
    let pos: Vec<usize> = (0..rays.len()).filter(|&i| values[i] > 0.0).collect();
    let neg: Vec<usize> = (0..rays.len()).filter(|&i| values[i] < 0.0).collect();
    if neg.is_empty() {
        // A redundant row: nothing is cut, the zero rays gain it in their zero set.
        let mut rays = rays;
        for (r, value) in rays.iter_mut().zip(values) {
            if *value == 0.0 {
                set_bit(&mut r.zero, k);
            }
        }
        return rays;
    }

    // New rays from adjacent (positive, negative) pairs, found before `rays` changes.
    let mut created: Vec<Ray> = Vec::new();
    if !pos.is_empty() && !neg.is_empty() {
        let mut adjacency = Adjacency::new(&rays, k);
        let min_common = n.saturating_sub(2) as u32;
        // Only rows 0..k are set so far: the words past k / 64 are zero.
        let used = k / 64 + 1;
        let mut common = vec![0u64; rays[0].zero.len()];
        for &p in &pos {
            for &q in &neg {
                let mut count = 0u32;
                for (c, (x, y)) in common[..used]
                    .iter_mut()
                    .zip(rays[p].zero[..used].iter().zip(&rays[q].zero[..used]))
                {
                    *c = x & y;
                    count += c.count_ones();
                }
                if count < min_common || !adjacency.adjacent(&common, p, q) {
                    continue;
                }
                let (sp, sq) = (values[p], values[q]);
                let mut v: Vec<f64> = rays[q]
                    .v
                    .iter()
                    .zip(&rays[p].v)
                    .map(|(vq, vp)| sp * vq - sq * vp)
                    .collect();
                if !normalise_max(&mut v) {
                    continue;
                }
                // The rows both parents are zero on (exactly zero for any combination)
                // and the new row have rank N - 1; their null vector is the new ray
                // without the rounding error the combination inherits from its parents,
                // which would otherwise accumulate over the run.
                let active: Vec<&Vec<f64>> = ones(&common)
                    .map(|j| &rows[j])
                    .chain(std::iter::once(a))
                    .collect();
                polish(&mut v, &active, n);
                // Zero set: exactly those rows. Every other processed row j is
                // non-negative on both parents and positive on one, so it is positive on
                // their combination with positive weights.
                let mut zero = common.clone();
                set_bit(&mut zero, k);
                created.push(Ray { v, zero });
            }
        }
    }

    // Keep the positive and zero rays (marking the new row on the zero ones), then add
    // the created rays, skipping any that repeats a zero set and a direction.
    let mut out: Vec<Ray> = Vec::with_capacity(rays.len() - neg.len() + created.len());
    for (mut r, &value) in rays.into_iter().zip(values) {
        if value == 0.0 {
            set_bit(&mut r.zero, k);
        }
        if value >= 0.0 {
            out.push(r);
        }
    }
    // Only rays zero on row k can share a zero set with a created ray.
    let mut seen: HashMap<Vec<u64>, Vec<usize>> = HashMap::new();
    if !created.is_empty() {
        for (i, r) in out.iter().enumerate() {
            if has_bit(&r.zero, k) {
                seen.entry(r.zero.clone()).or_default().push(i);
            }
        }
    }
    for r in created {
        let twins = seen.entry(r.zero.clone()).or_default();
        if twins
            .iter()
            .any(|&i| max_abs_diff(&out[i].v, &r.v) < POLISH_TOL)
        {
            continue;
        }
        twins.push(out.len());
        out.push(r);
    }
    out
}

/// For the combinatorial adjacency test: for every processed row, the bitset of the
/// rays that are zero on it, plus scratch space for the test.
struct Adjacency {
    by_row: Vec<Vec<u64>>,
    rays: usize,
    acc: Vec<u64>,
    live: Vec<usize>,
}

impl Adjacency {
    fn new(rays: &[Ray], processed: usize) -> Self {
        let ray_words = rays.len().div_ceil(64);
        let mut by_row = vec![vec![0u64; ray_words]; processed];
        for (i, r) in rays.iter().enumerate() {
            for j in ones(&r.zero).take_while(|&j| j < processed) {
                set_bit(&mut by_row[j], i);
            }
        }
        Adjacency {
            by_row,
            rays: rays.len(),
            acc: vec![0u64; ray_words],
            live: Vec::with_capacity(ray_words),
        }
    }

    /// Rays `p` and `q` with common zero set `common` are adjacent iff no other ray
    /// is zero on every row of `common`. The candidate set (rays zero on the rows
    /// seen so far, minus p and q) is intersected row by row, touching only its
    /// non-empty words, and the test stops as soon as it is empty.
    fn adjacent(&mut self, common: &[u64], p: usize, q: usize) -> bool {
        let mut rows = ones(common);
        let Some(first) = rows.next() else {
            // No common zero: adjacent iff p and q are the only rays (N <= 2).
            return self.rays == 2;
        };
        self.acc.copy_from_slice(&self.by_row[first]);
        debug_assert!(has_bit(&self.acc, p) && has_bit(&self.acc, q));
        clear_bit(&mut self.acc, p);
        clear_bit(&mut self.acc, q);
        self.live.clear();
        self.live
            .extend((0..self.acc.len()).filter(|&w| self.acc[w] != 0));
        for j in rows {
            if self.live.is_empty() {
                break;
            }
            let row = &self.by_row[j];
            let acc = &mut self.acc;
            self.live.retain(|&w| {
                acc[w] &= row[w];
                acc[w] != 0
            });
        }
        self.live.is_empty()
    }
}

/// Polishes, normalises by `normaliser . v = 1`, deduplicates and sorts the rays.
fn finalise(rays: Vec<Ray>, rows: &[Vec<f64>], normaliser: &Array1<f64>) -> Vec<Array1<f64>> {
    let n = normaliser.len();
    let mut out: Vec<Vec<f64>> = Vec::with_capacity(rays.len());
    for ray in rays {
        let active: Vec<&Vec<f64>> = rows
            .iter()
            .filter(|row| signed_value(row, &ray.v) == 0.0)
            .collect();
        let mut v = ray.v;
        // Rank below N - 1: not an extreme ray. (Full rank is a tolerance artefact:
        // the computed ray is kept.)
        if !polish(&mut v, &active, n) {
            continue;
        }
        let scale: f64 = v.iter().zip(normaliser).map(|(x, w)| x * w).sum();
        if scale > 0.0 {
            out.push(v.into_iter().map(|x| x / scale).collect());
        }
    }
    out.sort_by(|x, y| {
        x.iter()
            .zip(y)
            .map(|(a, b)| a.total_cmp(b))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut unique: Vec<Vec<f64>> = Vec::with_capacity(out.len());
    for v in out {
        if !unique.iter().any(|u| max_abs_diff(u, &v) < DEDUP_TOL) {
            unique.push(v);
        }
    }
    unique.into_iter().map(Array1::from).collect()
}

/// Replaces the ray `v` (max-abs 1, non-negative) by the null vector of its
/// `active` rows when these have rank N - 1 and the null vector agrees with `v` to
/// `POLISH_TOL` (oriented along `v`, exact zeros of `v` kept, max-abs 1); otherwise
/// leaves `v` as it is. False if the active rows have rank below N - 1.
fn polish(v: &mut Vec<f64>, active: &[&Vec<f64>], n: usize) -> bool {
    match null_vector(active, n) {
        Nullity::Extreme(mut w) => {
            let dot: f64 = w.iter().zip(v.iter()).map(|(x, y)| x * y).sum();
            if dot < 0.0 {
                w.iter_mut().for_each(|x| *x = -*x);
            }
            for (x, orig) in w.iter_mut().zip(v.iter()) {
                if *orig == 0.0 || *x < 0.0 {
                    *x = 0.0;
                }
            }
            if normalise_max(&mut w) && max_abs_diff(&w, v) < POLISH_TOL {
                *v = w;
            }
            true
        }
        Nullity::Trivial => true,
        Nullity::Large => false,
    }
}

/// The null space of a set of rows in R^n, as far as extreme rays care.
enum Nullity {
    /// Rank n - 1: the unique null direction (up to sign).
    Extreme(Vec<f64>),
    /// Rank n: only the zero vector.
    Trivial,
    /// Rank below n - 1.
    Large,
}

/// Gauss-Jordan elimination with complete pivoting on the rows, each scaled to
/// max-abs 1; pivots below `RANK_TOL` count as zero.
fn null_vector(rows: &[&Vec<f64>], n: usize) -> Nullity {
    let mut m: Vec<Vec<f64>> = rows
        .iter()
        .map(|r| {
            let s = r.iter().fold(0.0f64, |acc, x| acc.max(x.abs()));
            r.iter().map(|x| x / s).collect()
        })
        .collect();
    let mut pivot_cols: Vec<usize> = Vec::new();
    let mut free = vec![true; n];
    for step in 0..m.len().min(n) {
        let mut best = (0.0, 0, 0);
        for (i, row) in m.iter().enumerate().skip(step) {
            for (j, x) in row.iter().enumerate() {
                if free[j] && x.abs() > best.0 {
                    best = (x.abs(), i, j);
                }
            }
        }
        let (size, pi, pj) = best;
        if size <= RANK_TOL {
            break;
        }
        m.swap(step, pi);
        let pivot_row = m[step].clone();
        for (i, row) in m.iter_mut().enumerate() {
            if i != step && row[pj] != 0.0 {
                let f = row[pj] / pivot_row[pj];
                for (x, p) in row.iter_mut().zip(&pivot_row) {
                    *x -= f * p;
                }
                row[pj] = 0.0;
            }
        }
        free[pj] = false;
        pivot_cols.push(pj);
    }
    match n - pivot_cols.len() {
        0 => Nullity::Trivial,
        1 => {
            let f = free.iter().position(|x| *x).expect("one free column");
            let mut w = vec![0.0; n];
            w[f] = 1.0;
            for (step, &pj) in pivot_cols.iter().enumerate() {
                w[pj] = -m[step][f] / m[step][pj];
            }
            Nullity::Extreme(w)
        }
        _ => Nullity::Large,
    }
}

/// `a . r`, or exactly 0 when it is within `ZERO_TOL` of the rounding scale
/// `sum_i |a_i| |r_i|`.
fn signed_value(a: &[f64], r: &[f64]) -> f64 {
    let mut value = 0.0;
    let mut scale = 0.0;
    let mut norm_a = 0.0;
    let mut max_r = 0.0f64;
    for (x, y) in a.iter().zip(r) {
        value += x * y;
        scale += (x * y).abs();
        norm_a += x.abs();
        max_r = max_r.max(y.abs());
    }
    if value.abs() <= ZERO_TOL * scale + ABS_ZERO_TOL * norm_a * max_r {
        0.0
    } else {
        value
    }
}

/// Scales `v` to max-abs 1; false if `v` is (numerically) zero.
fn normalise_max(v: &mut [f64]) -> bool {
    let s = v.iter().fold(0.0f64, |acc, x| acc.max(x.abs()));
    if s <= 0.0 || !s.is_finite() {
        return false;
    }
    v.iter_mut().for_each(|x| *x /= s);
    true
}

fn max_abs_diff(x: &[f64], y: &[f64]) -> f64 {
    x.iter()
        .zip(y)
        .fold(0.0f64, |acc, (a, b)| acc.max((a - b).abs()))
}

fn unit(n: usize, i: usize) -> Vec<f64> {
    let mut e = vec![0.0; n];
    e[i] = 1.0;
    e
}

fn set_bit(bits: &mut [u64], i: usize) {
    bits[i / 64] |= 1u64 << (i % 64);
}

fn has_bit(bits: &[u64], i: usize) -> bool {
    bits[i / 64] & (1u64 << (i % 64)) != 0
}

fn clear_bit(bits: &mut [u64], i: usize) {
    bits[i / 64] &= !(1u64 << (i % 64));
}

/// Indices of the set bits, in increasing order.
fn ones(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(w, &word)| {
        let mut word = word;
        std::iter::from_fn(move || {
            if word == 0 {
                return None;
            }
            let b = word.trailing_zeros() as usize;
            word &= word - 1;
            Some(w * 64 + b)
        })
    })
}

#[cfg(test)]
mod tests {
    /// The enumeration without a budget.
    fn enumerate_extreme_rays(a: &Array2<f64>, w: &Array1<f64>) -> Vec<Array1<f64>> {
        super::extreme_rays(a, w, u64::MAX, None).unwrap()
    }
    use super::*;
    use approx::assert_abs_diff_eq;
    use ndarray::{Array2, array};
    use std::time::Instant;

    fn matrix(rows: &[Vec<f64>]) -> Array2<f64> {
        let n = rows[0].len();
        let mut m = Array2::zeros((rows.len(), n));
        for (i, r) in rows.iter().enumerate() {
            for (j, x) in r.iter().enumerate() {
                m[[i, j]] = *x;
            }
        }
        m
    }

    fn unit_rows(n: usize) -> Vec<Vec<f64>> {
        (0..n).map(|i| unit(n, i)).collect()
    }

    /// Rows of the known-prior PML cone: `c >= 0`, `e (p . c) - c_x >= 0`.
    fn known_prior_rows(p: &[f64], e: f64) -> Array2<f64> {
        let n = p.len();
        let mut rows = unit_rows(n);
        for x in 0..n {
            let mut a: Vec<f64> = p.iter().map(|q| e * q).collect();
            a[x] -= 1.0;
            rows.push(a);
        }
        matrix(&rows)
    }

    /// Rows of the l1-ball cone of Proposition 2: `e (p . c + h c_x') - c_x >= 0`.
    fn ball_rows(p: &[f64], e: f64, h: f64) -> Array2<f64> {
        let n = p.len();
        let mut rows = unit_rows(n);
        for x in 0..n {
            for x2 in 0..n {
                let mut a: Vec<f64> = p.iter().map(|q| e * q).collect();
                a[x2] += e * h;
                a[x] -= 1.0;
                rows.push(a);
            }
        }
        matrix(&rows)
    }

    /// Rank by Gaussian elimination with partial pivoting (independent of the module).
    fn rank(mut m: Vec<Vec<f64>>, tol: f64) -> usize {
        let cols = m.first().map_or(0, Vec::len);
        let mut r = 0;
        for c in 0..cols {
            let Some(p) = (r..m.len()).max_by(|&i, &j| m[i][c].abs().total_cmp(&m[j][c].abs()))
            else {
                break;
            };
            if m[p][c].abs() <= tol {
                continue;
            }
            m.swap(r, p);
            let (top, rest) = m.split_at_mut(r + 1);
            let pivot = &top[r];
            for row in rest {
                let f = row[c] / pivot[c];
                for (x, y) in row.iter_mut().zip(pivot).skip(c) {
                    *x -= f * y;
                }
            }
            r += 1;
        }
        r
    }

    /// Test 4: every ray is in the cone, normalised, and has N - 1 independent
    /// active rows (so it is extreme); no two rays coincide.
    fn check_extreme(a: &Array2<f64>, w: &Array1<f64>, rays: &[Array1<f64>]) {
        let n = a.ncols();
        for v in rays {
            assert_abs_diff_eq!(w.dot(v), 1.0, epsilon = 1e-12);
            let vmax = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            let mut active = Vec::new();
            for row in a.rows() {
                let norm = row.iter().fold(0.0f64, |m, x| m.max(x.abs()));
                if norm == 0.0 {
                    continue;
                }
                let value = row.dot(v) / (norm * vmax);
                assert!(value >= -1e-9, "ray {v} violates row {row}: {value}");
                if value.abs() <= 1e-9 {
                    active.push(row.iter().map(|x| x / norm).collect());
                }
            }
            for (i, x) in v.iter().enumerate() {
                assert!(*x >= 0.0, "ray {v} is not in the orthant");
                if *x == 0.0 {
                    active.push(unit(n, i));
                }
            }
            assert_eq!(rank(active, 1e-9), n - 1, "ray {v} is not extreme");
        }
        for (i, x) in rays.iter().enumerate() {
            for y in &rays[i + 1..] {
                assert!(max_abs_diff(x.as_slice().unwrap(), y.as_slice().unwrap()) > 1e-9);
            }
        }
    }

    /// Same set of vectors, to `tol` in every coordinate.
    fn assert_same_set(got: &[Array1<f64>], want: &[Vec<f64>], tol: f64) {
        assert_eq!(
            got.len(),
            want.len(),
            "got {} rays, want {}:\n{got:?}\n{want:?}",
            got.len(),
            want.len()
        );
        for w in want {
            assert!(
                got.iter()
                    .any(|g| max_abs_diff(g.as_slice().unwrap(), w) < tol),
                "missing ray {w:?} in {got:?}"
            );
        }
    }

    /// Adds `v` to `set` unless it is already there (to 1e-9).
    fn push_unique(set: &mut Vec<Vec<f64>>, v: Vec<f64>) {
        if !set.iter().any(|u| max_abs_diff(u, &v) < 1e-9) {
            set.push(v);
        }
    }

    /// docs/theory.md §4 family Z: a set at E, one free coordinate at t in [0, E], the rest 0.
    fn box_vertices(p: &[f64], e: f64) -> Vec<Vec<f64>> {
        let n = p.len();
        let mut out = Vec::new();
        for f in 0..n {
            let others: Vec<usize> = (0..n).filter(|&x| x != f).collect();
            for mask in 0u32..(1 << (n - 1)) {
                let mut v = vec![0.0; n];
                let mut mass = 0.0;
                for (b, &x) in others.iter().enumerate() {
                    if mask & (1 << b) != 0 {
                        v[x] = e;
                        mass += p[x];
                    }
                }
                let t = (1.0 - e * mass) / p[f];
                if (-1e-12..=e + 1e-12).contains(&t) {
                    v[f] = t.clamp(0.0, e);
                    push_unique(&mut out, v);
                }
            }
        }
        out
    }

    /// The work budget and the deadline stop an enumeration with what they are
    /// (issue 13: a split enumeration ran for minutes), and a generous budget
    /// changes nothing.
    #[test]
    fn budget_and_deadline_stop_the_enumeration() {
        let p = [0.4, 0.3, 0.2, 0.1];
        let (a, w) = (known_prior_rows(&p, 1.5), Array1::from(p.to_vec()));
        let all = enumerate_extreme_rays(&a, &w);
        assert_eq!(extreme_rays(&a, &w, 1_000_000, None), Ok(all));
        let short = extreme_rays(&a, &w, 1, None).unwrap_err();
        assert_eq!(short.budget, Some(1));
        assert!(
            short
                .to_string()
                .starts_with("ray enumeration passed its budget")
        );
        let late = extreme_rays(&a, &w, u64::MAX, Some(Instant::now())).unwrap_err();
        assert_eq!(late.budget, None);
        assert!(late.to_string().starts_with("the time limit passed"));
    }

    /// Brute force: every (N-1)-subset of rows with rank N - 1 whose null direction
    /// (either sign) lies in the cone.
    fn brute_force(a: &Array2<f64>, w: &Array1<f64>) -> Vec<Vec<f64>> {
        let n = a.ncols();
        let mut rows: Vec<Vec<f64>> = unit_rows(n);
        rows.extend(a.rows().into_iter().map(|r| r.to_vec()));
        let mut out = Vec::new();
        let mut subset: Vec<usize> = (0..n - 1).collect();
        loop {
            let chosen: Vec<&Vec<f64>> = subset.iter().map(|&i| &rows[i]).collect();
            if let Nullity::Extreme(v) = null_vector(&chosen, n) {
                for sign in [1.0, -1.0] {
                    let v: Vec<f64> = v.iter().map(|x| x * sign).collect();
                    let vmax = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
                    let feasible = rows.iter().all(|r| {
                        let norm = r.iter().fold(0.0f64, |m, x| m.max(x.abs()));
                        r.iter().zip(&v).map(|(x, y)| x * y).sum::<f64>() >= -1e-10 * norm * vmax
                    });
                    if feasible {
                        let s: f64 = v.iter().zip(w).map(|(x, y)| x * y).sum();
                        let v = v.iter().map(|x| (x / s).max(0.0)).collect();
                        push_unique(&mut out, v);
                    }
                }
            }
            // Next subset in lexicographic order.
            let m = rows.len();
            let k = subset.len();
            let Some(i) = (0..k).rev().find(|&i| subset[i] < m - k + i) else {
                break;
            };
            subset[i] += 1;
            for j in i + 1..k {
                subset[j] = subset[j - 1] + 1;
            }
        }
        out
    }

    /// The tests' xorshift64* generator (std-only), shared with `pmldesign-model`'s tests.
    mod rng {
        include!("../../pmldesign-model/tests/common/rng.rs");
    }
    use rng::Rng;

    impl Rng {
        /// A uniform integer in lo..=hi, as f64.
        fn int(&mut self, lo: i64, hi: i64) -> f64 {
            (lo + self.below((hi - lo + 1) as usize) as i64) as f64
        }
    }

    #[test]
    fn orthant_gives_unit_rays() {
        for n in 1..=6 {
            let a = matrix(&unit_rows(n));
            let w = Array1::from_iter((1..=n).map(|i| i as f64));
            let rays = enumerate_extreme_rays(&a, &w);
            let want: Vec<Vec<f64>> = (0..n)
                .map(|i| unit(n, i).iter().map(|x| x / w[i]).collect())
                .collect();
            assert_same_set(&rays, &want, 1e-15);
            check_extreme(&a, &w, &rays);
        }
        // Even with no rows at all the orthant is imposed.
        let rays = enumerate_extreme_rays(&Array2::zeros((0, 3)), &array![1.0, 1.0, 1.0]);
        assert_eq!(rays.len(), 3);
    }

    #[test]
    fn known_prior_example_1_has_n_rays() {
        let p = [0.4, 0.2, 0.2, 0.2];
        let e = 9.0 / 8.0;
        let a = known_prior_rows(&p, e);
        let w = Array1::from(p.to_vec());
        let rays = enumerate_extreme_rays(&a, &w);
        let want: Vec<Vec<f64>> = (0..4)
            .map(|i| {
                let mut v = vec![e; 4];
                v[i] = (1.0 - e * (1.0 - p[i])) / p[i];
                v
            })
            .collect();
        assert_same_set(&rays, &want, 1e-12);
        check_extreme(&a, &w, &rays);
    }

    #[test]
    fn known_prior_matches_box_vertices() {
        let cases: [(&[f64], f64); 5] = [
            (&[0.5, 0.3, 0.15, 0.05], 2.0),
            (&[0.1, 0.2, 0.3, 0.25, 0.15], 3.0),
            (&[0.25, 0.25, 0.25, 0.25], 2.0),
            (&[0.3, 0.1, 0.2, 0.15, 0.05, 0.2], 1.7),
            (&[1.0 / 6.0; 6], 1.5),
        ];
        for (p, e) in cases {
            let a = known_prior_rows(p, e);
            let w = Array1::from(p.to_vec());
            let rays = enumerate_extreme_rays(&a, &w);
            assert_same_set(&rays, &box_vertices(p, e), 1e-9);
            check_extreme(&a, &w, &rays);
        }
    }

    #[test]
    fn square_pyramids_in_3d() {
        // c_1 <= c_3, c_2 <= c_3: the section c_3 = 1 is the unit square.
        let a = matrix(&[
            vec![1.0, 0.0, 0.0],
            vec![0.0, 1.0, 0.0],
            vec![0.0, 0.0, 1.0],
            vec![-1.0, 0.0, 1.0],
            vec![0.0, -1.0, 1.0],
        ]);
        let w = array![1.0, 1.0, 1.0];
        let rays = enumerate_extreme_rays(&a, &w);
        let third = 1.0 / 3.0;
        let want = vec![
            vec![0.0, 0.0, 1.0],
            vec![0.5, 0.0, 0.5],
            vec![0.0, 0.5, 0.5],
            vec![third, third, third],
        ];
        assert_same_set(&rays, &want, 1e-12);
        check_extreme(&a, &w, &rays);

        // The diamond |c_1 - c_3| + |c_2 - c_3| <= c_3: section c_3 = 1 has vertices
        // (1,0), (2,1), (1,2), (0,1); c_1 >= 0 and c_2 >= 0 touch it at two vertices
        // (degenerate), c_3 >= 0 is redundant.
        let a = matrix(&[
            vec![1.0, 0.0, 0.0],
            vec![0.0, 1.0, 0.0],
            vec![0.0, 0.0, 1.0],
            vec![1.0, 1.0, -1.0],
            vec![-1.0, -1.0, 3.0],
            vec![-1.0, 1.0, 1.0],
            vec![1.0, -1.0, 1.0],
        ]);
        let w = array![1.0, 1.0, 1.0];
        let rays = enumerate_extreme_rays(&a, &w);
        let want = vec![
            vec![0.5, 0.0, 0.5],
            vec![0.5, 0.25, 0.25],
            vec![0.25, 0.5, 0.25],
            vec![0.0, 0.5, 0.5],
        ];
        assert_same_set(&rays, &want, 1e-12);
        check_extreme(&a, &w, &rays);
    }

    #[test]
    fn degenerate_and_trivial_cones() {
        // c_1 <= 0 forces c_1 = 0: the face of the orthant, 2 rays.
        let a = matrix(&[vec![-1.0, 0.0, 0.0], vec![0.0, 0.0, 0.0]]);
        let rays = enumerate_extreme_rays(&a, &array![1.0, 1.0, 1.0]);
        assert_same_set(&rays, &[vec![0.0, 1.0, 0.0], vec![0.0, 0.0, 1.0]], 1e-15);
        // c_1 = c_2 = c_3 (cyclic inequalities): the single ray (1,1,1)/3.
        let a = matrix(&[
            vec![1.0, -1.0, 0.0],
            vec![0.0, 1.0, -1.0],
            vec![-1.0, 0.0, 1.0],
        ]);
        let w = array![1.0, 1.0, 1.0];
        let rays = enumerate_extreme_rays(&a, &w);
        assert_same_set(&rays, &[vec![1.0 / 3.0; 3]], 1e-15);
        check_extreme(&a, &w, &rays);
        // -(c_1 + c_2) >= 0 leaves only the origin.
        let a = matrix(&[vec![-1.0, -1.0]]);
        assert!(enumerate_extreme_rays(&a, &array![1.0, 1.0]).is_empty());
    }

    #[test]
    #[ignore]
    fn stress_random_degenerate() {
        let trials: u64 = std::env::var("TRIALS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(2000);
        let mut rng = Rng(0xdead_beef_1234_5678);
        let mut bad = 0;
        for trial in 0..trials {
            let n = 2 + (rng.next_u64() % 5) as usize;
            let kind = trial % 3;
            let mut rows: Vec<Vec<f64>> = Vec::new();
            if kind == 0 {
                let m = 1 + (rng.next_u64() % 10) as usize;
                for _ in 0..m {
                    rows.push((0..n).map(|_| rng.int(-3, 3)).collect());
                }
            } else {
                // e v - e_x rows with v random rational distributions and e at a threshold.
                let nv = 1 + (rng.next_u64() % 4) as usize;
                let vs: Vec<Vec<f64>> = (0..nv)
                    .map(|_| {
                        let w: Vec<f64> = (0..n).map(|_| rng.int(0, 4)).collect();
                        let s: f64 = w.iter().sum::<f64>().max(1.0);
                        w.iter().map(|x| x / s).collect()
                    })
                    .collect();
                let v0 = &vs[0];
                let mask = 1 + rng.next_u64() % ((1u64 << n) - 1);
                let sub: f64 = (0..n).filter(|x| mask >> x & 1 == 1).map(|x| v0[x]).sum();
                let e = if sub > 0.0 && sub < 1.0 {
                    1.0 / sub
                } else {
                    2.0
                };
                let e = if kind == 2 {
                    (-(sub.max(1e-3)).ln()).exp()
                } else {
                    e
                };
                for v in &vs {
                    for x in 0..n {
                        let mut a: Vec<f64> = v.iter().map(|q| e * q).collect();
                        a[x] -= 1.0;
                        rows.push(a.clone());
                        if rng.next_u64().is_multiple_of(4) {
                            rows.push(a.iter().map(|y| y * 0.1).collect());
                        }
                    }
                }
            }
            let a = matrix(&rows);
            let w = Array1::from_iter((0..n).map(|_| 0.5 + rng.unit()));
            let rays = enumerate_extreme_rays(&a, &w);
            let want = brute_force(&a, &w);
            let ok = rays.len() == want.len()
                && want.iter().all(|x| {
                    rays.iter()
                        .any(|g| max_abs_diff(g.as_slice().unwrap(), x) < 1e-8)
                });
            if !ok {
                bad += 1;
                eprintln!(
                    "trial {trial} kind {kind} n {n} rows {}: got {} want {}",
                    rows.len(),
                    rays.len(),
                    want.len()
                );
            }
        }
        eprintln!("random degenerate: {trials} trials, {bad} bad");
    }

    #[test]
    fn random_cones_match_brute_force() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for trial in 0..300 {
            let n = 2 + trial % 4;
            let m = 1 + (rng.next_u64() % 7) as usize;
            let integer = trial % 2 == 0;
            let rows: Vec<Vec<f64>> = (0..m)
                .map(|_| {
                    (0..n)
                        .map(|_| {
                            if integer {
                                rng.int(-2, 3)
                            } else {
                                rng.unit() * 2.0 - 0.7
                            }
                        })
                        .collect()
                })
                .collect();
            let a = matrix(&rows);
            let w = Array1::from_iter((0..n).map(|_| 0.5 + rng.unit()));
            let rays = enumerate_extreme_rays(&a, &w);
            assert_same_set(&rays, &brute_force(&a, &w), 1e-9);
            check_extreme(&a, &w, &rays);
        }
    }

    #[test]
    fn ball_cone_matches_theory_families() {
        // docs/theory.md §4: family Z without the members with no zero coordinate, plus family L.
        let cases: [(&[f64], f64, f64); 3] = [
            (&[0.4, 0.3, 0.2, 0.1], 2.0f64.ln(), 0.05),
            (&[0.25, 0.25, 0.25, 0.25], 1.0, 0.1),
            (&[0.3, 0.25, 0.2, 0.15, 0.1], 0.8, 0.08),
        ];
        for (p, eps, beta) in cases {
            let n = p.len();
            let h = beta / 2.0;
            let e = eps.exp() / (1.0 + h * eps.exp());
            let a = ball_rows(p, e, h);
            let w = Array1::from(p.to_vec());
            let rays = enumerate_extreme_rays(&a, &w);
            let mut want: Vec<Vec<f64>> = box_vertices(p, e)
                .into_iter()
                .filter(|v| v.contains(&0.0))
                .collect();
            for mask in 1u32..(1 << n) - 1 {
                let mass: f64 = (0..n).filter(|x| mask & (1 << x) != 0).map(|x| p[x]).sum();
                let m = (1.0 - e * mass) / (1.0 - mass + e * h * mass);
                if m > 0.0 {
                    let v = (0..n)
                        .map(|x| {
                            if mask & (1 << x) != 0 {
                                e * (1.0 + h * m)
                            } else {
                                m
                            }
                        })
                        .collect();
                    push_unique(&mut want, v);
                }
            }
            assert_same_set(&rays, &want, 1e-9);
            check_extreme(&a, &w, &rays);
        }
    }

    #[test]
    fn larger_cones_are_fast() {
        // N = 6 known prior (12 rows) and N = 8 ball (72 rows), plus a random N = 8
        // cone with 80 rows; timings are printed, correctness is checked.
        let p6 = [0.3, 0.1, 0.2, 0.15, 0.05, 0.2];
        let a = known_prior_rows(&p6, 2.0);
        let start = Instant::now();
        let rays = enumerate_extreme_rays(&a, &Array1::from(p6.to_vec()));
        eprintln!(
            "N=6 known prior: {} rays in {:?}",
            rays.len(),
            start.elapsed()
        );
        check_extreme(&a, &Array1::from(p6.to_vec()), &rays);

        let p8 = [0.2, 0.15, 0.15, 0.1, 0.1, 0.1, 0.1, 0.1];
        let (eps, h) = (1.0f64, 0.02);
        let e = eps.exp() / (1.0 + h * eps.exp());
        let a = ball_rows(&p8, e, h);
        let w = Array1::from(p8.to_vec());
        let start = Instant::now();
        let rays = enumerate_extreme_rays(&a, &w);
        eprintln!(
            "N=8 ball, {} rows: {} rays in {:?}",
            a.nrows(),
            rays.len(),
            start.elapsed()
        );
        check_extreme(&a, &w, &rays);

        let mut rng = Rng(42);
        let center: Vec<f64> = (0..8).map(|_| 0.5 + rng.unit()).collect();
        let rows: Vec<Vec<f64>> = (0..80)
            .map(|_| {
                // Half-spaces through the origin containing `center`: a cone with
                // many facets.
                let mut a: Vec<f64> = (0..8).map(|_| rng.unit() * 2.0 - 1.0).collect();
                let d: f64 = a.iter().zip(&center).map(|(x, y)| x * y).sum();
                if d < 0.0 {
                    a.iter_mut().for_each(|x| *x = -*x);
                }
                let shift = 0.3 * d.abs() / center.iter().sum::<f64>();
                a.iter_mut().for_each(|x| *x += shift);
                a
            })
            .collect();
        let a = matrix(&rows);
        let w = Array1::from(vec![1.0; 8]);
        let start = Instant::now();
        let rays = enumerate_extreme_rays(&a, &w);
        eprintln!(
            "N=8 random, 80 rows: {} rays in {:?}",
            rays.len(),
            start.elapsed()
        );
        check_extreme(&a, &w, &rays);
    }
}
