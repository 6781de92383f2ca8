//! Extreme rays of the column cones (docs/theory.md §4), normalised by `r . v = 1` with r the
//! cone's normaliser (the prior or the estimate).
//!
//! Structured families for the known prior and the l1 ball; the generic double
//! description enumerator ([`crate::cones::double_description`]) for every other cone.

use crate::error::{Result, SolverError};
use crate::limits::{MAX_GENERIC_N, MAX_STRUCTURED_N};
use crate::objective::utility::Block;
use ndarray::{Array1, ArrayView1};
use pmldesign_model::ColumnCone;
use std::time::Instant;

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

/// Enumerates the extreme rays of `cone`: structured families for the PML cones of
/// the known prior and the ball and for the notion cones where one exists
/// (the `notion_rays` module), the generic enumerator otherwise.
pub fn enumerate(cone: &ColumnCone) -> Result<RaySet> {
    enumerate_until(cone, None)
}

/// [`enumerate`], stopped with [`SolverError::Stopped`] when `deadline`
/// passes during a generic enumeration (or its work budget runs out).
pub fn enumerate_until(cone: &ColumnCone, deadline: Option<Instant>) -> Result<RaySet> {
    match cone {
        ColumnCone::PmlKnownPrior { .. } | ColumnCone::PmlL1Ball { .. } => structured(cone),
        _ => {
            crate::cones::notions::structured(cone).unwrap_or_else(|| generic_until(cone, deadline))
        }
    }
}

/// The generic exact enumeration (double description) of any cone.
pub fn generic_rays(cone: &ColumnCone) -> Result<RaySet> {
    generic_until(cone, None)
}

/// [`generic_rays`] within the work budget of [`crate::cones::double_description::WORK_BUDGET`] and
/// `deadline`.
fn generic_until(cone: &ColumnCone, deadline: Option<Instant>) -> Result<RaySet> {
    let n = cone.dimension();
    if n > MAX_GENERIC_N {
        return Err(SolverError::AlphabetTooLarge {
            n,
            limit: MAX_GENERIC_N,
            method: "generic double description",
        });
    }
    let (a, w) = (cone.inequalities(), cone.normaliser());
    let rays = crate::cones::double_description::extreme_rays(
        &a,
        &w,
        crate::cones::double_description::WORK_BUDGET,
        deadline,
    )
    .map_err(|e| SolverError::Stopped {
        by: if e.budget.is_some() {
            "the ray enumeration's work budget"
        } else {
            "time_limit"
        },
        detail: format!("{e} (N = {n})"),
        fix: if e.budget.is_some() {
            "use a smaller alphabet or levels of at least 1e-3"
        } else {
            "give a longer time limit"
        },
    })?;
    Ok(RaySet::from_vectors(n, &rays))
}

/// A structured extreme ray: `top` on the inputs of mask `a`, `level` on mask `l`,
/// 0 elsewhere (docs/theory.md §4).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LevelRay {
    /// Inputs at the maximum.
    pub a: usize,
    /// Inputs at the intermediate level.
    pub l: usize,
    /// The maximum M.
    pub top: f64,
    /// The level (0 when `l` is empty).
    pub level: f64,
}

/// The structured families of docs/theory.md §4, for the known prior and for the l1 ball of
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
/// `E = e^eps'` (members with a zero coordinate) and family L of \[E\] Prop 2.
/// Every ray is produced once. Rays are generated on demand (grouped by A), so
/// pricing can stream them without storing them.
#[derive(Debug, Clone)]
pub struct StructuredFamily {
    n: usize,
    e: f64,
    b: f64,
    /// `p(S)` for every subset S (bit mask).
    mass: Vec<f64>,
    /// `max_{x in S} p_x` for every subset S.
    max_mass: Vec<f64>,
}

impl StructuredFamily {
    /// The family of the known-prior or l1-ball PML cone.
    pub fn new(cone: &ColumnCone) -> Result<Self> {
        let (p, b) = match cone {
            ColumnCone::PmlKnownPrior { prior, .. } => (prior.masses().to_owned(), 0.0),
            ColumnCone::PmlL1Ball { center, beta, .. } => (center.masses().to_owned(), beta / 2.0),
            _ => {
                return Err(SolverError::Lp(
                    "structured enumeration applies to the known-prior and l1-ball PML cones"
                        .into(),
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
        let full: usize = (1 << n) - 1;
        let mut mass = vec![0.0f64; 1 << n];
        let mut max_mass = vec![0.0f64; 1 << n];
        for s in 1..=full {
            let low = s.trailing_zeros() as usize;
            mass[s] = mass[s & (s - 1)] + p[low];
            max_mass[s] = max_mass[s & (s - 1)].max(p[low]);
        }
        Ok(StructuredFamily {
            n,
            e: cone.epsilon().exp(),
            b,
            mass,
            max_mass,
        })
    }

    /// Dimension N.
    pub fn dimension(&self) -> usize {
        self.n
    }

    /// All nonempty sets A, the groups in which rays are generated.
    pub fn groups(&self) -> std::ops::Range<usize> {
        1..1usize << self.n
    }

    /// `p(S)` and `max_{x in S} p_x`.
    pub fn mass(&self, s: usize) -> (f64, f64) {
        (self.mass[s], self.max_mass[s])
    }

    /// Calls `emit` for every ray whose maximum sits on exactly the inputs `a`.
    pub fn rays_with_top(&self, a: usize, emit: &mut impl FnMut(LevelRay)) {
        let (n, e, b) = (self.n, self.e, self.b);
        let full: usize = (1 << n) - 1;
        let pa = self.mass[a];
        let da = b.min(pa);
        let rest = full ^ a;
        if rest == 0 {
            // The constant column: extreme only when it is the whole cone (E = 1).
            if (e - 1.0).abs() <= BOUND_TOL {
                emit(LevelRay {
                    a,
                    l: 0,
                    top: 1.0,
                    level: 0.0,
                });
            }
            return;
        }
        // Z empty: L = rest holds the least value (a level > 0); tied recipients
        // when b > 0, a single free coordinate otherwise.
        if b > 0.0 || rest.count_ones() == 1 {
            let pl = self.mass[rest];
            let top = e * (pl + da) / (pl + e * da);
            // L of mass 0 (categories never observed, at the centre of a ball):
            // the normalisation leaves its level to the leakage bound, the
            // limit of the general formula (A holds all the mass, top = 1).
            let level = if pl > 0.0 {
                (1.0 - top * pa) / pl
            } else {
                (1.0 - e + e * da) / (e * da)
            };
            if level > BOUND_TOL * top && level < top * (1.0 - BOUND_TOL) {
                emit(LevelRay {
                    a,
                    l: rest,
                    top,
                    level,
                });
            }
        }
        // Z nonempty, L empty: A alone at M = 1 / p(A). With two or more members
        // the leakage bound must be tight, M = E g(c); a single coordinate is
        // pinned by its N - 1 zeros and needs only M <= E g(c).
        let slack = e * (pa - da) - 1.0;
        if slack.abs() <= BOUND_TOL || (a.count_ones() == 1 && slack > 0.0) {
            emit(LevelRay {
                a,
                l: 0,
                top: 1.0 / pa,
                level: 0.0,
            });
        }
        // Z nonempty, L nonempty: L a single coordinate, or the marginal donors.
        let alpha = 1.0 - e * (pa - da);
        let mut try_level = |l: usize| {
            let pl = self.mass[l];
            let dl = (b - pa).max(0.0).min(pl);
            let gamma = e * (pl - dl);
            if gamma <= 0.0 {
                return;
            }
            let ratio = alpha / gamma;
            if ratio > BOUND_TOL && ratio < 1.0 - BOUND_TOL {
                let top = 1.0 / (pa + pl * ratio);
                emit(LevelRay {
                    a,
                    l,
                    top,
                    level: top * ratio,
                });
            }
        };
        // A level needs 0 < alpha < gamma <= E p(L): nothing when alpha <= 0, and
        // for a single coordinate nothing unless some p_f > alpha / E.
        if alpha <= BOUND_TOL {
            return;
        }
        let mut bits = if self.max_mass[rest] * e > alpha {
            rest
        } else {
            0
        };
        while bits != 0 {
            let l = bits & bits.wrapping_neg();
            bits ^= l;
            if rest != l {
                try_level(l);
            }
        }
        if pa < b * (1.0 - BOUND_TOL) {
            // Submasks of rest with at least two members, leaving Z nonempty.
            let mut l = (rest - 1) & rest;
            while l > 0 {
                if l.count_ones() >= 2 && b - pa < self.mass[l] * (1.0 - BOUND_TOL) {
                    try_level(l);
                }
                l = (l - 1) & rest;
            }
        }
    }

    /// The ray as a vector.
    pub fn vector(&self, r: &LevelRay) -> Array1<f64> {
        Array1::from_iter((0..self.n).map(|x| {
            if r.a >> x & 1 == 1 {
                r.top
            } else if r.l >> x & 1 == 1 {
                r.level
            } else {
                0.0
            }
        }))
    }

    /// The ray's blocks (A, L, Z) for [`Utility::column_value_on_blocks`].
    pub fn blocks(&self, r: &LevelRay) -> [Block; 3] {
        let full: usize = (1 << self.n) - 1;
        let z = full ^ r.a ^ r.l;
        let block = |s: usize, value: f64| Block {
            mass: self.mass[s],
            max_mass: self.max_mass[s],
            value,
        };
        [block(r.a, r.top), block(r.l, r.level), block(z, 0.0)]
    }
}

/// Every ray of the structured families, materialised.
pub fn structured(cone: &ColumnCone) -> Result<RaySet> {
    let family = StructuredFamily::new(cone)?;
    let mut out = RaySet::new(family.dimension());
    for a in family.groups() {
        family.rays_with_top(a, &mut |r| out.push(family.vector(&r).view()));
    }
    Ok(out)
}
