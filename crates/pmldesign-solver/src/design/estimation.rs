//! Designing for estimation (docs/theory.md §13, "Designing for estimation"):
//! the mechanism whose maximum-likelihood estimate of the input distribution
//! has the least asymptotic error per released row, `f(W) = tr(J(W)^-1)` with
//! `J(W) = sum_y c_y c_y^T / (p . c_y)` (the error is `f - ||p||^2`).
//!
//! Every mechanism of the cone is a mixture `W = sum_k theta_k r_k` of its rays,
//! and J is linear in the weights theta (`c c^T / (p . c)` is homogeneous of
//! degree 1), so f is convex in theta over a polytope. At W the linearisation
//! `-sum_k theta_k u(r_k)`, `u(c) = c^T J^-2 c / (p . c)` (sub-convex), is
//! minimised by the design LP of `u`, whose certified bound U gives
//! `f* >= f(W) + (f(W) - U) = 2 f(W) - U` (convexity; `sum_y u(c_y) = f(W)` at W
//! itself). Pairwise Frank-Wolfe mixes the LPs' mechanisms ([`Atoms`]) by exact
//! line searches of the convex `tr(J^-1)` along segments. The last LP's dual is
//! stored: a reader recomputes `u` from the stored matrix, re-prices the dual
//! and re-derives the bound.

use crate::colgen::engine::Progress;
use crate::design::simplicial::Pool;
use crate::design::utility::design_notion_with_progress;
use crate::error::{Result, SolverError};
use crate::objective::estimation::{
    Linearised, baseline_estimation_value, error_floor, estimation_value,
};
use crate::objective::estimation_floor::{
    RELAXATION_SECONDS_PER_CUBE, RELAXATION_STEPS, floor_of, mixture_floor,
};
use crate::objective::estimation_mixture::Family;
use crate::reference::baseline::baselines;
use crate::settings::{FINISH_SECONDS_PER_ENTRY, Settings};
use crate::solution::certificate::DualCertificate;
use crate::solution::design::Design;
use crate::solution::estimation::table_time;
use crate::solution::route::Route;
use ndarray::{Array2, ArrayView1, Axis};
use pmldesign_model::frequency::{fisher_information, inverse_fisher};
use pmldesign_model::{Mechanism, ModelError, Notion, UncertaintySet};
use std::time::{Duration, Instant};

mod certified;
mod merge;
mod start;

use certified::{certified, condition};
pub(crate) use merge::merge_proportional;
use start::{sampled, starting_point};

/// Frank-Wolfe steps at most without a time limit: each solves one design
/// LP. Under a time limit the limit bounds them (and the settings'
/// `max_iterations`).
const MAX_STEPS: usize = 200;

/// Pairwise steps among the atoms after each LP, at most: they stop earlier
/// once the atoms' rates agree to a tenth of the last LP's gap
/// ([`Atoms::correct`]).
const CORRECTIVE_STEPS: usize = 400;

/// Seconds per subset of the inputs that one design LP of the linearisation
/// spends before it can stop at its deadline: its rays are enumerated from
/// tables over all 2^N subsets (the family's masses, each pass's sums of the
/// dual), and building them does not look at the clock. About 3.6e-8 s was
/// measured at N = 24 (0.6 s of CPU); the constant is conservative.
pub const SETUP_SECONDS_PER_SUBSET: f64 = 6e-8;

/// Seconds per ray and squared input of one pricing pass of that LP: about
/// `N 2^(N-1)` rays, each valued in `N^2` operations (`u(c) = c^T J^-2 c / (p . c)`).
/// A pass stopped part-way bounds nothing, so an LP whose first pass cannot end
/// in the time left proves nothing and improves nothing.
pub const PASS_SECONDS_PER_RAY_ENTRY: f64 = 1e-9;

/// The time one design LP over `n` inputs needs before it can help: its set-up
/// and one pricing pass ([`SETUP_SECONDS_PER_SUBSET`],
/// [`PASS_SECONDS_PER_RAY_ENTRY`]): 0.14 s at N = 16, 4.3 s at N = 20 and 117 s
/// at N = 24. A Frank-Wolfe step starts only when the loop's time left covers
/// it (a rule on N and the time left, documented in docs/benchmarks.md);
/// otherwise the design stops with the point it has.
fn lp_setup(set: &UncertaintySet, notion: &Notion) -> Duration {
    let n = set.len();
    if crate::limits::estimation_by_ascent(notion, set) {
        let cube = (n as f64).powi(3);
        return Duration::from_secs_f64(SEARCH_SECONDS_PER_CUBE * cube);
    }
    let subsets = (n as f64).exp2();
    let pass = PASS_SECONDS_PER_RAY_ENTRY * subsets / 2.0 * (n as f64).powi(3);
    // Past 2^1024 subsets the seconds overflow to infinity: no LP ever fits.
    Duration::try_from_secs_f64(SETUP_SECONDS_PER_SUBSET * subsets + pass).unwrap_or(Duration::MAX)
}

/// Seconds per cubed input of one design LP priced by ascent (past
/// enumeration: [`crate::limits::estimation_by_ascent`]) before it can help: the majorants' two
/// eigenvalue problems and factorisations, and `tr J^-1` of the mixture.
pub const SEARCH_SECONDS_PER_CUBE: f64 = 2e-8;

/// Golden-section iterations of the step length (the bracket shrinks by 0.618
/// each: 1e-13 after 60).
const LINE_SEARCH: usize = 60;

/// Where Frank-Wolfe stands: the mechanism, `f` there, and the last LP's bound
/// with its dual (taken at this mechanism).
#[derive(Clone)]
struct Iterate {
    mechanism: Mechanism,
    f: f64,
    bound: f64,
    dual: Option<DualCertificate>,
    steps: usize,
    rays_priced: u64,
    converged: bool,
    /// How the last LP priced its rays (a reader re-prices its dual the same way).
    pricing: Route,
    /// J's condition number at the point, estimated ([`condition`]).
    condition: f64,
}

impl Iterate {
    /// The start, before any LP: the best baseline, or the start built
    /// past enumeration (`route`).
    fn at(mechanism: Mechanism, route: Route) -> Self {
        Iterate {
            mechanism,
            f: f64::INFINITY,
            bound: f64::INFINITY,
            dual: None,
            steps: 0,
            rays_priced: 0,
            converged: false,
            // The start's, until an LP prices the linearisation.
            pricing: route,
            condition: f64::INFINITY,
        }
    }

    /// The LP `s` of the linearisation at the current mechanism: its bound, dual
    /// and pricing are the certificate's from now on.
    fn priced(&mut self, s: &Design) {
        self.steps += 1;
        self.rays_priced += s.rays_priced;
        self.bound = s.certificate.upper_bound;
        self.dual = s.certificate.dual.clone();
        // An LP the clock stopped before it priced a ray is its starting
        // baseline (no dual): the route stays that of the LPs that priced.
        if s.pricing != Route::Baseline {
            self.pricing = s.pricing;
        }
    }
}

/// The design for estimation over `set` under `notion` (module docs), started
/// from the best-scoring baseline and certified like any design.
pub(crate) fn design_for_estimation(
    set: &UncertaintySet,
    notion: &Notion,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<Design> {
    notion.check_alphabet(set.len())?;
    let began = Instant::now();
    let reference = set.reference();
    let p = reference.view();
    let value = |m: &Mechanism| baseline_estimation_value(m, p);
    let baselines = baselines(set, notion, &value, None)?;
    let (start, start_value) = starting_point(&baselines, (set, notion), p, settings)?;
    let steps = floor_steps(settings, set.len());
    let mut least = floor_of(p, notion, steps);
    let mut floor_priors = Vec::new();
    if let Some(family) = mixture_in_time(settings, set.len())
        && let Some(m) = mixture_floor(p, notion.density_range(), family)
        && m.floor > least
    {
        (least, floor_priors) = (m.floor, m.priors);
    }
    let baseline_value = start_value;
    let (start, start_value) = sampled(
        set,
        notion,
        (start, start_value),
        (&baselines, least),
        settings,
        began,
    );
    // A built start replaces the baseline only where it is better.
    let route = match start_value > baseline_value {
        true => Route::BuiltStart,
        false => Route::Baseline,
    };
    let it = frank_wolfe(
        set,
        notion,
        (start, route, least),
        settings,
        began,
        progress,
    )?;
    // Measured on the mechanism as written, as a reader measures it (the
    // start's value where no step moved it: the same function of the same matrix).
    let utility_value = match it.steps {
        0 => start_value,
        _ => estimation_value(&it.mechanism, p),
    };
    certified(
        set,
        notion,
        it,
        (utility_value, least, floor_priors),
        baselines,
    )
}

/// Steps of the relaxation's floor a design takes: all of them without a time
/// limit, else as many as a tenth of the limit covers
/// ([`RELAXATION_SECONDS_PER_CUBE`]): a rule on N and the limit, so the same
/// input and limit give the same floor.
fn floor_steps(settings: &Settings, n: usize) -> usize {
    match settings.column_generation.time_limit {
        None => RELAXATION_STEPS,
        Some(t) => {
            let step = RELAXATION_SECONDS_PER_CUBE * (n as f64).powi(3);
            let fits = (0.1 * t.as_secs_f64() / step).floor();
            (fits.min(RELAXATION_STEPS as f64)) as usize
        }
    }
}

/// The widest family whose mixture floor a design computes under LDP: the
/// widest defined at N ([`Family::covers`]) without a time limit, else the
/// widest of those that half the limit covers
/// ([`Family::seconds`]), if any: a rule on N and the limit, as
/// [`floor_steps`] is.
fn mixture_in_time(settings: &Settings, n: usize) -> Option<Family> {
    let fits = |f: Family| {
        let cost = f.seconds(n);
        f.covers(n)
            && (settings.column_generation.time_limit).is_none_or(|t| 2.0 * cost <= t.as_secs_f64())
    };
    [
        Family::TwoTails,
        Family::HeadPairs,
        Family::Heads,
        Family::FewHeads,
    ]
    .into_iter()
    .find(|&f| fits(f))
}

/// How Frank-Wolfe's point is mixed from the LPs' mechanisms: whole, by
/// pairwise steps ([`Atoms`]), or column by column ([`Pool`]: simplicial
/// decomposition, where the restricted problem is small).
trait Mixture {
    /// `J` of the point.
    fn fisher(&self) -> Array2<f64>;
    /// The LP's mechanism `m` taken in and the point moved toward the best
    /// mixture within reach; `gap` is the LP's bound minus f, the Frank-Wolfe
    /// gap in f's units, and `stop` is asked between steps.
    fn improve(&mut self, m: Mechanism, gap: f64, stop: &dyn Fn() -> bool);
    /// The point as one mechanism.
    fn mechanism(&self) -> Result<Mechanism>;
    /// The mechanisms an LP priced by ascent starts from.
    fn seeds(&self) -> Vec<Mechanism>;
}

impl Mixture for Atoms {
    fn fisher(&self) -> Array2<f64> {
        Atoms::fisher(self)
    }

    fn improve(&mut self, m: Mechanism, gap: f64, _stop: &dyn Fn() -> bool) {
        let toward = self.add(m);
        self.toward(toward);
        // The LP's bound exceeds f by the Frank-Wolfe gap, in the rates' units.
        self.correct(CORRECTIVE_STEPS, 0.1 * gap);
    }

    fn mechanism(&self) -> Result<Mechanism> {
        Atoms::mechanism(self)
    }

    fn seeds(&self) -> Vec<Mechanism> {
        self.mechanisms.clone()
    }
}

impl Mixture for Pool {
    fn fisher(&self) -> Array2<f64> {
        Pool::fisher(self)
    }

    /// `m` enters with the share an exact line search gives it (at least 1 %,
    /// at most half, so that every weight stays positive), and the restricted
    /// problem is solved to a thousandth of the gain the gap promises (`gap`,
    /// or `gap^2 / f` near the optimum); where that does not lower f, the pool
    /// stays as it was.
    fn improve(&mut self, m: Mechanism, gap: f64, stop: &dyn Fn() -> bool) {
        let before = self.clone();
        let j = self.fisher();
        let f = trace_inverse(&j);
        let delta = &fisher_information(&m, self.p().view()) - &j;
        let (g, _) = line_search(|g| trace_inverse(&(&j + &(&delta * g))), 1.0);
        self.prune(crate::design::simplicial::PRUNE);
        self.add(&m, g.clamp(0.01, 0.5));
        // Near the optimum a step gains about gap^2 / f: the solve must resolve that.
        self.solve(gap, 1e-3 * gap * (gap / f).min(1.0), stop);
        if trace_inverse(&self.fisher()) >= f {
            *self = before;
        }
    }

    fn mechanism(&self) -> Result<Mechanism> {
        Pool::mechanism(self)
    }

    fn seeds(&self) -> Vec<Mechanism> {
        Pool::mechanism(self).into_iter().collect()
    }
}

/// The mechanisms W mixes (the LPs' solutions and the start), each with its
/// Fisher information and weight: `W = sum_i alpha_i S_i`, `J(W) = sum_i
/// alpha_i J(S_i)`.
struct Atoms {
    p: ndarray::Array1<f64>,
    mechanisms: Vec<Mechanism>,
    fisher: Vec<Array2<f64>>,
    weights: Vec<f64>,
}

impl Atoms {
    /// The mixture of one mechanism.
    fn single(m: Mechanism, p: ArrayView1<f64>) -> Self {
        Atoms {
            p: p.to_owned(),
            fisher: vec![fisher_information(&m, p)],
            mechanisms: vec![m],
            weights: vec![1.0],
        }
    }

    fn fisher(&self) -> Array2<f64> {
        let mut j = Array2::zeros(self.fisher[0].raw_dim());
        for (ji, a) in self.fisher.iter().zip(&self.weights) {
            j.scaled_add(*a, ji);
        }
        j
    }

    /// The rates of the atoms under the linearisation at W: `<J^-2, J(S_i)>`,
    /// minus the derivative of f along the weight of atom i.
    fn rates(&self) -> Option<Vec<f64>> {
        let inv = inverse_fisher(&self.fisher())?;
        let c = inv.dot(&inv);
        Some(self.fisher.iter().map(|j| (&c * j).sum()).collect())
    }

    /// The Frank-Wolfe step toward atom `k`: `alpha <- (1 - g) alpha + g e_k`
    /// with the best g in [0, 1].
    fn toward(&mut self, k: usize) {
        let j = self.fisher();
        let delta = &self.fisher[k] - &j;
        let (g, _) = line_search(|g| trace_inverse(&(&j + &(&delta * g))), 1.0);
        for a in &mut self.weights {
            *a *= 1.0 - g;
        }
        self.weights[k] += g;
    }

    /// Pairwise steps among the atoms only (no LP): weight moves from the
    /// active atom rated lowest to the atom rated highest, until their rates
    /// agree to 1e-12 relative or to `enough`, or `steps` are done: polishing
    /// the mixture of the atoms past what the next LP can certify gains
    /// nothing. Drops atoms of weight 0.
    fn correct(&mut self, steps: usize, enough: f64) {
        for _ in 0..steps {
            let Some(rates) = self.rates() else {
                return;
            };
            let best = (0..rates.len()).max_by(|&a, &b| rates[a].total_cmp(&rates[b]));
            let worst = (0..rates.len())
                .filter(|&i| self.weights[i] > 0.0)
                .min_by(|&a, &b| rates[a].total_cmp(&rates[b]));
            let (Some(best), Some(worst)) = (best, worst) else {
                return;
            };
            let spread = rates[best] - rates[worst];
            if best == worst || spread <= 1e-12 * rates[best].abs() || spread <= enough {
                break;
            }
            let most = self.weights[worst];
            let j = self.fisher();
            let delta = &self.fisher[best] - &self.fisher[worst];
            let (g, _) = line_search(|g| trace_inverse(&(&j + &(&delta * g))), most);
            if g <= 0.0 {
                break;
            }
            self.weights[worst] = if most - g <= 1e-15 * most {
                0.0
            } else {
                most - g
            };
            self.weights[best] += most - self.weights[worst];
        }
        self.drop_unused();
    }

    /// The atoms of weight 0 removed.
    fn drop_unused(&mut self) {
        let keep: Vec<bool> = self.weights.iter().map(|a| *a > 0.0).collect();
        let mut k = keep.iter();
        self.mechanisms
            .retain(|_| *k.next().expect("one flag per atom"));
        let mut k = keep.iter();
        self.fisher
            .retain(|_| *k.next().expect("one flag per atom"));
        self.weights.retain(|a| *a > 0.0);
    }

    /// The atom `m` (an existing one if the same matrix), its index.
    fn add(&mut self, m: Mechanism) -> usize {
        if let Some(i) = self.mechanisms.iter().position(|a| *a == m) {
            return i;
        }
        self.fisher.push(fisher_information(&m, self.p.view()));
        self.mechanisms.push(m);
        self.weights.push(0.0);
        self.mechanisms.len() - 1
    }

    /// The mixture as one mechanism, proportional columns merged.
    fn mechanism(&self) -> Result<Mechanism> {
        let blocks: Vec<Array2<f64>> = self
            .mechanisms
            .iter()
            .zip(&self.weights)
            .filter(|(_, a)| **a > 0.0)
            .map(|(m, a)| &m.matrix() * *a)
            .collect();
        let views: Vec<_> = blocks.iter().map(|b| b.view()).collect();
        let joined = ndarray::concatenate(Axis(1), &views).map_err(|e| {
            ModelError::invalid("mechanism", e, "the mixture is empty", "keep one atom")
        })?;
        merge_proportional(joined)
    }
}

/// Frank-Wolfe from `start` until the certified gap meets the settings' gap
/// tolerance, the time limit or, without one, [`MAX_STEPS`]: each LP's
/// mechanism is taken into the [`Mixture`] (columns weighted one by one within
/// enumeration, whole mechanisms by pairwise steps past it). `least` is the
/// notion's floor ([`floor_of`]). The bound returned is always the one proven at
/// the mechanism returned.
fn frank_wolfe(
    set: &UncertaintySet,
    notion: &Notion,
    (start, route, least): (Mechanism, Route, f64),
    settings: &Settings,
    began: Instant,
    progress: &mut dyn FnMut(Progress),
) -> Result<Iterate> {
    let reference = set.reference();
    let p = reference.view();
    let cg = &settings.column_generation;
    let deadline = cg.estimation_deadline_from(began, set.len(), after_loop(&start, notion, set));
    let no_time_for_lp = || {
        deadline
            .is_some_and(|d| d.saturating_duration_since(Instant::now()) < lp_setup(set, notion))
    };
    let norm = p.dot(&p);
    if cg.interrupt.or_past(deadline) || no_time_for_lp() {
        // No LP can start: the start stands, its Fisher information unneeded.
        return Ok(Iterate::at(start, route));
    }
    // Under a time limit the limit bounds the steps; without one, MAX_STEPS.
    let cap = match deadline {
        Some(_) => cg.max_iterations,
        None => MAX_STEPS.min(cg.max_iterations),
    };
    let by_ascent = crate::limits::estimation_by_ascent(notion, set);
    let mut atoms: Box<dyn Mixture> = match !by_ascent && Pool::applies(p) {
        true => Box::new(Pool::start(start, p)),
        false => Box::new(Atoms::single(start, p)),
    };
    let mut it = Iterate::at(atoms.mechanism()?, route);
    let stop = || cg.interrupt.or_past(deadline);
    let mut step_took = Duration::ZERO;
    // The last point an LP priced, with its bound.
    let mut certified: Option<Iterate> = None;
    loop {
        let step_began = Instant::now();
        let j = atoms.fisher();
        let Some(inv) = inverse_fisher(&j) else {
            break;
        };
        it.f = inv.diag().sum();
        it.condition = condition(&j, &inv);
        if cg.interrupt.or_past(deadline) || no_time_for_lp() {
            // The point stands with the bound proven at it (none after a move),
            // or the last point priced where its certified gap is the smaller.
            return Ok(best_certified(it, certified, least));
        }
        // Where the time left would not cover this step and the next LP, this
        // LP is the last: it certifies the point, which then stays.
        let last =
            deadline.is_some_and(|d| d.saturating_duration_since(step_began) < 2 * step_took);
        let c = inv.dot(&inv);
        let mut sub = settings.clone();
        sub.column_generation.time_limit =
            deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if by_ascent {
            warm_lp(&mut sub, atoms.seeds(), &it, last);
        }
        let s = match design_notion_with_progress(set, notion, &Linearised(c), &sub, &mut |_| {}) {
            Ok(s) => s,
            // The LP failed its own check (rounding past its tolerance where J is
            // near singular, at levels near 0): it proves nothing, and the point
            // stands with the best bound proven (a gap limit, not the clock's).
            Err(SolverError::Certificate(_)) => {
                let stands = best_certified(it, certified, least);
                return Ok(Iterate {
                    converged: true,
                    ..stands
                });
            }
            Err(e) => return Err(e),
        };
        it.priced(&s);
        let floor = error_floor(it.f, it.bound, least);
        progress(Progress {
            iterations: it.steps,
            lower_bound: -(it.f - norm),
            upper_bound: -(floor - norm),
            rays_priced: it.rays_priced,
        });
        let allowed = crate::tolerance::gap_allowance(cg.gap_tolerance, it.f - norm);
        it.converged = it.f - floor <= allowed;
        let out_of_time = cg.interrupt.or_past(deadline) || last;
        certified = Some(it.clone());
        if it.converged || out_of_time || it.steps >= cap {
            it.converged |= !out_of_time;
            break;
        }
        let before = it.f;
        atoms.improve(s.mechanism, (it.bound - it.f).max(0.0), &stop);
        let f = trace_inverse(&atoms.fisher());
        if !f.is_finite() {
            break;
        }
        if f >= before {
            // No descent toward the LP's mechanism: the bound at W stands.
            it.converged = true;
            break;
        }
        let mixed = atoms.mechanism()?;
        if !crate::limits::outputs_fit(mixed.inputs(), mixed.outputs()) {
            // Past what any reader takes: the bound at W stands.
            it.converged = true;
            break;
        }
        // The stored bound belongs to the old point: the loop re-prices at the new.
        it.mechanism = mixed;
        (it.bound, it.dual) = (f64::INFINITY, None);
        step_took = step_began.elapsed();
    }
    Ok(it)
}

/// Of the point reached and the last point an LP priced, the one whose
/// certified gap (f above the floor its bound proves; for a point no LP
/// priced, the notion's floor `least`) is the smaller: a stored
/// dual certifies only the matrix it was priced at, so a move the clock left
/// unpriced may prove less than the point it left.
fn best_certified(now: Iterate, certified: Option<Iterate>, least: f64) -> Iterate {
    let gap = |i: &Iterate| i.f - error_floor(i.f, i.bound, least);
    match certified {
        Some(c) if now.bound.is_infinite() && gap(&c) < gap(&now) => c,
        _ => now,
    }
}

/// A design LP priced by ascent started from the atoms' columns, and solved
/// only as finely as the Frank-Wolfe gap it can close needs: a tenth of the
/// last step's relative gap `(U - f) / U` (the first LP at 1e-2), never finer
/// than the settings' tolerance. The last LP under a time limit, which
/// certifies the point returned, keeps the settings' tolerance.
fn warm_lp(sub: &mut Settings, seeds: Vec<Mechanism>, it: &Iterate, last: bool) {
    let cg = &mut sub.column_generation;
    cg.seeds.extend(seeds);
    if last {
        return;
    }
    let step_gap = match it.bound.is_finite() && it.bound > 0.0 {
        true => (it.bound - it.f).max(0.0) / it.bound,
        false => 0.1,
    };
    cg.gap_tolerance = cg.gap_tolerance.max(0.1 * step_gap).min(1e-2);
}

/// What a design for estimation from `start` takes after its loop beyond the
/// share [`ColumnGenerationSettings::loop_time`] leaves for an N x N mechanism:
/// finishing the outputs past N ([`FINISH_SECONDS_PER_ENTRY`] per entry; an
/// estimation design has up to 8 N) and the estimation table ([`table_time`]).
///
/// [`ColumnGenerationSettings::loop_time`]: crate::settings::ColumnGenerationSettings::loop_time
fn after_loop(start: &Mechanism, notion: &Notion, set: &UncertaintySet) -> Duration {
    let extra = start.inputs() * start.outputs().saturating_sub(start.inputs());
    Duration::from_secs_f64(FINISH_SECONDS_PER_ENTRY * extra as f64)
        + table_time(start, notion, set)
}

/// `tr(j^-1)` (infinite where j is singular).
fn trace_inverse(j: &Array2<f64>) -> f64 {
    inverse_fisher(j).map_or(f64::INFINITY, |i| i.diag().sum())
}

/// The minimiser of a convex `f` on `[0, hi]` by golden section, the ends
/// included: the argument and the value.
fn line_search(f: impl Fn(f64) -> f64, hi: f64) -> (f64, f64) {
    let g = 0.5 * (5f64.sqrt() - 1.0);
    let (mut lo, mut up) = (0.0f64, hi);
    let (mut a, mut b) = (up - g * (up - lo), lo + g * (up - lo));
    let (mut fa, mut fb) = (f(a), f(b));
    for _ in 0..LINE_SEARCH {
        if fa <= fb {
            (up, b, fb) = (b, a, fa);
            a = up - g * (up - lo);
            fa = f(a);
        } else {
            (lo, a, fa) = (a, b, fb);
            b = lo + g * (up - lo);
            fb = f(b);
        }
    }
    let inner = if fa <= fb { (a, fa) } else { (b, fb) };
    [(0.0, f(0.0)), (hi, f(hi)), inner]
        .into_iter()
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .expect("three candidates")
}
