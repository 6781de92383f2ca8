//! A loss by column generation over a label slice (the `loss` module's docs):
//! the LP over rays with `mu(v) = max_y -c[:, y] . v`, merged into one column
//! per label.

use crate::colgen::engine::Progress;
use crate::colgen::oracle::RayOracle;
use crate::design::loss::{Solved, stopped_or};
use crate::design::loss_direct::clean;
use crate::error::Result;
use crate::objective::loss::{LabelledLoss, free_lower_bound};
use crate::pricing::labels::{LabelSlice, LossOracle};
use crate::settings::LossMethod;
use crate::solution::certificate::DualCertificate;
use crate::solution::design::DesignStatus;
use crate::solution::loss::LossDual;
use crate::solution::route::Route;
use ndarray::{Array2, ArrayView1};
use pmldesign_model::UncertaintySet;

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
            route: match method {
                LossMethod::InnerOuter => Route::ColumnGenerationInnerOuter,
                _ => Route::ColumnGeneration,
            },
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
        loss: LabelledLoss::new(c),
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
    let loss = LabelledLoss::new(c);
    let design_settings = crate::Settings {
        max_alphabet: usize::MAX,
        ..settings.clone()
    };
    let opt = crate::design::optimum::optimise(
        oracle,
        r,
        &loss,
        f64::INFINITY,
        &design_settings,
        progress,
    )?;
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
