//! Label-dependent losses under every notion (docs/theory.md §4c): the loss LP of
//! the `loss` module with the column cone of PMC, ALIP, LIP or LDP in place of
//! PML's, certified by re-measuring the notion from the matrix.
//!
//! Two ways to solve it, as for PML:
//!
//! - the direct LP ([`crate::notion_lp`]) for every notion and set, with the
//!   cone in sparse form (auxiliary variables per output, below);
//! - column generation where the slice `{v in cone, r . v = 1}` has an exact
//!   linear minimiser: a box `lo <= v_x <= hi` with `p . v = 1` for PMC, ALIP and
//!   LIP under a known prior ([`BoxSlice`], a fractional knapsack), and the
//!   staircase slice `m <= v_x <= e^eps m` of LDP for any set ([`StaircaseSlice`]:
//!   by Dinkelbach's argument the minimiser raises a prefix of the order of
//!   `a_x / r_x`, so N + 1 candidates). LDP losses decompose per output column as
//!   PML's do. The discrete metric is LDP;
//! - the line metric's slice, whose vertices are walks (the `line_metric` module),
//!   started from the truncated geometric mechanism.
//!
//! Sparse forms (all factors `E` tightened by the relative
//! [`NOTION_PRIMAL_MARGIN`] in the primal, exact in the dual):
//!
//! - upper level `eps_u` over the priors `pi^k` (vertices of the set):
//!   `c_x <= E_u l`, `l <= pi^k . c` (`l <= 1`);
//! - lower level `eps_l`: `h <= E_l c_x`, `pi^k . c <= h` (`h <= E_l`), \[D\] Thm 1;
//! - LDP: `a <= c_x <= E a` (`a <= 1`), \[D\] Def 6.

use crate::certificate::Certificate;
use crate::design::{self, DesignStatus};
use crate::error::Result;
use crate::line_metric::LineSlice;
use crate::loss::{
    self, ColumnGenerationResult, ENTRY_CUTOFF, LabelSlice, Loss, LossDesign, LossMethod, Solved,
};
use crate::notion_lp::{self, ColumnForm};
use crate::ray_lp::{Column, Progress};
use ndarray::{Array1, Array2, ArrayView1, Axis};
use pmldesign_model::measures::NotionLevels;
use pmldesign_model::uncertainty::DEFAULT_VERTEX_LIMIT;
use pmldesign_model::{Mechanism, Metric, ModelError, Notion, UncertaintySet};

/// Minimises the expected `loss` under the reference prior of `set` over N x N
/// mechanisms that satisfy `notion` for every prior of `set` (module docs); PML
/// goes to [`loss::minimise_loss_with_progress`].
pub fn minimise_notion_loss(
    set: &UncertaintySet,
    notion: &Notion,
    loss: &Loss,
    settings: &crate::Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<LossDesign> {
    notion.check_alphabet(set.len())?;
    if let Notion::Pml { epsilon } = *notion {
        return loss::minimise_loss_with_progress(set, epsilon, loss, settings, progress);
    }
    let n = set.len();
    let d = loss.matrix(n)?;
    let p = set.reference();
    let c = &d * &p.view().insert_axis(Axis(1));
    let identity = Mechanism::identity(n);
    let mut solved = if NotionLevels::measure_notion(&identity, set, notion).excess(notion) <= 0.0 {
        loss::cheapest_labels(&d, &c)?
    } else {
        let capped = design::capped_levels(notion);
        let mut s = by_lp(set, &capped, &c, settings, progress)?;
        if capped != *notion {
            s.lower_bound = loss::free_lower_bound(&c);
        }
        s
    };
    solved.mechanism = design::meet_target(solved.mechanism, set, notion, p.view(), true)?;
    let value = loss::expected_loss(&solved.mechanism, p.view(), d.view());
    let certificate = Certificate::check_notion_feasible(
        &solved.mechanism,
        set,
        notion,
        -value,
        -solved.lower_bound,
    )?;
    Ok(solved.into_design(notion.epsilon(), loss, value, certificate))
}

/// Column generation where [`slice_of`] finds an exact slice, the direct LP
/// otherwise or as the fallback (as for PML in the `loss` module).
fn by_lp(
    set: &UncertaintySet,
    notion: &Notion,
    c: &Array2<f64>,
    settings: &crate::Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<Solved> {
    let slice = slice_of(set, notion);
    let asked = settings.loss_method;
    let use_cg = match (asked, &slice) {
        (LossMethod::ColumnGeneration, None) => {
            return Err(ModelError::invalid(
                "method",
                "column_generation",
                format!(
                    "column generation for {} losses needs LDP, the discrete or line metric, or PMC/ALIP/LIP with a known prior",
                    notion.name()
                ),
                "use LossMethod::Auto or LossMethod::Direct for this notion and set",
            )
            .into());
        }
        (LossMethod::ColumnGeneration, Some(_)) => true,
        (LossMethod::Auto, Some(_)) => !cfg!(feature = "highs"),
        _ => false,
    };
    if let (true, Some(slice)) = (use_cg, slice) {
        match loss::column_generation(slice, c, settings, progress) {
            Ok(cg) => return from_column_generation(cg, notion, c),
            Err(e) if asked == LossMethod::ColumnGeneration => return Err(e),
            Err(_) => {}
        }
    }
    direct(set, notion, c)
}

fn from_column_generation(
    cg: ColumnGenerationResult,
    notion: &Notion,
    c: &Array2<f64>,
) -> Result<Solved> {
    Ok(Solved {
        method: LossMethod::ColumnGeneration,
        mechanism: clean_columns(lifted(cg.w, notion)?)?,
        lower_bound: cg.lower_bound.max(loss::free_lower_bound(c)),
        // The stored duals are re-priced over PML's slices (`Design::verify`);
        // a notion's dual is not carried.
        dual: None,
        iterations: cg.iterations,
        status: loss::stopped_or(cg.converged, DesignStatus::Optimal),
    })
}

/// The direct LP: primal with tightened factors, dual with exact ones.
fn direct(set: &UncertaintySet, notion: &Notion, c: &Array2<f64>) -> Result<Solved> {
    let w = lifted(
        notion_lp::solve_primal(&notion_form(set, notion, true)?, c)?,
        notion,
    )?;
    let exact = notion_form(set, notion, false)?;
    let g = notion_lp::solve_dual(&exact, c)?;
    Ok(Solved {
        method: LossMethod::Direct,
        mechanism: clean_columns(w)?,
        lower_bound: notion_lp::dual_bound(&exact, c, &g).max(loss::free_lower_bound(c)),
        dual: None,
        iterations: 0,
        status: DesignStatus::Optimal,
    })
}

/// For metric privacy: the LP's W with rows renormalised, lifted to the envelope
/// ([`lift_to_envelope`] at `eps LIFT_MARGIN`); other notions pass unchanged.
fn lifted(w: Array2<f64>, notion: &Notion) -> Result<Array2<f64>> {
    let Notion::Metric { epsilon, metric } = notion else {
        return Ok(w);
    };
    let mut w = clean_columns(w)?.matrix().to_owned();
    let d = metric.distances(w.nrows())?;
    lift_to_envelope(&mut w, &d, *epsilon * LIFT_MARGIN);
    Ok(w)
}

/// The metric LP's solution is lifted to the envelope of the level
/// `eps (1 - 1e-9)`: every pair then has a relative slack of `1e-9 eps d`, so
/// renormalising the rows after (errors of about 1e-10) keeps it private.
const LIFT_MARGIN: f64 = 1.0 - 1e-9;

/// Raises every entry of each column to its lower envelope
/// `max_x' W[x'][y] e^(-eps d*(x, x'))` under the shortest-path closure d*:
/// the column becomes eps-d-private whatever it was (docs/theory.md §9), and
/// the LP's entries far below a column's largest (the geometric tails), which
/// carry the solver's absolute error, are repaired. Rows are renormalised
/// after, by [`clean_columns`].
fn lift_to_envelope(w: &mut Array2<f64>, d: &Array2<f64>, epsilon: f64) {
    let closure = Metric::shortest_paths(d);
    let n = w.nrows();
    w.mapv_inplace(|v| v.max(0.0));
    for mut col in w.columns_mut() {
        let top = col.to_owned();
        for x in 0..n {
            let floor = (0..n)
                .map(|x2| top[x2] / Metric::factor(epsilon, closure[[x, x2]]))
                .fold(0.0, f64::max);
            col[x] = col[x].max(floor);
        }
    }
}

/// Relative tightening of every factor `E` in the direct primal: smaller than
/// PML's [`crate::loss::PRIMAL_MARGIN`], because what it gives up counts against
/// the 1e-9 optimality gap; what rounding leaves over is mixed away by the
/// target check (`design::meet_target`).
pub const NOTION_PRIMAL_MARGIN: f64 = 1e-10;

/// `E`, or `E` tightened by [`NOTION_PRIMAL_MARGIN`] (`sqrt E` when that would
/// drop below 1) for the primal.
fn factor(e: f64, tighten: bool) -> f64 {
    match tighten {
        false => e,
        true if e * (1.0 - NOTION_PRIMAL_MARGIN) > 1.0 => e * (1.0 - NOTION_PRIMAL_MARGIN),
        true => e.sqrt(),
    }
}

/// The sparse form of `notion`'s cone over the vertices of `set` (module docs).
pub(crate) fn notion_form(
    set: &UncertaintySet,
    notion: &Notion,
    tighten: bool,
) -> Result<ColumnForm> {
    let n = set.len();
    let mut form = ColumnForm::new(n);
    let ldp = match notion {
        Notion::Ldp { epsilon } => Some(*epsilon),
        Notion::Metric {
            epsilon,
            metric: Metric::Discrete,
        } => Some(*epsilon),
        Notion::Metric { epsilon, metric } => {
            return Ok(metric_form(form, &metric.distances(n)?, *epsilon, tighten));
        }
        _ => None,
    };
    if let Some(epsilon) = ldp {
        let e = factor(epsilon.exp(), tighten);
        let a = form.aux(1.0);
        for x in 0..n {
            form.row(vec![(a, 1.0), (x, -1.0)]);
            form.row(vec![(x, 1.0), (a, -e)]);
        }
        return Ok(form);
    }
    let priors = set.vertices(DEFAULT_VERTEX_LIMIT)?;
    let mass = |k: usize, sign: f64| -> Vec<(usize, f64)> {
        let p = &priors[k];
        (0..n)
            .filter(|&x| p[x] != 0.0)
            .map(|x| (x, sign * p[x]))
            .collect()
    };
    if let Some(u) = notion.upper() {
        let e = factor(u.exp(), tighten);
        let l = form.aux(1.0);
        for x in 0..n {
            form.row(vec![(x, 1.0), (l, -e)]);
        }
        for k in 0..priors.len() {
            let mut row = vec![(l, 1.0)];
            row.extend(mass(k, -1.0));
            form.row(row);
        }
    }
    if let Some(lo) = notion.lower() {
        let e = factor(lo.exp(), tighten);
        let h = form.aux(e);
        for x in 0..n {
            form.row(vec![(h, 1.0), (x, -e)]);
        }
        for k in 0..priors.len() {
            let mut row = mass(k, 1.0);
            row.push((h, -1.0));
            form.row(row);
        }
    }
    Ok(form)
}

/// Metric privacy (docs/theory.md §9): `c_x <= e^(eps d(x, x')) c_x'` for the
/// tight pairs only ([`Metric::is_tight`]; the others follow by chaining).
fn metric_form(mut form: ColumnForm, d: &Array2<f64>, epsilon: f64, tighten: bool) -> ColumnForm {
    let n = form.n;
    for x in 0..n {
        for x2 in (0..n).filter(|&x2| x2 != x && Metric::is_tight(d, epsilon, x, x2)) {
            let e = factor(Metric::factor(epsilon, d[[x, x2]]), tighten);
            form.row(vec![(x, 1.0), (x2, -e)]);
        }
    }
    form
}

/// A column with a zero entry and no entry above this is the LP solver's noise
/// (about its tolerance): it is dropped, since under PMC, LIP, LDP and metric
/// privacy a column with a zero is all zero.
const NOISE_COLUMN: f64 = 1e-9;

/// A column-generation LP solution as a mechanism: negatives to 0, columns whose
/// largest entry is at most [`ENTRY_CUTOFF`] to 0, and so are those with a zero
/// and no entry above [`NOISE_COLUMN`] (entries are not cut one by one: a lone
/// zero in a positive column breaks PMC and LDP), rows renormalised.
fn clean_columns(mut w: Array2<f64>) -> Result<Mechanism> {
    w.mapv_inplace(|v| v.max(0.0));
    for mut col in w.columns_mut() {
        let max = col.iter().copied().fold(0.0, f64::max);
        let has_zero = col.iter().any(|&v| v <= 0.0);
        if max <= ENTRY_CUTOFF || (has_zero && max <= NOISE_COLUMN) {
            col.fill(0.0);
        }
    }
    for mut row in w.outer_iter_mut() {
        let s = row.sum();
        if s <= 0.0 {
            return Err(crate::SolverError::Lp(
                "notion loss LP: a row of the solution is zero".to_string(),
            ));
        }
        row /= s;
    }
    Ok(Mechanism::new(w)?)
}

/// The exact slice of `notion` when there is one (module docs).
fn slice_of(set: &UncertaintySet, notion: &Notion) -> Option<NotionSlice> {
    let r = set.reference();
    match notion {
        Notion::Ldp { epsilon }
        | Notion::Metric {
            epsilon,
            metric: Metric::Discrete,
        } => Some(NotionSlice::Staircase(StaircaseSlice {
            r,
            e: epsilon.exp(),
        })),
        Notion::Metric {
            epsilon,
            metric: Metric::Line,
        } => LineSlice::new(r, *epsilon).map(NotionSlice::Line),
        Notion::Pmc { .. } | Notion::Alip { .. } | Notion::Lip { .. } => {
            let UncertaintySet::Known { .. } = set else {
                return None;
            };
            Some(NotionSlice::Box(BoxSlice {
                r,
                lo: notion.lower().map_or(0.0, |l| (-l).exp()),
                hi: notion.upper().map_or(f64::INFINITY, f64::exp),
            }))
        }
        _ => None,
    }
}

/// The slices of the notions with exact pricing.
enum NotionSlice {
    Box(BoxSlice),
    Staircase(StaircaseSlice),
    Line(LineSlice),
}

impl LabelSlice for NotionSlice {
    fn normaliser(&self) -> ArrayView1<'_, f64> {
        match self {
            NotionSlice::Box(s) => s.r.view(),
            NotionSlice::Staircase(s) => s.r.view(),
            NotionSlice::Line(s) => s.r.view(),
        }
    }

    fn minimise(&self, a: ArrayView1<f64>) -> Array1<f64> {
        match self {
            NotionSlice::Box(s) => s.minimise(a),
            NotionSlice::Staircase(s) => s.minimise(a),
            NotionSlice::Line(s) => s.minimise(a),
        }
    }

    fn start(&self, value: &dyn Fn(ArrayView1<f64>) -> f64) -> Vec<Column> {
        let spike = |y: usize| match self {
            NotionSlice::Box(s) => s.spike(y),
            NotionSlice::Staircase(s) => s.spike(y),
            NotionSlice::Line(_) => (0.0, 0.0),
        };
        if let NotionSlice::Line(s) = self {
            return s.start(value);
        }
        spikes(self.normaliser().len(), spike, value)
    }
}

/// The randomized-response shaped columns `b 1 + (a - b) e_y` of a slice, when
/// every spike is strictly above its floor (their weights solving `V theta = 1`
/// are then all positive, a nondegenerate first basis); none otherwise.
fn spikes(
    n: usize,
    spike: impl Fn(usize) -> (f64, f64),
    value: &dyn Fn(ArrayView1<f64>) -> f64,
) -> Vec<Column> {
    let mut out = Vec::with_capacity(n);
    for y in 0..n {
        let (a, b) = spike(y);
        if a.is_nan() || a <= b * (1.0 + 1e-9) {
            return Vec::new();
        }
        let mut v = Array1::from_elem(n, b);
        v[y] = a;
        out.push(Column {
            value: value(v.view()),
            vector: v,
        });
    }
    out
}

/// `{lo <= v_x <= hi, r . v = 1}`: the PMC (`lo = e^-eps_l`), ALIP and LIP
/// (`hi = e^eps_u`) slices of a known prior r (\[D\] Thm 1, \[15\] Lemma 1).
struct BoxSlice {
    r: Array1<f64>,
    lo: f64,
    hi: f64,
}

impl BoxSlice {
    /// Fractional knapsack: every coordinate at `lo`, the rest of the mass
    /// filled in increasing order of `a_x / r_x` up to `hi`.
    fn minimise(&self, a: ArrayView1<f64>) -> Array1<f64> {
        let r = &self.r;
        let mut v = Array1::from_elem(r.len(), self.lo);
        let mut left = 1.0 - self.lo * r.sum();
        for i in ratio_order(a, r.view()) {
            let room = r[i] * (self.hi - self.lo);
            if room < left {
                v[i] = self.hi;
                left -= room;
            } else {
                v[i] += left.max(0.0) / r[i];
                break;
            }
        }
        v
    }

    /// `(a, b)`: the largest spike at y over the floor `b >= lo`.
    fn spike(&self, y: usize) -> (f64, f64) {
        let ry = self.r[y];
        let a = self.hi.min((1.0 - self.lo * (1.0 - ry)) / ry);
        (a, (1.0 - a * ry) / (1.0 - ry))
    }
}

/// `{m <= v_x <= e m, r . v = 1}`: the LDP slice (\[D\] Def 6), any r.
struct StaircaseSlice {
    r: Array1<f64>,
    e: f64,
}

impl StaircaseSlice {
    /// The best of the N + 1 prefixes `s` of the order of `a_x / r_x`:
    /// `v = m (1 + (e - 1) s)`, `m = 1 / (r . 1 + (e - 1) r . s)` (module docs).
    fn minimise(&self, a: ArrayView1<f64>) -> Array1<f64> {
        let (r, g) = (&self.r, self.e - 1.0);
        let order = ratio_order(a, r.view());
        let (a_total, r_total) = (a.sum(), r.sum());
        let (mut a_prefix, mut r_prefix) = (0.0, 0.0);
        let mut best = (a_total / r_total, 0);
        for (k, &i) in order.iter().enumerate() {
            a_prefix += a[i];
            r_prefix += r[i];
            let value = (a_total + g * a_prefix) / (r_total + g * r_prefix);
            if value < best.0 {
                best = (value, k + 1);
            }
        }
        let r_prefix: f64 = order[..best.1].iter().map(|&i| r[i]).sum();
        let m = 1.0 / (r_total + g * r_prefix);
        let mut v = Array1::from_elem(r.len(), m);
        for &i in &order[..best.1] {
            v[i] = self.e * m;
        }
        v
    }

    /// `(a, b)`: randomized response's column at y, `a = e b`.
    fn spike(&self, y: usize) -> (f64, f64) {
        let ry = self.r[y];
        let b = 1.0 / (1.0 - ry + self.e * ry);
        (self.e * b, b)
    }
}

/// The indices in increasing order of `a_x / r_x`.
fn ratio_order(a: ArrayView1<f64>, r: ArrayView1<f64>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..a.len()).collect();
    order.sort_by(|&i, &j| (a[i] / r[i]).total_cmp(&(a[j] / r[j])));
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn staircase_minimiser_beats_every_prefix_and_vertex() {
        let s = StaircaseSlice {
            r: array![0.5, 0.3, 0.2],
            e: 3.0,
        };
        let a = array![0.4, -0.1, 0.3];
        let v = s.minimise(a.view());
        assert!((s.r.dot(&v) - 1.0).abs() < 1e-12);
        // Every vertex of the slice: each coordinate at m or 3m.
        for mask in 0..8u32 {
            let u = Array1::from_shape_fn(3, |i| if mask >> i & 1 == 1 { 3.0 } else { 1.0 });
            let u = &u / s.r.dot(&u);
            assert!(a.dot(&v) <= a.dot(&u) + 1e-12);
        }
    }

    #[test]
    fn box_minimiser_fills_cheapest_mass_first() {
        let s = BoxSlice {
            r: array![0.5, 0.25, 0.25],
            lo: 0.5,
            hi: f64::INFINITY,
        };
        let v = s.minimise(array![1.0, 0.0, 2.0].view());
        // Floors 0.5 everywhere (mass 0.5), the other 0.5 onto x = 1.
        assert_eq!(v, array![0.5, 2.5, 0.5]);
    }
}
