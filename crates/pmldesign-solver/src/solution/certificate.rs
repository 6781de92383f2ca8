//! The certificate every design carries: the mechanism is re-measured with the
//! measure functions of `pmldesign-model` (not with the cone it was built from), and a
//! failed check is an error, never a warning.

use crate::error::{Result, SolverError};
use crate::tolerance::{BOUND_ROUNDING, GAP_TOLERANCE, PML_TOLERANCE};
use pmldesign_model::measures::NotionLevels;
use pmldesign_model::mechanism::CERTIFIED_ROW_SUM_TOLERANCE;
use pmldesign_model::{Mechanism, Notion, UncertaintySet};
use serde::Serialize;

fn pml_tolerance() -> f64 {
    PML_TOLERANCE
}

/// The LP dual behind a design's upper bound: `lambda . v >= mu(v) -
/// max_reduced_cost` for every extreme ray v (normalised by `p . v = 1`), so
/// `sum(lambda) + max(0, max_reduced_cost)` bounds the utility of every
/// mechanism in the cone. The certificate's `upper_bound` is this, or a smaller
/// a-priori bound (`I(X;Y) <= eps` for mutual information).
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DualCertificate {
    /// The dual vector lambda, one entry per input.
    pub(crate) lambda: Vec<f64>,
    /// A certified upper bound on `max_v mu(v) - lambda . v` over every ray
    /// (infinite, written `null`, when a search stopped without one).
    #[serde(deserialize_with = "pmldesign_model::serde_float::null_is_infinite")]
    pub(crate) max_reduced_cost: f64,
    /// `sum(lambda) + max(0, max_reduced_cost)` (`null` when infinite).
    #[serde(deserialize_with = "pmldesign_model::serde_float::null_is_infinite")]
    pub(crate) bound: f64,
}

impl DualCertificate {
    /// The certificate of `lambda` with the bound `max_reduced_cost` on its
    /// largest reduced cost.
    pub fn new(lambda: Vec<f64>, max_reduced_cost: f64) -> Self {
        let bound = lambda.iter().sum::<f64>() + max_reduced_cost.max(0.0);
        DualCertificate {
            lambda,
            max_reduced_cost,
            bound,
        }
    }

    /// The dual vector lambda, one entry per input.
    pub fn lambda(&self) -> &[f64] {
        &self.lambda
    }

    /// A certified upper bound on `max_v mu(v) - lambda . v` over every ray
    /// (infinite when a search stopped without one).
    pub fn max_reduced_cost(&self) -> f64 {
        self.max_reduced_cost
    }

    /// `sum(lambda) + max(0, max_reduced_cost)`: the bound this dual proves.
    pub fn bound(&self) -> f64 {
        self.bound
    }
}

/// Evidence that a mechanism is valid, private and optimal.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Certificate {
    /// The notion certified, with its levels.
    pub(crate) notion: Notion,
    /// The target eps (the notion's headline level, eps_u for ALIP).
    pub(crate) target_epsilon: f64,
    /// The mechanism re-measured under every notion: worst-case PML and PMC over
    /// the set, LDP parameter, maximal leakage.
    pub(crate) levels: NotionLevels,
    /// `max_y sup_{Q in S} l_Q(y)`, exact over the whole uncertainty set.
    pub(crate) worst_case_pml: f64,
    /// The same per output.
    pub(crate) worst_case_pml_per_output: Vec<f64>,
    /// `max_x |sum_y W[x][y] - 1|`, at most 1e-12.
    pub(crate) max_row_sum_error: f64,
    /// The largest excess of a measured level over its target that the check
    /// accepts ([`PML_TOLERANCE`]).
    #[serde(default = "pml_tolerance")]
    pub(crate) tolerance: f64,
    /// Smallest entry, at least 0.
    pub(crate) min_entry: f64,
    /// Utility of the mechanism, measured on the matrix.
    pub(crate) utility_value: f64,
    /// LP dual bound: no mechanism in the feasible set has larger utility
    /// (infinite, written `null`, when a run stopped before proving one).
    #[serde(deserialize_with = "pmldesign_model::serde_float::null_is_infinite")]
    pub(crate) upper_bound: f64,
    /// `upper_bound - utility_value` (`null` when infinite).
    #[serde(deserialize_with = "pmldesign_model::serde_float::null_is_infinite")]
    pub(crate) gap: f64,
    /// The dual evidence behind the bound, when an LP over rays was solved:
    /// anyone can check it without trusting the solver (docs/theory.md §4b).
    pub(crate) dual: Option<DualCertificate>,
    /// Under eps-LDP, for estimation: the priors of few levels whose mixture
    /// floor proves the bound (docs/theory.md §13), each as `[count, relative
    /// mass]` per level in decreasing order of the prior's masses. A reader
    /// recomputes the floor from them; empty where no such floor was used.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) floor_priors: Vec<Vec<(usize, f64)>>,
}

impl Certificate {
    /// The notion certified, with its levels.
    pub fn notion(&self) -> &Notion {
        &self.notion
    }

    /// The target eps (the notion's headline level, eps_u for ALIP).
    pub fn target_epsilon(&self) -> f64 {
        self.target_epsilon
    }

    /// The mechanism re-measured under every notion: worst-case PML and PMC
    /// over the set, LDP parameter, maximal leakage.
    pub fn levels(&self) -> &NotionLevels {
        &self.levels
    }

    /// `max_y sup_{Q in S} l_Q(y)`, exact over the whole uncertainty set.
    pub fn worst_case_pml(&self) -> f64 {
        self.worst_case_pml
    }

    /// The worst-case PML of each output.
    pub fn worst_case_pml_per_output(&self) -> &[f64] {
        &self.worst_case_pml_per_output
    }

    /// `max_x |sum_y W[x][y] - 1|`, at most 1e-12.
    pub fn max_row_sum_error(&self) -> f64 {
        self.max_row_sum_error
    }

    /// The largest excess of a measured level over its target that the check
    /// accepts ([`PML_TOLERANCE`]).
    pub fn tolerance(&self) -> f64 {
        self.tolerance
    }

    /// The smallest entry of the mechanism, at least 0.
    pub fn min_entry(&self) -> f64 {
        self.min_entry
    }

    /// The utility of the mechanism, measured on the matrix.
    pub fn utility_value(&self) -> f64 {
        self.utility_value
    }

    /// The dual bound: no mechanism in the feasible set has a larger utility
    /// (infinite when a run stopped before proving one).
    pub fn upper_bound(&self) -> f64 {
        self.upper_bound
    }

    /// `upper_bound - utility_value` (infinite without a bound).
    pub fn gap(&self) -> f64 {
        self.gap
    }

    /// The dual evidence behind the bound, when an LP over rays was solved.
    pub fn dual(&self) -> Option<&DualCertificate> {
        self.dual.as_ref()
    }

    /// Under eps-LDP, for estimation: the priors of few levels whose mixture
    /// floor proves the bound, each as `[count, relative mass]` per level;
    /// empty where no such floor was used.
    pub fn floor_priors(&self) -> &[Vec<(usize, f64)>] {
        &self.floor_priors
    }

    /// Measures `mechanism` and checks it: entries `>= 0`, row sums within 1e-12,
    /// worst-case PML over `set` at most `epsilon + 1e-10`, and the utility within
    /// a relative 1e-7 of the dual bound (and not above it).
    pub fn check(
        mechanism: &Mechanism,
        set: &UncertaintySet,
        epsilon: f64,
        utility_value: f64,
        upper_bound: f64,
    ) -> Result<Self> {
        let notion = Notion::Pml { epsilon };
        Certificate::check_notion(mechanism, set, &notion, utility_value, upper_bound)
    }

    /// [`Certificate::check`] for any notion: the measured levels
    /// ([`NotionLevels::measure`], not the cone) must meet the notion's targets
    /// within 1e-10.
    pub fn check_notion(
        mechanism: &Mechanism,
        set: &UncertaintySet,
        notion: &Notion,
        utility_value: f64,
        upper_bound: f64,
    ) -> Result<Self> {
        let cert =
            Certificate::check_notion_feasible(mechanism, set, notion, utility_value, upper_bound)?;
        if !cert.is_optimal() {
            return Err(SolverError::Certificate(format!(
                "utility {utility_value} is not within {GAP_TOLERANCE:e} of its dual bound {upper_bound}"
            )));
        }
        Ok(cert)
    }

    /// The verdict: every level of the notion, re-measured over the whole set,
    /// is at most its target within the stated [`Certificate::tolerance`]
    /// (at most 1e-12), entries are non-negative and rows sum to 1 within 1e-12.
    /// `assert!(design.certificate().holds())`, rather than comparing
    /// `worst_case_pml <= eps`, which rounding in the last bit can fail.
    pub fn holds(&self) -> bool {
        self.levels.excess(&self.notion) <= self.tolerance
            && self.min_entry >= 0.0
            && self.max_row_sum_error <= 1e-12
    }

    /// True when the utility is within a relative 1e-7 of the dual bound.
    pub fn is_optimal(&self) -> bool {
        let scale = 1.0 + self.utility_value.abs();
        !self.gap.is_nan() && self.gap.abs() <= GAP_TOLERANCE * scale
    }

    /// The checks of [`Certificate::check`] without the optimality gap: for a
    /// design stopped by a time limit, which is valid and private but maybe not
    /// optimal (its gap says by how much at most). The utility may still not
    /// exceed the bound.
    pub fn check_feasible(
        mechanism: &Mechanism,
        set: &UncertaintySet,
        epsilon: f64,
        utility_value: f64,
        upper_bound: f64,
    ) -> Result<Self> {
        let notion = Notion::Pml { epsilon };
        Certificate::check_notion_feasible(mechanism, set, &notion, utility_value, upper_bound)
    }

    /// [`Certificate::check_feasible`] for any notion.
    pub fn check_notion_feasible(
        mechanism: &Mechanism,
        set: &UncertaintySet,
        notion: &Notion,
        utility_value: f64,
        upper_bound: f64,
    ) -> Result<Self> {
        let per_output: Vec<f64> = set
            .worst_case_pml_per_output(mechanism)
            .into_iter()
            .map(|l| l.unwrap_or(0.0))
            .collect();
        let levels = NotionLevels::measure_notion(mechanism, set, notion);
        let cert = Certificate {
            notion: notion.clone(),
            target_epsilon: notion.epsilon(),
            levels,
            worst_case_pml: per_output.iter().copied().fold(0.0, f64::max),
            worst_case_pml_per_output: per_output,
            max_row_sum_error: mechanism.max_row_sum_error(),
            tolerance: PML_TOLERANCE,
            min_entry: mechanism.min_entry(),
            utility_value,
            upper_bound,
            gap: upper_bound - utility_value,
            dual: None,
            floor_priors: Vec::new(),
        };
        let fail = |what: String| Err(SolverError::Certificate(what));
        if cert.min_entry < 0.0 {
            return fail(format!("negative entry {}", cert.min_entry));
        }
        if cert.max_row_sum_error > CERTIFIED_ROW_SUM_TOLERANCE {
            return fail(format!(
                "row sums off by {:e} > {CERTIFIED_ROW_SUM_TOLERANCE:e}",
                cert.max_row_sum_error
            ));
        }
        if let Notion::Pml { epsilon } = *notion
            && (cert.worst_case_pml.is_nan() || cert.worst_case_pml > epsilon + PML_TOLERANCE)
        {
            return fail(format!(
                "worst-case PML {} exceeds the target {epsilon}",
                cert.worst_case_pml
            ));
        }
        let excess = levels.excess(notion);
        if excess.is_nan() || excess > PML_TOLERANCE {
            return fail(format!(
                "the measured levels (PML {}, PMC {}, LDP {}) exceed {} by {excess}",
                levels.pml,
                levels.pmc,
                levels.ldp,
                notion.label()
            ));
        }
        let scale = 1.0 + utility_value.abs();
        if cert.gap.is_nan() || cert.gap < -BOUND_ROUNDING * scale {
            return fail(format!(
                "utility {utility_value} exceeds its dual bound {upper_bound}"
            ));
        }
        Ok(cert)
    }
}
