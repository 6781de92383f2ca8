//! From samples to guarantees (\[E\] Sec. III-IV, docs/theory.md §6): the
//! radius from m samples and delta, and the simpler route that designs for the
//! estimate alone at the level of \[E\] eqs. (8), (13).

use crate::error::Result;
use crate::objective::utility::Utility;
use crate::solution::guarantee::SimplerRoute;
use pmldesign_model::sample::RadiusMethod;
use pmldesign_model::{Prior, UncertaintySet, sample};

/// The l1 radius from m samples over the estimate's alphabet with failure
/// probability delta (\[E\] eq. (7) or Theorem 2).
pub fn radius(estimate: &Prior, samples: u64, delta: f64, method: RadiusMethod) -> Result<f64> {
    Ok(method.radius(samples, delta, estimate)?)
}

/// The simpler route for `design` over the ball `set` (\[E\] eqs. (8), (13)):
/// the optimal eps0-PML mechanism for the estimate alone, if eps0 exists.
pub(crate) fn simpler_route(
    set: &UncertaintySet,
    beta: f64,
    epsilon: f64,
    utility: &dyn Utility,
    settings: &crate::Settings,
) -> Result<Option<SimplerRoute>> {
    let Some(eps0) = sample::estimate_level(epsilon, beta) else {
        return Ok(None);
    };
    // An estimate with a zero is no known prior: that row would be unconstrained.
    if set.reference().iter().any(|&p| p <= 0.0) {
        return Ok(None);
    }
    let known = UncertaintySet::known(Prior::new(set.reference().to_vec())?);
    let s = crate::design::utility::design(&known, eps0, utility, settings)?;
    Ok(Some(SimplerRoute {
        epsilon_for_estimate: eps0,
        utility: s.utility_value,
        worst_case_pml: set.worst_case_pml(&s.mechanism),
        mechanism: s.mechanism,
    }))
}
