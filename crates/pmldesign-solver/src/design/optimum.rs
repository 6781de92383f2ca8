//! The LP over a cone's rays turned into a mechanism: column generation through
//! an oracle, the support's weights recomputed exactly (polishing), and the
//! tighter exact dual where a full basis gives one (docs/theory.md §4).

use crate::colgen::engine::{Progress, RayLpSolution};
use crate::colgen::oracle::RayOracle;
use crate::colgen::start::seed_columns;
use crate::cones::rays::RaySet;
use crate::design::settle::{REPAIR_MIX, mix_with_means, polish, repair, stacked};
use crate::error::Result;
use crate::objective::utility::Utility;
use crate::pricing::enumerated::MaterialisedRays;
use crate::reference::structured::StructuredBaseline;
use crate::settings::Settings;
use crate::solution::certificate::DualCertificate;
use crate::solution::route::Route;
use ndarray::{Array1, Array2, ArrayView1};
use pmldesign_model::Mechanism;
use pmldesign_model::linalg::least_squares;
use rayon::prelude::*;

/// What the LP over rays returns: the polished mechanism and its bound.
#[derive(Debug, Clone)]
pub struct Optimum {
    /// The mechanism (outputs in a stable order).
    pub mechanism: Mechanism,
    /// The best certified upper bound on the utility.
    pub upper_bound: f64,
    /// The dual behind the bound (`None` when no LP was solved).
    pub dual: Option<DualCertificate>,
    /// Number of extreme rays of the cone, when counted.
    pub rays: Option<u64>,
    /// How the rays were priced: branch and bound (inner/outer past Prop 2),
    /// enumeration, blocks, the baseline, or none.
    pub pricing: Route,
    /// Pricing passes.
    pub iterations: usize,
    /// Rays priced over all passes.
    pub rays_priced: u64,
    /// False when the time limit stopped the loop.
    pub converged: bool,
    /// True when no exact basis reproduced the LP's weights: the rows were
    /// divided by their sums, and the measured levels may exceed the target by
    /// that rounding until the columns are mixed with their means
    /// ([`meet_target`], or [`Optimum::settled`]).
    pub repaired: bool,
}

impl Optimum {
    /// The best of `structured` baselines with `bound` (a valid upper bound on
    /// the utility: the a-priori bound, the identity's utility) and no dual:
    /// for a time limit spent before the search began. `None` without one.
    pub(crate) fn baseline(structured: &[StructuredBaseline], bound: f64) -> Option<Self> {
        let best = structured
            .iter()
            .max_by(|a, b| a.utility.total_cmp(&b.utility))?;
        Some(Optimum {
            mechanism: best.mechanism.clone(),
            upper_bound: bound,
            dual: None,
            rays: None,
            pricing: Route::Baseline,
            iterations: 0,
            rays_priced: 0,
            converged: false,
            repaired: false,
        })
    }

    /// The identity with its utility `u` as the bound: no LP was needed (every
    /// mechanism meets the notion, and by sub-additivity none beats the identity).
    pub(crate) fn identity(identity: Mechanism, u: f64) -> Self {
        Optimum {
            mechanism: identity,
            upper_bound: u,
            dual: None,
            rays: Some(0),
            pricing: Route::None,
            iterations: 0,
            rays_priced: 0,
            converged: true,
            repaired: false,
        }
    }

    /// The mechanism, its columns mixed with their means by 1e-6 if it was
    /// repaired: for callers without one notion to aim at (a repaired
    /// mechanism's levels then sit below every target they met before
    /// rounding).
    pub(crate) fn settled(&self, reference: ArrayView1<f64>) -> Mechanism {
        let mut w = self.mechanism.matrix().to_owned();
        if self.repaired {
            mix_with_means(&mut w, reference, REPAIR_MIX);
        }
        Mechanism::new(w).unwrap_or_else(|_| self.mechanism.clone())
    }
}

/// `optimise` over rays held in memory: the mechanism, the dual upper bound and
/// the number of pricing passes.
pub fn optimise_over_rays(
    rays: &RaySet,
    reference: ArrayView1<f64>,
    utility: &dyn Utility,
    settings: &Settings,
) -> Result<(Mechanism, f64, usize)> {
    let opt = optimise_materialised(
        rays,
        reference,
        utility,
        f64::INFINITY,
        settings,
        &mut |_| {},
    )?;
    Ok((opt.settled(reference), opt.upper_bound, opt.iterations))
}

pub(crate) fn optimise_materialised(
    rays: &RaySet,
    reference: ArrayView1<f64>,
    utility: &dyn Utility,
    a_priori: f64,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<Optimum> {
    let mu: Vec<f64> = (0..rays.len())
        .into_par_iter()
        .with_min_len(1024)
        .map(|k| utility.column_value(rays.ray(k), reference))
        .collect();
    let oracle = MaterialisedRays::new(rays, mu);
    let mut opt = optimise(&oracle, reference, utility, a_priori, settings, progress)?;
    opt.rays = Some(rays.len() as u64);
    Ok(opt)
}

/// Solves the LP over the rays of `oracle` and turns the optimal weights into a
/// mechanism whose rows sum to 1 to rounding: the weights of the support are
/// recomputed from `sum_k theta_k v_k = 1` by least squares. (`rays` is left 0.)
pub fn optimise(
    oracle: &dyn RayOracle,
    reference: ArrayView1<f64>,
    utility: &dyn Utility,
    a_priori: f64,
    settings: &Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<Optimum> {
    let n = oracle.dimension();
    let cg = &settings.column_generation;
    // Polishing stops at its share of the time limit from here, or at Ctrl-C.
    let deadline = cg.polish_deadline_from(std::time::Instant::now(), n);
    let stop = |_: usize| cg.interrupt.or_past(deadline);
    let ones = Array1::<f64>::ones(n);
    let ones_value = utility.column_value(ones.view(), reference);
    let seeds = seed_columns(&cg.seeds, reference, &|c| {
        utility.column_value(c, reference)
    });
    let sol = crate::colgen::engine::solve_with_oracle(
        oracle,
        seeds,
        ones_value,
        crate::colgen::engine::APriori::per_unit(a_priori, reference),
        &settings.column_generation,
        progress,
    )?;
    let (support, theta, exact) = support_weights(&sol, n, &stop);
    let v = stacked(support.iter(), n);
    let exact_dual = ExactDual {
        oracle,
        reference,
        utility,
        ones_value,
        gap_tolerance: settings.column_generation.gap_tolerance,
    };
    let (upper_bound, dual) = exact_dual.tighten(&sol, &support, &v);
    let mut w = v * &theta.insert_axis(ndarray::Axis(0));
    if !exact {
        repair(&mut w);
    }
    Ok(Optimum {
        mechanism: Mechanism::new(in_stable_order(w))?,
        upper_bound,
        dual: Some(dual),
        rays: None,
        pricing: Route::Enumeration,
        iterations: sol.iterations,
        rays_priced: sol.rays_priced,
        converged: sol.converged,
        repaired: !exact,
    })
}

/// The LP's support by decreasing weight, with weights recomputed exactly where
/// [`polish`] finds an exact basis (`true`), else the LP's own (repaired later;
/// also when `stop` ends the polishing at the deadline or an interrupt).
fn support_weights(
    sol: &RayLpSolution,
    n: usize,
    stop: &dyn Fn(usize) -> bool,
) -> (Vec<Array1<f64>>, Array1<f64>, bool) {
    let mut candidates: Vec<(Array1<f64>, f64)> = sol
        .weights
        .iter()
        .filter(|w| w.1 > 0.0)
        .map(|w| (w.0.vector.clone(), w.1))
        .collect();
    candidates.sort_by(|a, b| b.1.total_cmp(&a.1));
    match polish(&candidates, n, stop) {
        Some((support, theta)) => (support, theta, true),
        None => {
            let support: Vec<Array1<f64>> = candidates.iter().map(|c| c.0.clone()).collect();
            let theta = Array1::from_iter(candidates.iter().map(|c| c.1));
            (support, theta, false)
        }
    }
}

/// What re-pricing the exact dual of a full basis needs.
struct ExactDual<'a> {
    oracle: &'a dyn RayOracle,
    reference: ArrayView1<'a, f64>,
    utility: &'a dyn Utility,
    ones_value: f64,
    gap_tolerance: f64,
}

impl ExactDual<'_> {
    /// The LP's bound and dual, tightened by the exact dual `V_S^T lambda = mu_S`
    /// of a full basis when that is priced lower: usually tighter than the LP
    /// solver's dual; both are valid, the smaller is kept. Skipped after a
    /// time-limit stop (no time for another pricing pass) and when the bound is
    /// already within the gap tolerance.
    fn tighten(
        &self,
        sol: &RayLpSolution,
        support: &[Array1<f64>],
        v: &Array2<f64>,
    ) -> (f64, DualCertificate) {
        let mut upper_bound = sol.upper_bound;
        let mut dual = DualCertificate::new(sol.dual.to_vec(), sol.max_reduced_cost);
        let allowance = |bound: f64| crate::tolerance::gap_allowance(self.gap_tolerance, bound);
        let within_gap = sol.upper_bound - sol.value <= allowance(sol.upper_bound);
        if support.len() != v.nrows() || !sol.converged || within_gap {
            return (upper_bound, dual);
        }
        let mu_s: Array1<f64> = support
            .iter()
            .map(|c| self.utility.column_value(c.view(), self.reference))
            .collect();
        let exact_dual = least_squares(&v.t().to_owned(), &mu_s);
        // Priced only if it can beat the loop's bound, and only as finely as the
        // loop's last pass (a bound within the gap tolerance is all it adds).
        if let Some(lambda) = exact_dual.filter(|l| l.sum() < upper_bound) {
            let tol = 0.5 * allowance(lambda.sum());
            let bound =
                crate::colgen::engine::dual_bound(self.oracle, self.ones_value, &lambda, tol);
            upper_bound = upper_bound.min(bound);
            if bound < dual.bound {
                dual = DualCertificate::new(lambda.to_vec(), bound - lambda.sum());
            }
        }
        (upper_bound, dual)
    }
}

/// The columns of `w` in a stable order (by the input of least likelihood, then
/// most), row-major as every consumer expects.
fn in_stable_order(w: Array2<f64>) -> Array2<f64> {
    let n = w.nrows();
    let key = |c: ArrayView1<f64>| {
        let argmin = (0..n).min_by(|&a, &b| c[a].total_cmp(&c[b])).unwrap_or(0);
        let argmax = (0..n).max_by(|&a, &b| c[a].total_cmp(&c[b])).unwrap_or(0);
        (argmin, argmax)
    };
    let mut order: Vec<usize> = (0..w.ncols()).collect();
    // Each key scans a strided column: computed once per column (at N = 2048,
    // recomputed at every comparison, the sort took a tenth of the run).
    order.sort_by_cached_key(|&j| key(w.column(j)));
    w.select(ndarray::Axis(1), &order)
        .as_standard_layout()
        .into_owned()
}
