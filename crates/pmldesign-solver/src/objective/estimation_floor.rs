//! The least error any mechanism of a notion can have for estimation, from the
//! ceilings the notion puts on the information densities (docs/theory.md §13,
//! "A floor in closed form" and "The relaxation's floor"). Both floors hold for
//! every mechanism of the notion whatever the LPs proved, and a reader
//! recomputes them from the prior and the level alone.

use super::estimation_mixture::{Family, Mixture, Parts, mixture_applies};
use faer::Side;
use ndarray::{Array1, Array2, ArrayView1};
use pmldesign_model::{DensityRange, Notion};

/// Fixed-point steps of the relaxation's dual at most (`relaxed_floor`): it
/// settles to 1e-12 relative in 20 to 25 from 16 to 512 inputs (Zipf priors).
pub const RELAXATION_STEPS: usize = 60;

/// The largest alphabet whose relaxation's floor is computed: each step
/// decomposes an N x N matrix ([`RELAXATION_SECONDS_PER_CUBE`]), and a reader
/// takes all the steps (about 5 s of a check at 1,024 inputs).
pub const RELAXED_FLOOR_UP_TO: usize = 512;

/// Seconds per cubed input of one step of the relaxation's dual (one symmetric
/// eigendecomposition), for the steps a time limit allows: 1.2 to 3.6 times
/// what a step takes from 128 to 512 inputs on two cores.
pub const RELAXATION_SECONDS_PER_CUBE: f64 = 1e-9;

/// Relative rise of the dual below which its fixed point has settled.
const SETTLED: f64 = 1e-12;

/// The least `f = tr J^-1` any mechanism can have at the prior `p` under a
/// notion whose information density is bounded by `range`: the larger of the
/// closed form (`closed_form`) and the relaxation's dual after at most
/// `steps` steps (`relaxed_floor`; none at 0), lowered by 1e-12 relative so
/// that rounding never overstates it. More steps never give less.
pub fn notion_floor(p: ArrayView1<f64>, range: Option<DensityRange>, steps: usize) -> f64 {
    let d = p.mapv(|px| second_moment_ceiling(px, range));
    let closed = closed_form(p, &d);
    let relaxed = relaxed_floor(p, &d, steps).unwrap_or(f64::NEG_INFINITY);
    closed.max(relaxed) * (1.0 - 1e-12)
}

/// The floor of [`notion_floor`] for `notion`, raised to the PMC level's
/// ([`pmc_floor`]) where the notion has one (PMC, LIP, ALIP).
pub fn floor_of(p: ArrayView1<f64>, notion: &Notion, steps: usize) -> f64 {
    let least = notion_floor(p, notion.density_range(), steps);
    let pmc = notion.lower().and_then(|level| pmc_floor(p, level));
    least.max(pmc.unwrap_or(f64::NEG_INFINITY))
}

/// The least `f = tr J^-1` of a mechanism whose information densities are
/// at least `-eps` at the prior `p` (eps-PMC; LIP and ALIP at their lower
/// level), docs/theory.md §13 "PMC's floor": with `a = e^-eps` the column
/// cone `c >= a (p . c) 1` has the N rays `a 1 + (1 - a) e_x / p_x`, so every
/// such mechanism is a garbling of `W* = a 1 p^T + (1 - a) I` (invertible),
/// whose Fisher information is the largest: `f >= (1 - a (2 - a) |p|^2) /
/// (1 - a)^2`, lowered by 1e-12 relative. `None` where some mass is zero.
pub fn pmc_floor(p: ArrayView1<f64>, epsilon: f64) -> Option<f64> {
    let a = (-epsilon).exp();
    let square = p.dot(&p);
    let positive = p.iter().all(|&x| x > 0.0) && a < 1.0;
    positive.then(|| (1.0 - a * (2.0 - a) * square) / (1.0 - a).powi(2) * (1.0 - 1e-12))
}

/// The floor under eps-LDP from priors of few levels
/// ([`super::estimation_mixture::mixture_floor`]) where it applies
/// ([`super::estimation_mixture::mixture_applies`]), lowered by 1e-12 relative
/// as [`notion_floor`] is, with the priors it weighs; `None` for other notions
/// and priors.
pub(crate) fn mixture_floor(
    p: ArrayView1<f64>,
    range: Option<DensityRange>,
    family: Family,
) -> Option<Mixture> {
    let epsilon = ldp_epsilon(p, range)?;
    let mixture = super::estimation_mixture::mixture_floor(p, epsilon, family)?;
    Some(Mixture {
        floor: mixture.floor * (1.0 - 1e-12),
        ..mixture
    })
}

/// The same floor over the priors a stored design names
/// ([`super::estimation_mixture::witnessed_floor`]), lowered alike.
pub(crate) fn witnessed_floor(
    p: ArrayView1<f64>,
    range: Option<DensityRange>,
    priors: &[Parts],
) -> Option<f64> {
    let epsilon = ldp_epsilon(p, range)?;
    super::estimation_mixture::witnessed_floor(p, epsilon, priors).map(|f| f * (1.0 - 1e-12))
}

/// eps where `range` is eps-LDP's and the mixture floor applies to `p`.
fn ldp_epsilon(p: ArrayView1<f64>, range: Option<DensityRange>) -> Option<f64> {
    match range {
        Some(DensityRange::Spread { epsilon }) if mixture_applies(p) => Some(epsilon),
        _ => None,
    }
}

/// The ceiling `d_x` of every information density `W[x,y] / P(y)` of an input
/// of mass `px` under `range`; at most `1 / p_x` (`P(y) >= p_x W[x,y]`).
pub fn ceiling(px: f64, range: Option<DensityRange>) -> f64 {
    let own = 1.0 / px;
    match range {
        None => own,
        // P(y) >= (p_x + (1 - p_x) e^-eps) W[x,y]: every other row is at
        // least e^-eps W[x,y].
        Some(DensityRange::Spread { epsilon }) => 1.0 / (px + (1.0 - px) * (-epsilon).exp()),
        // Every other density is at least e^-eps_l, and sum_x p_x r_x = 1.
        Some(DensityRange::Levels { lower, upper }) => {
            let lo = lower.map_or(0.0, |l| (-l).exp());
            upper.exp().min((1.0 - lo * (1.0 - px)) / px)
        }
        // A range of another kind: the ceiling every mechanism has.
        Some(_) => own,
    }
}

/// The floor `a_x` of every information density `W[x,y] / P(y)` of an input
/// of mass `px` under `range` (0 where the notion sets none).
pub fn least_density(px: f64, range: Option<DensityRange>) -> f64 {
    match range {
        None => 0.0,
        // P(y) <= (p_x + (1 - p_x) e^eps) W[x,y]: every other row is at most
        // e^eps W[x,y].
        Some(DensityRange::Spread { epsilon }) => 1.0 / (px + (1.0 - px) * epsilon.exp()),
        // At least e^-eps_l, and sum_x p_x r_x = 1 with every other density
        // at most e^eps_u.
        Some(DensityRange::Levels { lower, upper }) => {
            let lo = lower.map_or(0.0, |l| (-l).exp());
            lo.max((1.0 - upper.exp() * (1.0 - px)) / px)
        }
        Some(_) => 0.0,
    }
}

/// The ceiling of `J_xx = sum_y P(y) r_y^2`, `r_y = W[x,y] / P(y)`, under
/// `range` (docs/theory.md §13, "A floor in closed form"): every `r_y` lies in
/// `[a, d]` ([`least_density`], [`ceiling`]), so `r_y^2 <= (a + d) r_y - a d`,
/// and `sum_y P(y) r_y = sum_y P(y) = 1` give `J_xx <= a + d - a d`, which is
/// `d` without a floor on the densities (PML) and less with one (LDP, LIP,
/// ALIP).
pub fn second_moment_ceiling(px: f64, range: Option<DensityRange>) -> f64 {
    let d = ceiling(px, range);
    let a = least_density(px, range).clamp(0.0, 1.0);
    a + d - a * d
}

/// `sum_x p_x^2 + (1 - p_x)^2 / (d_x - 1)`: `J_xx <= d_x` and `J p = 1` with
/// the Cauchy-Schwarz inequality `(J^-1)_xx >= (e_x . v)^2 / (v^T J v)` at
/// `v = e_x - a p` and its best a. An input whose ceiling is 1 or less adds
/// `p_x` (without a range the floor is 1, the identity's).
pub fn closed_form(p: ArrayView1<f64>, d: &Array1<f64>) -> f64 {
    p.iter()
        .zip(d)
        .map(|(&px, &d)| match d > 1.0 {
            true => px * px + (1.0 - px).powi(2) / (d - 1.0),
            false => px,
        })
        .sum()
}

/// The relaxation `min tr J^-1` over `J >= 0`, `J p = 1`, `J_xx <= d_x`,
/// bounded through its dual. With `s = sqrt(p)`, `D = diag(s)` and
/// `K = D J D - s s^T` (positive semidefinite, `K s = 0`), `tr J^-1 = |p|^2 +
/// tr(P K^+)` and `K_xx <= c_x = p_x (d_x - 1)`; for any `mu >= 0`,
/// `tr(P K^+) >= 2 tr(N^1/2) - mu . c` with `N = M^1/2 Pi P Pi M^1/2`,
/// `M = diag(mu)`, `Pi = I - s s^T` (the least of `tr(A X^-1) + tr(B X)` is
/// `2 tr((A^1/2 B A^1/2)^1/2)`). The fixed point `mu_x <- mu_x (K_xx / c_x)^2`
/// at `K = M^-1/2 N^1/2 M^-1/2` raises the dual; the best of `steps` steps is
/// kept, each eigenvalue lowered by its rounding bound. `None` where some
/// mass is zero, a ceiling leaves no room or N is past
/// [`RELAXED_FLOOR_UP_TO`].
fn relaxed_floor(p: ArrayView1<f64>, d: &Array1<f64>, steps: usize) -> Option<f64> {
    let k = p.len();
    let c = (d - 1.0) * p;
    let usable = (2..=RELAXED_FLOOR_UP_TO).contains(&k)
        && p.iter().all(|&x| x > 0.0)
        && c.iter().all(|&x| x > 0.0 && x.is_finite());
    if !usable || steps == 0 {
        return None;
    }
    let (centred, magnitude) = projected_prior(p);
    let mut mu = c.mapv(|x| 1.0 / x);
    let mut best = f64::NEG_INFINITY;
    for _ in 0..steps {
        let Some((trace, root_diag)) = root_of(&centred, &magnitude, &mu) else {
            break;
        };
        let dual = 2.0 * trace - mu.dot(&c);
        let settled = dual <= best + SETTLED * best.abs();
        best = best.max(dual);
        let next = Array1::from_shape_fn(k, |x| root_diag[x].powi(2) / (mu[x] * c[x] * c[x]));
        if settled || !next.iter().all(|&m| m > 0.0 && m.is_finite()) {
            break;
        }
        mu = next;
    }
    best.is_finite().then(|| p.dot(&p) + best)
}

/// `Pi P Pi` for `Pi = I - s s^T`, `s = sqrt(p)`:
/// `p_x [x = y] + sqrt(p_x p_y) (|p|^2 - p_x - p_y)`, and the same with every
/// term's magnitude added (what its rounding is relative to).
fn projected_prior(p: ArrayView1<f64>) -> (Array2<f64>, Array2<f64>) {
    let k = p.len();
    let norm = p.dot(&p);
    let diagonal = |x: usize, y: usize| if x == y { p[x] } else { 0.0 };
    let root = |x: usize, y: usize| (p[x] * p[y]).sqrt();
    let centred = Array2::from_shape_fn((k, k), |(x, y)| {
        diagonal(x, y) + root(x, y) * (norm - p[x] - p[y])
    });
    let magnitude = Array2::from_shape_fn((k, k), |(x, y)| {
        diagonal(x, y) + root(x, y) * (norm + p[x] + p[y])
    });
    (centred, magnitude)
}

/// A lower bound on `tr(N^1/2)` for `N = M^1/2 centred M^1/2`, `M = diag(mu)`
/// (each computed eigenvalue lowered by `16 N u` times the Frobenius norm of
/// the terms' magnitudes, which covers the entries' rounding and the
/// eigensolver's backward error), and the diagonal of `N^1/2`.
fn root_of(
    centred: &Array2<f64>,
    magnitude: &Array2<f64>,
    mu: &Array1<f64>,
) -> Option<(f64, Array1<f64>)> {
    let k = mu.len();
    let r = mu.mapv(f64::sqrt);
    let n = faer::Mat::<f64>::from_fn(k, k, |i, j| r[i] * r[j] * centred[[i, j]]);
    let size = (0..k)
        .flat_map(|i| (0..k).map(move |j| (i, j)))
        .map(|(i, j)| (r[i] * r[j] * magnitude[[i, j]]).powi(2))
        .sum::<f64>()
        .sqrt();
    let shift = 16.0 * k as f64 * (f64::EPSILON / 2.0) * size;
    let eig = n.self_adjoint_eigen(Side::Lower).ok()?;
    let (u, values) = (eig.U(), eig.S().column_vector());
    let trace: f64 = (0..k).map(|i| (values[i] - shift).max(0.0).sqrt()).sum();
    let roots = Array1::from_shape_fn(k, |i| values[i].max(0.0).sqrt());
    let diag: Array1<f64> =
        Array1::from_shape_fn(k, |x| (0..k).map(|i| u[(x, i)].powi(2) * roots[i]).sum());
    (trace.is_finite() && diag.iter().all(|v| v.is_finite())).then_some((trace, diag))
}
