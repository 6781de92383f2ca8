//! Tests of `measures::assessment`.

use approx::assert_abs_diff_eq;
use pmldesign_model::measures::assessment::*;
use pmldesign_model::measures::{self, *};
use pmldesign_model::mechanism::Mechanism;
use pmldesign_model::prior::Prior;
use pmldesign_model::uncertainty::UncertaintySet;
use proptest::prelude::*;
use rng::Rng;

/// The tests' xorshift64* generator, shared with the integration tests.
mod rng {
    include!("../../tests/common/rng.rs");
}

fn random_prior(rng: &mut Rng, n: usize) -> Prior {
    Prior::normalised(rng.prior_weights(n)).unwrap()
}

/// A random N x M mechanism; with `zeros`, every column gets at least one zero.
/// (With zeros, M is raised to 2 so that no row is all zero.)
fn random_mechanism(rng: &mut Rng, n: usize, m: usize, zeros: bool) -> Mechanism {
    let m = if zeros { m.max(2) } else { m };
    loop {
        let mut rows: Vec<Vec<f64>> = (0..n)
            .map(|_| {
                (0..m)
                    .map(|_| {
                        let u = rng.unit();
                        if !zeros && rng.below(4) == 0 {
                            u * u * u
                        } else {
                            u
                        }
                    })
                    .collect()
            })
            .collect();
        if zeros {
            let at: Vec<usize> = (0..m).map(|_| rng.below(n)).collect();
            for (y, x) in at.into_iter().enumerate() {
                rows[x][y] = 0.0;
            }
        }
        if rows.iter().any(|r| r.iter().sum::<f64>() <= 0.0) {
            continue;
        }
        for r in &mut rows {
            let s: f64 = r.iter().sum();
            r.iter_mut().for_each(|v| *v /= s);
        }
        if let Ok(w) = Mechanism::from_rows(rows) {
            return w;
        }
    }
}

/// The extremal first-region mechanism (`docs/theory.md` §5, \[15\] Example 1):
/// `W[i][i] = 1 - e^eps (1 - p_i)`, `W[i][j] = e^eps p_j`.
fn extremal_region1(p: &Prior, eps: f64) -> Mechanism {
    let e = eps.exp();
    let m = p.masses();
    let n = p.len();
    let rows = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    if i == j {
                        1.0 - e * (1.0 - m[i])
                    } else {
                        e * m[j]
                    }
                })
                .collect::<Vec<_>>()
        })
        .collect();
    Mechanism::from_rows(rows).unwrap()
}

fn randomized_response(n: usize, e_r: f64) -> Mechanism {
    let d = e_r.exp() / (e_r.exp() + n as f64 - 1.0);
    let o = 1.0 / (e_r.exp() + n as f64 - 1.0);
    Mechanism::from_rows(
        (0..n)
            .map(|i| (0..n).map(|j| if i == j { d } else { o }).collect())
            .collect(),
    )
    .unwrap()
}

fn example1() -> (Mechanism, Prior) {
    let w = Mechanism::from_rows(vec![
        vec![0.325, 0.225, 0.225, 0.225],
        vec![0.45, 0.1, 0.225, 0.225],
        vec![0.45, 0.225, 0.1, 0.225],
        vec![0.45, 0.225, 0.225, 0.1],
    ])
    .unwrap();
    (w, Prior::new(vec![0.4, 0.2, 0.2, 0.2]).unwrap())
}

fn rel_close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

#[test]
fn ldp_parameter_of_randomized_response_is_e_r() {
    for n in 2..7 {
        for e_r in [0.0, 0.1, 0.5, 1.0, 3.0] {
            let w = randomized_response(n, e_r);
            assert_abs_diff_eq!(ldp_parameter(&w), e_r, epsilon = 1e-12);
            // Maximal leakage of RR: ln(N e^e_r / (e^e_r + N - 1)).
            let ml = (n as f64 * e_r.exp() / (e_r.exp() + n as f64 - 1.0)).ln();
            assert_abs_diff_eq!(maximal_leakage(&w), ml, epsilon = 1e-12);
        }
    }
    assert!(ldp_parameter(&Mechanism::identity(3)).is_infinite());
    assert_abs_diff_eq!(
        maximal_leakage(&Mechanism::identity(5)),
        5f64.ln(),
        epsilon = 1e-15
    );
    // Columns of zeros are ignored; a constant mechanism leaks nothing.
    let w = Mechanism::from_rows(vec![vec![0.3, 0.0, 0.7], vec![0.6, 0.0, 0.4]]).unwrap();
    assert_abs_diff_eq!(ldp_parameter(&w), 2f64.ln(), epsilon = 1e-15);
    let c = Mechanism::from_rows(vec![vec![0.5, 0.5], vec![0.5, 0.5]]).unwrap();
    assert_eq!(ldp_parameter(&c), 0.0);
    assert_eq!(maximal_leakage(&c), 0.0);
    // Example 1: the largest column ratio is 0.225 / 0.1.
    assert_abs_diff_eq!(ldp_parameter(&example1().0), 2.25f64.ln(), epsilon = 1e-15);
}

#[test]
fn tail_curve_of_identity() {
    let p = Prior::new(vec![0.5, 0.3, 0.2]).unwrap();
    let t = tail_curve(&Mechanism::identity(3), &p);
    let expect = [
        (2f64.ln(), 0.5),
        ((10.0f64 / 3.0).ln(), 0.2),
        (5f64.ln(), 0.0),
    ];
    assert_eq!(t.len(), 3);
    for ((e, d), (e0, d0)) in t.iter().zip(expect) {
        assert_abs_diff_eq!(*e, e0, epsilon = 1e-15);
        assert_abs_diff_eq!(*d, d0, epsilon = 1e-15);
    }
    // Example 1: every outcome leaks ln(9/8), one step to delta = 0.
    let (w, p) = example1();
    let t = tail_curve(&w, &p);
    assert_eq!(t.len(), 1);
    assert_abs_diff_eq!(t[0].0, (9.0f64 / 8.0).ln(), epsilon = 1e-12);
    assert_eq!(t[0].1, 0.0);
}

#[test]
fn tail_curve_sanity_random() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..500 {
        let n = 2 + rng.below(5);
        let m = 1 + rng.below(7);
        let zeros = rng.below(2) == 0;
        let w = random_mechanism(&mut rng, n, m, zeros);
        let p = random_prior(&mut rng, n);
        let t = tail_curve(&w, &p);
        assert!(!t.is_empty());
        let last = t.last().unwrap();
        assert_abs_diff_eq!(last.0, measures::eps_min(&w, &p), epsilon = 1e-15);
        assert!(last.1 == 0.0 && last.1.is_sign_positive());
        for pair in t.windows(2) {
            assert!(pair[0].0 < pair[1].0 && pair[0].1 >= pair[1].1);
            // Between two steps delta is constant, and equals the measure.
            let mid = 0.5 * (pair[0].0 + pair[1].0);
            assert_abs_diff_eq!(
                measures::tail_probability(&w, &p, mid),
                pair[0].1,
                epsilon = 1e-12
            );
        }
        for &(e, d) in &t {
            assert!((0.0..=1.0 + 1e-12).contains(&d));
            assert!(measures::tail_probability(&w, &p, e) <= d + 1e-12);
        }
        // Below the first step the whole output mass exceeds eps.
        if t[0].0 > 0.0 {
            assert_abs_diff_eq!(
                measures::tail_probability(&w, &p, t[0].0 * 0.5),
                1.0,
                epsilon = 1e-12
            );
        }
    }
}

/// The exact worst case over the ball never exceeds Theorem 4 (eq. (6)) nor
/// Corollary 2, for random mechanisms, priors and radii.
#[test]
fn exact_capacity_never_above_theorem4() {
    let mut rng = Rng(12345);
    let (mut t4_checked, mut c2_checked) = (0, 0);
    for i in 0..4000 {
        let n = 2 + rng.below(5);
        let m = 1 + rng.below(7);
        let w = random_mechanism(&mut rng, n, m, i % 3 == 0);
        let p = random_prior(&mut rng, n);
        // Mostly inside Theorem 4 (beta < 2 p_min), sometimes beyond it.
        let beta = if i % 4 == 0 {
            rng.unit() * 1.5 + 1e-6
        } else {
            (rng.unit() * 0.999 + 1e-6) * 2.0 * p.min_mass()
        };
        let set = UncertaintySet::l1_ball(p.clone(), beta).unwrap();
        let exact = set.worst_case_pml(&w);
        let e = measures::eps_min(&w, &p);
        assert!(exact >= e - 1e-12);
        assert_eq!(sensitivity(&w, &p, &set), exact - e);
        if let Some(b) = theorem4_bound(e, beta) {
            c2_checked += 1;
            assert!(exact <= b + 1e-12 * (1.0 + b), "{exact} > Cor 2 {b}");
        }
        if let Some(s) = theorem4_sensitivity_bound(e, beta, &p) {
            t4_checked += 1;
            assert!(
                exact - e <= s + 1e-12 * (1.0 + s),
                "S = {} > Thm 4 {s}",
                exact - e
            );
            // The first-region refinement never loses to Corollary 2.
            if let Some(b) = theorem4_bound(e, beta) {
                assert!(e + s <= b + 1e-12 * (1.0 + b));
            }
        }
        // W is also eps-PML for every eps above eps_min: the bounds hold there too.
        let eps = e + rng.unit();
        if let Some(s) = theorem4_sensitivity_bound(eps, beta, &p) {
            assert!(exact <= eps + s + 1e-12 * (1.0 + s));
        }
    }
    assert!(
        t4_checked > 2000 && c2_checked > 2000,
        "{t4_checked} {c2_checked}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// The same property with proptest's shrinking: Corollary 2 on 3x3 mechanisms.
    #[test]
    fn prop_corollary2_bounds_the_ball(
        raw in proptest::collection::vec(0.0f64..1.0, 9),
        masses in proptest::collection::vec(0.05f64..1.0, 3),
        frac in 0.001f64..0.999,
    ) {
        let rows: Vec<Vec<f64>> = raw.chunks(3).map(|r| {
            let s: f64 = r.iter().sum::<f64>() + 1e-9;
            r.iter().map(|v| (v + 1e-9 / 3.0) / s).collect()
        }).collect();
        let w = Mechanism::from_rows(rows).unwrap();
        let p = Prior::normalised(masses).unwrap();
        let beta = frac * 2.0 * p.min_mass();
        let set = UncertaintySet::l1_ball(p.clone(), beta).unwrap();
        let e = measures::eps_min(&w, &p);
        let exact = set.worst_case_pml(&w);
        if let Some(b) = theorem4_bound(e, beta) {
            prop_assert!(exact <= b + 1e-12 * (1.0 + b));
        }
        let s = theorem4_sensitivity_bound(e, beta, &p).unwrap();
        prop_assert!(exact <= e + s + 1e-12 * (1.0 + s));
    }
}

/// \[E\] Theorem 4, k = 1: equality for the extremal mechanism of the first region
/// (\[E\] Example 1 and Fig. 2a; the closed form of `docs/theory.md` §5).
#[test]
fn theorem4_tight_for_extremal_region1() {
    let (w, p) = example1();
    for beta in [0.01, 0.1, 0.2, 0.39] {
        let set = UncertaintySet::l1_ball(p.clone(), beta).unwrap();
        let eps = (9.0f64 / 8.0).ln();
        let s = theorem4_sensitivity_bound(eps, beta, &p).unwrap();
        // -ln(1 - beta/2 (1/8) / 0.2).
        assert_abs_diff_eq!(
            s,
            -(1.0 - beta / 2.0 * 0.125 / 0.2f64).ln(),
            epsilon = 1e-15
        );
        assert!(rel_close(set.worst_case_pml(&w), eps + s, 1e-12));
        // Corollary 2 is strictly weaker here (footnote 5).
        assert!(theorem4_bound(eps, beta).unwrap() > eps + s + 1e-6);
    }
    let mut rng = Rng(777);
    for _ in 0..500 {
        let n = 2 + rng.below(6);
        let p = random_prior(&mut rng, n);
        let eps1 = measures::privacy_thresholds(&p)[1];
        let eps = eps1 * (0.02 + 0.97 * rng.unit());
        let w = extremal_region1(&p, eps);
        let e = measures::eps_min(&w, &p);
        assert!(rel_close(e, eps, 1e-12));
        assert_eq!(measures::privacy_region(&p, e), 1);
        let beta = (rng.unit() * 0.999 + 1e-4) * 2.0 * p.min_mass();
        let set = UncertaintySet::l1_ball(p.clone(), beta).unwrap();
        let exact = set.worst_case_pml(&w);
        let bound = e + theorem4_sensitivity_bound(e, beta, &p).unwrap();
        assert!(rel_close(exact, bound, 1e-10), "{exact} vs {bound}");
    }
}

/// \[E\] Theorem 4, k > 1: equality when every column has a zero entry; \[E\] Example 2
/// (Fig. 2b) is the 2-singular mechanism on N = 10 at eps = ln 5.
#[test]
fn theorem4_tight_when_every_column_has_a_zero() {
    let n = 10;
    let rows: Vec<Vec<f64>> = (0..n)
        .map(|x| {
            (0..n)
                .map(|y| if y == x || y == (x + 1) % n { 0.5 } else { 0.0 })
                .collect()
        })
        .collect();
    let w = Mechanism::from_rows(rows).unwrap();
    let p = Prior::uniform(n).unwrap();
    let e = measures::eps_min(&w, &p);
    assert_abs_diff_eq!(e, 5f64.ln(), epsilon = 1e-12);
    assert!(measures::privacy_region(&p, e) > 1);
    for beta in [0.01, 0.05, 0.1, 0.19] {
        let set = UncertaintySet::l1_ball(p.clone(), beta).unwrap();
        let exact = set.worst_case_pml(&w);
        let t4 = e + theorem4_sensitivity_bound(e, beta, &p).unwrap();
        let c2 = theorem4_bound(e, beta).unwrap();
        assert!(rel_close(exact, t4, 1e-12) && rel_close(exact, c2, 1e-12));
        assert_abs_diff_eq!(exact, -(0.2 - beta / 2.0f64).ln(), epsilon = 1e-12);
    }
    let mut rng = Rng(4242);
    for _ in 0..1000 {
        let n = 2 + rng.below(5);
        let m = 1 + rng.below(6);
        let w = random_mechanism(&mut rng, n, m, true);
        let p = random_prior(&mut rng, n);
        let e = measures::eps_min(&w, &p);
        assert!(measures::privacy_region(&p, e) > 1);
        let beta = (rng.unit() * 0.999 + 1e-4) * 2.0 * p.min_mass();
        let set = UncertaintySet::l1_ball(p.clone(), beta).unwrap();
        let exact = set.worst_case_pml(&w);
        let bound = theorem4_bound(e, beta).unwrap();
        assert!(rel_close(exact, bound, 1e-10), "{exact} vs {bound}");
        assert!(rel_close(
            exact,
            e + theorem4_sensitivity_bound(e, beta, &p).unwrap(),
            1e-10
        ));
    }
}

/// \[E\] Thm 3: |eps_min(P) - eps_min(Q)| <= e^C ||P - Q||_1 on the set.
#[test]
fn theorem3_lipschitz_on_the_ball() {
    let mut rng = Rng(99);
    for _ in 0..300 {
        let n = 2 + rng.below(4);
        let m = 1 + rng.below(5);
        let w = random_mechanism(&mut rng, n, m, false);
        let p = random_prior(&mut rng, n);
        let beta = rng.unit() * 2.0 * p.min_mass();
        let set = UncertaintySet::l1_ball(p.clone(), beta).unwrap();
        let lip = set.worst_case_pml(&w).exp();
        // A random prior of the ball: move mass t <= beta/2 between two symbols.
        let (a, b) = (rng.below(n), rng.below(n));
        let mut q = p.masses().to_vec();
        let t = (beta / 2.0 * rng.unit()).min(q[a] * 0.999);
        if a != b {
            q[a] -= t;
            q[b] += t;
        }
        let qp = Prior::normalised(q.clone()).unwrap();
        let dist: f64 = q.iter().zip(p.masses()).map(|(x, y)| (x - y).abs()).sum();
        let diff = (measures::eps_min(&w, &p) - measures::eps_min(&w, &qp)).abs();
        assert!(diff <= lip * dist + 1e-12);
        assert!(measures::eps_min(&w, &qp) <= set.worst_case_pml(&w) + 1e-12);
    }
}

#[test]
fn sensitivity_over_polytope_is_max_over_vertices() {
    let mut rng = Rng(2024);
    for _ in 0..200 {
        let n = 2 + rng.below(4);
        let m = 1 + rng.below(5);
        let w = random_mechanism(&mut rng, n, m, false);
        let p = random_prior(&mut rng, n);
        let verts: Vec<Vec<f64>> = (0..1 + rng.below(4))
            .map(|_| random_prior(&mut rng, n).masses().to_vec())
            .chain(std::iter::once(p.masses().to_vec()))
            .collect();
        let set = UncertaintySet::polytope(verts.clone()).unwrap();
        let brute = verts
            .iter()
            .map(|v| measures::eps_min(&w, &Prior::new(v.clone()).unwrap()))
            .fold(0.0, f64::max);
        let s = sensitivity(&w, &p, &set);
        assert_abs_diff_eq!(s, brute - measures::eps_min(&w, &p), epsilon = 1e-12);
        assert!(s >= -1e-15);
    }
}

#[test]
fn theorem4_bounds_domain() {
    let p = Prior::new(vec![0.4, 0.2, 0.2, 0.2]).unwrap();
    assert!(theorem4_sensitivity_bound(0.1, 0.4, &p).is_none()); // beta = 2 p_min
    assert!(theorem4_sensitivity_bound(-0.1, 0.1, &p).is_none());
    assert!(theorem4_sensitivity_bound(0.1, f64::NAN, &p).is_none());
    assert_eq!(theorem4_sensitivity_bound(0.3, 0.0, &p), Some(0.0));
    assert!(theorem4_bound(1.0, 2.0 * (-1.0f64).exp()).is_none());
    assert_eq!(theorem4_bound(0.7, 0.0), Some(0.7));
    // Continuous across the first region threshold eps_1 = -ln(1 - p_min).
    let eps1 = -(0.8f64).ln();
    let below = theorem4_sensitivity_bound(eps1 * (1.0 - 1e-12), 0.1, &p).unwrap();
    let at = theorem4_sensitivity_bound(eps1, 0.1, &p).unwrap();
    assert_abs_diff_eq!(below, at, epsilon = 1e-12);
}

#[test]
fn assessment_of_example_1() {
    let (w, p) = example1();
    let a = Assessment::new(&w, &p, None).unwrap();
    let eps = (9.0f64 / 8.0).ln();
    assert_abs_diff_eq!(a.eps_min, eps, epsilon = 1e-12);
    assert_abs_diff_eq!(a.exp_eps_min, 1.125, epsilon = 1e-12);
    assert_abs_diff_eq!(a.eps_max, 5f64.ln(), epsilon = 1e-15);
    assert_eq!(a.privacy_region, 1);
    assert_eq!(a.region_thresholds.len(), 5);
    for (q, p) in a.output_probabilities.iter().zip(p.masses()) {
        assert_abs_diff_eq!(*q, *p, epsilon = 1e-15);
    }
    assert!(
        a.pml_per_outcome
            .iter()
            .all(|l| (l.unwrap() - eps).abs() < 1e-12)
    );
    assert_eq!(a.tail_curve.len(), 1);
    assert!(a.uncertainty.is_none());
    // Column maxima 0.45 + 3 x 0.225 = 9/8: maximal leakage equals eps here.
    assert_abs_diff_eq!(a.maximal_leakage, eps, epsilon = 1e-12);

    let ball = UncertaintySet::l1_ball(p.clone(), 0.1).unwrap();
    let a = Assessment::new(&w, &p, Some(&ball)).unwrap();
    let s = a.uncertainty.as_ref().unwrap();
    let t4 = s.theorem4.as_ref().unwrap();
    assert!(t4.hypothesis_holds && t4.region == 1);
    assert!(rel_close(
        s.leakage_capacity,
        t4.capacity_bound.unwrap(),
        1e-12
    ));
    assert_abs_diff_eq!(s.sensitivity, s.leakage_capacity - a.eps_min, epsilon = 0.0);
    assert!(s.leakage_capacity < t4.corollary2_bound.unwrap());
    assert_abs_diff_eq!(
        s.lipschitz_constant,
        s.leakage_capacity.exp(),
        epsilon = 0.0
    );
    let json = serde_json::to_value(&a).unwrap();
    for k in [
        "eps_min",
        "privacy_region",
        "tail_curve",
        "ldp_parameter",
        "uncertainty",
    ] {
        assert!(json.get(k).is_some(), "{k}");
    }
    assert_eq!(json["uncertainty"]["set"]["kind"], "l1_ball");
    assert!(json["uncertainty"]["theorem4"]["capacity_bound"].is_f64());

    // Beyond Theorem 4's hypothesis only Corollary 2 remains.
    let big = UncertaintySet::l1_ball(p.clone(), 0.5).unwrap();
    let a = Assessment::new(&w, &p, Some(&big)).unwrap();
    let s = a.uncertainty.unwrap();
    let t4 = s.theorem4.unwrap();
    assert!(!t4.hypothesis_holds && t4.sensitivity_bound.is_none());
    assert!(s.leakage_capacity <= t4.corollary2_bound.unwrap());

    // A known prior or a polytope carries no Theorem 4 check.
    let known = UncertaintySet::known(p.clone());
    let s = Assessment::new(&w, &p, Some(&known))
        .unwrap()
        .uncertainty
        .unwrap();
    assert!(s.theorem4.is_none());
    assert_abs_diff_eq!(s.sensitivity, 0.0, epsilon = 0.0);
}

#[test]
fn assessment_rejects_wrong_sizes() {
    let (w, _) = example1();
    let p3 = Prior::uniform(3).unwrap();
    let msg = Assessment::new(&w, &p3, None).unwrap_err().to_string();
    assert!(msg.contains("mechanism") && msg.contains("4 rows"), "{msg}");
    let p = Prior::uniform(4).unwrap();
    let set = UncertaintySet::known(p3);
    assert!(Assessment::new(&w, &p, Some(&set)).is_err());
}
