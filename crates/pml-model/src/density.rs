//! Measures of a given mechanism under every information-density notion, and the
//! conversions between the notions ([D] = the PMC paper; [T] = the thesis).
//!
//! With `i(x; y) = ln(W[x][y] / q_y)`: PML of an output is `max_x i(x; y)` ([E] Thm 1),
//! PMC is `-min_x i(x; y) = ln(q_y / min_x W[x][y])` ([D] Thm 1), a mechanism is
//! (eps_l, eps_u)-ALIP iff its PMC is at most eps_l and its PML at most eps_u
//! ([D] Def 5), eps-LIP iff both are at most eps ([D] Def 4). The LDP parameter and
//! maximal leakage are those of [`crate::assessment`].
//!
//! ```
//! use pml_model::{Prior, density};
//! // [D] Example 3: randomized response with e_r = 1 on p = (0.5, 0.3, 0.2).
//! let p = Prior::new(vec![0.5, 0.3, 0.2])?;
//! let e = 1.0f64.exp();
//! let w = pml_model::Mechanism::from_rows(vec![
//!     vec![e / (e + 2.0), 1.0 / (e + 2.0), 1.0 / (e + 2.0)],
//!     vec![1.0 / (e + 2.0), e / (e + 2.0), 1.0 / (e + 2.0)],
//!     vec![1.0 / (e + 2.0), 1.0 / (e + 2.0), e / (e + 2.0)],
//! ])?;
//! assert!((density::pmc(&w, &p) - (1.0 + 0.5 * (e - 1.0)).ln()).abs() < 1e-12);
//! # Ok::<(), pml_model::ModelError>(())
//! ```

use crate::assessment::{ldp_parameter, maximal_leakage};
use crate::mechanism::Mechanism;
use crate::notion::Notion;
use crate::prior::Prior;
use crate::uncertainty::UncertaintySet;
use ndarray::ArrayView1;
use serde::Serialize;

/// PMC of one output with likelihood column `c` under the prior (or vertex) `r`
/// ([D] Thm 1): `ln(r . c / min_x c_x)`, the minimum over the x with `r_x > 0`.
/// `None` when the output has probability 0; infinite when `c` has a zero where
/// `r` has mass.
pub fn column_pmc(column: ArrayView1<f64>, r: ArrayView1<f64>) -> Option<f64> {
    let q = r.dot(&column);
    if q <= 0.0 {
        return None;
    }
    let min = column
        .iter()
        .zip(r.iter())
        .filter(|(_, rx)| **rx > 0.0)
        .map(|(c, _)| *c)
        .fold(f64::INFINITY, f64::min);
    Some(if min <= 0.0 {
        f64::INFINITY
    } else {
        (q / min).ln().max(0.0)
    })
}

/// PMC of every output ([D] Thm 1), `None` for outputs of probability 0.
pub fn pmc_per_outcome(mechanism: &Mechanism, prior: &Prior) -> Vec<Option<f64>> {
    mechanism
        .columns()
        .map(|c| column_pmc(c, prior.masses()))
        .collect()
}

/// The smallest eps for which W is eps-PMC w.r.t. p: `max_y PMC(y)`.
pub fn pmc(mechanism: &Mechanism, prior: &Prior) -> f64 {
    pmc_per_outcome(mechanism, prior)
        .into_iter()
        .flatten()
        .fold(0.0, f64::max)
}

/// Worst-case PMC over a set of priors: `max_y ln(max_{Q in S} Q . c / min_x c_x)`,
/// the supremum of [D] Thm 1 over the set (the minimum runs over every x, as the
/// set's full-support priors see every input). `Q . c` is linear in Q, so the
/// maximum is at a vertex; for the ball it is the greedy transfer of beta/2 onto
/// the largest entry (the mirror of [E] App. D).
pub fn worst_case_pmc(mechanism: &Mechanism, set: &UncertaintySet) -> f64 {
    mechanism
        .columns()
        .filter_map(|c| {
            let q = max_output_probability(set, c);
            if q <= 0.0 {
                return None;
            }
            let min = c.iter().copied().fold(f64::INFINITY, f64::min);
            Some(if min <= 0.0 {
                f64::INFINITY
            } else {
                (q / min).ln().max(0.0)
            })
        })
        .fold(0.0, f64::max)
}

/// `max_{Q in S} Q . c` for a non-negative column: exact for every set.
pub fn max_output_probability(set: &UncertaintySet, c: ArrayView1<f64>) -> f64 {
    set.max_output_probability(c)
}

/// The smallest `(eps_l, eps_u)` for which W is ALIP ([D] Def 5): (PMC, PML).
pub fn alip_parameters(mechanism: &Mechanism, prior: &Prior) -> (f64, f64) {
    (
        pmc(mechanism, prior),
        crate::measures::eps_min(mechanism, prior),
    )
}

/// The smallest eps for which W is eps-LIP ([D] Def 4): `max(PMC, PML)`.
pub fn lip_parameter(mechanism: &Mechanism, prior: &Prior) -> f64 {
    let (l, u) = alip_parameters(mechanism, prior);
    l.max(u)
}

/// Everything the notions need to know about a mechanism over a set of priors:
/// the worst-case PML and PMC and the prior-free LDP parameter and maximal leakage.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, serde::Deserialize)]
pub struct NotionLevels {
    /// Worst-case PML over the set ([E] Def 5).
    pub pml: f64,
    /// Worst-case PMC over the set ([D] Thm 1).
    #[serde(deserialize_with = "crate::serde_float::null_is_infinite")]
    pub pmc: f64,
    /// LDP parameter `max_y ln(max_x W / min_x W)`.
    #[serde(deserialize_with = "crate::serde_float::null_is_infinite")]
    pub ldp: f64,
    /// Maximal leakage `ln sum_y max_x W[x][y]`.
    pub maximal_leakage: f64,
}

impl NotionLevels {
    /// Measures W over the set (exact worst cases of PML and PMC).
    pub fn measure(mechanism: &Mechanism, set: &UncertaintySet) -> Self {
        NotionLevels {
            pml: set.worst_case_pml(mechanism),
            pmc: worst_case_pmc(mechanism, set),
            ldp: ldp_parameter(mechanism),
            maximal_leakage: maximal_leakage(mechanism),
        }
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

/// eps-LDP gives this PML ([T] Prop 5.30, [D] Prop 1 eps_2):
/// `-ln(p_min + e^-eps (1 - p_min))`; exact for randomized response ([T] Ex 5.31).
pub fn ldp_to_pml(epsilon: f64, p_min: f64) -> f64 {
    -(p_min + (-epsilon).exp() * (1.0 - p_min)).ln()
}

/// eps-LDP gives this PMC ([D] Prop 3): `ln(e^eps - p_min (e^eps - 1))`, which is
/// the LIP level eps_1 of [D] Prop 1, `ln(p_min + e^eps (1 - p_min))`.
pub fn ldp_to_pmc(epsilon: f64, p_min: f64) -> f64 {
    (p_min + epsilon.exp() * (1.0 - p_min)).ln()
}

/// eps-LDP gives (eps_1, eps_2)-ALIP ([D] Prop 1): `(ldp_to_pmc, ldp_to_pml)`.
pub fn ldp_to_alip(epsilon: f64, p_min: f64) -> (f64, f64) {
    (ldp_to_pmc(epsilon, p_min), ldp_to_pml(epsilon, p_min))
}

/// eps-LDP gives eps_1-LIP ([D] Prop 1).
pub fn ldp_to_lip(epsilon: f64, p_min: f64) -> f64 {
    let (l, u) = ldp_to_alip(epsilon, p_min);
    l.max(u)
}

/// eps_u-PML gives eps*_l(eps_u)-PMC in the high-privacy regime
/// `eps_u < -ln(1 - p_min)` ([D] Thm 4 (1)): `ln(p_min / (1 - e^eps_u (1 - p_min)))`;
/// infinite outside it ([D] Remark 5).
pub fn pml_to_pmc(epsilon_upper: f64, p_min: f64) -> f64 {
    let d = 1.0 - epsilon_upper.exp() * (1.0 - p_min);
    if d <= 0.0 {
        f64::INFINITY
    } else {
        (p_min / d).ln().max(0.0)
    }
}

/// eps_l-PMC gives eps*_u(eps_l)-PML ([D] Thm 4 (2)):
/// `ln((1 - e^-eps_l (1 - p_min)) / p_min)`.
pub fn pmc_to_pml(epsilon_lower: f64, p_min: f64) -> f64 {
    ((1.0 - (-epsilon_lower).exp() * (1.0 - p_min)) / p_min)
        .ln()
        .max(0.0)
}

/// (eps_l, eps_u)-ALIP gives (eps_l + eps_u)-LDP ([D] Sec. II-D, from its ref. [19]
/// Prop 1); eps-LIP gives 2 eps-LDP.
pub fn alip_to_ldp(epsilon_lower: f64, epsilon_upper: f64) -> f64 {
    epsilon_lower + epsilon_upper
}

/// The guarantees eps_u-PML implies ([D] Cor 3 (1)): (eps*_l, eps_u)-ALIP, so
/// `max(eps*_l, eps_u)`-LIP and `(eps*_l + eps_u)`-LDP. Infinite outside the
/// high-privacy regime.
pub fn pml_to_alip(epsilon_upper: f64, p_min: f64) -> (f64, f64) {
    (pml_to_pmc(epsilon_upper, p_min), epsilon_upper)
}

/// The guarantees eps_l-PMC implies ([D] Cor 3 (2)): (eps_l, eps*_u)-ALIP.
pub fn pmc_to_alip(epsilon_lower: f64, p_min: f64) -> (f64, f64) {
    (epsilon_lower, pmc_to_pml(epsilon_lower, p_min))
}

/// PMC of k-ary randomized response with LDP parameter `e_r` ([D] Example 3):
/// `ln(1 + max_x p_x (e^e_r - 1))`.
pub fn randomized_response_pmc(ldp_epsilon: f64, p_max: f64) -> f64 {
    (1.0 + p_max * ldp_epsilon.exp_m1()).ln()
}

#[cfg(test)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;

    #[test]
    fn theorem_4_curves_are_inverse_for_uniform_binary() {
        // [D] Cor 4: for the uniform binary prior eps*_u(eps*_l(eps)) = eps.
        for &eps in &[0.05, 0.3, 0.6] {
            assert_abs_diff_eq!(pmc_to_pml(pml_to_pmc(eps, 0.5), 0.5), eps, epsilon = 1e-12);
        }
        assert!(pml_to_pmc(2.0f64.ln(), 0.5).is_infinite());
    }
}
