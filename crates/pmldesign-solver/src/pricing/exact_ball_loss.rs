//! Losses over the exact l1 ball past \[E\] Prop 2 (docs/theory.md §4b, "The
//! exact ball past Proposition 2"): column generation whose pricing, for every
//! label y, maximises `-(c[:, y] + lambda) . v` over the ball's four ray
//! families by branch and bound. The branch-and-bound families are asked with
//! the zero column function and the dual `c[:, y] + lambda`, so the label's
//! cost enters as part of the dual; each entering ray is then valued with its
//! best label. No vertex list of the ball is needed.
//!
//! Branch and bound proves; it is slow near the optimum, where many rays tie.
//! A pass therefore first tries points of the slice built from prefixes of the
//! items in order of `a_x / p_x` (`a = c[:, y] + lambda`): the minimiser over
//! \[E\] Prop 2's inner slice (families Z and L, exact knapsacks), the
//! staircase `1 + (E - 1) 1_A` and the three-level `1_B + (E_B - 1) 1_A` with A
//! and `B = A + M` prefixes. All lie in the exact slice: the staircase is
//! eps-LDP, and a three-level point whose top set weighs at least `b` has
//! `top <= E / (1 + b E)` (docs/theory.md §4b). Only when none of them enters
//! does the pass run branch and bound, whose bound certifies.
//!
//! MAP accuracy is such a loss: `mu(v) = max_y p_y v_y = max_y -c[:, y] . v`
//! for `c = -diag(p)`, so its pricing over the exact ball is the same search,
//! one linear pricing per maximiser y ([`ExactBallLoss::map_accuracy`]).

use crate::colgen::oracle::{Column, Pricing, RayOracle};
use crate::objective::loss::{LabelledLoss, Shape};
use crate::objective::utility::{Separable, Utility};
use crate::pricing::branch_bound::Union;
use crate::pricing::choice::exact_ball_families;
use crate::pricing::labels::Slice;
use ndarray::{Array1, Array2, ArrayView1};
use pmldesign_model::UncertaintySet;
use rayon::prelude::*;
use std::borrow::Cow;
use std::time::Instant;

/// The zero column function: branch and bound then prices a linear function
/// alone (its m is 0, concave in every sense the searches ask for).
struct Zero;

impl Utility for Zero {
    fn name(&self) -> String {
        "zero".to_string()
    }

    fn column_value(&self, _column: ArrayView1<f64>, _prior: ArrayView1<f64>) -> f64 {
        0.0
    }

    fn separable(&self) -> Option<Separable> {
        Some(Separable::FInformation(|_| 0.0))
    }

    fn staircase_concave(&self) -> bool {
        true
    }

    fn three_level_concave(&self) -> bool {
        true
    }
}

/// Pricing for the loss `c` over the exact ball (module docs).
pub(crate) struct ExactBallLoss<'a> {
    families: Union,
    /// The loss matrix (N x labels).
    c: Cow<'a, Array2<f64>>,
    /// Its shape, found once ([`Shape::of`]).
    shape: Shape,
    r: Array1<f64>,
    /// `E = e^eps` and `b = beta/2`.
    e: f64,
    b: f64,
}

impl<'a> ExactBallLoss<'a> {
    /// The oracle for `set` at `epsilon`, when it is an l1 ball past Prop 2
    /// (`None` otherwise). Every pass stops at `deadline`.
    pub(crate) fn new(
        set: &UncertaintySet,
        epsilon: f64,
        c: &'a Array2<f64>,
        deadline: Option<Instant>,
    ) -> Option<Self> {
        let UncertaintySet::L1Ball { center, beta, .. } = set else {
            return None;
        };
        if pmldesign_model::uncertainty::within_proposition_2(center, *beta) {
            return None;
        }
        let r = center.masses().to_owned();
        Self::with_loss(r, epsilon.exp(), beta / 2.0, Cow::Borrowed(c), deadline)
    }

    /// MAP accuracy's pricing over the exact ball around p (`e = e^eps`,
    /// `b = beta/2`, past Prop 2): the loss `c = -diag(p)` (module docs).
    pub(crate) fn map_accuracy(
        p: &[f64],
        e: f64,
        b: f64,
        deadline: Option<Instant>,
    ) -> Option<ExactBallLoss<'static>> {
        let c = Array2::from_diag(&Array1::from_iter(p.iter().map(|&x| -x)));
        ExactBallLoss::with_loss(Array1::from(p.to_vec()), e, b, Cow::Owned(c), deadline)
    }

    fn with_loss(
        r: Array1<f64>,
        e: f64,
        b: f64,
        c: Cow<'a, Array2<f64>>,
        deadline: Option<Instant>,
    ) -> Option<Self> {
        if e <= 1.0 {
            return None;
        }
        let families = exact_ball_families(r.as_slice()?, e, b, &Zero, deadline)?;
        Some(ExactBallLoss {
            families,
            shape: Shape::of(&c),
            c,
            r,
            e,
            b,
        })
    }

    fn loss(&self) -> LabelledLoss<'_> {
        LabelledLoss::with_shape(&self.c, &self.shape)
    }

    /// The column v valued by its best label, with its reduced cost.
    fn valued(&self, v: Array1<f64>, lambda: &Array1<f64>) -> (f64, Column) {
        let value = self.loss().column_value(v.view(), self.r.view());
        (value - lambda.dot(&v), Column { vector: v, value })
    }
}

impl ExactBallLoss<'_> {
    /// The best of the prefix points (module docs) for the linear cost `a`.
    fn prefix_point(&self, a: &Array1<f64>) -> Array1<f64> {
        let (r, e, b) = (&self.r, self.e, self.b);
        let n = r.len();
        let inner = Slice {
            r: r.clone(),
            e: e / (1.0 + b * e),
            h: b,
        }
        .minimise(a.view());
        let order = crate::pricing::labels::ratio_order(a.view(), r.view());
        let (mut mass, mut cost) = (vec![0.0; n + 1], vec![0.0; n + 1]);
        for (k, &x) in order.iter().enumerate() {
            mass[k + 1] = mass[k] + r[x];
            cost[k + 1] = cost[k] + a[x];
        }
        // (value, top prefix i, support prefix j, ratio top / level).
        let mut best = (a.dot(&inner), 0, 0, 1.0);
        for i in 1..n {
            // The staircase (support: every item).
            let s = 1.0 + (e - 1.0) * mass[i];
            let value = (cost[n] + (e - 1.0) * cost[i]) / s;
            if value < best.0 {
                best = (value, i, n, e);
            }
            for j in i + 1..n {
                let eb = e * (mass[j] - b);
                if eb <= 1.0 {
                    continue;
                }
                let s = mass[j] + (eb - 1.0) * mass[i];
                let value = (cost[j] + (eb - 1.0) * cost[i]) / s;
                if value < best.0 {
                    best = (value, i, j, eb);
                }
            }
        }
        let (_, i, j, ratio) = best;
        if i == 0 {
            return inner;
        }
        let s = mass[j] + (ratio - 1.0) * mass[i];
        let mut v = Array1::zeros(n);
        for (k, &x) in order[..j].iter().enumerate() {
            v[x] = if k < i { ratio / s } else { 1.0 / s };
        }
        v
    }

    /// The prefix points of every label that enter (module docs).
    fn prefix_pricing(&self, lambda: &Array1<f64>, tol: f64) -> Vec<(f64, Column)> {
        let c = &self.c;
        (0..c.ncols())
            .into_par_iter()
            .map(|y| self.valued(self.prefix_point(&(&c.column(y) + lambda)), lambda))
            .filter(|(rc, _)| *rc > tol)
            .collect()
    }
}

impl RayOracle for ExactBallLoss<'_> {
    fn dimension(&self) -> usize {
        self.r.len()
    }

    /// For every label y, the families' largest `-(c[:, y] + lambda) . v`: a
    /// bound on the label's reduced cost, and the largest of them bounds
    /// `mu(v) - lambda . v = max_y -(c[:, y] + lambda) . v`.
    fn price(&self, lambda: &Array1<f64>, tol: f64, keep: usize) -> Pricing {
        let c = &self.c;
        if keep > 0 {
            let mut entering = self.prefix_pricing(lambda, tol);
            if !entering.is_empty() {
                entering.sort_by(|a, b| b.0.total_cmp(&a.0));
                entering.truncate(keep);
                // No bound from a heuristic pass.
                return Pricing {
                    max_reduced_cost: f64::INFINITY,
                    entering,
                    priced: c.ncols() as u64,
                };
            }
        }
        let per_label: Vec<Pricing> = (0..c.ncols())
            .into_par_iter()
            .map(|y| {
                let a = &c.column(y) + lambda;
                self.families.price(&a, tol, keep.min(1))
            })
            .collect();
        let mut out = Pricing {
            max_reduced_cost: f64::NEG_INFINITY,
            entering: Vec::new(),
            priced: 0,
        };
        for p in per_label {
            out.max_reduced_cost = out.max_reduced_cost.max(p.max_reduced_cost);
            out.priced += p.priced;
            for (_, col) in p.entering {
                let (rc, col) = self.valued(col.vector, lambda);
                if rc > tol {
                    out.entering.push((rc, col));
                }
            }
        }
        out.entering.sort_by(|a, b| b.0.total_cmp(&a.0));
        out.entering.truncate(keep);
        out
    }

    /// Randomized-response shaped columns of \[E\] Prop 2's inner cone.
    fn start(&self) -> Vec<Column> {
        let (e, b) = (self.e, self.b);
        let value = |v: ArrayView1<f64>| self.loss().column_value(v, self.r.view());
        crate::colgen::start::spikes(self.r.view(), e / (1.0 + b * e), b, &value)
    }
}
