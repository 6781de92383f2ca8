//! The certificate of a design for estimation: the larger of the notion's
//! floors and the bound the last LP's dual proves, stated only where a reader
//! re-derives it from the matrix as written.

use super::Iterate;
use crate::error::Result;
use crate::objective::estimation::{ESTIMATION_UTILITY_NAME, error_floor};
use crate::objective::estimation_mixture::Parts;
use crate::reference::baseline::Baselines;
use crate::solution::certificate::{Certificate, DualCertificate};
use crate::solution::design::{Design, DesignStatus, Run};
use ndarray::Array2;
use pmldesign_model::{Notion, UncertaintySet};

/// The design of the point `it`, its error `-utility_value` certified by the
/// larger of the floor `least` (over the priors `floor_priors`) and the
/// bound its stored dual proves. Where J is ill-conditioned (levels near 0)
/// J^-1 carries the rounding of its condition number, which can put a
/// reader's re-pricing past its tolerance: the dual is then kept only where a
/// reader re-proves it from the matrix as written ([`Design::verify`]), and
/// otherwise the floor alone is stated.
pub(super) fn certified(
    set: &UncertaintySet,
    notion: &Notion,
    it: Iterate,
    (utility_value, least, floor_priors): (f64, f64, Vec<Parts>),
    baselines: Baselines,
) -> Result<Design> {
    let reference = set.reference();
    let norm = reference.dot(&reference);
    let run = Run {
        rays: None,
        pricing: it.pricing,
        iterations: it.steps,
        rays_priced: it.rays_priced,
    };
    let assemble = |dual: Option<DualCertificate>, bound: f64| -> Result<Design> {
        let upper_bound = -(error_floor(norm - utility_value, bound, least) - norm);
        let mut certificate = Certificate::check_notion_feasible(
            &it.mechanism,
            set,
            notion,
            utility_value,
            upper_bound,
        )?;
        certificate.dual = dual;
        certificate.floor_priors = floor_priors.clone();
        let status = DesignStatus::from_gap(certificate.gap, utility_value, it.converged);
        Ok(Design::assembled(
            set,
            it.mechanism.clone(),
            (ESTIMATION_UTILITY_NAME.into(), utility_value),
            (status, certificate),
            baselines.clone(),
            run.clone(),
        ))
    };
    let design = assemble(it.dual.clone(), it.bound)?;
    let kept = it.dual.is_none()
        || match it.condition {
            kappa if kappa <= TRUSTED_CONDITION => true,
            _ if set.len() <= SELF_CHECK_UP_TO => design.verify().is_ok(),
            kappa => kappa <= UNTRUSTED_CONDITION,
        };
    match kept {
        true => Ok(design),
        false => assemble(None, f64::INFINITY),
    }
}

/// Condition numbers of J up to this are trusted to re-derive a dual's bound
/// within a reader's tolerance (1e-9 relative) without re-pricing it here.
const TRUSTED_CONDITION: f64 = 1e3;

/// Past [`TRUSTED_CONDITION`], designs over up to this many inputs are
/// re-checked as a reader checks them (a few milliseconds there).
const SELF_CHECK_UP_TO: usize = 64;

/// Past this condition number a larger design's dual is not stated (its
/// re-check would take a reader's seconds): levels near 0 only (about 2e3 to
/// 9e3 from 128 to 512 inputs at eps 0.5 and 1).
const UNTRUSTED_CONDITION: f64 = 1e6;

/// The condition number of `j` with inverse `inv`, estimated as
/// `N |J|_max |J^-1|_max`.
pub(super) fn condition(j: &Array2<f64>, inv: &Array2<f64>) -> f64 {
    let largest = |a: &Array2<f64>| a.iter().fold(0.0f64, |x, v| x.max(v.abs()));
    j.nrows() as f64 * largest(j) * largest(inv)
}
