//! Tests of `cones::rays`.

use pmldesign_model::{ColumnCone, Prior, UncertaintySet};
use pmldesign_solver::internals::cones::rays::*;

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
