//! The l1 ball past \[E\] Prop 2, bracketed (docs/theory.md §4b): the design over
//! an inner cone (Prop 2's formula, inside the exact cone for every radius) with
//! the bound of an outer one (the estimate alone), for utilities and for losses.

use crate::colgen::engine::Progress;
use crate::colgen::start::Started;
use crate::design::loss::Solved;
use crate::design::loss_colgen::{ColumnGenerationResult, column_generation};
use crate::design::optimum::{Optimum, optimise};
use crate::error::{Result, SolverError};
use crate::objective::utility::Utility;
use crate::pricing::branch_bound::{BoxCut, Levels, TwoLevel, Union};
use crate::pricing::labels::Slice;
use crate::settings::{LossMethod, Settings};
use crate::solution::design::DesignStatus;
use crate::solution::route::Route;
use ndarray::{Array2, ArrayView1};
use pmldesign_model::UncertaintySet;

/// The l1 ball past \[E\] Prop 2 (`beta >= 2 min p^`) at alphabets the generic
/// enumerator cannot take (docs/theory.md §4b, "The ball past Proposition 2"):
/// the mechanism is optimal over an inner cone, \[E\] Prop 2's formula with
/// `e^eps' = e^eps / (1 + beta/2 e^eps)`, which lies inside the exact cone for
/// every radius; the bound is that of the estimate alone, whose cone contains the
/// exact one (and `I(X;Y) <= eps` for mutual information). Both are priced by
/// branch and bound; the certificate states the gap between them.
pub struct PastProposition2 {
    /// The radius beta.
    pub beta: f64,
    /// The level eps.
    pub epsilon: f64,
}

/// The relative gap at which the inner design and the outer bound stop (or
/// the requested gap if larger).
const INNER_OUTER_GAP: f64 = 1e-6;

/// Shares of a time limit for the inner design and the outer bound.
pub(crate) const INNER_SHARE: f64 = 0.6;

pub(crate) const OUTER_SHARE: f64 = 0.3;

impl PastProposition2 {
    /// The inner optimum with the outer bound (reachable from the tests at any
    /// N through `internals`).
    pub fn optimise(
        &self,
        reference: ArrayView1<f64>,
        utility: &dyn Utility,
        a_priori: f64,
        settings: &Settings,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Optimum> {
        let p = reference.to_vec();
        let (e, b) = (self.epsilon.exp(), self.beta / 2.0);
        let share = |f: f64| {
            let mut s = settings.with_time_share(f);
            let cg = &mut s.column_generation;
            // Precision past the gap between the two cones buys nothing.
            cg.gap_tolerance = cg.gap_tolerance.max(INNER_OUTER_GAP);
            let deadline = s.loop_deadline(p.len());
            (s, deadline)
        };
        let missing = || SolverError::Lp("no separable form for branch and bound".into());
        let (inner_settings, deadline) = share(INNER_SHARE);
        let family_z =
            BoxCut::new(&p, 0.0, e / (1.0 + b * e), true, utility).ok_or_else(missing)?;
        let family_l =
            TwoLevel::new(&p, Levels::BallLevel { e, b }, utility).ok_or_else(missing)?;
        let inner = Started {
            oracle: Box::new(Union::ball(family_z, family_l, deadline)),
            start: crate::colgen::start::spikes(reference, e / (1.0 + b * e), b, &|v| {
                utility.column_value(v, reference)
            }),
        };
        let mut opt = optimise(
            &inner,
            reference,
            utility,
            a_priori,
            &inner_settings,
            progress,
        )?;
        let (outer_settings, deadline) = share(OUTER_SHARE);
        let outer = Started {
            oracle: Box::new(
                BoxCut::new(&p, 0.0, e, false, utility)
                    .ok_or_else(missing)?
                    .with_deadline(deadline),
            ),
            start: crate::colgen::start::spikes(reference, e, 0.0, &|v| {
                utility.column_value(v, reference)
            }),
        };
        let bound = optimise(
            &outer,
            reference,
            utility,
            a_priori,
            &outer_settings,
            &mut |_| {},
        )?;
        // The outer dual certifies the exact cone too: its slice lies inside the
        // outer one, and a convex function is largest at the outer vertices.
        opt.upper_bound = bound.upper_bound.min(a_priori);
        opt.dual = bound.dual;
        opt.iterations += bound.iterations;
        opt.converged &= bound.converged;
        opt.rays_priced += bound.rays_priced;
        opt.pricing = Route::BranchAndBoundInnerOuter;
        Ok(opt)
    }
}

impl PastProposition2 {
    /// The bracket for a loss over the ball `set`, when asked for
    /// ([`LossMethod::InnerOuter`]) past Prop 2: the mechanism is optimal over
    /// the inner slice of Prop 2's formula (`e^eps'`, `h = beta/2`, inside the
    /// exact cone for every radius), and the lower bound is that of the
    /// estimate alone (whose cone contains the exact one). Both by column
    /// generation with exact knapsack pricing.
    pub(crate) fn for_loss(
        set: &UncertaintySet,
        epsilon: f64,
        settings: &Settings,
    ) -> Option<Self> {
        let UncertaintySet::L1Ball { center, beta, .. } = set else {
            return None;
        };
        let prop2 = pmldesign_model::uncertainty::within_proposition_2(center, *beta);
        if prop2 || settings.loss_method != LossMethod::InnerOuter {
            return None;
        }
        Some(PastProposition2 {
            beta: *beta,
            epsilon,
        })
    }

    /// The inner mechanism (labelled W) with the outer lower bound and its dual.
    pub(crate) fn solve_loss(
        self,
        set: &UncertaintySet,
        c: &Array2<f64>,
        settings: &Settings,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Solved> {
        let (e, h) = (self.epsilon.exp(), self.beta / 2.0);
        let r = set.reference().to_owned();
        let inner_slice = Slice {
            r: r.clone(),
            e: pmldesign_model::cone::ball_exp_epsilon(self.epsilon, self.beta),
            h,
        };
        let outer_slice = Slice { r, e, h: 0.0 };
        let inner = column_generation(
            inner_slice,
            c,
            &settings.with_time_share(INNER_SHARE),
            progress,
        )?;
        let outer = column_generation(
            outer_slice,
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
            self.epsilon,
            c,
            DesignStatus::GapLimit,
        )
    }
}
