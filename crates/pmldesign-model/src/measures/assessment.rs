//! Assessment of a given mechanism over a set of priors: every leakage figure of \[E\] for one matrix `W`,
//! a prior `p` and, optionally, a set of priors (`docs/theory.md` §2 and §6).
//!
//! - PML per outcome, `eps_min`, `eps_max`, the privacy region (\[E\] Thm 1, Defs 3-4)
//!   and the `(eps, delta)` tail curve (\[E\] Def 3).
//! - Over a set S of priors: the leakage capacity `C(W, S)` (\[E\] Def 5), the
//!   sensitivity `S_p(W, S)` (\[E\] Def 6), the Lipschitz constant `e^C` of \[E\] Thm 3
//!   and, for an l1 ball, the bounds of \[E\] Theorem 4 (eq. (6)) and Corollary 2 beside
//!   the exact values.
//! - The information-density lower bound: PMC per outcome and the ALIP/LIP levels
//!   (\[D\] Thm 1, Defs 4-5; see [`super::pmc`](mod@super::pmc) and [`super::lip`]).
//! - Prior-free figures: the LDP parameter and maximal leakage.
//!
//! ```
//! use pmldesign_model::{Mechanism, Prior, UncertaintySet, measures::Assessment};
//! // [E] Example 1: eps = ln(9/8), privacy region 1.
//! let w = Mechanism::from_rows(vec![
//!     vec![0.325, 0.225, 0.225, 0.225],
//!     vec![0.45, 0.1, 0.225, 0.225],
//!     vec![0.45, 0.225, 0.1, 0.225],
//!     vec![0.45, 0.225, 0.225, 0.1],
//! ])?;
//! let p = Prior::new(vec![0.4, 0.2, 0.2, 0.2])?;
//! let ball = UncertaintySet::l1_ball(p.clone(), 0.1)?;
//! let a = Assessment::new(&w, &p, Some(&ball))?;
//! assert!((a.eps_min - (9.0f64 / 8.0).ln()).abs() < 1e-12);
//! assert_eq!(a.privacy_region, 1);
//! let s = a.uncertainty.unwrap();
//! let t4 = s.theorem4.unwrap();
//! // Theorem 4 is tight for this extremal mechanism of the first region.
//! assert!((s.leakage_capacity - t4.capacity_bound.unwrap()).abs() < 1e-12);
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

use super::ldp::ldp_parameter;
use super::lip::lip_parameter;
use super::maximal_leakage::maximal_leakage;
use super::pmc::{pmc, pmc_per_outcome, worst_case_pmc};
use super::pml::{
    self, TailPoint, eps_max, pml_per_outcome, privacy_region, privacy_thresholds, tail_curve,
};
use super::sensitivity::{theorem4_bound, theorem4_sensitivity_bound};
use crate::error::{ModelError, Result};
use crate::mechanism::Mechanism;
use crate::notion::Notion;
use crate::prior::Prior;
use crate::uncertainty::UncertaintySet;
use serde::Serialize;

/// Theorem 4 and Corollary 2 beside the exact figures, for an l1 ball.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Theorem4Check {
    /// The l1 radius beta.
    pub beta: f64,
    /// `eps_min(W, p^)` at the centre of the ball, the eps the bounds are taken at.
    pub eps_min_at_center: f64,
    /// The privacy region k of `eps_min_at_center` for the centre (\[E\] Def 4).
    pub region: usize,
    /// Whether `beta < 2 min p^`, the hypothesis of Theorem 4.
    pub hypothesis_holds: bool,
    /// Theorem 4, eq. (6): the bound on the sensitivity ([`theorem4_sensitivity_bound`]);
    /// `None` outside its hypothesis.
    pub sensitivity_bound: Option<f64>,
    /// `eps_min_at_center + sensitivity_bound`: Theorem 4's bound on the capacity.
    pub capacity_bound: Option<f64>,
    /// `capacity_bound - C(W, S)` (>= 0; 0 where Theorem 4 is tight).
    pub capacity_slack: Option<f64>,
    /// Corollary 2 / eq. (8): `eps - ln(1 - e^eps beta/2)` ([`theorem4_bound`]);
    /// `None` when `beta e^eps >= 2`.
    pub corollary2_bound: Option<f64>,
    /// `corollary2_bound - C(W, S)` (>= 0).
    pub corollary2_slack: Option<f64>,
}

/// Leakage over a set of priors.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SetAssessment {
    /// The set S.
    pub set: UncertaintySet,
    /// `sup_{Q in S} l_Q(y)` for each outcome (`None` for an all-zero column).
    pub worst_case_pml_per_outcome: Vec<Option<f64>>,
    /// The leakage capacity `C(W, S) = sup_{Q in S} eps_min(W, Q)` (\[E\] Def 5), exact.
    pub leakage_capacity: f64,
    /// The sensitivity `S_p(W, S)` (\[E\] Def 6), exact (`sensitivity`).
    pub sensitivity: f64,
    /// `e^C`: eps_min is `e^C`-Lipschitz in the l1 distance on S (\[E\] Thm 3).
    pub lipschitz_constant: f64,
    /// Theorem 4 / Corollary 2 for an l1 ball; `None` for other sets.
    pub theorem4: Option<Theorem4Check>,
}

/// Every leakage figure of a mechanism under a prior and, optionally, a set of priors.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assessment {
    /// The prior p.
    pub prior: Prior,
    /// The mechanism W (rows are inputs).
    pub mechanism: Mechanism,
    /// Output marginal `q = p^T W`.
    pub output_probabilities: Vec<f64>,
    /// `l(y)` for each outcome, `None` when `q_y = 0` (\[E\] Thm 1).
    pub pml_per_outcome: Vec<Option<f64>>,
    /// `eps_min(W, p) = max_y l(y)`.
    pub eps_min: f64,
    /// `e^eps_min`.
    pub exp_eps_min: f64,
    /// `eps_max(p) = -ln min p`: every mechanism is eps_max-PML.
    pub eps_max: f64,
    /// The privacy region of eps_min (\[E\] Def 4).
    pub privacy_region: usize,
    /// The thresholds `eps_0 = 0, .., eps_N = inf` of the regions.
    pub region_thresholds: Vec<f64>,
    /// The `(eps, delta)` curve ([`tail_curve`]).
    pub tail_curve: Vec<TailPoint>,
    /// PMC of each outcome, `ln(q_y / min_x W[x][y])` (\[D\] Thm 1); `None` when
    /// `q_y = 0`, infinite when the column has a zero.
    pub pmc_per_outcome: Vec<Option<f64>>,
    /// The smallest eps for which W is eps-PMC: `max_y PMC(y)`. W is
    /// (pmc, eps_min)-ALIP (\[D\] Def 5).
    pub pmc: f64,
    /// The smallest LIP level `max(pmc, eps_min)` (\[D\] Def 4).
    pub lip_parameter: f64,
    /// The LDP parameter ([`ldp_parameter`]); infinite when a column mixes zeros and
    /// nonzeros.
    pub ldp_parameter: f64,
    /// Maximal leakage `ln sum_y max_x W[x][y]` ([`maximal_leakage`]).
    pub maximal_leakage: f64,
    /// Leakage over the set of priors, when one is given.
    pub uncertainty: Option<SetAssessment>,
}

impl SetAssessment {
    /// Assesses W over the set `s`, with `eps_min = eps_min(W, p)` under the prior
    /// (\[E\] Defs 5-6, Thms 3-4, Cor 2).
    fn new(mechanism: &Mechanism, s: &UncertaintySet, eps_min: f64) -> Self {
        let worst = s.worst_case_pml_per_output(mechanism);
        let capacity = s.worst_case_pml(mechanism);
        let theorem4 = match s {
            UncertaintySet::L1Ball { center, beta } => {
                let e = pml::eps_min(mechanism, center);
                let sensitivity_bound = theorem4_sensitivity_bound(e, *beta, center);
                let capacity_bound = sensitivity_bound.map(|b| e + b);
                let corollary2_bound = theorem4_bound(e, *beta);
                Some(Theorem4Check {
                    beta: *beta,
                    eps_min_at_center: e,
                    region: privacy_region(center, e),
                    hypothesis_holds: crate::uncertainty::within_proposition_2(center, *beta),
                    sensitivity_bound,
                    capacity_bound,
                    capacity_slack: capacity_bound.map(|b| b - capacity),
                    corollary2_bound,
                    corollary2_slack: corollary2_bound.map(|b| b - capacity),
                })
            }
            _ => None,
        };
        SetAssessment {
            set: s.clone(),
            worst_case_pml_per_outcome: worst,
            leakage_capacity: capacity,
            sensitivity: capacity - eps_min,
            lipschitz_constant: capacity.exp(),
            theorem4,
        }
    }
}

impl Assessment {
    /// Assesses W under p and, if given, over the set. Errors when W does not have one
    /// row per symbol of p, or the set is on a different alphabet.
    pub fn new(mechanism: &Mechanism, prior: &Prior, set: Option<&UncertaintySet>) -> Result<Self> {
        let n = prior.len();
        mechanism.check_inputs(prior)?;
        if let Some(s) = set
            && s.len() != n
        {
            return Err(ModelError::invalid(
                "uncertainty set",
                format!("{} symbols", s.len()),
                format!("the prior has {n} symbols"),
                "give priors of the set on the same alphabet as the prior",
            ));
        }
        let eps_min = pml::eps_min(mechanism, prior);
        let uncertainty = set.map(|s| SetAssessment::new(mechanism, s, eps_min));
        Ok(Assessment {
            prior: prior.clone(),
            mechanism: mechanism.clone(),
            output_probabilities: mechanism.output_marginal(prior).to_vec(),
            pml_per_outcome: pml_per_outcome(mechanism, prior),
            eps_min,
            exp_eps_min: eps_min.exp(),
            eps_max: eps_max(prior),
            privacy_region: privacy_region(prior, eps_min),
            region_thresholds: privacy_thresholds(prior),
            tail_curve: tail_curve(mechanism, prior)
                .into_iter()
                .map(|(epsilon, delta)| TailPoint { epsilon, delta })
                .collect(),
            pmc_per_outcome: pmc_per_outcome(mechanism, prior),
            pmc: pmc(mechanism, prior),
            lip_parameter: lip_parameter(mechanism, prior),
            ldp_parameter: ldp_parameter(mechanism),
            maximal_leakage: maximal_leakage(mechanism),
            uncertainty,
        })
    }
}

/// Everything the notions need to know about a mechanism over a set of priors:
/// the worst-case PML and PMC and the prior-free LDP parameter and maximal leakage.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotionLevels {
    /// Worst-case PML over the set (\[E\] Def 5).
    pub pml: f64,
    /// Worst-case PMC over the set (\[D\] Thm 1).
    #[serde(deserialize_with = "crate::serde_float::null_is_infinite")]
    pub pmc: f64,
    /// LDP parameter `max_y ln(max_x W / min_x W)`.
    #[serde(deserialize_with = "crate::serde_float::null_is_infinite")]
    pub ldp: f64,
    /// Maximal leakage `ln sum_y max_x W[x][y]`.
    pub maximal_leakage: f64,
    /// The metric-privacy level for the notion's distance
    /// ([`crate::measures::metric_level`]), when measured for a metric notion
    /// ([`NotionLevels::measure_notion`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metric: Option<f64>,
}

impl NotionLevels {
    /// Measures W over the set (exact worst cases of PML and PMC).
    pub fn measure(mechanism: &Mechanism, set: &UncertaintySet) -> Self {
        NotionLevels {
            pml: set.worst_case_pml(mechanism),
            pmc: worst_case_pmc(mechanism, set),
            ldp: ldp_parameter(mechanism),
            maximal_leakage: maximal_leakage(mechanism),
            metric: None,
        }
    }

    /// [`NotionLevels::measure`], and for a metric notion its level too
    /// (infinite when the distance matrix does not fit the mechanism).
    pub fn measure_notion(mechanism: &Mechanism, set: &UncertaintySet, notion: &Notion) -> Self {
        let mut levels = NotionLevels::measure(mechanism, set);
        if let Notion::Metric { .. } = notion {
            levels.metric = Some(match notion.distances(mechanism.inputs()) {
                Some(d) => crate::measures::metric_level(mechanism, d.view()),
                None => f64::INFINITY,
            });
        }
        levels
    }

    /// The smallest ALIP pair (PMC, PML).
    pub fn alip(&self) -> (f64, f64) {
        (self.pmc, self.pml)
    }

    /// The smallest LIP level, `max(PMC, PML)`.
    pub fn lip(&self) -> f64 {
        self.pmc.max(self.pml)
    }

    /// The largest excess of a measured level over the notion's target (0 or less
    /// when W satisfies the notion; NaN measurements count as infinite).
    pub fn excess(&self, notion: &Notion) -> f64 {
        let over = |measured: f64, target: f64| {
            if measured.is_nan() {
                f64::INFINITY
            } else {
                measured - target
            }
        };
        match *notion {
            Notion::Ldp { epsilon } => over(self.ldp, epsilon),
            // Unmeasured counts as failed: measure with `measure_notion`.
            Notion::Metric { epsilon, .. } => over(self.metric.unwrap_or(f64::INFINITY), epsilon),
            _ => {
                let u = notion
                    .upper()
                    .map_or(f64::NEG_INFINITY, |t| over(self.pml, t));
                let l = notion
                    .lower()
                    .map_or(f64::NEG_INFINITY, |t| over(self.pmc, t));
                u.max(l)
            }
        }
    }
}
