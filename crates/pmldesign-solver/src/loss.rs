//! Label-dependent losses (docs/theory.md §4, last paragraph): minimise an expected loss over
//! N x N mechanisms whose outputs are labelled by the inputs.
//!
//! The expected loss `L(W) = sum_x p_x sum_y W[x][y] d(x, y)` under the reference
//! prior p is linear in W but not sub-convex in one column, so the design LP over
//! extreme rays does not apply as such. The problem is the LP
//!
//! ```text
//! minimise   sum_{x,y} c[x][y] W[x][y]              c[x][y] = p_x d(x, y)
//! subject to sum_y W[x][y] = 1                      for every x,
//!            every column W[:, y] in the eps-PML cone of the uncertainty set,
//!            W >= 0,
//! ```
//!
//! solved in one of two ways ([`LossMethod`]), both certified the same way.
//!
//! # Direct LP ([`LossMethod::Direct`])
//!
//! The LP over the N^2 entries, with the cone in sparse form: one auxiliary variable
//! `m_y` per output standing for the column's smallest output probability over the
//! set (docs/theory.md §3), `W[x][y] <= E m_y` (two non-zeros) and `m_y <= l_k . W[:, y] + h t_y`
//! for each linear functional `l_k`:
//!
//! - known prior: one functional, `l = p`, `E = e^eps` (\[15\] Lemma 1);
//! - l1 ball with `beta < 2 min p^` (\[E\] Prop 2): `l = p^`, `h = beta/2`, `E = e^eps'`
//!   with `e^eps' = e^eps / (1 + beta/2 e^eps)`, and a second auxiliary
//!   `t_y <= W[x'][y]` for every x' (so `t_y` is at most the column's minimum). The
//!   bound on `m_y` then has one more term (`t_y`), and the 2N inequalities per column
//!   replace the N^2 of the proposition;
//! - otherwise (a polytope of priors, or the ball past Proposition 2): one functional
//!   per vertex `pi^k` (\[E\] Cor 1, [`pmldesign_model::uncertainty::l1_ball_vertices`]),
//!   `E = e^eps`.
//!
//! `good_lp` with `microlp` gives no dual values, so the dual LP is solved as a
//! second LP; its solution is repaired to exact dual feasibility (multipliers clamped
//! to `>= 0` and scaled down where a coupling constraint is violated, `alpha_x`
//! recomputed as a minimum) and weak duality turns it into a valid lower bound on the
//! loss of every feasible mechanism. The primal is solved with `E` tightened by a
//! relative [`PRIMAL_MARGIN`] (1e-9; `sqrt E` when that would drop below 1), because
//! `microlp` satisfies constraints only to about 1e-10 and the row renormalisation
//! below perturbs PML by as much; the loss given up is far inside the certificate's
//! gap tolerance. `microlp`'s sparse simplex grows steeply with N (release build,
//! Hamming loss, known prior: about 0.5 s at N = 32, 7 s at N = 64, 100 s at
//! N = 128, primal and dual together), so with `microlp` this is the method for
//! polytopes and balls past Proposition 2, where the alphabet is small anyway. With
//! the optional `highs` feature (the `backend` module) it is the method for every
//! set: about 0.1 s at N = 64 and 0.5 s at N = 128.
//!
//! # Column generation ([`LossMethod::ColumnGeneration`])
//!
//! Dantzig-Wolfe decomposition of the same LP. Write each column as
//! `W[:, y] = sum_k theta_k v_k` with `v_k` in the cone, normalised by `r . v = 1`
//! (r = p, or p^ for the ball). A column `v` is best given the label
//! `argmin_y c[:, y] . v`, so the LP is the LP over rays of docs/theory.md §4 with the
//! sub-linear (maximum of linear) column function `mu(v) = max_y -c[:, y] . v`, and
//! outputs that get the same label merge into one column (the cone is convex). The
//! pricing problem `max_v mu(v) - lambda . v` is, for each label y, the minimum of a
//! linear function `a = c[:, y] + lambda` over the slice `{v in cone, r . v = 1}`,
//! solved exactly without enumerating rays:
//!
//! - known prior: the slice is `{0 <= v <= E, p . v = 1}`, a fractional knapsack:
//!   fill the coordinates in increasing order of `a_x / p_x` up to E (family Z);
//! - Proposition 2 ball: with `t = min v` the slice is `t <= v_x <= E'(1 + beta/2 t)`,
//!   `p^ . v = 1`; for fixed t it is again a knapsack in the same order, its value is
//!   convex and piecewise linear in t, and the minimum is at `t = 0`, `t = 1` or a
//!   breakpoint where the first k coordinates are full (family L).
//!
//! The master problem has N rows and is solved by the `ray_lp` module; every pricing
//! pass is exact over all rays, so `sum lambda + max(0, max reduced cost)` is a valid
//! upper bound on `-L` (the certificate's bound). This is the default for a known
//! prior and the ball under Proposition 2 with `microlp` (0.01 s at N = 32, 0.3 s
//! at N = 64, 6 s at N = 100). Past N of about 100 the master is very degenerate
//! and its basis can go numerically singular; it is rebuilt (the `ray_lp` module),
//! and if column generation still fails, `Auto` falls back to the direct LP.
//!
//! # Verification
//!
//! Every result is verified like a [`crate::Design`]: the solution is cleaned
//! (negatives and entries at or below [`ENTRY_CUTOFF`] set to 0, rows renormalised),
//! re-measured with the exact worst-case PML of `pmldesign-model`, and certified by a
//! [`Certificate`] whose utility is `-expected_loss` and whose upper bound is
//! `-lower_bound`. If a column still exceeds eps after cleaning, the mechanism is
//! mixed with the constant mechanism (every row uniform, PML 0) by the smallest
//! weight that brings every column within eps; the certificate judges the result.
//! Optimality is proven by the certificate's bound, not assumed from the LP solver.

use crate::certificate::{Certificate, DualCertificate};
use crate::design::{self, DesignStatus, LossOutcome};
use crate::error::{Result, SolverError};
use crate::loss_ball::ExactBallLoss;
use crate::ray_lp::{Column, Pricing, Progress, RayOracle};
use crate::utility::Utility;
use crate::verify::{Repricing, altered, check_dual_bound, stored_lambda};
use good_lp::{Expression, ProblemVariables, Solution, SolverModel, Variable, variable};
use ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis};
use pmldesign_model::notion::check_epsilon;
use pmldesign_model::uncertainty::{DEFAULT_VERTEX_LIMIT, l1_ball_vertices};
use pmldesign_model::{ColumnCone, Mechanism, ModelError, UncertaintySet};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Relative tightening of `E` in the direct primal LP (see the module docs).
pub const PRIMAL_MARGIN: f64 = 1e-9;

/// Entries of an LP solution at or below this are set to 0 before the rows are
/// renormalised.
pub const ENTRY_CUTOFF: f64 = 1e-13;

/// A loss `d(x, y) >= 0` for guessing label y when the secret is x.
#[derive(Debug, Clone, PartialEq)]
pub enum Loss {
    /// `1[x != y]`: the expected loss is the probability of a wrong guess.
    Hamming,
    /// `|x - y|` over the label indices.
    Absolute,
    /// `(x - y)^2` over the label indices.
    Squared,
    /// A user matrix, `d(x, y) = matrix[[x, y]]`: N x N, finite, `>= 0`.
    Matrix(Array2<f64>),
}

impl Loss {
    /// A short name: `hamming`, `absolute`, `squared` or `matrix`.
    pub fn name(&self) -> &'static str {
        match self {
            Loss::Hamming => "hamming",
            Loss::Absolute => "absolute",
            Loss::Squared => "squared",
            Loss::Matrix(_) => "matrix",
        }
    }

    /// The loss as an N x N matrix `d[[x, y]]`. A user matrix is validated: it must
    /// be N x N, finite and `>= 0` (the error names the field `loss`).
    pub fn matrix(&self, n: usize) -> Result<Array2<f64>> {
        let index = |x: usize, y: usize| x.abs_diff(y) as f64;
        Ok(match self {
            Loss::Hamming => Array2::from_shape_fn((n, n), |(x, y)| f64::from(x != y)),
            Loss::Absolute => Array2::from_shape_fn((n, n), |(x, y)| index(x, y)),
            Loss::Squared => Array2::from_shape_fn((n, n), |(x, y)| index(x, y).powi(2)),
            Loss::Matrix(d) => {
                if d.dim() != (n, n) {
                    return Err(ModelError::invalid(
                        "loss",
                        format!("{}x{} matrix", d.nrows(), d.ncols()),
                        format!(
                            "a loss matrix must be N x N = {n}x{n}, one row per secret and one column per label"
                        ),
                        "give d(x, y) for every secret x (rows) and guessed label y (columns)",
                    )
                    .into());
                }
                if let Some(((x, y), v)) =
                    d.indexed_iter().find(|(_, v)| !v.is_finite() || **v < 0.0)
                {
                    return Err(ModelError::invalid(
                        format!("loss[{x}][{y}]"),
                        v,
                        "losses must be finite and >= 0",
                        "fix the entry (shift a loss matrix by a constant to make it non-negative)",
                    )
                    .into());
                }
                d.clone()
            }
        })
    }
}

/// The expected loss `sum_x p_x sum_y W[x][y] d(x, y)` of an N x N mechanism.
pub fn expected_loss(mechanism: &Mechanism, prior: ArrayView1<f64>, d: ArrayView2<f64>) -> f64 {
    let w = mechanism.matrix();
    prior
        .iter()
        .zip(w.outer_iter().zip(d.outer_iter()))
        .map(|(p, (wr, dr))| p * wr.dot(&dr))
        .sum()
}

/// How [`minimise_loss_with`] solves the LP (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossMethod {
    /// Column generation for a known prior and the ball under Proposition 2, the
    /// direct LP otherwise (and if column generation fails numerically); with the
    /// `highs` feature, the direct LP. Past Proposition 2 the direct LP takes the
    /// ball's vertex list while it is short, and column generation over the
    /// exact ball's ray families beyond.
    Auto,
    /// The direct sparse LP over the N^2 entries (any uncertainty set).
    Direct,
    /// Column generation with exact pricing: knapsacks for a known prior and
    /// the ball under Proposition 2, branch and bound over the exact ball's ray
    /// families past it (docs/theory.md §4b); other sets are an error.
    ColumnGeneration,
    /// The l1 ball past \[E\] Prop 2, bracketed: column generation over an
    /// inner and an outer slice, with the certified gap between them
    /// (docs/theory.md §4b). Only when asked for.
    InnerOuter,
    /// No LP: eps = 0 or no privacy needed (closed forms).
    ClosedForm,
}

/// The dual behind a loss design's lower bound, by the LP that proved it: anyone
/// can check the bound with it without trusting the solver (docs/theory.md §4,
/// "Checking a stored design").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "lp", rename_all = "snake_case")]
pub enum LossDual {
    /// Column generation: the dual of the LP over columns of the slice with
    /// `mu(v) = max_y -c[:, y] . v`, so `-bound` is at most the loss (for the
    /// inner/outer method, the outer slice's).
    ColumnGeneration(DualCertificate),
    /// The direct LP (the module docs): multipliers that satisfy the dual's
    /// coupling constraints exactly, and `alpha`, whose sum bounds the loss.
    Direct(DirectDual),
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

/// Minimises the expected `loss` under the reference prior of `set` over N x N
/// mechanisms that are eps-PML for every prior of `set` (docs/theory.md §4), with the
/// default [`crate::Settings`], and certifies the result (module docs).
///
/// ```
/// use pmldesign_model::{Prior, UncertaintySet};
/// use pmldesign_solver::loss::{Loss, minimise_loss};
///
/// let set = UncertaintySet::known(Prior::new(vec![0.5, 0.3, 0.2])?);
/// let r = minimise_loss(&set, 2f64.ln(), &Loss::Hamming)?;
/// assert!(r.certificate.worst_case_pml <= 2f64.ln() + 1e-10);
/// assert!(r.expected_loss >= r.lower_bound - 1e-9);
/// # Ok::<(), pmldesign_solver::SolverError>(())
/// ```
pub fn minimise_loss(set: &UncertaintySet, epsilon: f64, loss: &Loss) -> Result<LossDesign> {
    minimise_loss_with(set, epsilon, loss, &crate::Settings::default())
}

/// [`minimise_loss`] with explicit settings.
pub fn minimise_loss_with(
    set: &UncertaintySet,
    epsilon: f64,
    loss: &Loss,
    settings: &crate::Settings,
) -> Result<LossDesign> {
    minimise_loss_with_progress(set, epsilon, loss, settings, &mut |_| {})
}

/// [`minimise_loss_with`], reporting every column-generation pass to `progress`
/// (bounds on the negated loss, as a utility).
pub fn minimise_loss_with_progress(
    set: &UncertaintySet,
    epsilon: f64,
    loss: &Loss,
    settings: &crate::Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<LossDesign> {
    check_epsilon(epsilon)?;
    let n = set.len();
    let d = loss.matrix(n)?;
    let p = set.reference();
    // c[x][y] = p_x d(x, y).
    let c = &d * &p.view().insert_axis(Axis(1));
    // Levels past what doubles represent are designed at the largest one that
    // is, as for utilities (e^710 overflows, and microlp asserts on an infinite
    // coefficient): stricter, so still private at eps; the LP's bound is then
    // for the smaller set, and the loss without privacy bounds the asked one.
    let level = epsilon.min(crate::design::MAX_DESIGN_LEVEL);
    let mut solved = if set.worst_case_pml(&Mechanism::identity(n)) <= epsilon {
        cheapest_labels(&d, &c)?
    } else if epsilon == 0.0 {
        constant_guess(&c)?
    } else if let Some(solved) = exact_ball(set, level, &c, settings, progress)? {
        solved
    } else if let Some(ball) = past_proposition_2(set, level, settings) {
        ball.solve(set, level, &c, settings, progress)?
    } else {
        by_lp(set, level, &c, settings, progress)?
    };
    if level < epsilon {
        // The LP's dual is for the smaller cone of the capped level.
        solved.lower_bound = free_lower_bound(&c);
        solved.dual = None;
    }
    let value = expected_loss(&solved.mechanism, p.view(), d.view());
    let certificate =
        Certificate::check_feasible(&solved.mechanism, set, epsilon, -value, -solved.lower_bound)?;
    Ok(solved.into_design(epsilon, loss, value, certificate))
}

/// `status` when the search converged, else the time limit.
pub(crate) fn stopped_or(converged: bool, status: DesignStatus) -> DesignStatus {
    if converged {
        status
    } else {
        DesignStatus::TimeLimit
    }
}

/// A loss LP's answer before it is measured and certified.
pub(crate) struct Solved {
    pub method: LossMethod,
    pub mechanism: Mechanism,
    pub lower_bound: f64,
    /// The dual behind `lower_bound`, if an LP proved it.
    pub dual: Option<LossDual>,
    pub iterations: usize,
    /// `NoPrivacyNeeded`, `TimeLimit` when stopped early, else `Optimal` or
    /// `GapLimit` (settled by the measured gap).
    pub status: DesignStatus,
}

impl Solved {
    /// The certified design: `value` is the expected loss measured on the
    /// mechanism, `certificate` its check; the status is settled by the gap.
    pub(crate) fn into_design(
        self,
        epsilon: f64,
        loss: &Loss,
        value: f64,
        certificate: Certificate,
    ) -> LossDesign {
        let status = match self.status {
            DesignStatus::NoPrivacyNeeded => DesignStatus::NoPrivacyNeeded,
            s => DesignStatus::from_gap(certificate.gap, -value, s != DesignStatus::TimeLimit),
        };
        LossDesign {
            status,
            method: self.method,
            epsilon,
            loss_name: loss.name().to_string(),
            mechanism: self.mechanism,
            expected_loss: value,
            lower_bound: self.lower_bound,
            iterations: self.iterations,
            dual: self.dual,
            certificate,
        }
    }
}

/// Without privacy the best is to send each input to its cheapest label:
/// `sum_x min_y c[x][y]` bounds every loss from below.
pub(crate) fn free_lower_bound(c: &Array2<f64>) -> f64 {
    c.outer_iter()
        .map(|r| r.iter().copied().fold(f64::INFINITY, f64::min))
        .sum()
}

/// No privacy needed (every mechanism is at most as leaky as the identity):
/// each input goes to its cheapest label.
pub(crate) fn cheapest_labels(d: &Array2<f64>, c: &Array2<f64>) -> Result<Solved> {
    let n = d.nrows();
    let mut w = Array2::zeros((n, n));
    for (x, row) in d.outer_iter().enumerate() {
        w[[x, argmin(row)]] = 1.0;
    }
    Ok(Solved {
        method: LossMethod::ClosedForm,
        mechanism: Mechanism::new(w)?,
        lower_bound: free_lower_bound(c),
        dual: None,
        iterations: 0,
        status: DesignStatus::NoPrivacyNeeded,
    })
}

/// eps = 0 forces equal rows (a column is constant on the support of every prior
/// of the set and cannot exceed that constant elsewhere, while rows sum to 1):
/// the best is a constant guess, and its loss is optimal.
fn constant_guess(c: &Array2<f64>) -> Result<Solved> {
    let n = c.nrows();
    let col_cost = c.sum_axis(Axis(0));
    let y = argmin(col_cost.view());
    let mut w = Array2::zeros((n, n));
    w.column_mut(y).fill(1.0);
    Ok(Solved {
        method: LossMethod::ClosedForm,
        mechanism: Mechanism::new(w)?,
        lower_bound: col_cost[y],
        dual: None,
        iterations: 0,
        status: DesignStatus::Optimal,
    })
}

/// The LP: column generation where the slice allows it (module docs), the
/// direct sparse LP otherwise or as the fallback.
fn by_lp(
    set: &UncertaintySet,
    epsilon: f64,
    c: &Array2<f64>,
    settings: &crate::Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<Solved> {
    let cons = Constraints::new(set, epsilon)?;
    let slice = Slice::new(&cons);
    let method = match (settings.loss_method, &slice) {
        (LossMethod::Direct, _) => LossMethod::Direct,
        (LossMethod::ColumnGeneration, None) => {
            return Err(ModelError::invalid(
                "method",
                "column_generation",
                "column generation for losses needs a known prior or an l1 ball with beta < 2 min p",
                "use LossMethod::Auto or LossMethod::Direct for this uncertainty set",
            )
            .into());
        }
        (LossMethod::ColumnGeneration, Some(_)) => LossMethod::ColumnGeneration,
        // With HiGHS the direct LP is the faster one at every size (README).
        (_, Some(_)) if !cfg!(feature = "highs") => LossMethod::ColumnGeneration,
        _ => LossMethod::Direct,
    };
    // In Auto mode a numerical failure of column generation (a master basis
    // that stays singular) falls back to the direct LP, which is slower but
    // has no master; an explicit ColumnGeneration request reports it.
    if let (LossMethod::ColumnGeneration, Some(slice)) = (method, slice) {
        match column_generation(slice, c, settings, progress) {
            Ok(cg) => return cg.solved(method, set, epsilon, c, DesignStatus::Optimal),
            Err(e) if settings.loss_method == LossMethod::ColumnGeneration => return Err(e),
            Err(_) => {}
        }
    }
    let e_lp = if cons.e * (1.0 - PRIMAL_MARGIN) > 1.0 {
        cons.e * (1.0 - PRIMAL_MARGIN)
    } else {
        cons.e.sqrt()
    };
    let w = solve_primal(&cons, c, e_lp)?;
    let dual = repaired(&cons, c, solve_dual(&cons, c)?);
    Ok(Solved {
        method: LossMethod::Direct,
        mechanism: clean(w, set, epsilon)?,
        lower_bound: dual.bound.max(free_lower_bound(c)),
        dual: Some(LossDual::Direct(dual)),
        iterations: 0,
        status: DesignStatus::Optimal,
    })
}

/// The l1 ball past \[E\] Prop 2 when column generation is asked for, or when
/// its vertex list exceeds the limit and the loss LP may choose its method:
/// column generation over the exact ball's ray families, priced by branch and
/// bound ([`ExactBallLoss`]); `None` for other sets.
fn exact_ball(
    set: &UncertaintySet,
    epsilon: f64,
    c: &Array2<f64>,
    settings: &crate::Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<Option<Solved>> {
    let UncertaintySet::L1Ball { center, beta } = set else {
        return Ok(None);
    };
    let wanted = match settings.loss_method {
        LossMethod::Auto => l1_ball_vertices(center, *beta, DEFAULT_VERTEX_LIMIT).is_err(),
        LossMethod::ColumnGeneration => true,
        _ => false,
    };
    if !wanted {
        return Ok(None);
    }
    let cg = &settings.column_generation;
    let deadline = cg
        .time_limit
        .map(|t| std::time::Instant::now() + cg.loop_time(t));
    let Some(oracle) = ExactBallLoss::new(set, epsilon, c, deadline) else {
        return Ok(None);
    };
    // The master's dual oscillates here as for utilities (docs/theory.md §4b).
    let mut settings = settings.clone();
    let cg = &mut settings.column_generation;
    cg.smoothing = Some(cg.smoothing.unwrap_or(0.5));
    let result = column_generation_over(&oracle, center.masses(), c, &settings, progress)?;
    let status = DesignStatus::Optimal;
    Ok(Some(result.solved(
        LossMethod::ColumnGeneration,
        set,
        epsilon,
        c,
        status,
    )?))
}

/// The l1 ball past \[E\] Prop 2, asked for explicitly
/// ([`LossMethod::InnerOuter`], docs/theory.md §4b): the mechanism is optimal over the inner slice of
/// Prop 2's formula (`e^eps'`, `h = beta/2`, inside the exact cone for every
/// radius), and the lower bound is that of the estimate alone (whose cone
/// contains the exact one). Both by column generation with exact knapsack
/// pricing.
struct PastProposition2 {
    inner: Slice,
    outer: Slice,
}

/// The ball past Prop 2 when the inner/outer bracket is asked for.
fn past_proposition_2(
    set: &UncertaintySet,
    epsilon: f64,
    settings: &crate::Settings,
) -> Option<PastProposition2> {
    let UncertaintySet::L1Ball { center, beta } = set else {
        return None;
    };
    let prop2 = *beta < 2.0 * center.min_mass();
    if prop2 || settings.loss_method != LossMethod::InnerOuter {
        return None;
    }
    let (e, h) = (epsilon.exp(), beta / 2.0);
    let r = center.masses().to_owned();
    Some(PastProposition2 {
        inner: Slice {
            r: r.clone(),
            e: e / (1.0 + h * e),
            h,
        },
        outer: Slice { r, e, h: 0.0 },
    })
}

impl PastProposition2 {
    /// The inner mechanism (labelled W) with the outer lower bound and its dual.
    fn solve(
        self,
        set: &UncertaintySet,
        epsilon: f64,
        c: &Array2<f64>,
        settings: &crate::Settings,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Solved> {
        use crate::design::{INNER_SHARE, OUTER_SHARE};
        let inner = column_generation(
            self.inner,
            c,
            &settings.with_time_share(INNER_SHARE),
            progress,
        )?;
        let outer = column_generation(
            self.outer,
            c,
            &settings.with_time_share(OUTER_SHARE),
            &mut |_| {},
        )?;
        let both = ColumnGenerationResult {
            w: inner.w,
            iterations: inner.iterations + outer.iterations,
            converged: inner.converged && outer.converged,
            ..outer
        };
        both.solved(
            LossMethod::InnerOuter,
            set,
            epsilon,
            c,
            DesignStatus::GapLimit,
        )
    }
}

/// The slice `{v in cone, r . v = 1}` of the cone for exact pricing: a known prior
/// (`h = 0`) or the ball under Proposition 2 (`h = beta/2`).
#[derive(Debug, Clone)]
pub(crate) struct Slice {
    /// The normaliser r (p or p^), the only functional.
    pub(crate) r: Array1<f64>,
    /// `E` or `E'`.
    pub(crate) e: f64,
    /// `beta/2`, or 0 for a known prior.
    pub(crate) h: f64,
}

/// The inputs in increasing order of cost per unit of mass, `a_x / r_x`: the
/// order of the greedy (fractional-knapsack) fill of a slice `r . v = 1`.
pub(crate) fn ratio_order(a: ArrayView1<f64>, r: ArrayView1<f64>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..a.len()).collect();
    order.sort_by(|&i, &j| (a[i] / r[i]).total_cmp(&(a[j] / r[j])));
    order
}

impl Slice {
    fn new(cons: &Constraints) -> Option<Self> {
        (cons.functionals.len() == 1).then(|| Slice {
            r: cons.functionals[0].clone(),
            e: cons.e,
            h: cons.h,
        })
    }

    /// A minimiser of `a . v` over the slice (module docs).
    pub(crate) fn minimise(&self, a: ArrayView1<f64>) -> Array1<f64> {
        let n = a.len();
        let r = &self.r;
        let order = ratio_order(a, r.view());
        // Greedy fill of mass 1 - t above the floor t, each coordinate up to cap.
        let fill = |t: f64, cap: f64| -> Array1<f64> {
            let mut v = Array1::from_elem(n, t);
            let mut left = 1.0 - t;
            for &i in &order {
                let room = r[i] * (cap - t);
                if room < left {
                    v[i] = cap;
                    left -= room;
                } else {
                    v[i] = t + left / r[i];
                    break;
                }
            }
            v
        };
        if self.h == 0.0 {
            return fill(0.0, self.e);
        }
        // Ball: candidates t = 0 (if E' >= 1), t = 1 (v = 1) and the breakpoints
        // t_k = (1 - P_k E') / (1 - P_k + P_k E' h), where the first k coordinates
        // in the order sit at U(t) = E'(1 + h t) and the others at t.
        let (e, h) = (self.e, self.h);
        let a_total: f64 = a.sum();
        let mut best_value = a_total; // t = 1
        let mut best: Option<(f64, usize)> = None; // (t, k); None is v = 1
        let (mut mass, mut a_prefix) = (0.0, 0.0);
        for (k, &i) in order.iter().enumerate() {
            mass += r[i];
            a_prefix += a[i];
            let t = (1.0 - mass * e) / (1.0 - mass + mass * e * h);
            if (0.0..=1.0).contains(&t) {
                let value = t * a_total + (e * (1.0 + h * t) - t) * a_prefix;
                if value < best_value {
                    best_value = value;
                    best = Some((t, k + 1));
                }
            }
        }
        if e >= 1.0 {
            let v = fill(0.0, e);
            if a.dot(&v) < best_value {
                return v;
            }
        }
        match best {
            None => Array1::ones(n),
            Some((t, k)) => {
                let mut v = Array1::from_elem(n, t);
                let u = e * (1.0 + h * t);
                for &i in &order[..k] {
                    v[i] = u;
                }
                v
            }
        }
    }
}

/// `mu(v) = max_y -c[:, y] . v`: the negated loss of a column given its best label.
pub(crate) struct LabelledLoss<'a> {
    pub(crate) c: &'a Array2<f64>,
}

impl LabelledLoss<'_> {
    /// The best label of a column and its cost `c[:, y] . v`.
    pub(crate) fn best_label(&self, column: ArrayView1<f64>) -> (usize, f64) {
        let costs = column.dot(self.c);
        let y = argmin(costs.view());
        (y, costs[y])
    }
}

impl Utility for LabelledLoss<'_> {
    fn name(&self) -> String {
        "negated expected loss".to_string()
    }

    fn column_value(&self, column: ArrayView1<f64>, _prior: ArrayView1<f64>) -> f64 {
        -self.best_label(column).1
    }
}

/// The slice `{v in cone, r . v = 1}` of a column cone on which a linear function
/// is minimised exactly: what column generation for losses prices over (this
/// module's [`Slice`] for PML; the `notion_loss` module for the other notions).
pub(crate) trait LabelSlice: Sync {
    /// The normaliser r.
    fn normaliser(&self) -> ArrayView1<'_, f64>;
    /// A minimiser of `a . v` over the slice.
    fn minimise(&self, a: ArrayView1<f64>) -> Array1<f64>;
    /// A first basis for the master (none by default: the all-ones column).
    fn start(&self, _value: &dyn Fn(ArrayView1<f64>) -> f64) -> Vec<Column> {
        Vec::new()
    }
}

impl LabelSlice for Slice {
    fn normaliser(&self) -> ArrayView1<'_, f64> {
        self.r.view()
    }

    fn minimise(&self, a: ArrayView1<f64>) -> Array1<f64> {
        Slice::minimise(self, a)
    }

    fn start(&self, value: &dyn Fn(ArrayView1<f64>) -> f64) -> Vec<Column> {
        crate::ray_lp::spikes(self.r.view(), self.e, self.h, value)
    }
}

/// Pricing over the whole slice, one exact minimisation per label.
struct LossOracle<'a, S: LabelSlice> {
    slice: S,
    loss: LabelledLoss<'a>,
}

impl<S: LabelSlice> RayOracle for LossOracle<'_, S> {
    fn dimension(&self) -> usize {
        self.slice.normaliser().len()
    }

    fn price(&self, lambda: &Array1<f64>, tol: f64, keep: usize) -> Pricing {
        let n = self.dimension();
        let r = self.slice.normaliser();
        let mut found: Vec<(f64, Column)> = (0..n)
            .into_par_iter()
            .map(|y| {
                let a = &self.loss.c.column(y) + lambda;
                let v = self.slice.minimise(a.view());
                let value = self.loss.column_value(v.view(), r);
                (value - lambda.dot(&v), Column { vector: v, value })
            })
            .collect();
        let max_reduced_cost = found.iter().map(|f| f.0).fold(f64::NEG_INFINITY, f64::max);
        found.retain(|f| f.0 > tol);
        found.sort_by(|a, b| b.0.total_cmp(&a.0));
        found.truncate(keep);
        Pricing {
            max_reduced_cost,
            entering: found,
            priced: n as u64,
        }
    }

    fn start(&self) -> Vec<Column> {
        let r = self.slice.normaliser();
        self.slice.start(&|v| self.loss.column_value(v, r))
    }
}

/// The result of column generation: the labelled W (N x N) and its bound.
pub(crate) struct ColumnGenerationResult {
    /// The labelled W (N x N).
    pub w: Array2<f64>,
    /// The certified lower bound on the loss.
    pub lower_bound: f64,
    /// The master's dual behind the bound.
    pub dual: Option<DualCertificate>,
    /// Pricing passes.
    pub iterations: usize,
    /// False when stopped by the time limit.
    pub converged: bool,
}

impl ColumnGenerationResult {
    /// The answer, cleaned, with `status` if the search converged.
    pub(crate) fn solved(
        self,
        method: LossMethod,
        set: &UncertaintySet,
        epsilon: f64,
        c: &Array2<f64>,
        status: DesignStatus,
    ) -> Result<Solved> {
        Ok(Solved {
            method,
            mechanism: clean(self.w, set, epsilon)?,
            lower_bound: self.lower_bound.max(free_lower_bound(c)),
            dual: self.dual.map(LossDual::ColumnGeneration),
            iterations: self.iterations,
            status: stopped_or(self.converged, status),
        })
    }
}

/// Column generation over `slice` with exact pricing (module docs).
pub(crate) fn column_generation<S: LabelSlice>(
    slice: S,
    c: &Array2<f64>,
    settings: &crate::Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<ColumnGenerationResult> {
    let r = slice.normaliser().to_owned();
    let oracle = LossOracle {
        slice,
        loss: LabelledLoss { c },
    };
    column_generation_over(&oracle, r.view(), c, settings, progress)
}

/// Column generation for the loss `c` over the rays behind `oracle`
/// (normalised by `r . v = 1`, columns valued by [`LabelledLoss`]).
pub(crate) fn column_generation_over(
    oracle: &dyn RayOracle,
    r: ArrayView1<f64>,
    c: &Array2<f64>,
    settings: &crate::Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<ColumnGenerationResult> {
    let n = c.nrows();
    let loss = LabelledLoss { c };
    let design_settings = crate::Settings {
        max_alphabet: usize::MAX,
        ..settings.clone()
    };
    let opt = design::optimise(oracle, r, &loss, f64::INFINITY, &design_settings, progress)?;
    // Label every output and merge those with the same label.
    let mut w = Array2::zeros((n, n));
    for col in opt.settled(r).columns() {
        let (y, _) = loss.best_label(col);
        let mut target = w.column_mut(y);
        target += &col;
    }
    Ok(ColumnGenerationResult {
        w,
        lower_bound: -opt.upper_bound,
        dual: opt.dual,
        iterations: opt.iterations,
        converged: opt.converged,
    })
}

pub(crate) fn argmin(v: ArrayView1<f64>) -> usize {
    (0..v.len())
        .min_by(|&a, &b| v[a].total_cmp(&v[b]))
        .unwrap_or(0)
}

/// The cone of one column in the sparse form of the module docs:
/// `max_x c_x <= e * min_k (l_k . c + h min_x c)`.
struct Constraints {
    /// `E` (`e^eps`, or `e^eps'` under Proposition 2).
    e: f64,
    /// The functionals `l_k`.
    functionals: Vec<Array1<f64>>,
    /// `h = beta/2` under Proposition 2, else 0 (no `t` variables).
    h: f64,
}

impl Constraints {
    fn new(set: &UncertaintySet, epsilon: f64) -> Result<Self> {
        let cone = ColumnCone::pml(set, epsilon)?;
        let e = cone.effective_exp_epsilon();
        Ok(match &cone {
            ColumnCone::PmlKnownPrior { prior, .. } => Constraints {
                e,
                functionals: vec![prior.masses().to_owned()],
                h: 0.0,
            },
            ColumnCone::PmlL1Ball { center, beta, .. } if cone.is_proposition_2() => Constraints {
                e,
                functionals: vec![center.masses().to_owned()],
                h: beta / 2.0,
            },
            ColumnCone::PmlL1Ball { center, beta, .. } => Constraints {
                e,
                functionals: l1_ball_vertices(center, *beta, DEFAULT_VERTEX_LIMIT)?,
                h: 0.0,
            },
            ColumnCone::PmlPolytope { vertices, .. } => Constraints {
                e,
                functionals: vertices.clone(),
                h: 0.0,
            },
            ColumnCone::Notion { .. } | ColumnCone::Intersection { .. } => {
                unreachable!("ColumnCone::pml builds PML cones only")
            }
        })
    }

    fn uses_t(&self) -> bool {
        self.h > 0.0
    }
}

fn lp_error(what: &str, e: impl std::fmt::Display) -> SolverError {
    SolverError::Lp(format!("loss LP ({what}): {e}"))
}

/// The primal LP with `E` replaced by `e_lp`; returns W.
fn solve_primal(cons: &Constraints, c: &Array2<f64>, e_lp: f64) -> Result<Array2<f64>> {
    let n = c.nrows();
    let mut vars = ProblemVariables::new();
    let w: Vec<Vec<Variable>> = (0..n)
        .map(|_| (0..n).map(|_| vars.add(variable().min(0.0))).collect())
        .collect();
    let m: Vec<Variable> = (0..n).map(|_| vars.add(variable().min(0.0))).collect();
    let t: Vec<Variable> = if cons.uses_t() {
        (0..n).map(|_| vars.add(variable().min(0.0))).collect()
    } else {
        Vec::new()
    };
    let objective: Expression = (0..n)
        .flat_map(|x| (0..n).map(move |y| (x, y)))
        .filter(|&(x, y)| c[[x, y]] != 0.0)
        .map(|(x, y)| c[[x, y]] * w[x][y])
        .sum();
    let solver = crate::backend::guarded(vars.len());
    let mut model = vars.minimise(objective).using(solver);
    for row in &w {
        let s: Expression = row.iter().copied().sum();
        model = model.with(s.eq(1.0));
    }
    for y in 0..n {
        for row in &w {
            model = model.with((row[y] - e_lp * m[y]).leq(0.0));
        }
        for l in &cons.functionals {
            let mut expr: Expression = (0..n)
                .filter(|&x| l[x] != 0.0)
                .map(|x| -l[x] * w[x][y])
                .sum();
            expr += m[y];
            if cons.uses_t() {
                expr -= cons.h * t[y];
            }
            model = model.with(expr.leq(0.0));
        }
        if cons.uses_t() {
            for row in &w {
                model = model.with((t[y] - row[y]).leq(0.0));
            }
        }
    }
    let sol = model.solve().map_err(|e| lp_error("primal", e))?;
    Ok(Array2::from_shape_fn((n, n), |(x, y)| sol.value(w[x][y])))
}

/// Cleans the LP's W into a certified-grade mechanism: negatives and entries at or
/// below [`ENTRY_CUTOFF`] to 0, rows renormalised, then (only if some column still
/// exceeds eps) mixed with the uniform constant mechanism.
fn clean(mut w: Array2<f64>, set: &UncertaintySet, epsilon: f64) -> Result<Mechanism> {
    let n = w.nrows();
    w.mapv_inplace(|v| if v > ENTRY_CUTOFF { v } else { 0.0 });
    for mut row in w.outer_iter_mut() {
        let s = row.sum();
        if s <= 0.0 {
            return Err(SolverError::Lp(
                "loss LP (primal): a row of the solution is zero".to_string(),
            ));
        }
        row /= s;
    }
    // Violation of max c <= E min_Q Q . c per column; with the uniform row mixed in
    // at weight lambda, column y is fixed when
    // (1 - lambda) v_y <= lambda (E - 1) / N.
    let e = epsilon.exp();
    let mut ratio: f64 = 0.0;
    for col in w.columns() {
        if set.column_worst_case_pml(col).is_some_and(|l| l > epsilon) {
            let max = col.iter().copied().fold(0.0, f64::max);
            let v = max - e * set.min_output_probability(col);
            ratio = ratio.max(2.0 * v.max(0.0) * n as f64 / (e - 1.0));
        }
    }
    if ratio > 0.0 {
        let lambda = ratio / (1.0 + ratio);
        w.mapv_inplace(|v| (1.0 - lambda) * v + lambda / n as f64);
    }
    Ok(Mechanism::new(w)?)
}

/// A dual point: `gamma[x][y]` on `W[x][y] <= E m_y`, `sigma[k][y]` on
/// `m_y <= l_k . W[:, y] + h t_y`, `rho[x][y]` on `t_y <= W[x][y]`.
struct DualPoint {
    gamma: Array2<f64>,
    sigma: Array2<f64>,
    rho: Array2<f64>,
}

/// The dual LP (with the true `E`):
///
/// ```text
/// maximise   sum_x alpha_x
/// subject to alpha_x - gamma_xy + sum_k sigma_ky l_k[x] + rho_xy <= c_xy,
///            E sum_x gamma_xy <= sum_k sigma_ky,
///            h sum_k sigma_ky <= sum_x rho_xy      (Proposition 2 only),
///            gamma, sigma, rho >= 0, alpha free.
/// ```
fn solve_dual(cons: &Constraints, c: &Array2<f64>) -> Result<DualPoint> {
    let n = c.nrows();
    let kk = cons.functionals.len();
    let mut vars = ProblemVariables::new();
    let alpha: Vec<Variable> = (0..n).map(|_| vars.add(variable())).collect();
    let gamma: Vec<Vec<Variable>> = (0..n)
        .map(|_| (0..n).map(|_| vars.add(variable().min(0.0))).collect())
        .collect();
    let sigma: Vec<Vec<Variable>> = (0..kk)
        .map(|_| (0..n).map(|_| vars.add(variable().min(0.0))).collect())
        .collect();
    let rho: Vec<Vec<Variable>> = if cons.uses_t() {
        (0..n)
            .map(|_| (0..n).map(|_| vars.add(variable().min(0.0))).collect())
            .collect()
    } else {
        Vec::new()
    };
    let objective: Expression = alpha.iter().copied().sum();
    let solver = crate::backend::guarded(vars.len());
    let mut model = vars.maximise(objective).using(solver);
    for x in 0..n {
        for y in 0..n {
            let mut expr: Expression = alpha[x] - gamma[x][y];
            for (k, l) in cons.functionals.iter().enumerate() {
                if l[x] != 0.0 {
                    expr += l[x] * sigma[k][y];
                }
            }
            if cons.uses_t() {
                expr += rho[x][y];
            }
            model = model.with(expr.leq(c[[x, y]]));
        }
    }
    for y in 0..n {
        let sig: Expression = sigma.iter().map(|s| s[y]).sum();
        let gam: Expression = gamma.iter().map(|g| g[y]).sum();
        model = model.with((cons.e * gam - sig.clone()).leq(0.0));
        if cons.uses_t() {
            let r: Expression = rho.iter().map(|r| r[y]).sum();
            model = model.with((cons.h * sig - r).leq(0.0));
        }
    }
    let sol = model.solve().map_err(|e| lp_error("dual", e))?;
    let grid = |v: &[Vec<Variable>], rows: usize| {
        Array2::from_shape_fn((rows, n), |(i, y)| sol.value(v[i][y]))
    };
    Ok(DualPoint {
        gamma: grid(&gamma, n),
        sigma: grid(&sigma, kk),
        rho: if cons.uses_t() {
            grid(&rho, n)
        } else {
            Array2::zeros((n, n))
        },
    })
}

/// Repairs a dual point to exact feasibility, with the lower bound it proves,
/// `sum_x min_y (c_xy + gamma_xy - sum_k sigma_ky l_k[x] - rho_xy)`.
///
/// Weak duality: for feasible (W, m, t) and multipliers `>= 0` with
/// `E sum_x gamma_xy <= sum_k sigma_ky` and `h sum_k sigma_ky <= sum_x rho_xy`,
/// `c . W >= sum_x alpha_x` whenever `alpha_x` is at most every such term. The
/// multipliers are clamped to `>= 0`; sigma, then gamma, are scaled down per output
/// where a coupling constraint is violated (scaling down keeps the earlier ones).
fn repaired(cons: &Constraints, c: &Array2<f64>, mut dual: DualPoint) -> DirectDual {
    let n = c.nrows();
    let relu = |v: f64| if v.is_finite() && v > 0.0 { v } else { 0.0 };
    dual.gamma.mapv_inplace(relu);
    dual.sigma.mapv_inplace(relu);
    dual.rho.mapv_inplace(relu);
    // The factor below 1 absorbs the rounding of the sums, so that the coupling
    // constraints hold in floating point too.
    let shrink = |have: f64, need: f64| have / need * (1.0 - 1e-12);
    for y in 0..n {
        if cons.uses_t() {
            let need = cons.h * dual.sigma.column(y).sum();
            let have = dual.rho.column(y).sum();
            if need > have * (1.0 - 1e-12) {
                let s = shrink(have, need);
                dual.sigma.column_mut(y).mapv_inplace(|v| v * s);
            }
        }
        let need = cons.e * dual.gamma.column(y).sum();
        let have = dual.sigma.column(y).sum();
        if need > have * (1.0 - 1e-12) {
            let s = shrink(have, need);
            dual.gamma.column_mut(y).mapv_inplace(|v| v * s);
        }
    }
    let rows = |a: &Array2<f64>| a.outer_iter().map(|r| r.to_vec()).collect();
    let alpha = direct_alpha(&cons.functionals, c, &dual);
    DirectDual {
        bound: alpha.iter().sum(),
        alpha,
        gamma: rows(&dual.gamma),
        sigma: rows(&dual.sigma),
        rho: rows(&dual.rho),
    }
}

/// `alpha_x = min_y (c_xy + gamma_xy - sum_k sigma_ky l_k[x] - rho_xy)`.
fn direct_alpha(functionals: &[Array1<f64>], c: &Array2<f64>, dual: &DualPoint) -> Vec<f64> {
    let n = c.nrows();
    (0..n)
        .map(|x| {
            (0..n)
                .map(|y| {
                    let s: f64 = functionals
                        .iter()
                        .enumerate()
                        .map(|(k, l)| dual.sigma[[k, y]] * l[x])
                        .sum();
                    c[[x, y]] + dual.gamma[[x, y]] - s - dual.rho[[x, y]]
                })
                .fold(f64::INFINITY, f64::min)
        })
        .collect()
}

/// What [`verify_loss`] re-computed from a stored loss design.
pub(crate) struct LossCheck {
    /// The expected loss re-measured on the matrix.
    pub expected_loss: f64,
    /// The best lower bound proven here: the stored dual, re-checked, or the
    /// closed forms (the loss without privacy; the constant guess at eps = 0).
    pub lower_bound: f64,
    /// The lower bound the stored dual proves, re-checked (`None` without one).
    pub dual_bound: Option<f64>,
    /// Where the dual was re-checked.
    pub repricing: Repricing,
}

/// Re-checks a stored loss design ([`crate::Design::verify`]): the expected
/// loss re-measured on the matrix, and the stored dual re-checked against the
/// loss LP of `set` at `epsilon` (column generation's lambda re-priced by the
/// exact knapsacks, the direct LP's multipliers checked for feasibility and
/// their alpha recomputed).
pub(crate) fn verify_loss(
    set: &UncertaintySet,
    epsilon: f64,
    mechanism: &Mechanism,
    outcome: &LossOutcome,
) -> Result<LossCheck> {
    let n = set.len();
    let d = stored_loss(outcome)?.matrix(n)?;
    let p = set.reference();
    let c = &d * &p.view().insert_axis(Axis(1));
    let level = epsilon.min(crate::design::MAX_DESIGN_LEVEL);
    let mut lower_bound = free_lower_bound(&c);
    if epsilon == 0.0 {
        lower_bound = lower_bound.max(constant_guess(&c)?.lower_bound);
    }
    let (dual_bound, repricing) = match (&outcome.dual, level < epsilon) {
        (None, _) => (None, Repricing::NoDual),
        // Designed at the capped level: its dual is not for the asked cone.
        (Some(_), true) => (None, Repricing::Skipped),
        (Some(LossDual::ColumnGeneration(dc)), false) => {
            let b = reprice_loss_columns(set, level, outcome.method, &c, dc)?;
            (Some(b), Repricing::Exact)
        }
        (Some(LossDual::Direct(dd)), false) => {
            (Some(check_direct(set, level, &c, dd)?), Repricing::Exact)
        }
    };
    Ok(LossCheck {
        expected_loss: expected_loss(mechanism, p.view(), d.view()),
        lower_bound: dual_bound.map_or(lower_bound, |b| b.max(lower_bound)),
        dual_bound,
        repricing,
    })
}

/// The loss a stored design minimised, by name (a user matrix travels with it).
fn stored_loss(outcome: &LossOutcome) -> Result<Loss> {
    Ok(match (outcome.name.as_str(), &outcome.matrix) {
        ("hamming", _) => Loss::Hamming,
        ("absolute", _) => Loss::Absolute,
        ("squared", _) => Loss::Squared,
        ("matrix", Some(rows)) => {
            let n = rows.len();
            let flat: Vec<f64> = rows.iter().flatten().copied().collect();
            let m = Array2::from_shape_vec((n, flat.len() / n.max(1)), flat)
                .map_err(|_| altered("loss.matrix", n, "the rows differ in length"))?;
            Loss::Matrix(m)
        }
        (name, _) => {
            return Err(altered(
                "loss.name",
                name,
                "not hamming, absolute or squared, nor a matrix stored with the design",
            ));
        }
    })
}

/// The lower bound that column generation's `lambda` proves, re-priced over the
/// slice it was priced on (the outer one for the inner/outer method).
fn reprice_loss_columns(
    set: &UncertaintySet,
    level: f64,
    method: LossMethod,
    c: &Array2<f64>,
    dc: &DualCertificate,
) -> Result<f64> {
    let no_slice = || {
        altered(
            "loss.method",
            format!("{method:?}"),
            "no column-generation slice for this set",
        )
    };
    let lambda = stored_lambda("loss.dual.lambda", dc, c.nrows())?;
    let ones = Array1::ones(c.nrows());
    let ones_value = LabelledLoss { c }.column_value(ones.view(), set.reference().view());
    if method == LossMethod::ColumnGeneration
        && let Some(oracle) = ExactBallLoss::new(set, level, c, None)
    {
        let repriced = crate::ray_lp::dual_bound(&oracle, ones_value, &lambda, 0.0);
        check_dual_bound("loss.dual", dc, repriced)?;
        return Ok(-repriced);
    }
    let slice = match (method, set) {
        (LossMethod::InnerOuter, UncertaintySet::L1Ball { center, .. }) => Slice {
            r: center.masses().to_owned(),
            e: level.exp(),
            h: 0.0,
        },
        (LossMethod::InnerOuter, _) => return Err(no_slice()),
        _ => Slice::new(&Constraints::new(set, level)?).ok_or_else(no_slice)?,
    };
    let oracle = LossOracle {
        slice,
        loss: LabelledLoss { c },
    };
    let repriced = crate::ray_lp::dual_bound(&oracle, ones_value, &lambda, 0.0);
    check_dual_bound("loss.dual", dc, repriced)?;
    Ok(-repriced)
}

/// The lower bound that the direct LP's multipliers prove: non-negative, the
/// coupling constraints met (to a relative 1e-12), alpha recomputed.
fn check_direct(set: &UncertaintySet, level: f64, c: &Array2<f64>, dd: &DirectDual) -> Result<f64> {
    let cons = Constraints::new(set, level)?;
    let n = c.nrows();
    let grid = |field: &str, rows: &[Vec<f64>], r: usize| -> Result<Array2<f64>> {
        let fine = rows.len() == r && rows.iter().all(|row| row.len() == n);
        let flat: Vec<f64> = rows.iter().flatten().copied().collect();
        if !fine || flat.iter().any(|v| !(v.is_finite() && *v >= 0.0)) {
            return Err(altered(
                field,
                format!("{} rows", rows.len()),
                &format!("expected {r} x {n} finite multipliers >= 0"),
            ));
        }
        Ok(Array2::from_shape_vec((r, n), flat).expect("shape checked"))
    };
    let dual = DualPoint {
        gamma: grid("loss.dual.gamma", &dd.gamma, n)?,
        sigma: grid("loss.dual.sigma", &dd.sigma, cons.functionals.len())?,
        rho: grid("loss.dual.rho", &dd.rho, n)?,
    };
    for y in 0..n {
        let (gamma, sigma) = (dual.gamma.column(y).sum(), dual.sigma.column(y).sum());
        let rho = dual.rho.column(y).sum();
        if cons.e * gamma > sigma * (1.0 + 1e-12)
            || (cons.uses_t() && cons.h * sigma > rho * (1.0 + 1e-12))
        {
            return Err(altered(
                "loss.dual",
                format!("output {y}"),
                "the multipliers break a coupling constraint of the dual LP",
            ));
        }
    }
    let bound: f64 = direct_alpha(&cons.functionals, c, &dual).iter().sum();
    if bound < dd.bound - crate::verify::tolerance(bound) {
        return Err(altered(
            "loss.dual.bound",
            dd.bound,
            &format!("the multipliers prove only {bound}"),
        ));
    }
    Ok(bound)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pmldesign_model::Prior;

    #[test]
    fn hamming_binary_closed_form() {
        // Binary known prior (0.7, 0.3), e^eps = 1.2: the best accuracy is
        // max over columns in the cone; check against the MAP design value.
        let set = UncertaintySet::known(Prior::new(vec![0.7, 0.3]).unwrap());
        let eps = 1.2f64.ln();
        let r = minimise_loss(&set, eps, &Loss::Hamming).unwrap();
        assert!(r.certificate.worst_case_pml <= eps + 1e-10);
        assert!((r.expected_loss - r.lower_bound).abs() < 1e-9);
    }
}
