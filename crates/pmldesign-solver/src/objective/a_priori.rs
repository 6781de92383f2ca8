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
pub fn mutual_information_bound(range: DensityRange) -> f64 {
    let (bound, level) = match range {
        DensityRange::Levels { lower: None, upper } => return upper,
        DensityRange::Levels {
            lower: Some(lower),
            upper,
        } => (two_levels(lower, upper), upper),
        DensityRange::Spread { epsilon } => (spread(epsilon), epsilon),
        // A range of another kind: no bound is known before the LPs.
        _ => return f64::INFINITY,
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
pub enum DensityBound {
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
    pub fn over(self, range: DensityRange) -> f64 {
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
pub fn chi_square_bound(range: DensityRange) -> f64 {
    let bound = match range {
        DensityRange::Levels { lower, upper } => {
            let (l, _) = ends(lower, upper);
            (1.0 - l) * upper.exp_m1()
        }
        DensityRange::Spread { epsilon } => epsilon.exp_m1() * -(-epsilon).exp_m1() / 4.0,
        _ => return f64::INFINITY,
    };
    bound.max(0.0) * (1.0 + ROUNDING)
}

/// The largest total-variation information, `f(t) = |t - 1| / 2`: two levels
/// give `(1 - l)(h - 1) / (h - l) = (1 - l)(1 - a) / (1 - l a)` (`1 - e^-eps`
/// under PML); under eps-LDP the largest over l is at `l = e^(-eps/2)`:
/// `tanh(eps / 4)`.
pub fn total_variation_bound(range: DensityRange) -> f64 {
    let bound = match range {
        DensityRange::Levels { lower, upper } => {
            let (l, a) = ends(lower, upper);
            (1.0 - l) * (1.0 - a) / (1.0 - l * a)
        }
        DensityRange::Spread { epsilon } => (epsilon / 4.0).tanh(),
        _ => return f64::INFINITY,
    };
    bound.max(0.0) * (1.0 + ROUNDING)
}

/// The largest squared-Hellinger information, `f(t) = (sqrt t - 1)^2`: with
/// `p . z = 1` the sum is `2 - 2 sum_x p_x sqrt z_x`, and two levels give
/// `2 (1 - sqrt l)(sqrt h - 1) / (sqrt l + sqrt h)` (`2 - 2 e^(-eps/2)` under
/// PML); under eps-LDP the largest over l is at `l = e^(-eps/2)`:
/// `2 (e^(eps/4) - 1)^2 / (1 + e^(eps/2)) = 2 (1 - c)^2 / (1 + c^2)`, `c = e^(-eps/4)`.
pub fn hellinger_bound(range: DensityRange) -> f64 {
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
        _ => return f64::INFINITY,
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
pub fn cone_density_range(cone: &ColumnCone) -> Option<DensityRange> {
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
        // An intersection (bounded by its parts), or a cone of another kind.
        _ => None,
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
