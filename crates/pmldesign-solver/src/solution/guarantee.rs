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
    pub epsilon_for_estimate: f64,
    /// Its optimal mechanism for the estimate.
    pub mechanism: Mechanism,
    /// Its utility under the estimate.
    pub utility: f64,
    /// Its exact worst-case PML over the ball (at most eps by (8)).
    pub worst_case_pml: f64,
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
    pub samples: u64,
    /// Failure probability delta over the sample.
    pub delta: f64,
    /// The radius beta.
    pub beta: f64,
    /// How beta was derived.
    pub radius_method: RadiusMethod,
    /// Caveats on the radius, if any.
    pub radius_note: Option<String>,
    /// The simpler route, when it exists (`e^-eps + beta/2 <= 1`) and the
    /// design maximises a utility.
    pub simpler_route: Option<SimplerRoute>,
    /// For a ball around noisy counts (`docs/theory.md` §6, "A private prior"): the
    /// level of the noise and how the radius was widened for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private_prior: Option<PrivateRadius>,
    /// The guarantee in words for the design's eps
    /// ([`pmldesign_model::statement::sample_guarantee`]; set with the design).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement: Option<String>,
}

impl Guarantee {
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
