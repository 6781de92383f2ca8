//! Branch-and-bound pricing (`pmldesign_solver::internals::pricing_oracle`) against the
//! exhaustive reference (every extreme ray enumerated, `MaterialisedRays`): the
//! same largest reduced cost on random and degenerate instances of every family
//! it covers (known-prior PML, \[E\] Prop 2's ball, ALIP/LIP/LDP for a known
//! prior) and every built-in utility; entering columns that are members of the
//! cone; the same optimal designs; and designs past the enumeration limit.

use crate::common::{Rng, dirichlet_prior};
use crate::common::{design, design_notion};
use ndarray::Array1;
use pmldesign_model::{ColumnCone, Notion, Prior, UncertaintySet};
use pmldesign_solver::Route;
use pmldesign_solver::internals::enumerate;
use pmldesign_solver::internals::pricing_oracle;
use pmldesign_solver::internals::{MaterialisedRays, PassControl, RayOracle};
use pmldesign_solver::{BUILTIN_NAMES, builtin};
use pmldesign_solver::{Design, DesignStatus, PricingMethod, Settings};

/// A Dirichlet-like prior with one rare symbol of mass about 1e-3.
fn rare_mass_prior(r: &mut Rng, n: usize) -> Prior {
    let p = dirichlet_prior(r, n);
    let rare = 1e-3 * (0.5 + r.unit());
    let j = r.below(n);
    let w: Vec<f64> = p
        .masses()
        .iter()
        .enumerate()
        .map(|(x, &m)| if x == j { rare } else { m * (1.0 - rare) })
        .collect();
    Prior::normalised(w).unwrap()
}

/// One random prior of kind `case % 4` and a level eps for it: Dirichlet-like,
/// one rare mass, uniform with `eps = ln(N / k)` (where many reduced costs
/// tie), or counts over a small sample (masses on a lattice `k / m`, which
/// narrows the searches' windows), with a random eps or `eps = ln(m / k)`
/// (window ends on the lattice).
fn random_instance(r: &mut Rng, n: usize, case: usize) -> (Prior, f64, &'static str) {
    match case % 4 {
        0 => (dirichlet_prior(r, n), 0.02 + 2.5 * r.unit(), "dirichlet"),
        1 => (rare_mass_prior(r, n), 0.02 + 2.5 * r.unit(), "rare mass"),
        2 => {
            let k = 1 + r.below(n - 1);
            (
                Prior::uniform(n).unwrap(),
                (n as f64 / k as f64).ln(),
                "uniform, eps = ln(N/k)",
            )
        }
        _ => {
            let counts: Vec<f64> = (0..n).map(|_| (1 + r.below(9)) as f64).collect();
            let m: f64 = counts.iter().sum();
            let eps = if case % 8 == 3 {
                0.02 + 2.5 * r.unit()
            } else {
                (m / (1 + r.below(m as usize - 1)) as f64).ln()
            };
            let p: Vec<f64> = counts.iter().map(|c| c / m).collect();
            (Prior::new(p).unwrap(), eps, "counts")
        }
    }
}

/// Every family branch and bound prices, for prior `p` at level `eps`: a
/// description (for failure messages) and the cone.
fn families(r: &mut Rng, p: &Prior, eps: f64, case: usize) -> Vec<(String, ColumnCone)> {
    let known = UncertaintySet::known(p.clone());
    let beta = 2.0 * p.min_mass() * (0.02 + 0.96 * r.unit());
    let ball = UncertaintySet::l1_ball(p.clone(), beta).unwrap();
    let eps_l = [0.2, 1.0, 3.0][case % 3];
    let notions = [
        Notion::Alip {
            epsilon_lower: eps_l,
            epsilon_upper: eps,
        },
        Notion::Lip { epsilon: eps },
        Notion::Ldp { epsilon: eps },
    ];
    let mut out = vec![
        (
            format!("known-prior PML eps={eps:?}"),
            ColumnCone::pml(&known, eps).unwrap(),
        ),
        (
            format!("Prop-2 ball PML eps={eps:?} beta={beta:?}"),
            ColumnCone::pml(&ball, eps).unwrap(),
        ),
    ];
    for notion in notions {
        out.push((
            format!("{notion:?}"),
            ColumnCone::for_notion(&known, &notion).unwrap(),
        ));
    }
    out
}

/// The duals priced: near the MI optimum (`p_x ln E (1 + 0.01 noise)`), exactly
/// at it (noise 0: many reduced costs tie at the maximum), uniform in [-1, 1]
/// and zero.
fn duals(r: &mut Rng, p: &Prior, cone: &ColumnCone) -> Vec<(&'static str, Array1<f64>)> {
    let ln_e = cone.effective_exp_epsilon().ln();
    let n = p.len();
    let near: Array1<f64> = p
        .masses()
        .iter()
        .map(|&px| px * ln_e * (1.0 + 0.01 * (2.0 * r.unit() - 1.0)))
        .collect();
    let at = &p.masses() * ln_e;
    let uniform: Array1<f64> = (0..n).map(|_| 2.0 * r.unit() - 1.0).collect();
    vec![
        ("p ln E (1 + 0.01 noise)", near),
        ("p ln E", at),
        ("uniform [-1, 1]", uniform),
        ("zero", Array1::zeros(n)),
    ]
}

/// Records a failure (with its context) instead of stopping at the first one.
macro_rules! check {
    ($failures:expr, $cond:expr, $($fmt:tt)+) => {
        // A NaN comparison is false, so it is recorded too.
        let holds: bool = $cond;
        if !holds {
            $failures.push(format!($($fmt)+));
        }
    };
}

/// The utilities compared, and the (utility, dual) pairs allowed to disagree.
type Utilities<'a> = (&'a [&'a str], &'a dyn Fn(&str, &str) -> bool);

/// Compares the two oracles on one cone for every built-in utility and dual,
/// recording every disagreement in `failures`; returns the number of comparisons.
fn check_cone(
    r: &mut Rng,
    p: &Prior,
    label: &str,
    cone: &ColumnCone,
    utilities: Utilities,
    failures: &mut Vec<String>,
) -> usize {
    let lambdas = duals(r, p, cone);
    check_cone_at(p, label, cone, utilities, &lambdas, failures)
}

/// [`check_cone`] at the given duals.
fn check_cone_at(
    p: &Prior,
    label: &str,
    cone: &ColumnCone,
    (names, known_disagreement): Utilities,
    lambdas: &[(&'static str, Array1<f64>)],
    failures: &mut Vec<String>,
) -> usize {
    let reference = p.masses();
    let rays = enumerate(cone).unwrap_or_else(|e| panic!("{label}: enumeration failed: {e}"));
    let mut checked = 0;
    for &name in names {
        let utility = builtin(name).unwrap();
        let mu: Vec<f64> = rays
            .iter()
            .map(|v| utility.column_value(v, reference))
            .collect();
        let exhaustive = MaterialisedRays::new(&rays, mu);
        let bb = pricing_oracle(cone, reference, utility.as_ref(), None)
            .unwrap_or_else(|| panic!("{label}, {name}: no branch-and-bound oracle"));
        for (kind, lambda) in lambdas {
            let ctx = format!(
                "{label}, utility {name}, lambda {kind} = {:?}, prior {:?}",
                lambda.to_vec(),
                reference.to_vec()
            );
            checked += 1;
            let exact = exhaustive.price(lambda, f64::INFINITY, 0).max_reduced_cost;
            let found = bb.price(lambda, f64::INFINITY, 0).max_reduced_cost;
            check!(
                failures,
                (exact - found).abs() <= 1e-9 * (1.0 + exact.abs())
                    || known_disagreement(name, kind),
                "largest reduced cost: enumeration {exact:?}, branch and bound {found:?} ({} rays)\n  {ctx}",
                rays.len()
            );
            let pricing = bb.price(lambda, 1e-9, 16);
            check!(
                failures,
                pricing.entering.len() <= 16,
                "more than 16 entering\n  {ctx}"
            );
            check!(
                failures,
                exact <= 1e-6 || !pricing.entering.is_empty(),
                "no column entered though the largest reduced cost is {exact:e}\n  {ctx}"
            );
            let mut previous = f64::INFINITY;
            for (rc, col) in &pricing.entering {
                let v = col.vector.view();
                let violation = cone.violation(v);
                check!(
                    failures,
                    violation <= 1e-9,
                    "entering column {v} violates the cone by {violation:e}\n  {ctx}"
                );
                check!(
                    failures,
                    (p.dot(v) - 1.0).abs() <= 1e-12,
                    "entering column {v}: p . v = {:?}\n  {ctx}",
                    p.dot(v)
                );
                check!(
                    failures,
                    *rc > 1e-9 && *rc <= exact + 1e-9,
                    "entering column {v}: reduced cost {rc:e}, enumerated max {exact:e}\n  {ctx}"
                );
                check!(
                    failures,
                    *rc <= previous,
                    "entering columns not best first\n  {ctx}"
                );
                previous = *rc;
                // The column carries its own utility and reduced cost.
                let value = utility.column_value(v, reference);
                check!(
                    failures,
                    (col.value - value).abs() <= 1e-9 * (1.0 + value.abs()),
                    "entering column {v}: value {:?}, mu(v) = {value:?}\n  {ctx}",
                    col.value
                );
                let cost = value - lambda.dot(&v);
                check!(
                    failures,
                    (rc - cost).abs() <= 1e-9 * (1.0 + value.abs() + lambda.dot(&v).abs()),
                    "entering column {v}: reduced cost {rc:?}, mu(v) - lambda . v = {cost:?}\n  {ctx}"
                );
            }
        }
    }
    checked
}

#[test]
fn branch_and_bound_prices_like_enumeration() {
    let mut r = Rng(0x5eed_b4b0_2024_0001);
    let mut sizes: Vec<usize> = Vec::new();
    // Three priors of each of the four kinds at every N from 2 to 10, one of each
    // kind at 12 and 13, two at 14.
    for n in 2..=10 {
        sizes.extend(vec![n; 12]);
    }
    for n in [12, 12, 12, 12, 13, 13, 13, 13, 14, 14] {
        sizes.push(n);
    }
    let mut checked = 0;
    let mut failures = Vec::new();
    for (case, &n) in sizes.iter().enumerate() {
        let (p, eps, kind) = random_instance(&mut r, n, case);
        for (family, cone) in families(&mut r, &p, eps, case) {
            let label = format!("case {case}: N={n} {kind} prior, {family}");
            let known = |_: &str, _: &str| false;
            let utilities: Utilities = (&BUILTIN_NAMES[..], &known);
            checked += check_cone(&mut r, &p, &label, &cone, utilities, &mut failures);
        }
    }
    assert_eq!(checked, sizes.len() * 5 * BUILTIN_NAMES.len() * 4);
    assert!(
        failures.is_empty(),
        "{} of {checked} pricings disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The utilities whose three-level rays branch and bound prices: every
/// built-in one (tv and hellinger by slope enclosures in W, the others by the
/// concave test).
const THREE_LEVEL_UTILITIES: [&str; 5] = ["mi", "tv", "chi2", "hellinger", "map"];

#[test]
fn exact_ball_past_proposition_2_prices_like_enumeration() {
    let mut r = Rng(0x5eed_b4b0_2026_1123);
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in 0..90 {
        let n = 3 + case % 6;
        let (p, eps, kind) = random_instance(&mut r, n, case);
        // Radii past Prop 2: just past it, a few times 2 min p, and up to 1.6.
        let beta = match case % 3 {
            0 => 2.0 * p.min_mass() * (1.0 + 0.5 * r.unit()),
            1 => 2.0 * p.min_mass() * (2.0 + 6.0 * r.unit()),
            _ => (2.0 * p.min_mass()).max(1.6 * r.unit()),
        };
        let ball = UncertaintySet::l1_ball(p.clone(), beta).unwrap();
        let cone = ColumnCone::pml(&ball, eps).unwrap();
        let label =
            format!("case {case}: N={n} {kind} prior, ball past Prop 2 eps={eps:?} beta={beta:?}");
        let known = |_: &str, _: &str| false;
        let utilities: Utilities = (&THREE_LEVEL_UTILITIES[..], &known);
        checked += check_cone(&mut r, &p, &label, &cone, utilities, &mut failures);
    }
    assert_eq!(checked, 90 * 5 * 4);
    assert!(
        failures.is_empty(),
        "{} of {checked} pricings disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Category counts of a sample of `n` categories, about a third never
/// observed (at least two observed), in a random order.
fn counts_with_zeros(r: &mut Rng, n: usize) -> Vec<u64> {
    let mut counts: Vec<u64> = (0..n)
        .map(|_| {
            if r.unit() < 0.35 {
                0
            } else {
                1 + r.below(7) as u64
            }
        })
        .collect();
    for k in 0..2 {
        if counts.iter().filter(|&&c| c > 0).count() < 2 {
            counts[k] = 1 + r.below(5) as u64;
        }
    }
    // A random order (Fisher-Yates): the zeros anywhere.
    for i in (1..n).rev() {
        counts.swap(i, r.below(i + 1));
    }
    counts
}

/// The exact ball around an estimate with unobserved categories (mass 0 at
/// the centre: always past Prop 2). An unobserved category adds its dual
/// value to a set at no weight. The fractional-knapsack chains of the
/// two-level and three-level searches took that step as `lambda_x * 0 / 0`
/// (NaN, which the bounds passed over) or read the chain at 0 as the first
/// step's dual mass, and pruned sets with a positive reduced cost: with duals
/// of `+-1e-17` at the zeros (the master's rounding) a design over counts
/// `4,1,0,0,6,0,1,0,4,5,1,2` stopped on an infeasible dual and its certificate
/// failed. Family L with all the observed mass on top (`top = 1`, the zeros at
/// the level) was left out too, by branch and bound and by the enumerator.
#[test]
fn exact_ball_around_unobserved_categories_prices_like_enumeration() {
    let mut r = Rng(0x5eed_b4b0_2026_0000);
    let mut checked = 0;
    let mut failures = Vec::new();
    let cases = 16;
    for case in 0..cases {
        let n = 3 + case % 10;
        let counts = counts_with_zeros(&mut r, n);
        let m: u64 = counts.iter().sum();
        let masses: Vec<f64> = counts.iter().map(|&c| c as f64 / m as f64).collect();
        let p = Prior::center(masses).unwrap();
        let beta = 0.005 + 1.99 * r.unit();
        let eps = 0.1 + 2.0 * r.unit();
        let ball = UncertaintySet::l1_ball(p.clone(), beta).unwrap();
        let cone = ColumnCone::pml(&ball, eps).unwrap();
        let label = format!("case {case}: counts {counts:?}, ball eps={eps:?} beta={beta:?}");
        let ln_e = eps;
        // The master's duals at a mass 0 are rounding noise of either sign.
        let noise = |r: &mut Rng, px: f64, scale: f64| {
            if px > 0.0 {
                px * ln_e * (1.0 + 0.01 * (2.0 * r.unit() - 1.0))
            } else {
                scale * (2.0 * r.unit() - 1.0)
            }
        };
        let mut lambdas = duals(&mut r, &p, &cone);
        for (kind, scale) in [
            ("p ln E, +-1e-17 at the zeros", 1e-17),
            ("p ln E, +-0.05 at the zeros", 0.05),
        ] {
            let lambda: Array1<f64> = p
                .masses()
                .iter()
                .map(|&px| noise(&mut r, px, scale))
                .collect();
            lambdas.push((kind, lambda));
        }
        let known = |_: &str, _: &str| false;
        let utilities: Utilities = (&THREE_LEVEL_UTILITIES[..], &known);
        checked += check_cone_at(&p, &label, &cone, utilities, &lambdas, &mut failures);
    }
    assert_eq!(checked, cases * 5 * 6);
    assert!(
        failures.is_empty(),
        "{} of {checked} pricings disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The largest reduced cost under `lambda` on the known-prior eps-PML cone of
/// `p` by both oracles: `(enumeration, branch and bound)`.
fn known_pml_max_reduced_costs(p: Prior, eps: f64, utility: &str, lambda: &[f64]) -> (f64, f64) {
    let reference = p.masses().to_owned();
    let cone = ColumnCone::pml(&UncertaintySet::known(p), eps).unwrap();
    let u = builtin(utility).unwrap();
    let rays = enumerate(&cone).unwrap();
    let mu = rays
        .iter()
        .map(|v| u.column_value(v, reference.view()))
        .collect();
    let lambda = Array1::from(lambda.to_vec());
    let exact = MaterialisedRays::new(&rays, mu)
        .price(&lambda, f64::INFINITY, 0)
        .max_reduced_cost;
    let found = pricing_oracle(&cone, reference.view(), u.as_ref(), None)
        .unwrap()
        .price(&lambda, f64::INFINITY, 0)
        .max_reduced_cost;
    (exact, found)
}

/// Cases 51 and 59 of `branch_and_bound_prices_like_enumeration`: uniform N = 6,
/// `eps = ln(6/5)`, Hellinger. Branch and bound reports about 8.6e-9 less than
/// enumeration (e.g. -0.008159055651790953 against -0.00815904704860168).
#[test]
fn hellinger_uniform_n6_known_pml_eps_ln_6_over_5_prices_like_enumeration() {
    let lambdas: [[f64; 6]; 4] = [
        // case 51, p ln E (1 + 0.01 noise)
        [
            0.030359234447064707,
            0.030668418167392752,
            0.030283878518959337,
            0.03055251099013726,
            0.0301521905881611,
            0.030666509370717535,
        ],
        // case 51, uniform [-1, 1]
        [
            0.49782438834900744,
            -0.8862612783066264,
            0.4686499607630774,
            0.004633115333987581,
            -0.10274981381446557,
            -0.098853452034106,
        ],
        // case 59, p ln E (1 + 0.01 noise)
        [
            0.030474834720015637,
            0.030565004246137256,
            0.030668982201571576,
            0.030247763404086032,
            0.030600350076720177,
            0.030491192719990737,
        ],
        // case 59, uniform [-1, 1]
        [
            -0.42281147356480275,
            0.779041499075215,
            -0.9044493192610397,
            0.08062510487378294,
            -0.2893182832950585,
            0.5882298772448598,
        ],
    ];
    for lambda in lambdas {
        let p = Prior::uniform(6).unwrap();
        let (exact, found) =
            known_pml_max_reduced_costs(p, (6.0f64 / 5.0).ln(), "hellinger", &lambda);
        assert!(
            (exact - found).abs() <= 1e-9 * (1.0 + exact.abs()),
            "lambda {lambda:?}: enumeration {exact:?}, branch and bound {found:?}"
        );
    }
}

/// Case 111 of `branch_and_bound_prices_like_enumeration`: uniform N = 12,
/// `eps = ln 2`, Hellinger. At lambda = 0 enumeration gives 2 - sqrt 2 =
/// 0.5857864376269053, branch and bound 0.5857864315435316.
#[test]
fn hellinger_uniform_n12_known_pml_eps_ln_2_prices_like_enumeration() {
    let lambdas: [[f64; 12]; 3] = [
        // p ln E (1 + 0.01 noise)
        [
            0.0582774962528717,
            0.05722277141234947,
            0.05827953450557795,
            0.057789206852446005,
            0.05807306924557703,
            0.05738684955647805,
            0.05747477764603341,
            0.05782050254767157,
            0.05766274015037587,
            0.057966228802455444,
            0.058186424276486064,
            0.05788210138103486,
        ],
        // p ln E
        [0.057762265046662105; 12],
        // zero
        [0.0; 12],
    ];
    for lambda in lambdas {
        let p = Prior::uniform(12).unwrap();
        let (exact, found) = known_pml_max_reduced_costs(p, 2f64.ln(), "hellinger", &lambda);
        assert!(
            (exact - found).abs() <= 1e-9 * (1.0 + exact.abs()),
            "lambda {lambda:?}: enumeration {exact:?}, branch and bound {found:?}"
        );
    }
}

fn enumerate_settings() -> Settings {
    Settings {
        pricing: PricingMethod::Enumerate,
        ..Settings::default()
    }
}

/// Both designs optimal, by the pricing each was asked for, of equal utility.
fn assert_same_design(auto: &Design, reference: &Design, ctx: &str) {
    assert_eq!(
        auto.status(),
        DesignStatus::Optimal,
        "{ctx}: branch and bound"
    );
    assert_eq!(
        reference.status(),
        DesignStatus::Optimal,
        "{ctx}: enumeration"
    );
    assert_eq!(auto.route(), Route::BranchAndBound, "{ctx}");
    assert_eq!(reference.route(), Route::Enumeration, "{ctx}");
    assert!(
        (auto.utility_value() - reference.utility_value()).abs() <= 1e-9,
        "{ctx}: branch and bound {:?}, enumeration {:?}",
        auto.utility_value(),
        reference.utility_value()
    );
}

#[test]
fn designs_match_enumeration_up_to_n20() {
    let mut r = Rng(0xd35_1600_0020);
    let auto = Settings::default();
    let reference = enumerate_settings();
    let mi = builtin("mi").unwrap();
    // Known prior, MI.
    for n in [4, 8, 12, 16, 20] {
        let p = r.prior(n);
        let eps = 0.2 + 1.3 * r.unit();
        let set = UncertaintySet::known(p.clone());
        let ctx = format!("known prior {:?}, eps {eps:?}, mi", p.masses().to_vec());
        let a = design(&set, eps, mi.as_ref(), &auto).unwrap();
        let e = design(&set, eps, mi.as_ref(), &reference).unwrap();
        assert_same_design(&a, &e, &ctx);
    }
    // [E] Prop 2's ball, beta = min p / 2, MI.
    for n in [8, 12, 16] {
        let p = r.prior(n);
        let eps = 0.2 + 1.3 * r.unit();
        let beta = 0.5 * p.min_mass();
        let set = UncertaintySet::l1_ball(p.clone(), beta).unwrap();
        let ctx = format!(
            "ball around {:?}, beta {beta:?}, eps {eps:?}, mi",
            p.masses().to_vec()
        );
        let a = design(&set, eps, mi.as_ref(), &auto).unwrap();
        let e = design(&set, eps, mi.as_ref(), &reference).unwrap();
        assert_same_design(&a, &e, &ctx);
    }
    // Every utility, known prior, N = 10.
    let p = r.prior(10);
    let eps = 0.2 + 1.3 * r.unit();
    let set = UncertaintySet::known(p.clone());
    for name in BUILTIN_NAMES {
        let u = builtin(name).unwrap();
        let ctx = format!("known prior {:?}, eps {eps:?}, {name}", p.masses().to_vec());
        let a = design(&set, eps, u.as_ref(), &auto).unwrap();
        let e = design(&set, eps, u.as_ref(), &reference).unwrap();
        assert_same_design(&a, &e, &ctx);
    }
    // LDP, ALIP, LIP for a known prior, N = 8, mi and map.
    let p = r.prior(8);
    let set = UncertaintySet::known(p.clone());
    let notions = [
        Notion::Ldp { epsilon: 0.9 },
        Notion::Alip {
            epsilon_lower: 1.0,
            epsilon_upper: 0.6,
        },
        Notion::Lip { epsilon: 0.7 },
    ];
    for notion in notions {
        for name in ["mi", "map"] {
            let u = builtin(name).unwrap();
            let ctx = format!("known prior {:?}, {notion:?}, {name}", p.masses().to_vec());
            let a = design_notion(&set, &notion, u.as_ref(), &auto).unwrap();
            let e = design_notion(&set, &notion, u.as_ref(), &reference).unwrap();
            assert_same_design(&a, &e, &ctx);
        }
    }
}

#[test]
fn branch_and_bound_has_no_alphabet_limit() {
    let mut r = Rng(0x40);
    let p = r.prior(40);
    let eps = 2f64.ln();
    let set = UncertaintySet::known(p.clone());
    let d = design(
        &set,
        eps,
        &pmldesign_solver::FInformation::mutual_information(),
        &Settings::default(),
    )
    .unwrap();
    let ctx = format!("N = 40, prior {:?}, eps = ln 2", p.masses().to_vec());
    assert!(
        matches!(d.status(), DesignStatus::Optimal | DesignStatus::GapLimit),
        "{ctx}: status {:?}",
        d.status()
    );
    assert_eq!(d.route(), Route::BranchAndBound, "{ctx}");
    assert!(
        d.certificate().worst_case_pml() <= eps + 1e-10,
        "{ctx}: worst-case PML {:?}",
        d.certificate().worst_case_pml()
    );
    // I(X; Y) <= eps for every eps-PML mechanism.
    assert!(
        d.utility_value() <= eps,
        "{ctx}: I(X;Y) = {:?} > eps",
        d.utility_value()
    );
}

/// A pass stopped by Ctrl-C (the interrupt set) stops inside its search and
/// still returns a valid bound: at least the largest reduced cost a complete
/// pass finds, after far fewer nodes (each search looks at the interrupt
/// every 1024 nodes, so a few dozen searches each visit that many first).
#[test]
fn an_interrupted_pass_keeps_a_valid_bound() {
    let mut r = Rng(0x1e7);
    let p = r.prior(40);
    let eps = 2f64.ln();
    let reference = p.masses().to_owned();
    let cone = ColumnCone::pml(&UncertaintySet::known(p), eps).unwrap();
    let mi = builtin("mi").unwrap();
    let oracle = pricing_oracle(&cone, reference.view(), mi.as_ref(), None).unwrap();
    // Duals near the optimum's (p ln E): a proof that takes many nodes.
    let lambda: Array1<f64> = reference.mapv(|px| px * eps * (1.0 + 1e-4 * (r.unit() - 0.5)));
    let complete = oracle.price(&lambda, 1e-9, 8);
    let control = PassControl {
        interrupt: pmldesign_solver::Interrupt::new(),
        ..PassControl::default()
    };
    control.interrupt.set();
    let stopped = oracle.price_with(&lambda, 1e-9, 8, &control);
    assert!(
        stopped.max_reduced_cost >= complete.max_reduced_cost,
        "interrupted bound {} below the complete pass's {}",
        stopped.max_reduced_cost,
        complete.max_reduced_cost
    );
    assert!(
        stopped.priced < complete.priced / 4,
        "interrupted after {} of {} nodes",
        stopped.priced,
        complete.priced
    );
}
