//! Tests of `objective::a_priori`.

use pmldesign_model::{ColumnCone, DensityRange};
use pmldesign_solver::internals::objective::a_priori::*;

/// The two-point value over `P` on a fine grid, for the spread.
fn spread_by_grid(epsilon: f64) -> f64 {
    let e = epsilon.exp();
    (1..100_000)
        .map(|k| {
            let p = k as f64 / 100_000.0;
            let d = 1.0 + (e - 1.0) * p;
            p * (e / d) * (e / d).ln() + (1.0 - p) * (1.0 / d) * (1.0 / d).ln()
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The ball's `eps'` where `beta/2 <= (1 - 1/e') eps'`, else eps; never
/// below the exact `ln e'`.
#[test]
fn the_proposition_2_ball_is_bounded_by_its_effective_level() {
    let center = pmldesign_model::Prior::new(vec![0.25; 4]).unwrap();
    for (beta, tight) in [(0.1, true), (0.49, false)] {
        let set = pmldesign_model::UncertaintySet::l1_ball(center.clone(), beta).unwrap();
        let cone = ColumnCone::pml(&set, 0.9).unwrap();
        let Some(DensityRange::Levels { lower: None, upper }) = cone_density_range(&cone) else {
            panic!("a PML range");
        };
        let e_prime = 0.9f64.exp() / (1.0 + beta / 2.0 * 0.9f64.exp());
        let want = if tight { e_prime.ln() } else { 0.9 };
        assert!(
            upper >= want && upper - want < 1e-13,
            "{beta}: {upper} {want}"
        );
    }
}

#[test]
fn pml_is_its_level_and_lip_lies_below() {
    let pml = DensityRange::Levels {
        lower: None,
        upper: 0.9,
    };
    assert_eq!(mutual_information_bound(pml), 0.9);
    // A lower level far away is PML again.
    let far = DensityRange::Levels {
        lower: Some(50.0),
        upper: 0.9,
    };
    assert!((mutual_information_bound(far) - 0.9).abs() < 1e-12);
    let lip = DensityRange::Levels {
        lower: Some(0.9),
        upper: 0.9,
    };
    let b = mutual_information_bound(lip);
    assert!((b - 0.379_709_104_725).abs() < 1e-9, "{b}");
    let none = DensityRange::Levels {
        lower: Some(0.0),
        upper: 0.0,
    };
    assert_eq!(mutual_information_bound(none), 0.0);
}

#[test]
fn ldp_closed_form_is_the_two_point_maximum() {
    for epsilon in [0.01, 0.4, 0.9, 1.6, 3.0, 8.0] {
        let b = mutual_information_bound(DensityRange::Spread { epsilon });
        let grid = spread_by_grid(epsilon);
        assert!(
            b >= grid && b - grid < 1e-8 * b.max(1e-6),
            "{epsilon}: {b} {grid}"
        );
        // Below the PML level the same eps gives (LDP implies eps-PML).
        assert!(b < epsilon);
    }
    assert_eq!(
        mutual_information_bound(DensityRange::Spread { epsilon: 0.0 }),
        0.0
    );
}

/// A convex f with `f(1) = 0`.
type F = fn(f64) -> f64;

/// The f of each bound, and the bound.
fn bounds() -> [(F, DensityBound); 4] {
    [
        (
            |t| if t > 0.0 { t * t.ln() } else { 0.0 },
            DensityBound::MutualInformation,
        ),
        (|t| (t - 1.0) * (t - 1.0), DensityBound::ChiSquare),
        (|t| (t - 1.0).abs() / 2.0, DensityBound::TotalVariation),
        (|t| (t.sqrt() - 1.0).powi(2), DensityBound::Hellinger),
    ]
}

/// `P f(h) + (1 - P) f(l)` with `P = (1 - l) / (h - l)`.
fn two_point(f: F, l: f64, h: f64) -> f64 {
    let p = (1.0 - l) / (h - l);
    p * f(h) + (1.0 - p) * f(l)
}

/// Each closed form over two levels (and PML's one) is the two-point value,
/// never below it.
#[test]
fn two_level_closed_forms_are_the_two_point_values() {
    for (f, bound) in bounds() {
        for lower in [None, Some(0.05), Some(0.4), Some(1.3), Some(6.0)] {
            for upper in [0.05f64, 0.4, 0.9, 1.6, 6.0] {
                let l = lower.map_or(0.0, |v: f64| (-v).exp());
                let want = two_point(f, l, upper.exp());
                let got = bound.over(DensityRange::Levels { lower, upper });
                // The test's own sum rounds too (MI under PML is eps exactly).
                assert!(
                    (got - want).abs() <= 1e-12 * (1.0 + want) && got >= want * (1.0 - 1e-14),
                    "{bound:?} {lower:?} {upper}: {got} {want}"
                );
            }
        }
    }
}

/// Under eps-LDP each closed form is the largest two-point value over the
/// low density l in `[e^-eps, 1]` (high density `e^eps l`), on a fine grid.
#[test]
fn ldp_closed_forms_are_the_two_point_maxima() {
    for (f, bound) in bounds() {
        for epsilon in [0.01, 0.4, 0.9, 1.6, 3.0, 8.0] {
            let e = f64::exp(epsilon);
            let grid = (1..20_000)
                .map(|k| {
                    let l = 1.0 / e + (1.0 - 1.0 / e) * k as f64 / 20_000.0;
                    two_point(f, l, e * l)
                })
                .fold(f64::NEG_INFINITY, f64::max);
            let got = bound.over(DensityRange::Spread { epsilon });
            assert!(
                got >= grid && got - grid < 1e-7 * grid.max(1e-6),
                "{bound:?} {epsilon}: {got} {grid}"
            );
        }
    }
}

/// Any column's value `sum_x p_x f(z_x)` (densities `z = c / (p . c)`) is at
/// most each bound over the ranges it lies in: PML at its largest density,
/// two levels at both ends, LDP at its spread.
#[test]
fn random_columns_stay_below_every_bound() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(36);
    let mut unit = || rng.random::<f64>();
    for case in 0..400 {
        let n = 2 + case % 9;
        let p: Vec<f64> = (0..n).map(|_| 0.05 + unit()).collect();
        let total: f64 = p.iter().sum();
        let p: Vec<f64> = p.iter().map(|v| v / total).collect();
        let c: Vec<f64> = (0..n).map(|_| 0.01 + unit().powi(3)).collect();
        let s: f64 = p.iter().zip(&c).map(|(a, b)| a * b).sum();
        let z: Vec<f64> = c.iter().map(|v| v / s).collect();
        let (lo, hi) = z
            .iter()
            .fold((f64::INFINITY, 0.0f64), |(a, b), &v| (a.min(v), b.max(v)));
        let ranges = [
            DensityRange::Levels {
                lower: None,
                upper: hi.ln(),
            },
            DensityRange::Levels {
                lower: Some(-lo.ln()),
                upper: hi.ln(),
            },
            DensityRange::Spread {
                epsilon: (hi / lo).ln(),
            },
        ];
        for (f, bound) in bounds() {
            let value: f64 = p.iter().zip(&z).map(|(a, &t)| a * f(t)).sum();
            for range in ranges {
                let b = bound.over(range);
                assert!(
                    value <= b + 1e-12 * (1.0 + b),
                    "{bound:?} {range:?}: {value} > {b}"
                );
            }
        }
    }
}

#[test]
fn huge_levels_stay_finite_and_below_the_level() {
    for eps in [50.0, 700.0, 800.0, 1e6] {
        let ldp = mutual_information_bound(DensityRange::Spread { epsilon: eps });
        // D* -> eps: eps - 1 - ln eps.
        let want = eps - 1.0 - f64::ln(eps);
        assert!(
            (ldp - want).abs() <= 1e-9 * want && ldp <= eps,
            "{eps}: {ldp}"
        );
        let lip = DensityRange::Levels {
            lower: Some(eps),
            upper: eps,
        };
        let b = mutual_information_bound(lip);
        // P h -> 1 and l -> 0: the bound tends to eps.
        assert!(
            b.is_finite() && b <= eps && b >= eps * (1.0 - 1e-9),
            "{eps}: {b}"
        );
    }
}
