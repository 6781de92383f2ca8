//! Upper bounds on f-informations known before any LP (docs/theory.md §4d):
//! with `z = c / (p . c)` a column's densities `e^i(x; y)`, `mu(c) = (p . c)
//! sum_x p_x f(z_x)`, so `lambda = B p` is dual feasible for the ray LP (and
//! `I_f(X; Y) <= B`) whenever `sum_x p_x f(z_x) <= B` for every z the notion
//! allows with `p . z = 1`. The sum is convex in z, so over densities in
//! `[l, h]` its largest value puts all mass on the two ends:
//! `P f(h) + (1 - P) f(l)` with `P = (1 - l) / (h - l)`.

use crate::objective::utility::Utility;
use pmldesign_model::{ColumnCone, DensityRange};

/// Allowance for the rounding of the closed forms below, relative to the terms
/// they subtract (a few operations each), so that the bound never understates
/// where the difference cancels.
const ROUNDING: f64 = 64.0 * f64::EPSILON;

/// The largest mutual information of a mechanism whose densities under the
/// reference prior stay in `range`:
///
/// - `i <= eps` (PML): eps (\[T\] Prop. 5.35: `I <= E_y D_inf = eps`);
/// - `-eps_l <= i <= eps_u` (ALIP, LIP): `P h eps_u - (1 - P) l eps_l` with
///   `h = e^eps_u`, `l = e^-eps_l` and `P = (1 - l) / (h - l)`, the mass at h
///   that keeps `p . z = 1`;
/// - spread eps (LDP): densities in `[l, e^eps l]` for some l; with
///   `D = 1 / l = 1 + (e^eps - 1) P` the two-point value is
///   `(eps e^eps / (e^eps - 1)) (1 - 1 / D) - ln D`, largest at
///   `D* = eps e^eps / (e^eps - 1)`: `D* - 1 - ln D*`.
pub(crate) fn mutual_information_bound(range: DensityRange) -> f64 {
    let (bound, level) = match range {
        DensityRange::Levels { lower: None, upper } => return upper,
        DensityRange::Levels {
            lower: Some(lower),
            upper,
        } => (two_levels(lower, upper), upper),
        DensityRange::Spread { epsilon } => (spread(epsilon), epsilon),
    };
    // The level itself always bounds (LIP, ALIP and LDP imply PML at it).
    if bound.is_finite() {
        bound.min(level)
    } else {
        level
    }
}

/// The f-informations with a bound in closed form over a range of densities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DensityBound {
    /// [`mutual_information_bound`].
    MutualInformation,
    /// [`chi_square_bound`].
    ChiSquare,
    /// [`total_variation_bound`].
    TotalVariation,
    /// [`hellinger_bound`].
    Hellinger,
}

impl DensityBound {
    /// The largest value of the f-information over mechanisms whose
    /// densities stay in `range`.
    pub(crate) fn over(self, range: DensityRange) -> f64 {
        match self {
            DensityBound::MutualInformation => mutual_information_bound(range),
            DensityBound::ChiSquare => chi_square_bound(range),
            DensityBound::TotalVariation => total_variation_bound(range),
            DensityBound::Hellinger => hellinger_bound(range),
        }
    }
}

/// `e^-eps_l` (0 without a lower level) and `a = e^-eps_u` of a two-level range.
fn ends(lower: Option<f64>, upper: f64) -> (f64, f64) {
    (lower.map_or(0.0, |l| (-l).exp()), (-upper).exp())
}

/// The largest chi-square information, `f(t) = (t - 1)^2`: two levels give
/// `(1 - l)(h - 1)` (`e^eps - 1` under PML); under eps-LDP, with `h = e^eps l`,
/// the largest over l is at `l = (1 + e^eps) / (2 e^eps)`:
/// `(e^eps - 1)^2 / (4 e^eps)`.
pub(crate) fn chi_square_bound(range: DensityRange) -> f64 {
    let bound = match range {
        DensityRange::Levels { lower, upper } => {
            let (l, _) = ends(lower, upper);
            (1.0 - l) * upper.exp_m1()
        }
        DensityRange::Spread { epsilon } => epsilon.exp_m1() * -(-epsilon).exp_m1() / 4.0,
    };
    bound.max(0.0) * (1.0 + ROUNDING)
}

/// The largest total-variation information, `f(t) = |t - 1| / 2`: two levels
/// give `(1 - l)(h - 1) / (h - l) = (1 - l)(1 - a) / (1 - l a)` (`1 - e^-eps`
/// under PML); under eps-LDP the largest over l is at `l = e^(-eps/2)`:
/// `tanh(eps / 4)`.
pub(crate) fn total_variation_bound(range: DensityRange) -> f64 {
    let bound = match range {
        DensityRange::Levels { lower, upper } => {
            let (l, a) = ends(lower, upper);
            (1.0 - l) * (1.0 - a) / (1.0 - l * a)
        }
        DensityRange::Spread { epsilon } => (epsilon / 4.0).tanh(),
    };
    bound.max(0.0) * (1.0 + ROUNDING)
}

/// The largest squared-Hellinger information, `f(t) = (sqrt t - 1)^2`: with
/// `p . z = 1` the sum is `2 - 2 sum_x p_x sqrt z_x`, and two levels give
/// `2 (1 - sqrt l)(sqrt h - 1) / (sqrt l + sqrt h)` (`2 - 2 e^(-eps/2)` under
/// PML); under eps-LDP the largest over l is at `l = e^(-eps/2)`:
/// `2 (e^(eps/4) - 1)^2 / (1 + e^(eps/2)) = 2 (1 - c)^2 / (1 + c^2)`, `c = e^(-eps/4)`.
pub(crate) fn hellinger_bound(range: DensityRange) -> f64 {
    let bound = match range {
        DensityRange::Levels { lower, upper } => {
            let (l, a) = ends(lower, upper);
            let (root_l, root_a) = (l.sqrt(), a.sqrt());
            2.0 * (1.0 - root_l) * (1.0 - root_a) / (1.0 + root_l * root_a)
        }
        DensityRange::Spread { epsilon } => {
            let c = (-epsilon / 4.0).exp();
            2.0 * (1.0 - c) * (1.0 - c) / (1.0 + c * c)
        }
    };
    bound.max(0.0) * (1.0 + ROUNDING)
}

/// The utility's a-priori bound over `cone` (`INFINITY` if none): the least
/// over the ranges of the information density under the reference prior that
/// the cone implies ([`cone_density_range`]). The design and the reading of a
/// design file both take it from here.
pub(crate) fn a_priori_bound(cone: &ColumnCone, utility: &dyn Utility) -> f64 {
    if let ColumnCone::Intersection { cones } = cone {
        let each = cones.iter().map(|c| a_priori_bound(c, utility));
        return each.fold(f64::INFINITY, f64::min);
    }
    cone_density_range(cone)
        .and_then(|r| utility.bound_on_density(r))
        .unwrap_or(f64::INFINITY)
}

/// The range of the information density under the reference prior over
/// `cone`: the notion's ([`pmldesign_model::Notion::density_range`]), `i <=
/// eps` for PML, and for the l1 ball under \[E\] Prop 2 `i <= eps' = ln e'`,
/// `e' = e^eps / (1 + (beta/2) e^eps)`, where `beta/2 <= (1 - 1/e') eps'`
/// (docs/theory.md §4e). `None` for an intersection (bounded by its parts).
pub(crate) fn cone_density_range(cone: &ColumnCone) -> Option<DensityRange> {
    let pml = |upper: f64| Some(DensityRange::Levels { lower: None, upper });
    match cone {
        ColumnCone::PmlL1Ball { beta, epsilon, .. } if cone.is_proposition_2() => {
            let e_prime = cone.effective_exp_epsilon();
            let tight = e_prime.ln();
            match tight > 0.0 && beta / 2.0 <= (1.0 - 1.0 / e_prime) * tight {
                // ln e' = eps - ln(1 + h e^eps): a few roundings of terms of size eps.
                true => pml((tight + ROUNDING * epsilon).min(*epsilon)),
                false => pml(*epsilon),
            }
        }
        ColumnCone::PmlKnownPrior { epsilon, .. }
        | ColumnCone::PmlL1Ball { epsilon, .. }
        | ColumnCone::PmlPolytope { epsilon, .. } => pml(*epsilon),
        ColumnCone::Notion { notion, .. } => notion.density_range(),
        ColumnCone::Intersection { .. } => None,
    }
}

/// `P h eps_u - (1 - P) l eps_l`, written with `a = e^-eps_u` so that no
/// factor overflows: `P h = (1 - l) / (1 - l a)`, `1 - P = (1 - a) / (1 - l a)`.
fn two_levels(lower: f64, upper: f64) -> f64 {
    let (l, a) = ((-lower).exp(), (-upper).exp());
    let d = 1.0 - l * a;
    if d <= 0.0 {
        return 0.0;
    }
    let high = upper * (1.0 - l) / d;
    let low = lower * l * (1.0 - a) / d;
    (high - low + ROUNDING * (high + low)).max(0.0)
}

/// `D* - 1 - ln D*` with `t = D* - 1 = (eps + (e^-eps - 1)) / (1 - e^-eps)`,
/// finite at every eps (no `e^eps`).
fn spread(epsilon: f64) -> f64 {
    if epsilon <= 0.0 {
        return 0.0;
    }
    let shrunk = -(-epsilon).exp_m1();
    let t = (epsilon - shrunk) / shrunk;
    (t - t.ln_1p() + ROUNDING * t).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let Some(DensityRange::Levels { lower: None, upper }) = cone_density_range(&cone)
            else {
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
}
