//! From samples to guarantees (\[E\] Sec. III-IV, docs/theory.md §6): an estimate from m samples
//! and a failure probability delta give an l1 radius beta; the design that is eps-PML
//! for every prior in `B_beta(p^)` is eps-PML for the true prior with probability at
//! least `1 - delta` over the sample.

use crate::error::Result;
use pmldesign_model::private_prior::{PrivateRadius, private_radius};
use pmldesign_model::sample::RadiusMethod;
use pmldesign_model::{Mechanism, Prior};
use serde::Serialize;

/// The simpler route (\[E\] eqs. (8), (13)): design eps0-PML for the estimate alone,
/// with eps0 chosen so that (8) gives eps over the ball.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimplerRoute {
    /// The level eps0 used for the estimate: `e^-eps0 = e^-eps + beta/2`.
    pub(crate) epsilon_for_estimate: f64,
    /// Its optimal mechanism for the estimate.
    pub(crate) mechanism: Mechanism,
    /// Its utility under the estimate.
    pub(crate) utility: f64,
    /// Its exact worst-case PML over the ball (at most eps by (8)).
    pub(crate) worst_case_pml: f64,
}

impl SimplerRoute {
    /// The level eps0 used for the estimate: `e^-eps0 = e^-eps + beta/2`.
    pub fn epsilon_for_estimate(&self) -> f64 {
        self.epsilon_for_estimate
    }

    /// Its optimal mechanism for the estimate.
    pub fn mechanism(&self) -> &Mechanism {
        &self.mechanism
    }

    /// Its utility under the estimate.
    pub fn utility(&self) -> f64 {
        self.utility
    }

    /// Its exact worst-case PML over the ball (at most eps by (8)).
    pub fn worst_case_pml(&self) -> f64 {
        self.worst_case_pml
    }
}

/// The (eps, delta) guarantee of a design from a sample (\[E\] Sec. III-IV,
/// docs/theory.md §6): with probability at least `1 - delta` over m samples, the
/// true prior lies in `B_beta(p^)`, so a mechanism eps-PML over the ball is eps-PML
/// for the true prior.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Guarantee {
    /// Sample size m; for a private prior, the noisy total `M~` (the true m is
    /// not published).
    pub(crate) samples: u64,
    /// Failure probability delta over the sample.
    pub(crate) delta: f64,
    /// The radius beta.
    pub(crate) beta: f64,
    /// How beta was derived.
    pub(crate) radius_method: RadiusMethod,
    /// Caveats on the radius, if any.
    pub(crate) radius_note: Option<String>,
    /// The simpler route, when it exists (`e^-eps + beta/2 <= 1`) and the
    /// design maximises a utility.
    pub(crate) simpler_route: Option<SimplerRoute>,
    /// For a ball around noisy counts (`docs/theory.md` §6, "A private prior"): the
    /// level of the noise and how the radius was widened for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) private_prior: Option<PrivateRadius>,
    /// The guarantee in words for the design's eps
    /// ([`pmldesign_model::statement::sample_guarantee`]; set with the design).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) statement: Option<String>,
}

impl Guarantee {
    /// Sample size m; for a private prior, the noisy total `M~` (the true m
    /// is not published).
    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// Failure probability delta over the sample.
    pub fn delta(&self) -> f64 {
        self.delta
    }

    /// The radius beta.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// How beta was derived.
    pub fn radius_method(&self) -> RadiusMethod {
        self.radius_method
    }

    /// Caveats on the radius, if any.
    pub fn radius_note(&self) -> Option<&str> {
        self.radius_note.as_deref()
    }

    /// The simpler route, when it exists (`e^-eps + beta/2 <= 1`) and the
    /// design maximises a utility.
    pub fn simpler_route(&self) -> Option<&SimplerRoute> {
        self.simpler_route.as_ref()
    }

    /// For a ball around noisy counts: the level of the noise and how the
    /// radius was widened for it.
    pub fn private_prior(&self) -> Option<&PrivateRadius> {
        self.private_prior.as_ref()
    }

    /// The guarantee in words for the design's eps.
    pub fn statement(&self) -> Option<&str> {
        self.statement.as_deref()
    }

    /// The guarantee of a design at level `epsilon`, with its sentence.
    pub fn stated_at(mut self, epsilon: f64) -> Self {
        use pmldesign_model::statement::{private_sample_guarantee, sample_guarantee};
        self.statement = Some(match &self.private_prior {
            None => sample_guarantee(epsilon, self.delta, self.samples),
            Some(p) => private_sample_guarantee(epsilon, self.delta, self.samples, p.epsilon),
        });
        self
    }

    /// The radius for (m, delta) over the estimate's alphabet, without the
    /// simpler route.
    pub fn new(estimate: &Prior, samples: u64, delta: f64, method: RadiusMethod) -> Result<Self> {
        let beta = method.radius(samples, delta, estimate)?;
        let radius_note = (method == RadiusMethod::Kappa).then(|| {
            "the kappa radius evaluates phi(kappa) at the estimate in place of the unknown prior (Theorem 2 needs the true kappa); use the distribution-free radius for a strict guarantee".to_string()
        });
        Ok(Guarantee {
            samples,
            delta,
            beta,
            radius_method: method,
            radius_note,
            simpler_route: None,
            private_prior: None,
            statement: None,
        })
    }

    /// The radius around a noisy estimate of noisy total `noisy_total`, its counts
    /// noised at level `epsilon_d`: the sample's radius at the least true total
    /// and delta/2, widened by the noise's bound at delta/2
    /// ([`pmldesign_model::private_prior`]).
    pub fn private(
        estimate: &Prior,
        noisy_total: u64,
        delta: f64,
        method: RadiusMethod,
        epsilon_d: f64,
    ) -> Result<Self> {
        let p = private_radius(method, noisy_total, delta, epsilon_d, estimate)?;
        let mut g = Guarantee::new(estimate, p.samples_lower, delta, method)?;
        g.samples = noisy_total;
        g.beta = p.beta();
        g.private_prior = Some(p);
        Ok(g)
    }
}
