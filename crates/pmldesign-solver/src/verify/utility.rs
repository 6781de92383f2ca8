//! Checking a stored design without trusting the solver that made it
//! (docs/theory.md §4, "Checking a stored design"): [`Design::verify`]
//! re-measures the utility on the matrix, re-prices the stored dual over every
//! ray of the cone, and accepts the stated upper bound only if a bound proven
//! here is at most it. Reading a design (the `record` module) has already
//! re-measured its privacy over the whole set.

use crate::colgen::engine::dual_bound;
use crate::colgen::oracle::RayOracle;
use crate::cones::rays::StructuredFamily;
use crate::error::Result;
use crate::limits::{MAX_DESIGN_LEVEL, MAX_GENERIC_N};
use crate::objective::estimation::{
    ESTIMATION_UTILITY_NAME, Linearised, error_floor, estimation_value,
};
use crate::objective::estimation_floor::{
    RELAXATION_STEPS, floor_of, mixture_floor, witnessed_floor,
};
use crate::objective::estimation_mixture::{Family, READER_SIZES};
use crate::objective::utility::{Utility, builtin};
use crate::pricing::choice::pricing_oracle;
use crate::pricing::enumerated::{MaterialisedRays, StructuredRays};
use crate::pricing::quadratic::QuadraticRays;
use crate::solution::certificate::DualCertificate;
use crate::solution::claims::agree;
use crate::solution::claims::altered;
use crate::solution::design::{Design, DesignStatus};
use crate::solution::route::Route;
use crate::tolerance::value_tolerance;
use crate::tolerance::{OPTIMALITY_GAP, gap_allowance};
use ndarray::Array1;
use pmldesign_model::frequency::{fisher_information, inverse_fisher};
use pmldesign_model::measures::NotionLevels;
use pmldesign_model::{ColumnCone, Mechanism, Notion, UncertaintySet};
use serde::Serialize;

/// Over which rays a stored dual was re-priced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Repricing {
    /// Every ray of the design's own cone (or, for a loss, its LP exactly).
    Exact,
    /// Every ray of a cone containing the design's (the estimate alone, for a
    /// ball past \[E\] Prop 2): a bound there holds for the design's cone too.
    Containing,
    /// Not re-priced: levels past what doubles represent (e^690), or rays beyond the
    /// enumeration limits; the identity's utility still bounds the optimum.
    Skipped,
    /// The design carries no dual (no LP was needed, or it was assembled from
    /// designs of blocks and rests on the a-priori bound).
    NoDual,
}

/// What [`Design::verify`] re-computed, independently of the solver's run.
#[derive(Debug, Clone, Serialize)]
pub struct Verification {
    /// The utility re-measured on the matrix (minus the expected loss for a loss).
    pub utility_value: f64,
    /// The smallest upper bound on the optimum proven here (for a loss, minus the
    /// largest lower bound on the loss): the re-priced dual, the utility's
    /// a-priori bound, or the identity's utility.
    pub proven_bound: f64,
    /// The bound the stored dual proves once re-priced (`None` without one or
    /// when not re-priced).
    pub dual_bound: Option<f64>,
    /// Where the dual was re-priced.
    pub repricing: Repricing,
}

impl Design {
    /// Re-checks the design's numbers from its matrix, set and dual, and returns
    /// them; an error names the field that does not hold (one line).
    pub fn verify(&self) -> Result<Verification> {
        let v = match &self.loss {
            Some(outcome) => {
                let c = crate::verify::loss::verify_loss(
                    &self.uncertainty,
                    &self.notion,
                    &self.mechanism,
                    outcome,
                )?;
                agree("loss.expected_loss", outcome.expected_loss, c.expected_loss)?;
                Verification {
                    utility_value: -c.expected_loss,
                    proven_bound: -c.lower_bound,
                    dual_bound: c.dual_bound.map(|b| -b),
                    repricing: c.repricing,
                }
            }
            None if self.utility_name == ESTIMATION_UTILITY_NAME => self.verify_estimation()?,
            None => self.verify_utility()?,
        };
        agree("utility.value", self.utility_value, v.utility_value)?;
        // The relative rule of the status: a bound below the proven one by more
        // than an optimal design's gap would let "optimal" stand for a wider gap.
        let stated = self.certificate.upper_bound;
        if stated < v.proven_bound - gap_allowance(OPTIMALITY_GAP, v.proven_bound) {
            return Err(altered(
                "certificate.upper_bound",
                stated,
                &format!("the best bound proven here is {}", v.proven_bound),
            ));
        }
        self.check_status(v.utility_value)?;
        Ok(v)
    }

    /// The utility re-measured and the stored dual re-priced.
    fn verify_utility(&self) -> Result<Verification> {
        let utility = builtin(&self.utility_name).ok_or_else(|| {
            altered(
                "utility.name",
                &self.utility_name,
                "not a built-in utility, so it cannot be re-measured",
            )
        })?;
        let reference = self.uncertainty.reference();
        let value = utility.value(&self.mechanism, reference.view());
        let identity = utility.value(
            &Mechanism::identity(self.uncertainty.len()),
            reference.view(),
        );
        // The design's own a-priori bound (its cone's); the notion's where no
        // cone is built (levels past what doubles represent).
        let a_priori = match ColumnCone::for_notion(&self.uncertainty, &self.notion) {
            Ok(cone) => crate::objective::a_priori::a_priori_bound(&cone, utility.as_ref()),
            Err(_) => (self.notion.density_range())
                .and_then(|r| utility.bound_on_density(r))
                .unwrap_or(f64::INFINITY),
        };
        let (dual_bound, repricing) = match &self.certificate.dual {
            None => (None, Repricing::NoDual),
            Some(dual) => self.reprice(dual, utility.as_ref())?,
        };
        let proven = dual_bound
            .unwrap_or(f64::INFINITY)
            .min(a_priori)
            .min(identity);
        Ok(Verification {
            utility_value: value,
            proven_bound: proven,
            dual_bound,
            repricing,
        })
    }

    /// A design for estimation (docs/theory.md §13, "Designing for
    /// estimation"): the error re-measured, the
    /// linearisation rebuilt from the stored matrix and the stored dual
    /// re-priced for it; `2 f - U` (at least the notion's floor, the closed
    /// form's or the relaxation's after all its steps) bounds the least error.
    fn verify_estimation(&self) -> Result<Verification> {
        let reference = self.uncertainty.reference();
        let p = reference.view();
        let norm = p.dot(&p);
        let inv = inverse_fisher(&fisher_information(&self.mechanism, p)).ok_or_else(|| {
            altered(
                "mechanism",
                "a singular channel",
                "not every input can be estimated from its outputs, so it is no design for estimation",
            )
        })?;
        // The error as the writer measures it (randomized response's closed
        // form where the matrix is one), so that both agree where J is
        // ill-conditioned; the linearisation from the inverse.
        let f = norm - estimation_value(&self.mechanism, p);
        let linear = Linearised(inv.dot(&inv));
        let identity = linear.identity_value(p);
        let (dual_bound, repricing) = match &self.certificate.dual {
            None => (None, Repricing::NoDual),
            Some(dual) => self.reprice(dual, &linear)?,
        };
        let u = dual_bound.unwrap_or(f64::INFINITY).min(identity);
        let mut least = floor_of(p, &self.notion, RELAXATION_STEPS);
        let in_utility = |u: f64, least: f64| -(error_floor(f, u, least) - norm);
        // The mixture floor costs seconds: it is computed only for a bound
        // the others do not prove, first over the priors the design names,
        // then (to 64 inputs) over the whole wider family.
        let stated = self.certificate.upper_bound;
        let unproven = |least: f64| {
            let proven = in_utility(u, least);
            stated < proven - gap_allowance(OPTIMALITY_GAP, proven)
        };
        let range = self.notion.density_range();
        if unproven(least) && !self.certificate.floor_priors.is_empty() {
            let named = witnessed_floor(p, range, &self.certificate.floor_priors);
            least = least.max(named.unwrap_or(least));
        }
        if unproven(least) && READER_SIZES.contains(&p.len()) {
            let wide = mixture_floor(p, range, Family::HeadPairs).map(|m| m.floor);
            least = least.max(wide.unwrap_or(least));
        }
        let in_utility = |u: f64| in_utility(u, least);
        Ok(Verification {
            utility_value: -(f - norm),
            proven_bound: in_utility(u),
            dual_bound: dual_bound.map(in_utility),
            repricing,
        })
    }

    /// The bound `dual` proves over every ray (module docs), checked against its
    /// stated bound.
    fn reprice(
        &self,
        dual: &DualCertificate,
        utility: &dyn Utility,
    ) -> Result<(Option<f64>, Repricing)> {
        let lambda = stored_lambda("certificate.dual.lambda", dual, self.uncertainty.len())?;
        let levels = [
            self.notion.upper(),
            self.notion.lower(),
            Some(self.notion.epsilon()),
        ];
        if levels.into_iter().flatten().any(|l| l > MAX_DESIGN_LEVEL) {
            return Ok((None, Repricing::Skipped));
        }
        // Pruned at the stated reduced cost: a ray above it is found (or its
        // node left open, and the claim refused), and a search no finer than
        // the claim needs never stops at its node budget with a looser bound
        // than the claim (which refused true claims of gap-limited designs).
        let stated = dual.max_reduced_cost;
        let tol = if stated.is_finite() {
            stated.max(0.0)
        } else {
            0.0
        };
        let Some((bound, how)) = repriced(
            &self.uncertainty,
            &self.notion,
            utility,
            (&lambda, tol),
            self.pricing,
        )?
        else {
            return Ok((None, Repricing::Skipped));
        };
        check_dual_bound("certificate.dual", dual, bound)?;
        Ok((Some(bound), how))
    }

    /// `optimal` needs a gap of at most `max(1e-9 |U|, 1e-15)`; the identity
    /// needs to meet the notion for `no_privacy_needed`.
    fn check_status(&self, value: f64) -> Result<()> {
        let gap = self.certificate.gap;
        match self.status {
            DesignStatus::Optimal if gap > gap_allowance(OPTIMALITY_GAP, value) => Err(altered(
                "status",
                "optimal",
                &format!("the certified gap is {gap:e}"),
            )),
            DesignStatus::NoPrivacyNeeded
                if NotionLevels::measure(
                    &Mechanism::identity(self.uncertainty.len()),
                    &self.uncertainty,
                )
                .excess(&self.notion)
                    > 0.0 =>
            {
                Err(altered(
                    "status",
                    "no_privacy_needed",
                    "the identity does not meet the notion",
                ))
            }
            _ => Ok(()),
        }
    }
}

/// The dual bound `sum(lambda) + max(0, max reduced cost)` over every ray of the
/// notion's cone, with how it was priced; `None` when the rays are beyond reach.
/// An inner/outer design is priced over the estimate's cone, which contains
/// the ball's (that method's dual is that cone's); a quadratic search by its
/// majorants.
fn repriced(
    set: &UncertaintySet,
    notion: &Notion,
    utility: &dyn Utility,
    (lambda, tol): (&Array1<f64>, f64),
    route: Route,
) -> Result<Option<(f64, Repricing)>> {
    let containing = route == Route::BranchAndBoundInnerOuter;
    let reference = set.reference();
    let r = reference.view();
    let ones = Array1::ones(set.len());
    let ones_value = utility.column_value(ones.view(), r);
    // Nodes pruned at `tol` (the stated reduced cost; at least 1e-13 relative).
    let bound = |o: &dyn RayOracle| dual_bound(o, ones_value, lambda, tol);
    if let (true, UncertaintySet::L1Ball { center, .. }) = (containing, set) {
        let outer = ColumnCone::pml(&UncertaintySet::known(center.clone()), notion.epsilon())?;
        let oracle = pricing_oracle(&outer, r, utility, None);
        return Ok(oracle.map(|o| (bound(&*o), Repricing::Containing)));
    }
    let cone = ColumnCone::for_notion(set, notion)?;
    if let Some(o) = pricing_oracle(&cone, r, utility, None) {
        return Ok(Some((bound(&*o), Repricing::Exact)));
    }
    let n = cone.dimension();
    if route == Route::QuadraticSearch {
        // The majorants' bound: the same function of lambda the design's
        // pricing stated (docs/theory.md §13).
        let o = utility
            .quadratic()
            .and_then(|c| QuadraticRays::new(&cone, r, c, 0.0));
        return Ok(o.map(|o| (bound(&o), Repricing::Exact)));
    }
    if matches!(
        cone,
        ColumnCone::PmlKnownPrior { .. } | ColumnCone::PmlL1Ball { .. }
    ) {
        if n > crate::limits::MAX_STRUCTURED_N {
            return Ok(None);
        }
        let family = StructuredFamily::new(&cone)?;
        let oracle = StructuredRays::new(&family, utility, reference.to_owned());
        return Ok(Some((bound(&oracle), Repricing::Exact)));
    }
    if n > MAX_GENERIC_N.max(16) {
        return Ok(None);
    }
    let Ok(set_of_rays) = crate::cones::rays::enumerate(&cone) else {
        return Ok(None);
    };
    let mu = (0..set_of_rays.len())
        .map(|k| utility.column_value(set_of_rays.ray(k), r))
        .collect();
    Ok(Some((
        bound(&MaterialisedRays::new(&set_of_rays, mu)),
        Repricing::Exact,
    )))
}

/// A stored dual's lambda: one finite entry per input.
pub(crate) fn stored_lambda(field: &str, dual: &DualCertificate, n: usize) -> Result<Array1<f64>> {
    if dual.lambda.len() != n || dual.lambda.iter().any(|x| !x.is_finite()) {
        return Err(altered(
            field,
            format!("{} entries", dual.lambda.len()),
            &format!("expected {n} finite numbers"),
        ));
    }
    Ok(Array1::from(dual.lambda.clone()))
}

/// Checks a stored dual against its re-priced bound: `bound` must be
/// `sum(lambda) + max(0, max_reduced_cost)`, and re-pricing may not find a
/// larger reduced cost than the stated one.
pub(crate) fn check_dual_bound(field: &str, dual: &DualCertificate, repriced: f64) -> Result<()> {
    let own = DualCertificate::new(dual.lambda.clone(), dual.max_reduced_cost).bound;
    if (own - dual.bound).abs() > value_tolerance(own) {
        return Err(altered(
            &format!("{field}.bound"),
            dual.bound,
            &format!("sum(lambda) + max(0, max_reduced_cost) is {own}"),
        ));
    }
    if repriced > dual.bound + gap_allowance(OPTIMALITY_GAP, dual.bound) {
        return Err(altered(
            &format!("{field}.lambda"),
            format!("(sum {})", dual.lambda.iter().sum::<f64>()),
            &format!(
                "re-priced over every ray it proves only {repriced}, not the stated {}",
                dual.bound
            ),
        ));
    }
    Ok(())
}
