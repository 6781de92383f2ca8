//! From samples to guarantees ([E] Sec. III-IV, docs/theory.md §6): an estimate from m samples
//! and a failure probability delta give an l1 radius beta; the design that is eps-PML
//! for every prior in `B_beta(p^)` is eps-PML for the true prior with probability at
//! least `1 - delta` over the sample.

use crate::design::{Design, DesignSettings, design, design_with_progress};
use crate::error::Result;
use crate::ray_lp::Progress;
use crate::utility::Utility;
pub use pml_model::sample::RadiusMethod;
use pml_model::{Mechanism, Prior, UncertaintySet, sample};
use serde::Serialize;

/// The simpler route ([E] eqs. (8), (13)): design eps0-PML for the estimate alone,
/// with eps0 chosen so that (8) gives eps over the ball.
#[derive(Debug, Clone, Serialize)]
pub struct SimplerRoute {
    /// The level eps0 used for the estimate: `e^-eps0 = e^-eps + beta/2`.
    pub epsilon_for_estimate: f64,
    /// Its optimal mechanism for the estimate.
    pub mechanism: Mechanism,
    /// Its utility under the estimate.
    pub utility: f64,
    /// Its exact worst-case PML over the ball (at most eps by (8)).
    pub worst_case_pml: f64,
}

/// A design from samples with its (eps, delta) guarantee.
#[derive(Debug, Clone, Serialize)]
pub struct SampleDesign {
    /// The certified design over the ball `B_beta(p^)`.
    pub design: Design,
    /// Sample size m.
    pub samples: u64,
    /// Failure probability delta over the sample.
    pub delta: f64,
    /// The radius beta.
    pub beta: f64,
    /// How beta was derived.
    pub radius_method: RadiusMethod,
    /// The guarantee in words.
    pub statement: String,
    /// Caveats on the radius, if any.
    pub radius_note: Option<String>,
    /// The simpler route, when it exists (`e^-eps + beta/2 <= 1`).
    pub simpler_route: Option<SimplerRoute>,
}

/// The l1 radius from m samples over the estimate's alphabet with failure
/// probability delta ([E] eq. (7) or Theorem 2).
pub fn radius(estimate: &Prior, samples: u64, delta: f64, method: RadiusMethod) -> Result<f64> {
    Ok(match method {
        RadiusMethod::DistributionFree => sample::radius_free(samples, delta, estimate.len())?,
        RadiusMethod::Kappa => sample::radius_kappa(samples, delta, estimate)?,
    })
}

/// Designs from an estimate of m samples: the optimal mechanism that is eps-PML for
/// every prior in `B_beta(p^)` (Proposition 2, or the exact ball past it), with the
/// guarantee and the simpler route beside it.
pub fn design_from_sample(
    estimate: &Prior,
    samples: u64,
    delta: f64,
    method: RadiusMethod,
    epsilon: f64,
    utility: &dyn Utility,
    settings: &DesignSettings,
) -> Result<SampleDesign> {
    design_from_sample_with_progress(
        estimate,
        samples,
        delta,
        method,
        epsilon,
        utility,
        settings,
        &mut |_| {},
    )
}

/// [`design_from_sample`], reporting progress of the main design.
#[allow(clippy::too_many_arguments)]
pub fn design_from_sample_with_progress(
    estimate: &Prior,
    samples: u64,
    delta: f64,
    method: RadiusMethod,
    epsilon: f64,
    utility: &dyn Utility,
    settings: &DesignSettings,
    progress: &mut dyn FnMut(Progress),
) -> Result<SampleDesign> {
    let beta = radius(estimate, samples, delta, method)?;
    let set = UncertaintySet::l1_ball(estimate.clone(), beta)?;
    let d = design_with_progress(&set, epsilon, utility, settings, progress)?;
    let simpler_route = match sample::estimate_level(epsilon, beta) {
        Some(eps0) => {
            let known = UncertaintySet::known(estimate.clone());
            let s = design(&known, eps0, utility, settings)?;
            Some(SimplerRoute {
                epsilon_for_estimate: eps0,
                utility: s.utility_value,
                worst_case_pml: set.worst_case_pml(&s.mechanism),
                mechanism: s.mechanism,
            })
        }
        None => None,
    };
    let statement = format!(
        "with probability at least 1 - {delta} over the sample of {samples}, the mechanism is {epsilon}-PML for the true distribution"
    );
    let radius_note = (method == RadiusMethod::Kappa).then(|| {
        "the kappa radius evaluates phi(kappa) at the estimate in place of the unknown prior (Theorem 2 needs the true kappa); use the distribution-free radius for a strict guarantee".to_string()
    });
    Ok(SampleDesign {
        design: d,
        samples,
        delta,
        beta,
        radius_method: method,
        statement,
        radius_note,
        simpler_route,
    })
}
