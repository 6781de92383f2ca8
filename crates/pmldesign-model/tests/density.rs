//! Measures under every information-density notion (\[D\] = the PMC paper) against
//! the paper's examples, the conversions between notions, and the column cones.

use crate::common::{extremal, randomized_response};
use approx::assert_abs_diff_eq;
use ndarray::Array2;
use pmldesign_model::measures::eps_min;
use pmldesign_model::measures::{self, NotionLevels, ldp_parameter, maximal_leakage};
use pmldesign_model::{ColumnCone, Mechanism, Notion, Prior, UncertaintySet};

/// Deterministic xorshift in [0, 1).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn prior(&mut self, n: usize) -> Prior {
        Prior::normalised((0..n).map(|_| 0.05 + self.next()).collect::<Vec<_>>()).unwrap()
    }
    /// A random mechanism; with `zeros`, some entries are exactly 0.
    fn mechanism(&mut self, n: usize, m: usize, spread: f64, zeros: bool) -> Mechanism {
        let mut w = Array2::from_shape_fn((n, m), |_| (spread * self.next()).exp());
        if zeros {
            for x in 0..n {
                let y = (self.next() * m as f64) as usize % m;
                if (0..m).filter(|&k| w[[x, k]] > 0.0).count() > 1 {
                    w[[x, y]] = 0.0;
                }
            }
        }
        for mut row in w.rows_mut() {
            let s = row.sum();
            row /= s;
        }
        Mechanism::new(w).unwrap()
    }
}

#[test]
fn example_3_randomized_response_pmc() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for case in 0..40 {
        let n = 2 + case % 5;
        let p = rng.prior(n);
        let e_r = 3.0 * rng.next();
        let w = randomized_response(n, e_r);
        let expected = (1.0 + p.max_mass() * (e_r.exp() - 1.0)).ln();
        assert_abs_diff_eq!(measures::pmc(&w, &p), expected, epsilon = 1e-12);
        assert_abs_diff_eq!(
            measures::randomized_response_pmc(e_r, p.max_mass()),
            expected,
            epsilon = 1e-12
        );
        // Per outcome j: ln(1 + p_j (e^e_r - 1)).
        for (j, l) in measures::pmc_per_outcome(&w, &p).into_iter().enumerate() {
            let pj = p.masses()[j];
            assert_abs_diff_eq!(l.unwrap(), (1.0 + pj * e_r.exp_m1()).ln(), epsilon = 1e-12);
        }
        // [T] Prop 5.30 / Ex 5.31 is exact for randomized response, and [D] Example 3
        // notes PMC <= e_r.
        assert_abs_diff_eq!(
            eps_min(&w, &p),
            measures::ldp_to_pml(e_r, p.min_mass()),
            epsilon = 1e-12
        );
        assert_abs_diff_eq!(ldp_parameter(&w), e_r, epsilon = 1e-12);
        assert!(measures::pmc(&w, &p) <= e_r + 1e-12);
    }
    // docs/theory.md §5 check values of the PML side.
    let p = Prior::new(vec![0.5, 0.25, 0.25]).unwrap();
    assert_abs_diff_eq!(measures::ldp_to_pml(1.0, 0.25), 0.642626, epsilon = 1e-6);
    assert_abs_diff_eq!(
        eps_min(&randomized_response(3, 1.0), &p),
        0.642626,
        epsilon = 1e-6
    );
}

#[test]
fn example_4_extremal_mechanism_pmc() {
    let mut rng = Rng(0x0bad_cafe_f00d_1234);
    for case in 0..40 {
        let n = 2 + case % 5;
        let p = rng.prior(n);
        let eps = -(1.0 - p.min_mass()).ln() * 0.999 * rng.next();
        let w = extremal(&p, eps);
        let expected = p
            .masses()
            .iter()
            .map(|&pj| (pj / (1.0 - eps.exp() * (1.0 - pj))).ln())
            .fold(f64::NEG_INFINITY, f64::max);
        assert_abs_diff_eq!(measures::pmc(&w, &p), expected, epsilon = 1e-10);
        // Tight for Theorem 4 (1) ([D] Remark 6), and every output has PML eps.
        assert_abs_diff_eq!(
            expected,
            measures::pml_to_pmc(eps, p.min_mass()),
            epsilon = 1e-10
        );
        assert_abs_diff_eq!(eps_min(&w, &p), eps, epsilon = 1e-12);
        let (l, u) = measures::alip_parameters(&w, &p);
        assert_abs_diff_eq!(l, expected, epsilon = 1e-10);
        assert_abs_diff_eq!(u, eps, epsilon = 1e-12);
        assert_abs_diff_eq!(measures::lip_parameter(&w, &p), l.max(u), epsilon = 0.0);
    }
}

#[test]
fn conversions_bound_the_measures() {
    let mut rng = Rng(0x5eed_0000_0000_0001);
    for case in 0..300 {
        let n = 2 + case % 5;
        let m = 2 + (case / 5) % 5;
        let p = rng.prior(n);
        let pmin = p.min_mass();
        let spread = 4.0 * rng.next();
        let w = rng.mechanism(n, m, spread, false);
        let ldp = ldp_parameter(&w);
        let pml = eps_min(&w, &p);
        let pmc = measures::pmc(&w, &p);
        let tol = 1e-10;
        // [D] Prop 1 and Prop 3, [T] Prop 5.30.
        assert!(pml <= measures::ldp_to_pml(ldp, pmin) + tol, "case {case}");
        assert!(pmc <= measures::ldp_to_pmc(ldp, pmin) + tol, "case {case}");
        assert!(
            measures::lip_parameter(&w, &p) <= measures::ldp_to_lip(ldp, pmin) + tol,
            "case {case}"
        );
        assert_abs_diff_eq!(
            measures::ldp_to_pmc(ldp, pmin),
            (ldp.exp() - pmin * ldp.exp_m1()).ln(),
            epsilon = 1e-12
        );
        // [D] Thm 4 (2) always, (1) in the high-privacy regime.
        assert!(pml <= measures::pmc_to_pml(pmc, pmin) + tol, "case {case}");
        if pml < -(1.0 - pmin).ln() {
            assert!(pmc <= measures::pml_to_pmc(pml, pmin) + tol, "case {case}");
            let (l, u) = measures::pml_to_alip(pml, pmin);
            assert!(ldp <= measures::alip_to_ldp(l, u) + tol, "case {case}");
        }
        // ALIP gives LDP at the sum ([D] Sec. II-D); LIP at twice the level.
        assert!(ldp <= measures::alip_to_ldp(pmc, pml) + tol, "case {case}");
        let (l, u) = measures::pmc_to_alip(pmc, pmin);
        assert_abs_diff_eq!(l, pmc, epsilon = 0.0);
        assert!(u >= pml - tol);
        // Maximal leakage never exceeds the largest PML (it averages q_y e^l(y)).
        assert!(maximal_leakage(&w) <= pml + tol, "case {case}");
    }
}

fn notions(rng: &mut Rng) -> Vec<Notion> {
    let mut e = || 2.0 * rng.next();
    vec![
        Notion::Pml { epsilon: e() },
        Notion::Pmc { epsilon: e() },
        Notion::Alip {
            epsilon_lower: e(),
            epsilon_upper: e(),
        },
        Notion::Lip { epsilon: e() },
        Notion::Ldp { epsilon: e() },
    ]
}

#[test]
fn measures_agree_with_cones() {
    // A mechanism satisfies a notion (by the measures) iff every column lies in the
    // notion's cone (by the inequalities), for a known prior, a ball and a polytope.
    let mut rng = Rng(0x7777_1234_4321_7777);
    let mut seen = [0usize; 2];
    for case in 0..400 {
        let n = 2 + case % 4;
        let p = rng.prior(n);
        let set = match case % 3 {
            0 => UncertaintySet::known(p.clone()),
            1 => UncertaintySet::l1_ball(p.clone(), 0.3 * rng.next() + 1e-3).unwrap(),
            _ => {
                UncertaintySet::polytope(vec![p.masses().to_vec(), rng.prior(n).masses().to_vec()])
                    .unwrap()
            }
        };
        let spread = 1.5 * rng.next();
        let w = rng.mechanism(n, n, spread, case % 7 == 0);
        let levels = NotionLevels::measure(&w, &set);
        for notion in notions(&mut rng) {
            let cone = ColumnCone::for_notion(&set, &notion).unwrap();
            let viol = w.columns().map(|c| cone.violation(c)).fold(0.0, f64::max);
            let excess = levels.excess(&notion);
            // Skip the knife edge where rounding decides.
            if excess.abs() < 1e-7 {
                continue;
            }
            assert_eq!(
                excess <= 0.0,
                viol <= 1e-12,
                "case {case} {notion:?}: excess {excess}, violation {viol}"
            );
            seen[usize::from(excess <= 0.0)] += 1;
        }
    }
    assert!(seen[0] > 50 && seen[1] > 50, "{seen:?}");
}

#[test]
fn worst_case_pmc_over_a_polytope_is_at_a_vertex() {
    let mut rng = Rng(0x3141_5926_5358_9793);
    for _ in 0..50 {
        let a = rng.prior(3);
        let b = rng.prior(3);
        let set = UncertaintySet::polytope(vec![a.masses().to_vec(), b.masses().to_vec()]).unwrap();
        let w = rng.mechanism(3, 3, 2.0, false);
        let worst = measures::worst_case_pmc(&w, &set);
        let vertex_max = measures::pmc(&w, &a).max(measures::pmc(&w, &b));
        assert_abs_diff_eq!(worst, vertex_max, epsilon = 1e-14);
        // Any mixture leaks no more.
        for k in 0..=10 {
            let t = k as f64 / 10.0;
            let q = Prior::new((&a.masses() * t + &b.masses() * (1.0 - t)).to_vec()).unwrap();
            assert!(measures::pmc(&w, &q) <= worst + 1e-12);
        }
    }
}

#[test]
fn worst_case_pmc_over_a_ball_matches_its_vertices() {
    let mut rng = Rng(0x2718_2818_2845_9045);
    for case in 0..60 {
        let n = 2 + case % 4;
        let p = rng.prior(n);
        let beta = 2.0 * rng.next();
        let set = UncertaintySet::l1_ball(p.clone(), beta).unwrap();
        let w = rng.mechanism(n, n, 2.0, false);
        let vertices = set.vertices(100_000).unwrap();
        for c in w.columns() {
            let best = vertices.iter().map(|v| v.dot(&c)).fold(0.0, f64::max);
            assert_abs_diff_eq!(
                measures::max_output_probability(&set, c),
                best,
                epsilon = 1e-13
            );
        }
    }
}

#[test]
fn zero_entries_break_pmc_not_pml() {
    let p = Prior::new(vec![0.5, 0.5]).unwrap();
    let w = Mechanism::identity(2);
    assert!(measures::pmc(&w, &p).is_infinite());
    assert_abs_diff_eq!(eps_min(&w, &p), 2.0f64.ln(), epsilon = 1e-15);
    let levels = NotionLevels::measure(&w, &UncertaintySet::known(p));
    assert!(levels.excess(&Notion::Pmc { epsilon: 10.0 }) > 0.0);
    assert!(levels.excess(&Notion::Pml { epsilon: 0.7 }) <= 0.0);
}
