//! A notion's cone of columns in sparse form (docs/theory.md §4c): the rows
//! `a . (W[:, y], aux_y) <= 0` of PMC, ALIP, LIP, LDP and metric privacy over
//! the vertices of a set, which the direct loss LP (`design/notion_lp.rs`)
//! solves over, and the lower bound that any multipliers `g >= 0` of the rows
//! prove (weak duality), which a stored design carries and `verify/` re-checks.
//!
//! Sparse forms (all factors `E` tightened by the relative
//! [`NOTION_PRIMAL_MARGIN`] in the primal, exact in the dual):
//!
//! - upper level `eps_u` over the priors `pi^k` (vertices of the set):
//!   `c_x <= E_u l`, `l <= pi^k . c` (`l <= 1`);
//! - lower level `eps_l`: `h <= E_l c_x`, `pi^k . c <= h` (`h <= E_l`), \[D\] Thm 1;
//! - LDP: `a <= c_x <= E a` (`a <= 1`), \[D\] Def 6;
//! - metric: `c_x <= e^(eps d(x, x')) c_x'` for the tight pairs.

use crate::error::Result;
use ndarray::Array2;
use pmldesign_model::uncertainty::DEFAULT_VERTEX_LIMIT;
use pmldesign_model::{Metric, Notion, UncertaintySet};

/// The cone of one column in sparse form: variables `0..n` are the column's
/// entries, `n..n + aux_bounds.len()` its auxiliary variables; every row is
/// `sum coef * var <= 0`.
#[derive(Debug, Clone, Default)]
pub(crate) struct ColumnForm {
    /// N.
    pub n: usize,
    /// `U_k >= aux_k` at every feasible point (entries of W lie in `[0, 1]`).
    pub aux_bounds: Vec<f64>,
    /// The rows, as (variable, coefficient) lists.
    pub rows: Vec<Vec<(usize, f64)>>,
}

impl ColumnForm {
    /// An empty form on N entries.
    pub(crate) fn new(n: usize) -> Self {
        ColumnForm {
            n,
            ..ColumnForm::default()
        }
    }

    /// A new auxiliary variable bounded by `bound`; returns its index.
    pub(crate) fn aux(&mut self, bound: f64) -> usize {
        self.aux_bounds.push(bound);
        self.n + self.aux_bounds.len() - 1
    }

    /// Adds the row `sum coef * var <= 0`.
    pub(crate) fn row(&mut self, terms: Vec<(usize, f64)>) {
        self.rows.push(terms);
    }

    pub(crate) fn width(&self) -> usize {
        self.n + self.aux_bounds.len()
    }
}

/// Relative tightening of every factor `E` in the direct primal: smaller than
/// PML's PML's direct-LP margin, because what it gives up counts against
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

/// The lower bound that multipliers `g` (clamped to `>= 0`) prove (module docs).
pub(crate) fn dual_bound(form: &ColumnForm, c: &Array2<f64>, g: &Array2<f64>) -> f64 {
    let n = c.nrows();
    let mut reduced = c.clone();
    let mut aux_penalty = 0.0;
    for y in 0..n {
        let mut t = vec![0.0; form.width()];
        for (r, row) in form.rows.iter().enumerate() {
            let gr = g[[y, r]];
            let gr = if gr.is_finite() && gr > 0.0 { gr } else { 0.0 };
            for &(v, a) in row {
                t[v] += a * gr;
            }
        }
        for x in 0..n {
            reduced[[x, y]] += t[x];
        }
        for (k, u) in form.aux_bounds.iter().enumerate() {
            aux_penalty += t[n + k].min(0.0) * u;
        }
    }
    let rows: f64 = reduced
        .outer_iter()
        .map(|r| r.iter().copied().fold(f64::INFINITY, f64::min))
        .sum();
    rows + aux_penalty
}
