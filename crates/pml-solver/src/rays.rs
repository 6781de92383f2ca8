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

/// The structured families of THEORY 4 with `E = e^eps` (known prior) or
/// `E = e^eps'` (ball, [E] eq. 13):
///
/// - family Z: a set A at E, one free coordinate f at `t = (1 - E p(A)) / p_f` with
///   `0 < t < E`, the rest 0; or A at E alone when `E p(A) = 1`. For the ball only
///   members with a zero coordinate are kept.
/// - family L (ball): a nonempty proper subset S at `E (1 + beta/2 m)`, the rest at
///   `m = (1 - E p(S)) / (1 - p(S) + E beta/2 p(S)) > 0`.
///
/// Every produced vector is distinct, so no deduplication is needed.
pub fn structured(cone: &ColumnCone) -> Result<RaySet> {
    let (p, half_beta) = match cone {
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
    let e = cone.effective_exp_epsilon();
    let ball = half_beta > 0.0;
    let full: usize = (1 << n) - 1;
    // Subset masses p(A) for every A of [N], by the lowest set bit.
    let mut mass = vec![0.0f64; 1 << n];
    for a in 1..=full {
        let low = a.trailing_zeros() as usize;
        mass[a] = mass[a & (a - 1)] + p[low];
    }
    let mut out = RaySet::new(n);
    let mut v = Array1::<f64>::zeros(n);
    let fill = |v: &mut Array1<f64>, a: usize, on: f64, off: f64| {
        for x in 0..n {
            v[x] = if a >> x & 1 == 1 { on } else { off };
        }
    };
    for a in 0..=full {
        let r = 1.0 - e * mass[a];
        // Family Z, pure: A at E, nothing free.
        if r.abs() <= BOUND_TOL && a != 0 && !(ball && a == full) {
            fill(&mut v, a, e, 0.0);
            out.push(v.view());
        }
        // Family Z, one free coordinate f outside A with 0 < t < E.
        if r > BOUND_TOL {
            for f in 0..n {
                if a >> f & 1 == 1 || (ball && (a | 1 << f) == full) {
                    continue;
                }
                if r < e * p[f] - BOUND_TOL {
                    fill(&mut v, a, e, 0.0);
                    v[f] = r / p[f];
                    out.push(v.view());
                }
            }
        }
        // Family L (ball only).
        if ball && a != 0 && a != full {
            let m = r / (1.0 - mass[a] + e * half_beta * mass[a]);
            if m > BOUND_TOL {
                fill(&mut v, a, e * (1.0 + half_beta * m), m);
                out.push(v.view());
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
}
