//! Tests of the double-description enumerator: known cones, degenerate cases and
//! agreement with the structured families.

use approx::assert_abs_diff_eq;
use ndarray::{Array1, Array2, array};
use pmldesign_solver::internals::cones::double_description::*;
use rng::Rng;
use std::time::Instant;

/// The enumeration without a budget.
fn enumerate_extreme_rays(a: &Array2<f64>, w: &Array1<f64>) -> Vec<Array1<f64>> {
    extreme_rays(a, w, u64::MAX, None).unwrap()
}

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
        let Some(p) = (r..m.len()).max_by(|&i, &j| m[i][c].abs().total_cmp(&m[j][c].abs())) else {
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
/// (a split enumeration ran for minutes), and a generous budget
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
    include!("../../../pmldesign-model/tests/common/rng.rs");
}

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
