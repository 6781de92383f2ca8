//! The PML envelope computed, not only bounded, by a linear program
//! (\[V\] "Information leakage envelopes", `docs/theory.md` §8).
//!
//! By \[V\] Theorem 2, `eps_c(delta) = sup_Z max_{P_Z(A) >= delta} min_{z in A} l(z)`. A
//! post-processing is a channel `G = P(Z|Y)`; an outcome z of Z leaks at least t through
//! the input x iff `sum_y G[y][z] (W[x][y] - e^t q_y) >= 0`, and two outcomes that leak at
//! least t through the same x may be merged without falling below t (the mediant
//! inequality, \[V\] Lemma 1 (iii)). So the set A needs at most one outcome per input,
//! and the largest mass that can leak at least t is the LP
//!
//! ```text
//! D(t) = max sum_x sum_y g_x(y) q_y
//!        s.t. sum_y g_x(y) (W[x][y] - e^t q_y) >= 0   for every x,
//!             sum_x g_x(y) <= 1,  g >= 0,
//! ```
//!
//! non-increasing in t, and `eps_c(delta) = max{t : D(t) >= delta}`. [`envelope_value`]
//! bisects on t between the bounds of `pmldesign_model::envelope` (Theorem 3 above,
//! `max(bar eps_Y, eps_b)` below). Each lower end is certified: the LP solution is
//! turned into the post-processing `Z` (outcome x takes `g_x(y)`, one more outcome the
//! rest), and its right quantile at delta, re-measured by `pmldesign_model`, is the value
//! reported. The upper end rests on the LP optimum (`microlp`, about 1e-10).
//!
//! A time limit ([`envelope_curve_with`]) stops the bisection: each LP runs on a
//! thread given up at the deadline (`lp::backend::until_deadline`), and the bracket
//! reached so far is reported as it is, marked [`EnvelopeValue::stopped`]. Both ends
//! stay certified, so the published level (the upper end) never understates.

use crate::error::{Result, SolverError};
use crate::lp::backend::until_deadline;
use crate::settings::Settings;
use good_lp::{Expression, ProblemVariables, Solution, SolverModel, Variable, variable};
use ndarray::Array2;
use pmldesign_model::envelope::{Envelope, EnvelopeBounds, LeakageDistribution};
use pmldesign_model::{Mechanism, Prior};
use serde::Serialize;
use std::sync::Arc;
use std::time::Instant;

/// Bisection stops when the bracket is this narrow (nats).
pub const BISECTION_TOLERANCE: f64 = 1e-9;

/// A bracket at most this wide is reported as converged. The certified lower end may
/// trail the bisection by the LP's tolerance on the leakage constraints (about 1e-10
/// divided by the mass of an outcome of the witness).
pub const CONVERGED_WIDTH: f64 = 1e-6;

/// Relative rounding allowed on the LP mass: below `delta (1 - margin)` moves the upper
/// end down, otherwise the lower one up. (`D` is strictly decreasing where it crosses
/// delta, since `eps_c` is continuous, \[V\] Corollary 1, so rounding moves t little.)
const MASS_MARGIN: f64 = 1e-11;

/// The envelope at one delta: the bisection stops at [`BISECTION_TOLERANCE`], the
/// certified bracket `[lower, upper]` is reported.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EnvelopeValue {
    /// The failure probability delta.
    pub delta: f64,
    /// Certified lower end: the right quantile at delta of [`Self::witness`]'s output
    /// (the general lower bound of `pmldesign_model::envelope` when there is no witness).
    pub lower: f64,
    /// Upper end: the LP finds no post-processing of mass delta leaking more.
    pub upper: f64,
    /// A post-processing `P(Z|Y)` (rows are outputs y) attaining `lower`; `None` when
    /// no LP solution improved on the general lower bound (as when the bounds meet).
    pub witness: Option<Vec<Vec<f64>>>,
    /// LPs solved.
    pub linear_programs: usize,
    /// Whether `upper - lower <= CONVERGED_WIDTH`. False when the LP failed numerically
    /// early or the time limit stopped it; the bracket is valid either way.
    pub converged: bool,
    /// Whether the time limit (or an interrupt) stopped the bisection before the
    /// bracket converged; serialised only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub stopped: bool,
}

impl EnvelopeValue {
    /// The level a data holder can publish at this delta, and whether no smaller
    /// one holds: the LP's upper end where it is below the Theorem 3 bound of
    /// `bounds` (tight when the bracket converged), else the bound (tight when
    /// the bounds meet).
    pub fn published(&self, bounds: &EnvelopeBounds) -> (f64, bool) {
        if self.upper < bounds.upper {
            (self.upper, self.converged)
        } else {
            (bounds.upper, bounds.exact || self.converged)
        }
    }
}

/// `D(t)` and the post-processing that attains it: a channel from the M outputs to
/// N + 1 outcomes (outcome x gathers what leaks through input x, the last the rest).
///
/// The LP is solved in masses `h_x(y) = g_x(y) q_y` (better scaled for `microlp`),
/// retried with the leakage constraints relaxed by growing amounts (1e-12 .. 1e-8)
/// when `microlp` reports a numerical failure on a degenerate problem. A relaxation
/// only raises `D(t)`, so a mass below delta still proves the upper end, and a
/// witness is re-measured before it counts.
///
/// With a deadline the LPs run on a thread given up at it (an error then).
fn largest_mass(
    w: &Arc<Mechanism>,
    q: &Arc<Vec<f64>>,
    t: f64,
    deadline: Option<Instant>,
) -> Result<(f64, Array2<f64>)> {
    let (w, q) = (w.clone(), q.clone());
    until_deadline(deadline, "envelope LP", move || {
        let mut last = None;
        for relax in [0.0, 1e-12, 1e-10, 1e-8] {
            match solve_largest_mass(&w, &q, t, relax, deadline) {
                Ok(r) => return Ok(r),
                Err(e) => last = Some(e),
            }
        }
        Err(last.expect("at least one attempt"))
    })
}

fn solve_largest_mass(
    w: &Mechanism,
    q: &[f64],
    t: f64,
    relax: f64,
    deadline: Option<Instant>,
) -> Result<(f64, Array2<f64>)> {
    let (n, m) = (w.inputs(), w.outputs());
    let e = t.exp();
    let mut vars = ProblemVariables::new();
    let h: Vec<Vec<Option<Variable>>> = (0..n)
        .map(|_| {
            (0..m)
                .map(|y| (q[y] > 0.0).then(|| vars.add(variable().min(0.0))))
                .collect()
        })
        .collect();
    let objective: Expression = h.iter().flatten().flatten().copied().sum();
    let solver = crate::lp::backend::guarded_until(vars.len(), deadline);
    let mut model = vars.maximise(objective).using(solver);
    let matrix = w.matrix();
    for (x, row) in h.iter().enumerate() {
        let leak: Expression = row
            .iter()
            .enumerate()
            .filter_map(|(y, v)| v.map(|v| (matrix[[x, y]] / q[y] - e) * v))
            .sum();
        model = model.with(leak.geq(-relax));
    }
    for y in (0..m).filter(|&y| q[y] > 0.0) {
        let used: Expression = h.iter().filter_map(|row| row[y]).sum();
        model = model.with(used.leq(q[y]));
    }
    let sol = model
        .solve()
        .map_err(|err| SolverError::Lp(format!("envelope LP at t = {t}: {err}")))?;
    let mut channel = Array2::zeros((m, n + 1));
    let mut mass = 0.0;
    for y in (0..m).filter(|&y| q[y] > 0.0) {
        let mut used = 0.0;
        for x in 0..n {
            let g = h[x][y].map_or(0.0, |v| (sol.value(v) / q[y]).max(0.0));
            channel[[y, x]] = g;
            used += g;
        }
        if used > 1.0 {
            for x in 0..n {
                channel[[y, x]] /= used;
            }
            used = 1.0;
        }
        mass += used * q[y];
        channel[[y, n]] = 1.0 - used;
    }
    // Never-observed outputs go to the rest.
    for y in (0..m).filter(|&y| q[y] <= 0.0) {
        channel[[y, n]] = 1.0;
    }
    if !mass.is_finite() {
        return Err(SolverError::Lp(format!(
            "envelope LP at t = {t}: mass {mass}"
        )));
    }
    Ok((mass, channel))
}

/// The envelope `eps_c(delta)` of W under p to [`BISECTION_TOLERANCE`], with a
/// certified lower end and the post-processing that attains it.
pub fn envelope_value(mechanism: &Mechanism, prior: &Prior, delta: f64) -> Result<EnvelopeValue> {
    envelope_value_until(mechanism, prior, delta, &Settings::default(), None)
}

/// [`envelope_value`], stopped at `deadline` or by the settings' interrupt (the
/// bracket so far, marked stopped).
fn envelope_value_until(
    mechanism: &Mechanism,
    prior: &Prior,
    delta: f64,
    settings: &Settings,
    deadline: Option<Instant>,
) -> Result<EnvelopeValue> {
    let bounds = Envelope::new(mechanism, prior)?.bounds(delta)?;
    let mut value = EnvelopeValue {
        delta,
        lower: bounds.lower,
        upper: bounds.upper,
        witness: None,
        linear_programs: 0,
        converged: true,
        stopped: false,
    };
    if bounds.exact {
        return Ok(value);
    }
    let stop = || settings.column_generation.interrupt.or_past(deadline);
    let w = Arc::new(mechanism.clone());
    let q = Arc::new(mechanism.output_marginal(prior).to_vec());
    // Bisection on t by the LP; `value.lower` only moves to re-measured witnesses.
    let mut reached_t = value.lower;
    while value.upper - reached_t > BISECTION_TOLERANCE {
        if stop() {
            value.stopped = true;
            break;
        }
        let t = 0.5 * (reached_t + value.upper);
        value.linear_programs += 1;
        let Ok((mass, channel)) = largest_mass(&w, &q, t, deadline) else {
            // The bracket so far stays valid; report it as it is.
            value.stopped = stop();
            break;
        };
        if mass < delta * (1.0 - MASS_MARGIN) {
            value.upper = t;
            continue;
        }
        // D(t) >= delta: the envelope is at least t (to LP accuracy). Certify what the
        // post-processing really reaches.
        let z = Mechanism::new(mechanism.matrix().dot(&channel))?;
        let reached = LeakageDistribution::new(&z, prior)?.right_quantile(delta)?;
        if reached > value.lower {
            value.lower = reached.min(value.upper);
            value.witness = Some(channel.outer_iter().map(|r| r.to_vec()).collect());
        }
        reached_t = t.max(reached).min(value.upper);
    }
    value.converged = value.upper - value.lower <= CONVERGED_WIDTH;
    value.stopped &= !value.converged;
    Ok(value)
}

/// [`envelope_value`] at each delta of a grid.
pub fn envelope_curve(
    mechanism: &Mechanism,
    prior: &Prior,
    deltas: &[f64],
) -> Result<Vec<EnvelopeValue>> {
    envelope_curve_with(mechanism, prior, deltas, &Settings::default())
}

/// [`envelope_curve`] under the time limit and interrupt of `settings`
/// (`settings.column_generation`; the other fields do not apply): the grid shares
/// the limit's loop share ([`crate::ColumnGenerationSettings::loop_time`]), and a
/// value the clock stopped is its bracket so far ([`EnvelopeValue::stopped`]).
pub fn envelope_curve_with(
    mechanism: &Mechanism,
    prior: &Prior,
    deltas: &[f64],
    settings: &Settings,
) -> Result<Vec<EnvelopeValue>> {
    settings.validate()?;
    let deadline = settings.loop_deadline(mechanism.inputs().max(mechanism.outputs()));
    deltas
        .iter()
        .map(|&d| envelope_value_until(mechanism, prior, d, settings, deadline))
        .collect()
}
