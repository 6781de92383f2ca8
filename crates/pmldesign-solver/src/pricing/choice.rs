//! The choice of pricing for a cone and a utility: branch and bound over the
//! cone's ray families where they have a searchable form, with the start
//! columns that give the master a nondegenerate first basis.

use crate::colgen::oracle::{Column, RayOracle};
use crate::colgen::start::Started;
use crate::objective::utility::{Separable, Utility};
use crate::pricing::branch_bound::{BoxCut, Levels, ThreeLevel, TwoLevel, Union};
use crate::pricing::exact_ball_loss::ExactBallLoss;
use crate::pricing::exact_mass::ExactMass;
use ndarray::ArrayView1;
use pmldesign_model::{ColumnCone, Notion};

/// The four ray families of the exact l1 ball past \[E\] Prop 2 (`E = e^eps`,
/// `b = beta/2`; docs/theory.md §4b) as one branch-and-bound pass; `None` when
/// `utility` has no form for the three-level search.
pub(crate) fn exact_ball_families(
    p: &[f64],
    e: f64,
    b: f64,
    utility: &dyn Utility,
    deadline: Option<std::time::Instant>,
) -> Option<Union> {
    let three = ThreeLevel::new(p, e, b, utility)?;
    let family_l = TwoLevel::new(p, Levels::BallLevel { e, b }, utility)?;
    // Prop 2's formula: inside the exact cone for every radius.
    let family_z = BoxCut::new(p, 0.0, e / (1.0 + b * e), true, utility)?;
    let stairs = TwoLevel::new(p, Levels::Staircase { e }, utility)?.with_cap(b);
    let prop2 = (family_z, family_l);
    Some(Union::exact_ball(prop2, stairs, three, deadline))
}

/// The branch-and-bound pricing oracle of `cone` for `utility`, when the cone's
/// rays have a searchable family (the `branch_bound` module) normalised by the
/// reference prior and the utility has a [`Utility::separable`] form.
pub fn pricing_oracle(
    cone: &ColumnCone,
    reference: ArrayView1<f64>,
    utility: &dyn Utility,
    deadline: Option<std::time::Instant>,
) -> Option<Box<dyn RayOracle>> {
    let kind = utility.separable()?;
    let p = reference.to_vec();
    if cone.normaliser().iter().zip(&p).any(|(a, b)| a != b) {
        return None;
    }
    let oracle = search_oracle(cone, &p, kind, utility, deadline)?;
    match start_columns(cone, reference, utility)? {
        Some(start) => Some(Box::new(Started { oracle, start })),
        None => Some(oracle),
    }
}

/// The branch-and-bound search over `cone`'s ray families for a utility of
/// separable form `kind` (`p` the reference prior), if the cone has one.
fn search_oracle(
    cone: &ColumnCone,
    p: &[f64],
    kind: Separable,
    utility: &dyn Utility,
    deadline: Option<std::time::Instant>,
) -> Option<Box<dyn RayOracle + Send>> {
    let p = p.to_vec();
    let e = cone.epsilon().exp();
    let boxed = |o: BoxCut| -> Box<dyn RayOracle + Send> { Box::new(o.with_deadline(deadline)) };
    let oracle: Box<dyn RayOracle + Send> = match cone {
        ColumnCone::PmlKnownPrior { epsilon, .. } => {
            let exact = boxed(BoxCut::new(&p, 0.0, e, false, utility)?);
            with_exact_mass(exact, &p, *epsilon, (kind, utility), deadline)
        }
        ColumnCone::PmlL1Ball { beta, .. } if cone.is_proposition_2() => {
            let e_prime = cone.effective_exp_epsilon();
            let levels = Levels::BallLevel { e, b: beta / 2.0 };
            // The union's pass carries the deadline for both families.
            let family_l = TwoLevel::new(&p, levels, utility)?;
            let family_z = BoxCut::new(&p, 0.0, e_prime, true, utility)?;
            let exact = Box::new(Union::ball(family_z, family_l, deadline));
            with_exact_mass(exact, &p, e_prime.ln(), (kind, utility), deadline)
        }
        // Past Prop 2: the exact ball's families (docs/theory.md §4b); MAP
        // accuracy as the loss -diag(p), one linear pricing per maximiser.
        ColumnCone::PmlL1Ball { beta, .. } if e > 1.0 => match kind {
            Separable::MaxWeighted => {
                Box::new(ExactBallLoss::map_accuracy(&p, e, beta / 2.0, deadline)?)
            }
            Separable::FInformation(_) => {
                Box::new(exact_ball_families(&p, e, beta / 2.0, utility, deadline)?)
            }
        },
        ColumnCone::Notion { notion, .. } => match *notion {
            Notion::Ldp { epsilon } if epsilon > 0.0 => {
                let levels = Levels::Staircase { e };
                let exact = Box::new(TwoLevel::new(&p, levels, utility)?.with_deadline(deadline));
                with_staircase_sets(exact, &p, e, kind, deadline)
            }
            Notion::Pmc { .. } | Notion::Alip { .. } | Notion::Lip { .. } => {
                cone.known_prior()?;
                let lo = notion.lower().map_or(0.0, |l| (-l).exp());
                // PMC has no upper end (N rays, enumerated): BoxCut::new refuses it.
                let hi = notion.upper().map_or(f64::INFINITY, f64::exp);
                boxed(BoxCut::new(&p, lo, hi, false, utility)?)
            }
            _ => return None,
        },
        _ => return None,
    };
    Some(oracle)
}

/// Designs over more inputs than this price sets of exact mass first
/// ([`ExactMass`]); smaller ones prove their optimum by branch and bound in
/// well under a second.
const EXACT_MASS_ABOVE: usize = 32;

/// How far above `e^-eps` a set's mass may lie (relative): each set's
/// information density is then within this of eps (a hundredth of it where a
/// set that close is found, so that designs reach the default gap of 1e-9).
const EXACT_MASS_TOLERANCE: f64 = 1e-8;

/// `exact` with sets of mass just above `e^-epsilon` priced first
/// ([`ExactMass`]: columns `1_S / p(S)` of the cone when its largest density is
/// `e^epsilon`), for an f-information bounded by the density (mutual
/// information, chi-square, total variation, squared Hellinger: an exact cover
/// by such sets reaches each bound) past [`EXACT_MASS_ABOVE`] inputs; else `exact`.
fn with_exact_mass(
    exact: Box<dyn RayOracle + Send>,
    p: &[f64],
    epsilon: f64,
    (kind, utility): (Separable, &dyn Utility),
    deadline: Option<std::time::Instant>,
) -> Box<dyn RayOracle + Send> {
    let range = pmldesign_model::DensityRange::Levels {
        lower: None,
        upper: epsilon,
    };
    match (kind, utility.bound_on_density(range)) {
        (Separable::FInformation(_), Some(_)) if p.len() > EXACT_MASS_ABOVE && epsilon > 0.0 => {
            let tolerance = (EXACT_MASS_TOLERANCE, kind);
            Box::new(ExactMass::new(exact, p, epsilon, tolerance, deadline))
        }
        _ => exact,
    }
}

/// `exact` (the eps-LDP staircases, `e = e^eps`) with staircases on sets of
/// mass near the best top mass priced first ([`ExactMass::staircases`]: the
/// a-priori bound of §4d is reached by covers with such sets), for an
/// f-information past [`EXACT_MASS_ABOVE`] inputs; else `exact`.
fn with_staircase_sets(
    exact: Box<dyn RayOracle + Send>,
    p: &[f64],
    e: f64,
    kind: Separable,
    deadline: Option<std::time::Instant>,
) -> Box<dyn RayOracle + Send> {
    let Separable::FInformation(f) = kind else {
        return exact;
    };
    if p.len() <= EXACT_MASS_ABOVE {
        return exact;
    }
    // `exact` comes back when no best top mass lies inside (0, 1).
    let sets = |exact| ExactMass::staircases(exact, p, e, (EXACT_MASS_TOLERANCE, f), deadline);
    match sets(exact) {
        Ok(sets) => Box::new(sets),
        Err(exact) => exact,
    }
}

/// Start columns for `cone`: a randomized-response basis for the PML cones
/// (without it the master starts degenerate and large designs stall at utility 0
/// for many passes), the columns of k-ary randomized response for LDP, the box's
/// for PMC, ALIP and LIP. `Some(None)`: the cone needs none; `None`: no basis
/// fits, and the cone is left to enumeration.
pub(crate) fn start_columns(
    cone: &ColumnCone,
    reference: ArrayView1<f64>,
    utility: &dyn Utility,
) -> Option<Option<Vec<Column>>> {
    let e = cone.epsilon().exp();
    let value = |v: ArrayView1<f64>| utility.column_value(v, reference);
    let start = match cone {
        ColumnCone::PmlKnownPrior { .. } => crate::colgen::start::spikes(reference, e, 0.0, &value),
        // Prop 2's e^eps' for every radius (its cone is inside the exact one).
        ColumnCone::PmlL1Ball { beta, .. } => {
            let b = beta / 2.0;
            crate::colgen::start::spikes(reference, e / (1.0 + b * e), b, &value)
        }
        ColumnCone::Notion {
            notion: Notion::Ldp { epsilon },
            ..
        } => crate::colgen::start::staircase_spikes(reference, epsilon.exp(), &value),
        // PMC, ALIP, LIP of a known prior: the box `lo <= c_x <= hi`.
        ColumnCone::Notion { notion, .. } => {
            let lo = notion.lower().map_or(0.0, |l| (-l).exp());
            let hi = notion.upper().map_or(f64::INFINITY, f64::exp);
            crate::colgen::start::box_spikes(reference, lo, hi, &value)?
        }
        _ => return Some(None),
    };
    Some(Some(start))
}
