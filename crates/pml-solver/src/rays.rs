//! Extreme rays of the column cones (THEORY 4), normalised by `r . v = 1` with r the
//! cone's normaliser (the prior or the estimate).
//!
//! Structured families for the known prior and the l1 ball; the generic double
//! description enumerator ([`crate::generic`]) for every other cone.

use crate::error::{Result, SolverError};
use crate::generic;
use ndarray::{Array1, ArrayView1};
use pml_model::ColumnCone;

/// Largest alphabet for the structured enumeration (about `N 2^(N-1)` rays).
pub const MAX_STRUCTURED_N: usize = 20;
/// Largest alphabet for the generic double-description enumeration.
pub const MAX_GENERIC_N: usize = 12;

/// Tolerance on `1 - E p(A)` deciding whether a free coordinate is at a bound.
const BOUND_TOL: f64 = 1e-12;

/// A set of extreme rays stored row-major: ray k is `data[k N .. (k+1) N]`.
#[derive(Debug, Clone, PartialEq)]
pub struct RaySet {
    dimension: usize,
    data: Vec<f64>,
}

impl RaySet {
    /// An empty set of rays in dimension N.
    pub fn new(dimension: usize) -> Self {
        RaySet {
            dimension,
            data: Vec::new(),
        }
    }

    /// Builds a set from vectors of length N.
    pub fn from_vectors(dimension: usize, rays: &[Array1<f64>]) -> Self {
        let mut s = RaySet::new(dimension);
        for r in rays {
            s.push(r.view());
        }
        s
    }

    /// Appends a ray.
    pub fn push(&mut self, ray: ArrayView1<f64>) {
        assert_eq!(ray.len(), self.dimension);
        self.data.extend(ray.iter());
    }

    /// Dimension N.
    pub fn dimension(&self) -> usize {
        self.dimension
    }

    /// Number of rays.
    pub fn len(&self) -> usize {
        self.data.len() / self.dimension.max(1)
    }

    /// True when there are no rays.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Ray k.
    pub fn ray(&self, k: usize) -> ArrayView1<'_, f64> {
        ArrayView1::from(&self.data[k * self.dimension..(k + 1) * self.dimension])
    }

    /// Iterates the rays.
    pub fn iter(&self) -> impl Iterator<Item = ArrayView1<'_, f64>> {
        self.data.chunks_exact(self.dimension).map(ArrayView1::from)
    }

    /// The rays as owned vectors.
    pub fn to_vectors(&self) -> Vec<Array1<f64>> {
        self.iter().map(|r| r.to_owned()).collect()
    }
}

/// Enumerates the extreme rays of `cone`: structured families for the known prior
/// and the ball, the generic enumerator otherwise.
pub fn enumerate(cone: &ColumnCone) -> Result<RaySet> {
    match cone {
        ColumnCone::PmlKnownPrior { .. } | ColumnCone::PmlL1Ball { .. } => structured(cone),
        _ => generic_rays(cone),
    }
}

/// The generic exact enumeration (double description) of any cone.
pub fn generic_rays(cone: &ColumnCone) -> Result<RaySet> {
    let n = cone.dimension();
    if n > MAX_GENERIC_N {
        return Err(SolverError::AlphabetTooLarge {
            n,
            limit: MAX_GENERIC_N,
            method: "generic double description",
        });
    }
    let rays = generic::enumerate_extreme_rays(&cone.inequalities(), &cone.normaliser());
    Ok(RaySet::from_vectors(n, &rays))
}

/// The structured families of THEORY 4, for the known prior and for the l1 ball of
/// any radius. An extreme ray takes at most three values: 0 on a set Z, a level
/// `l` on a set L and the maximum `M` on a nonempty set A, with `M = e^eps g(c)`
/// where `g(c) = min_Q Q . c` over the uncertainty set (the greedy transfer of
/// budget `b = beta/2` from A, then L, onto a coordinate of least value) and
/// `p . c = 1`. Tight constraints pin one free level only when L is a single
/// coordinate, or when L is tied by alternative greedy optima: the recipients
/// (Z empty, `b > 0`), or the marginal donors (`p(A) < b < p(A) + p(L)`). A single
/// nonzero coordinate is a ray whenever it is feasible.
///
/// For `b = 0` this is family Z; for `beta < 2 min p` it is family Z with
/// `E = e^eps'` (members with a zero coordinate) and family L of [E] Prop 2.
/// Every produced vector is distinct, so no deduplication is needed.
pub fn structured(cone: &ColumnCone) -> Result<RaySet> {
    let (p, b) = match cone {
        ColumnCone::PmlKnownPrior { prior, .. } => (prior.masses().to_owned(), 0.0),
        ColumnCone::PmlL1Ball { center, beta, .. } => (center.masses().to_owned(), beta / 2.0),
        _ => {
            return Err(SolverError::Lp(
                "structured enumeration applies to the known-prior and l1-ball PML cones".into(),
            ));
        }
    };
    let n = p.len();
    if n > MAX_STRUCTURED_N {
        return Err(SolverError::AlphabetTooLarge {
            n,
            limit: MAX_STRUCTURED_N,
            method: "structured extreme rays",
        });
    }
    let e = cone.epsilon().exp();
    let full: usize = (1 << n) - 1;
    // Subset masses p(S) for every S of [N], by the lowest set bit.
    let mut mass = vec![0.0f64; 1 << n];
    for a in 1..=full {
        let low = a.trailing_zeros() as usize;
        mass[a] = mass[a & (a - 1)] + p[low];
    }
    let mut out = RaySet::new(n);
    let mut v = Array1::<f64>::zeros(n);
    let mut emit = |a: usize, l: usize, top: f64, level: f64| {
        for x in 0..n {
            v[x] = if a >> x & 1 == 1 {
                top
            } else if l >> x & 1 == 1 {
                level
            } else {
                0.0
            };
        }
        out.push(v.view());
    };
    for a in 1..=full {
        let pa = mass[a];
        let da = b.min(pa);
        let rest = full ^ a;
        if rest == 0 {
            // The constant column: extreme only when it is the whole cone (E = 1).
            if (e - 1.0).abs() <= BOUND_TOL {
                emit(a, 0, 1.0, 0.0);
            }
            continue;
        }
        // Z empty: L = rest holds the least value (a level > 0); tied recipients
        // when b > 0, a single free coordinate otherwise.
        if b > 0.0 || rest.count_ones() == 1 {
            let pl = mass[rest];
            let top = e * (pl + da) / (pl + e * da);
            let level = (1.0 - top * pa) / pl;
            if level > BOUND_TOL * top && level < top * (1.0 - BOUND_TOL) {
                emit(a, rest, top, level);
            }
        }
        // Z nonempty, L empty: A alone at M = 1 / p(A). With two or more members
        // the leakage bound must be tight, M = E g(c); a single coordinate is
        // pinned by its N - 1 zeros and needs only M <= E g(c).
        let slack = e * (pa - da) - 1.0;
        if slack.abs() <= BOUND_TOL || (a.count_ones() == 1 && slack > 0.0) {
            emit(a, 0, 1.0 / pa, 0.0);
        }
        // Z nonempty, L nonempty: L a single coordinate, or the marginal donors.
        let mut try_level = |l: usize| {
            let pl = mass[l];
            let dl = (b - pa).max(0.0).min(pl);
            let alpha = 1.0 - e * (pa - da);
            let gamma = e * (pl - dl);
            if gamma <= 0.0 {
                return;
            }
            let ratio = alpha / gamma;
            if ratio > BOUND_TOL && ratio < 1.0 - BOUND_TOL {
                let top = 1.0 / (pa + pl * ratio);
                emit(a, l, top, top * ratio);
            }
        };
        for f in 0..n {
            let l = 1 << f;
            if rest & l != 0 && rest != l {
                try_level(l);
            }
        }
        if pa < b * (1.0 - BOUND_TOL) {
            // Submasks of rest with at least two members, leaving Z nonempty.
            let mut l = (rest - 1) & rest;
            while l > 0 {
                if l.count_ones() >= 2 && b - pa < mass[l] * (1.0 - BOUND_TOL) {
                    try_level(l);
                }
                l = (l - 1) & rest;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pml_model::{Prior, UncertaintySet};

    #[test]
    fn region_one_has_n_rays() {
        let p = Prior::new(vec![0.4, 0.2, 0.2, 0.2]).unwrap();
        let cone = ColumnCone::pml(&UncertaintySet::known(p.clone()), (9.0f64 / 8.0).ln()).unwrap();
        let rays = structured(&cone).unwrap();
        assert_eq!(rays.len(), 4);
        for r in rays.iter() {
            assert!((p.dot(r) - 1.0).abs() < 1e-14);
            assert!(cone.violation(r) < 1e-12);
        }
    }

    fn same_sets(a: &RaySet, b: &RaySet) -> bool {
        a.len() == b.len()
            && a.iter().all(|r| {
                b.iter()
                    .any(|q| r.iter().zip(q.iter()).all(|(x, y)| (x - y).abs() <= 1e-8))
            })
    }

    #[test]
    fn ball_of_any_radius_matches_generic_enumeration() {
        // Deterministic pseudo-random instances (xorshift), including radii far
        // beyond Proposition 2 (beta >= 2 min p).
        let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        for case in 0..150 {
            let n = 2 + case % 5;
            let w: Vec<f64> = (0..n).map(|_| 0.05 + next()).collect();
            let p = Prior::normalised(w).unwrap();
            let beta = match case % 3 {
                0 => 2.0 * p.min_mass() * next(),
                1 => 2.0 * p.min_mass() * (1.0 + 2.0 * next()),
                _ => 2.0 * next(),
            };
            let eps = 3.0 * next();
            let set = UncertaintySet::l1_ball(p.clone(), beta).unwrap();
            let cone = ColumnCone::pml(&set, eps).unwrap();
            let fast = structured(&cone).unwrap();
            let slow = generic_rays(&cone).unwrap();
            assert!(
                same_sets(&fast, &slow),
                "case {case}: p={:?} beta={beta} eps={eps}\nstructured {:?}\ngeneric {:?}",
                p.masses(),
                fast.to_vectors(),
                slow.to_vectors()
            );
            for r in fast.iter() {
                let worst = set.column_worst_case_pml(r).unwrap();
                assert!(
                    worst <= eps + 1e-9,
                    "case {case}: ray leaks {worst} > {eps}"
                );
            }
        }
    }
}
