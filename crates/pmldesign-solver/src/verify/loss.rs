//! Checking a stored loss design: the expected loss re-measured on the matrix,
//! and the stored dual re-checked against the loss LP (column generation's
//! lambda re-priced exactly, the direct LP's multipliers checked for
//! feasibility and their bound recomputed).

use crate::cones::notion_form::{dual_bound, notion_form};
use crate::cones::sparse::Constraints;
use crate::error::Result;
use crate::objective::loss::{LabelledLoss, constant_label, expected_loss, free_lower_bound};
use crate::objective::utility::Utility;
use crate::pricing::exact_ball_loss::ExactBallLoss;
use crate::pricing::labels::{LossOracle, Slice};
use crate::pricing::notion_slices::slice_of;
use crate::settings::LossMethod;
use crate::solution::certificate::DualCertificate;
use crate::solution::claims::altered;
use crate::solution::design::LossOutcome;
use crate::solution::loss::{DirectDual, LossDual, NotionDual};
use crate::verify::utility::{Repricing, check_dual_bound, stored_lambda};
use ndarray::{Array1, Array2, Axis};
use pmldesign_model::{Mechanism, Notion, UncertaintySet};

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
    notion: &Notion,
    mechanism: &Mechanism,
    outcome: &LossOutcome,
) -> Result<LossCheck> {
    let epsilon = notion.epsilon();
    let n = set.len();
    let d = outcome.loss()?.matrix(n)?;
    let p = set.reference();
    let c = &d * &p.view().insert_axis(Axis(1));
    let level = epsilon.min(crate::limits::MAX_DESIGN_LEVEL);
    let mut lower_bound = free_lower_bound(&c);
    if epsilon == 0.0 {
        lower_bound = lower_bound.max(constant_label(&c).1);
    }
    let capped = crate::limits::capped_levels(notion) != *notion;
    let pml = matches!(notion, Notion::Pml { .. });
    let (dual_bound, repricing) = match (&outcome.dual, level < epsilon || capped) {
        (None, _) => (None, Repricing::NoDual),
        // Designed at the capped level: its dual is not for the asked cone.
        (Some(_), true) => (None, Repricing::Skipped),
        (Some(LossDual::ColumnGeneration(dc)), false) if !pml => {
            let b = reprice_notion_columns(set, notion, &c, dc)?;
            (Some(b), Repricing::Exact)
        }
        (Some(LossDual::Notion(nd)), false) if !pml => {
            (Some(check_notion(set, notion, &c, nd)?), Repricing::Exact)
        }
        (Some(LossDual::Notion(_)), false) => return Err(wrong_lp(notion)),
        (Some(LossDual::Direct(_)), false) if !pml => return Err(wrong_lp(notion)),
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
    if method == LossMethod::ColumnGeneration
        && let Some(oracle) = ExactBallLoss::new(set, level, c, None)
    {
        return reprice(&oracle, set, c, dc);
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
        loss: LabelledLoss::new(c),
    };
    reprice(&oracle, set, c, dc)
}

/// The lower bound that `lambda` of `dc` proves over the rays of `oracle` and
/// the all-ones column, checked against the stated one.
fn reprice(
    oracle: &dyn crate::colgen::oracle::RayOracle,
    set: &UncertaintySet,
    c: &Array2<f64>,
    dc: &DualCertificate,
) -> Result<f64> {
    let lambda = stored_lambda("loss.dual.lambda", dc, c.nrows())?;
    let ones = Array1::ones(c.nrows());
    let ones_value = LabelledLoss::new(c).column_value(ones.view(), set.reference().view());
    let repriced = crate::colgen::engine::dual_bound(oracle, ones_value, &lambda, 0.0);
    check_dual_bound("loss.dual", dc, repriced)?;
    Ok(-repriced)
}

/// A stored dual of another notion's LP than the design's.
fn wrong_lp(notion: &Notion) -> crate::error::SolverError {
    altered(
        "loss.dual",
        "lp",
        &format!("these multipliers are not for {}'s LP", notion.name()),
    )
}

/// The lower bound that column generation's `lambda` proves for a loss under
/// another notion than PML, re-priced over that notion's slice (the one the
/// design was priced on: LDP's staircase, the line metric's walks, the box of
/// PMC, ALIP and LIP under a known prior).
fn reprice_notion_columns(
    set: &UncertaintySet,
    notion: &Notion,
    c: &Array2<f64>,
    dc: &DualCertificate,
) -> Result<f64> {
    let slice = slice_of(set, notion).ok_or_else(|| {
        altered(
            "loss.dual",
            "column_generation",
            &format!(
                "no column-generation slice for {} over this set",
                notion.name()
            ),
        )
    })?;
    let oracle = LossOracle {
        slice,
        loss: LabelledLoss::new(c),
    };
    reprice(&oracle, set, c, dc)
}

/// The lower bound that a notion's direct-LP multipliers prove: one finite
/// `g >= 0` per output and row of the cone's exact form, the bound re-derived
/// (weak duality, `cones/notion_form.rs`) and at least the stated one.
fn check_notion(
    set: &UncertaintySet,
    notion: &Notion,
    c: &Array2<f64>,
    nd: &NotionDual,
) -> Result<f64> {
    let form = notion_form(set, notion, false)?;
    let (n, r) = (c.nrows(), form.rows.len());
    let fine = nd.g.len() == n && nd.g.iter().all(|row| row.len() == r);
    let flat: Vec<f64> = nd.g.iter().flatten().copied().collect();
    if !fine || flat.iter().any(|v| !(v.is_finite() && *v >= 0.0)) {
        return Err(altered(
            "loss.dual.g",
            format!("{} rows", nd.g.len()),
            &format!("expected {n} x {r} finite multipliers >= 0"),
        ));
    }
    let g = Array2::from_shape_vec((n, r), flat).expect("shape checked");
    let bound = dual_bound(&form, c, &g);
    if bound < nd.bound - crate::tolerance::gap_allowance(crate::tolerance::OPTIMALITY_GAP, bound) {
        return Err(altered(
            "loss.dual.bound",
            nd.bound,
            &format!("the multipliers prove only {bound}"),
        ));
    }
    Ok(bound)
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
    // The stated alpha is a claim too: the one the multipliers give.
    let alpha = direct_alpha(&cons.functionals, c, &dual);
    let stated = dd.alpha.len() == alpha.len()
        && (dd.alpha.iter().zip(&alpha))
            .all(|(s, a)| (s - a).abs() <= crate::tolerance::value_tolerance(*a));
    if !stated {
        return Err(altered(
            "loss.dual.alpha",
            format!("{} values", dd.alpha.len()),
            "the stated alpha is not the one the multipliers give",
        ));
    }
    let bound: f64 = alpha.iter().sum();
    if bound < dd.bound - crate::tolerance::value_tolerance(bound) {
        return Err(altered(
            "loss.dual.bound",
            dd.bound,
            &format!("the multipliers prove only {bound}"),
        ));
    }
    Ok(bound)
}

/// A dual point: `gamma[x][y]` on `W[x][y] <= E m_y`, `sigma[k][y]` on
/// `m_y <= l_k . W[:, y] + h t_y`, `rho[x][y]` on `t_y <= W[x][y]`.
pub struct DualPoint {
    pub(crate) gamma: Array2<f64>,
    pub(crate) sigma: Array2<f64>,
    pub(crate) rho: Array2<f64>,
}

/// `alpha_x = min_y (c_xy + gamma_xy - sum_k sigma_ky l_k[x] - rho_xy)` over the
/// columns y of `c` (every label, or those of a restricted LP).
pub(crate) fn direct_alpha(
    functionals: &[Array1<f64>],
    c: &Array2<f64>,
    dual: &DualPoint,
) -> Vec<f64> {
    (0..c.nrows())
        .map(|x| {
            (0..c.ncols())
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
