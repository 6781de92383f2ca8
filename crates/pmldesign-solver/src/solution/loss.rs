//! What a loss design carries: the dual behind its lower bound, by the LP that
//! proved it, and the certified loss-minimising mechanism.

use crate::settings::LossMethod;
use crate::solution::certificate::{Certificate, DualCertificate};
use crate::solution::design::DesignStatus;
use pmldesign_model::Mechanism;
use serde::{Deserialize, Serialize};

/// The dual behind a loss design's lower bound, by the LP that proved it: anyone
/// can check the bound with it without trusting the solver (docs/theory.md §4,
/// "Checking a stored design").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "lp", rename_all = "snake_case")]
#[non_exhaustive]
pub enum LossDual {
    /// Column generation: the dual of the LP over columns of the slice with
    /// `mu(v) = max_y -c[:, y] . v`, so `-bound` is at most the loss (for the
    /// inner/outer method, the outer slice's).
    ColumnGeneration(DualCertificate),
    /// The direct LP (the module docs): multipliers that satisfy the dual's
    /// coupling constraints exactly, and `alpha`, whose sum bounds the loss.
    Direct(DirectDual),
    /// The direct LP under another notion than PML: multipliers `g >= 0` of
    /// the cone's sparse rows (`cones/notion_form.rs`), one row of `g` per
    /// output; the bound they prove is re-derived from the set and the notion.
    Notion(NotionDual),
}

/// Multipliers of a notion's sparse cone rows, and the lower bound they prove.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotionDual {
    /// N x R: for each output, one multiplier per row of the cone's form.
    pub g: Vec<Vec<f64>>,
    /// The lower bound on the loss that `g` proves.
    pub bound: f64,
}

/// A dual point of the direct LP, repaired to exact feasibility: `gamma[x][y]`
/// on `W[x][y] <= E m_y`, `sigma[k][y]` on `m_y <= l_k . W[:, y] + h t_y` (one row
/// per functional `l_k`), `rho[x][y]` on `t_y <= W[x][y]` (zero without
/// Proposition 2), and
/// `alpha_x = min_y (c_xy + gamma_xy - sum_k sigma_ky l_k[x] - rho_xy)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DirectDual {
    /// One per input; `sum(alpha)` is the lower bound.
    pub alpha: Vec<f64>,
    /// N x N, rows are inputs.
    pub gamma: Vec<Vec<f64>>,
    /// K x N, one row per functional.
    pub sigma: Vec<Vec<f64>>,
    /// N x N, rows are inputs.
    pub rho: Vec<Vec<f64>>,
    /// `sum(alpha)`.
    pub bound: f64,
}

/// A certified loss-minimising mechanism.
#[derive(Debug, Clone, Serialize)]
pub struct LossDesign {
    /// [`DesignStatus::Optimal`]; [`DesignStatus::NoPrivacyNeeded`] when eps is at
    /// least the identity's worst-case PML (then every input is sent to its
    /// cheapest label); [`DesignStatus::TimeLimit`] when column generation was
    /// stopped (valid and private; the gap bounds the distance to the optimum).
    pub status: DesignStatus,
    /// How it was solved ([`LossMethod::Direct`], [`LossMethod::ColumnGeneration`]
    /// or [`LossMethod::ClosedForm`]).
    pub method: LossMethod,
    /// The route that ran (the file's `solver.pricing`): the method, or label
    /// generation under [`LossMethod::Auto`].
    #[serde(skip)]
    pub route: crate::solution::route::Route,
    /// The target level eps.
    pub epsilon: f64,
    /// Name of the loss ([`Loss::name`]).
    pub loss_name: String,
    /// The mechanism: N x N, output y is the guess "X = y"; every output is kept,
    /// unused ones are zero columns.
    pub mechanism: Mechanism,
    /// Expected loss under the reference prior, measured on the matrix.
    pub expected_loss: f64,
    /// A lower bound on the expected loss of every feasible mechanism (LP duality).
    pub lower_bound: f64,
    /// Pricing passes of column generation (0 otherwise).
    pub iterations: usize,
    /// The LP's dual behind `lower_bound` (`None` for a closed form, or when the
    /// loss without privacy is the bound).
    pub dual: Option<LossDual>,
    /// Verification: utility `-expected_loss`, upper bound `-lower_bound`.
    pub certificate: Certificate,
}
