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
//! By default (pure Rust) the LP is solved by Clarabel's interior-point method
//! (the `loss_ipm` module), whose dual comes with the primal. With the `highs`
//! feature, or if Clarabel fails numerically, `good_lp`'s simplex backend solves
//! the primal and the dual as a second LP (`microlp` gives no dual values). Either
//! dual is repaired to exact dual feasibility (multipliers clamped to `>= 0` and
//! scaled down where a coupling constraint is violated, `alpha_x` recomputed as a
//! minimum) and weak duality turns it into a valid lower bound on the loss of
//! every feasible mechanism. The primal is solved with `E` tightened by a relative
//! margin ([`PRIMAL_MARGIN`], 1e-9, for the simplex, which satisfies constraints
//! to about 1e-10; `loss_ipm::MARGIN`, 1e-11, for the interior point, feasible to
//! about 1e-12; `sqrt E` when that would drop below 1), because the row
//! renormalisation below perturbs PML by as much; the loss given up is far inside
//! the certificate's gap tolerance.
//!
//! The interior point's time grows about as `N^3` (the ball's `t` rows cost up
//! to twice the known prior's); `microlp`'s simplex is slower by one to two
//! orders of magnitude from N = 32 on (docs/benchmarks.md, "Designs", the loss LP).
//! [`LossMethod::Auto`] takes it past [`COLUMN_GENERATION_UP_TO`] inputs, over
//! generated labels where the cone has a knapsack slice (a known prior, the ball
//! under Proposition 2; the `loss_labels` module, docs/theory.md §4): the LP over
//! a few labels, grown by exact pricing, certified by column generation's dual,
//! several times faster than the full LP.
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
//! prior and the ball under Proposition 2 up to [`COLUMN_GENERATION_UP_TO`] inputs,
//! where it is as fast as the interior point with smaller gaps (1e-14 against
//! 1e-12 to 1e-9), and far slower past them. Past N of about 100 the master is very degenerate
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

use crate::colgen::engine::Progress;
use crate::cones::sparse::Constraints;
use crate::design::inner_outer::PastProposition2;
use crate::design::loss_colgen::{
    ColumnGenerationResult, column_generation, column_generation_over,
};
use crate::design::loss_direct::{PRIMAL_MARGIN, clean, repaired};
use crate::design::loss_direct::{solve_dual, solve_primal};
use crate::design::loss_ipm::{self, IpmFailure, IpmSolution};
use crate::design::loss_labels;
use crate::error::Result;
use crate::lp::backend::until_deadline;
use crate::objective::loss::{Loss, argmin, constant_label, expected_loss, free_lower_bound};
use crate::pricing::exact_ball_loss::ExactBallLoss;
use crate::pricing::labels::Slice;
use crate::settings::LossMethod;
use crate::solution::certificate::Certificate;
use crate::solution::design::DesignStatus;
use crate::solution::loss::{LossDesign, LossDual};
use crate::solution::route::Route;
use crate::verify::loss::DualPoint;
use ndarray::{Array2, Axis};
use pmldesign_model::notion::check_epsilon;
use pmldesign_model::uncertainty::{DEFAULT_VERTEX_LIMIT, l1_ball_exceeds};
use pmldesign_model::{Mechanism, ModelError, UncertaintySet};

/// Minimises the expected `loss` under the reference prior of `set` over N x N
/// mechanisms that are eps-PML for every prior of `set` (docs/theory.md §4), and
/// certifies the result (module docs), reporting every column-generation pass to
/// `progress` (bounds on the negated loss, as a utility). The public route is
/// `Problem::new(set).epsilon(eps).loss(loss).solve()`.
pub fn minimise_loss_with_progress(
    set: &UncertaintySet,
    epsilon: f64,
    loss: &Loss,
    settings: &crate::Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<LossDesign> {
    check_epsilon(epsilon)?;
    let settings = &for_loss_over(set, settings);
    let n = set.len();
    let d = loss.matrix(n)?;
    let p = set.reference();
    // c[x][y] = p_x d(x, y).
    let c = &d * &p.view().insert_axis(Axis(1));
    // Levels past what doubles represent are designed at the largest one that
    // is, as for utilities (e^710 overflows, and microlp asserts on an infinite
    // coefficient): stricter, so still private at eps; the LP's bound is then
    // for the smaller set, and the loss without privacy bounds the asked one.
    let level = epsilon.min(crate::limits::MAX_DESIGN_LEVEL);
    let mut solved = if set.worst_case_pml(&Mechanism::identity(n)) <= epsilon {
        cheapest_labels(&d, &c)?
    } else if epsilon == 0.0 {
        constant_guess(&c)?
    } else if let Some(solved) = exact_ball(set, level, &c, settings, progress)? {
        solved
    } else if let Some(ball) = PastProposition2::for_loss(set, level, settings) {
        ball.solve_loss(set, &c, settings, progress)?
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

/// `settings` for a loss design over `set`: where certifying over the set is
/// costly (`limits::costly_certificate`), the time limit less that extra work
/// ([`crate::limits::SET_FINISH_SECONDS_PER_ENTRY`]), so that the design returns within it.
pub fn for_loss_over(
    set: &pmldesign_model::UncertaintySet,
    settings: &crate::Settings,
) -> crate::Settings {
    let mut s = settings.clone();
    let n = set.len() as f64;
    if let (true, Some(t)) = (
        crate::limits::costly_certificate(set),
        s.column_generation.time_limit,
    ) {
        let extra =
            std::time::Duration::from_secs_f64(crate::limits::SET_FINISH_SECONDS_PER_ENTRY * n * n);
        s.column_generation.time_limit = Some(t.saturating_sub(extra));
    }
    s
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
    /// The route that ran ([`crate::Route`]).
    pub route: Route,
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
            route: self.route,
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
        route: Route::None,
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
pub(crate) fn constant_guess(c: &Array2<f64>) -> Result<Solved> {
    let n = c.nrows();
    let (y, cost) = constant_label(c);
    let mut w = Array2::zeros((n, n));
    w.column_mut(y).fill(1.0);
    Ok(Solved {
        method: LossMethod::ClosedForm,
        route: Route::None,
        mechanism: Mechanism::new(w)?,
        lower_bound: cost,
        dual: None,
        iterations: 0,
        status: DesignStatus::Optimal,
    })
}

/// The largest alphabet for which [`LossMethod::Auto`] takes column generation
/// (where the slice allows it) over the interior-point direct LP: measured equal
/// at N = 64, the direct LP 3 to 8 times faster at N = 128 (module docs).
pub(crate) const COLUMN_GENERATION_UP_TO: usize = 64;

/// The LP: column generation where the slice allows it and N is at most
/// [`COLUMN_GENERATION_UP_TO`] (module docs), the direct sparse LP otherwise or
/// as the fallback.
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
        // With HiGHS the direct LP is the faster one at every size (README);
        // Clarabel's from N = 65 on (module docs).
        (_, Some(_)) if !cfg!(feature = "highs") && c.nrows() <= COLUMN_GENERATION_UP_TO => {
            LossMethod::ColumnGeneration
        }
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
    direct(set, epsilon, c, &cons, settings, progress)
}

/// The direct LP: Clarabel's interior point by default (primal and dual in one
/// solve), over generated labels in `Auto` mode where the cone has a knapsack
/// slice; the simplex backend's primal and dual LPs with `highs` or when
/// Clarabel fails numerically. Stops at the loop's deadline
/// ([`crate::Settings::loop_deadline`]), reporting each round of labels.
fn direct(
    set: &UncertaintySet,
    epsilon: f64,
    c: &Array2<f64>,
    cons: &Constraints,
    settings: &crate::Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<Solved> {
    let tightened = |margin: f64| {
        if cons.e * (1.0 - margin) > 1.0 {
            cons.e * (1.0 - margin)
        } else {
            cons.e.sqrt()
        }
    };
    let deadline = settings.loop_deadline(c.nrows());
    let stopped = || settings.column_generation.interrupt.or_past(deadline);
    if stopped() || deadline.is_some_and(|d| left(d) < ipm_setup(c.nrows())) {
        return stopped_direct(c);
    }
    if !cfg!(feature = "highs") {
        let interrupt = &settings.column_generation.interrupt;
        let generated = Slice::new(cons)
            .filter(|_| settings.loss_method == LossMethod::Auto)
            .and_then(|slice| {
                let tol = settings.column_generation.gap_tolerance / 2.0;
                let e_lp = tightened(loss_ipm::MARGIN);
                loss_labels::solve(cons, &slice, c, e_lp, tol, (deadline, interrupt), progress)
            });
        if let Some(g) = generated {
            return by_labels(set, epsilon, c, g);
        }
        match loss_ipm::solve(cons, c, tightened(loss_ipm::MARGIN), deadline, interrupt) {
            Ok(sol) => {
                let mechanism = clean(sol.w, set, epsilon)?;
                // Clarabel reports reduced accuracy when stopped by its time limit.
                let status = if stopped() {
                    DesignStatus::TimeLimit
                } else {
                    DesignStatus::Optimal
                };
                return Ok(Solved {
                    status,
                    ..direct_solved(cons, c, mechanism, sol.dual)
                });
            }
            Err(IpmFailure::Stopped(last)) => return stopped_ipm(set, epsilon, cons, c, *last),
            Err(IpmFailure::Failed) if stopped() => return stopped_direct(c),
            Err(IpmFailure::Failed) => {}
        }
    }
    let (owned, e_lp) = (
        std::sync::Arc::new((cons.clone(), c.clone())),
        tightened(PRIMAL_MARGIN),
    );
    let lp = owned.clone();
    let primal = until_deadline(deadline, "loss LP (primal)", move || {
        solve_primal(&lp.0, &lp.1, e_lp, deadline)
    });
    let mechanism = match primal {
        Ok(w) => clean(w, set, epsilon)?,
        Err(_) if stopped() => return stopped_direct(c),
        Err(e) => return Err(e),
    };
    let dual = until_deadline(deadline, "loss LP (dual)", move || {
        solve_dual(&owned.0, &owned.1, deadline)
    });
    match dual {
        Ok(dual) => Ok(direct_solved(cons, c, mechanism, dual)),
        Err(_) if stopped() => Ok(Solved {
            method: LossMethod::Direct,
            route: Route::DirectLp,
            mechanism,
            lower_bound: free_lower_bound(c),
            dual: None,
            iterations: 0,
            status: DesignStatus::TimeLimit,
        }),
        Err(e) => Err(e),
    }
}

/// Label generation's answer: the cleaned mechanism (the polished LP's where
/// it loses less), bounded by column generation's dual. A round the clock
/// stopped may leave an iterate that does not clean (a zero row): then the
/// constant guess, still bounded by that dual.
/// Recorded as what ran: [`Route::LabelGeneration`], with
/// [`LossMethod::ColumnGeneration`], the method of its dual (re-checked on
/// reading over the same slice).
fn by_labels(
    set: &UncertaintySet,
    epsilon: f64,
    c: &Array2<f64>,
    g: loss_labels::Generated,
) -> Result<Solved> {
    let converged = g.converged;
    let result = ColumnGenerationResult {
        w: g.w,
        lower_bound: -g.dual.bound,
        dual: Some(g.dual.clone()),
        iterations: g.rounds,
        converged,
    };
    let method = LossMethod::ColumnGeneration;
    let mut solved = match result.solved(method, set, epsilon, c, DesignStatus::Optimal) {
        Ok(solved) => solved,
        Err(_) if !converged => Solved {
            lower_bound: (-g.dual.bound).max(free_lower_bound(c)),
            dual: Some(LossDual::ColumnGeneration(g.dual)),
            iterations: g.rounds,
            method,
            ..stopped_direct(c)?
        },
        Err(e) => return Err(e),
    };
    if let Some(m) = g.polished.and_then(|w| clean(w, set, epsilon).ok())
        && cost(&m, c) < cost(&solved.mechanism, c)
    {
        solved.mechanism = m;
    }
    solved.route = Route::LabelGeneration;
    Ok(solved)
}

/// The direct LP's answer: the cleaned mechanism and the repaired dual's bound.
fn direct_solved(
    cons: &Constraints,
    c: &Array2<f64>,
    mechanism: Mechanism,
    dual: DualPoint,
) -> Solved {
    let dual = repaired(cons, c, dual);
    Solved {
        method: LossMethod::Direct,
        route: Route::DirectLp,
        mechanism,
        lower_bound: dual.bound.max(free_lower_bound(c)),
        dual: Some(LossDual::Direct(dual)),
        iterations: 0,
        status: DesignStatus::Optimal,
    }
}

/// The interior point stopped by the time limit or Ctrl-C: its last iterate,
/// cleaned (private whatever it is), or the constant guess where that loses
/// less; either way bounded by the iterate's repaired dual (valid whatever it is).
fn stopped_ipm(
    set: &UncertaintySet,
    epsilon: f64,
    cons: &Constraints,
    c: &Array2<f64>,
    last: IpmSolution,
) -> Result<Solved> {
    let guess = stopped_direct(c)?;
    let Ok(mechanism) = clean(last.w, set, epsilon) else {
        return Ok(guess);
    };
    let iterate = direct_solved(cons, c, mechanism, last.dual);
    let mechanism = if cost(&iterate.mechanism, c) < cost(&guess.mechanism, c) {
        iterate.mechanism
    } else {
        guess.mechanism
    };
    Ok(Solved {
        mechanism,
        status: DesignStatus::TimeLimit,
        ..iterate
    })
}

/// `sum_{x,y} c[x][y] W[x][y]`: the expected loss of `m` (`c = p d`), to choose
/// between two private candidates.
fn cost(m: &Mechanism, c: &Array2<f64>) -> f64 {
    (&m.matrix() * c).sum()
}

/// Seconds per entry of the N x N loss matrix that the direct LP's first
/// interior-point solve spends before it looks at the clock: Clarabel orders
/// its KKT system (approximate minimum degree) when it is set up, which over
/// the first labels took about 0.8 s at N = 1024 (2 cores). The LP starts only
/// when the loop's time left covers `N^2` times this (1.0 s at N = 1024, 0.07 s
/// at N = 256); otherwise the design is the best structured baseline.
pub const IPM_SETUP_SECONDS_PER_ENTRY: f64 = 1e-6;

fn ipm_setup(n: usize) -> std::time::Duration {
    std::time::Duration::from_secs_f64(IPM_SETUP_SECONDS_PER_ENTRY * (n * n) as f64)
}

fn left(deadline: std::time::Instant) -> std::time::Duration {
    deadline.saturating_duration_since(std::time::Instant::now())
}

/// The direct LP stopped by the time limit (or Ctrl-C) before its primal: the
/// constant guess, private at every level, bounded by the loss without privacy.
pub(crate) fn stopped_direct(c: &Array2<f64>) -> Result<Solved> {
    Ok(Solved {
        method: LossMethod::Direct,
        route: Route::DirectLp,
        lower_bound: free_lower_bound(c),
        status: DesignStatus::TimeLimit,
        ..constant_guess(c)?
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
    let UncertaintySet::L1Ball { center, beta, .. } = set else {
        return Ok(None);
    };
    let wanted = match settings.loss_method {
        LossMethod::Auto => l1_ball_exceeds(center, *beta, DEFAULT_VERTEX_LIMIT),
        LossMethod::ColumnGeneration => true,
        _ => false,
    };
    if !wanted {
        return Ok(None);
    }
    let cg = &settings.column_generation;
    let deadline = cg
        .time_limit
        .map(|t| std::time::Instant::now() + cg.loop_time(t, c.nrows()));
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
