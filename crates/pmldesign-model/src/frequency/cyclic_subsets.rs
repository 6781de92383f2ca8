//! Cyclic subset designs: k-subset selection's error with `orbits x k` outputs
//! instead of `C(k, d)` (docs/theory.md §13, "Cyclic subset designs").
//!
//! The blocks are the translates `D_m + j (mod k)` of a few base blocks `D_m`
//! of size d, and input x releases block S with `W(S|x) = (1 + a [x in S]) / Z`,
//! `Z = orbits (k + a d)`: every input lies in `orbits d` blocks, so the rows
//! sum to 1 and the LDP level is `ln(1 + a)`, as for k-subset selection. Two
//! inputs x, y share as many blocks as the base blocks have differences
//! `y - x`; where every nonzero difference occurs equally often (a difference
//! family) the design is a 2-design and, under the uniform prior, has the
//! Fisher information of k-subset selection. The base blocks are found by a
//! deterministic local search that evens out the differences; unequal weights
//! on the orbits ([`weighted_cyclic_subsets`]) can even out what it leaves
//! (the solver finds them by LP).

use crate::{Mechanism, ModelError, Result};

/// Moves of the local search per base-block element, at most.
const MOVES_PER_ELEMENT: usize = 400;

/// Work (moves times block size) of the local search, at most.
const SEARCH_WORK: usize = 20_000_000;

/// `orbits` base blocks of size `d` in `Z_k` whose differences are as even as
/// a deterministic local search makes them (module docs).
pub fn balanced_base_blocks(k: usize, d: usize, orbits: usize) -> Vec<Vec<usize>> {
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |bound: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % bound as u64) as usize
    };
    let mut blocks: Vec<Vec<usize>> = (0..orbits)
        .map(|m| {
            (0..d)
                .map(|i| (i * (m + 1) * 7 + m) % k)
                .collect::<Vec<_>>()
        })
        .map(|b| distinct(b, k))
        .collect();
    let mut count = vec![0i64; k];
    for b in &blocks {
        for &x in b {
            for &y in b {
                if x != y {
                    count[(y + k - x) % k] += 1;
                }
            }
        }
    }
    let moves = (MOVES_PER_ELEMENT * orbits * d).min(SEARCH_WORK / d.max(1));
    for _ in 0..moves {
        let (m, i, new) = (next(orbits), next(d), next(k));
        if blocks[m].contains(&new) {
            continue;
        }
        let old = blocks[m][i];
        let change = |count: &mut [i64], x: usize, sign: i64, block: &[usize]| {
            let mut delta = 0i64;
            for (j, &y) in block.iter().enumerate() {
                if j == i {
                    continue;
                }
                for diff in [(y + k - x) % k, (x + k - y) % k] {
                    // (c + s)^2 - c^2 = 2 s c + 1
                    delta += 2 * sign * count[diff] + 1;
                    count[diff] += sign;
                }
            }
            delta
        };
        let removed = change(&mut count, old, -1, &blocks[m]);
        let added = change(&mut count, new, 1, &blocks[m]);
        if removed + added > 0 {
            change(&mut count, new, -1, &blocks[m]);
            change(&mut count, old, 1, &blocks[m]);
        } else {
            blocks[m][i] = new;
        }
    }
    for b in &mut blocks {
        b.sort_unstable();
    }
    blocks
}

/// `block` with repeated elements replaced by the next free ones (mod k).
fn distinct(mut block: Vec<usize>, k: usize) -> Vec<usize> {
    let mut seen = vec![false; k];
    for x in &mut block {
        while seen[*x] {
            *x = (*x + 1) % k;
        }
        seen[*x] = true;
    }
    block
}

/// The cyclic subset design over `k` inputs with blocks of size `d` in
/// `orbits` orbits at boost `a > 0` (module docs), the orbits weighted alike.
pub fn cyclic_subsets(k: usize, d: usize, a: f64, orbits: usize) -> Result<Mechanism> {
    if orbits == 0 {
        return Err(refused(k, d, a, orbits));
    }
    let blocks = balanced_base_blocks(k, d, orbits);
    weighted_cyclic_subsets(k, a, &blocks, &vec![1.0 / orbits as f64; orbits])
}

/// The cyclic design of the base `blocks` (each of the same size d) at boost
/// `a > 0`, the translates of block m taking `weights[m]` of every row
/// (weights nonnegative, summing to 1): `W(D_m + j | x) = weights[m] (1 + a
/// [x in D_m + j]) / (k + a d)`. Two inputs whose difference is `delta` share
/// `sum_m weights[m] N_m(delta)` of the blocks' weight ([`difference_counts`]),
/// so weights that even these out make a weighted 2-design.
pub fn weighted_cyclic_subsets(
    k: usize,
    a: f64,
    blocks: &[Vec<usize>],
    weights: &[f64],
) -> Result<Mechanism> {
    let d = blocks.first().map_or(0, Vec::len);
    let orbits = blocks.len();
    let fits = |b: &Vec<usize>| b.len() == d && b.iter().all(|&x| x < k);
    let weighed = weights.len() == orbits
        && weights.iter().all(|w| w.is_finite() && *w >= 0.0)
        && (weights.iter().sum::<f64>() - 1.0).abs() <= 1e-12;
    if k < 2
        || d == 0
        || d >= k
        || !(a.is_finite() && a > 0.0)
        || !blocks.iter().all(fits)
        || !weighed
    {
        return Err(refused(k, d, a, orbits));
    }
    let z = k as f64 + a * d as f64;
    let used: Vec<usize> = (0..orbits).filter(|&m| weights[m] > 0.0).collect();
    let mut rows = vec![vec![0.0; k * used.len()]; k];
    for (slot, &m) in used.iter().enumerate() {
        for row in &mut rows {
            row[slot * k..(slot + 1) * k].fill(weights[m] / z);
        }
        for j in 0..k {
            for &x in &blocks[m] {
                rows[(x + j) % k][slot * k + j] = weights[m] * (1.0 + a) / z;
            }
        }
    }
    Mechanism::from_rows(rows)
}

/// `N(delta)` for `delta = 1, ..., k / 2`: the ordered pairs (u, v) of `block`
/// with `v - u = delta (mod k)`, which is how many translates of the block
/// hold both x and x + delta, for every x.
pub fn difference_counts(k: usize, block: &[usize]) -> Vec<f64> {
    let mut n = vec![0.0; k / 2];
    for &u in block {
        for &v in block {
            let delta = (v + k - u) % k;
            if (1..=k / 2).contains(&delta) {
                n[delta - 1] += 1.0;
            }
        }
    }
    n
}

fn refused(k: usize, d: usize, a: f64, orbits: usize) -> ModelError {
    ModelError::invalid(
        "cyclic subsets",
        format!("k = {k}, d = {d}, a = {a}, orbits = {orbits}"),
        "needs 1 <= d < k, at least one orbit of blocks of size d below k, weights summing to 1 and a finite boost a > 0",
        "pass a block size below the number of inputs",
    )
}
