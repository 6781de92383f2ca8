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
/// degenerate constraints reaches within seconds (a cone of six
/// coordinates at levels near 1e-11 grew to 15,000 rays and ran for minutes).
pub(crate) const WORK_BUDGET: u64 = 2_000_000_000;

/// Why [`extreme_rays`] stopped short: its work (pairs of rays on the two
/// sides of a constraint, times the words of the adjacency test) passed the
/// budget, or the deadline passed.
#[derive(Debug, Clone, PartialEq)]
pub struct Exhausted {
    /// The constraint at which it stopped.
    pub row: usize,
    /// How many constraints there are.
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
    let created = if pos.is_empty() {
        Vec::new()
    } else {
        created_rays(&rays, values, rows, k, n, (&pos, &neg))
    };

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

/// The rays of row k's hyperplane: each adjacent (positive, negative) pair of
/// `rays` combined, polished to the null vector of the rows both are zero on and
/// row k, with that zero set.
fn created_rays(
    rays: &[Ray],
    values: &[f64],
    rows: &[Vec<f64>],
    k: usize,
    n: usize,
    (pos, neg): (&[usize], &[usize]),
) -> Vec<Ray> {
    let a = &rows[k];
    let mut created: Vec<Ray> = Vec::new();
    let mut adjacency = Adjacency::new(rays, k);
    let min_common = n.saturating_sub(2) as u32;
    // Only rows 0..k are set so far: the words past k / 64 are zero.
    let used = k / 64 + 1;
    let mut common = vec![0u64; rays[0].zero.len()];
    for &p in pos {
        for &q in neg {
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
    created
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
pub enum Nullity {
    /// Rank n - 1: the unique null direction (up to sign).
    Extreme(Vec<f64>),
    /// Rank n: only the zero vector.
    Trivial,
    /// Rank below n - 1.
    Large,
}

/// Gauss-Jordan elimination with complete pivoting on the rows, each scaled to
/// max-abs 1; pivots below `RANK_TOL` count as zero.
pub fn null_vector(rows: &[&Vec<f64>], n: usize) -> Nullity {
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

/// The largest entrywise difference of two vectors.
pub fn max_abs_diff(x: &[f64], y: &[f64]) -> f64 {
    x.iter()
        .zip(y)
        .fold(0.0f64, |acc, (a, b)| acc.max((a - b).abs()))
}

/// The `i`-th unit vector of length `n`.
pub fn unit(n: usize, i: usize) -> Vec<f64> {
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
