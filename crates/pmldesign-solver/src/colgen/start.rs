//! Start columns: randomized-response shaped rays that give the master a
//! nondegenerate first basis, and an oracle that carries them ([`Started`]).

use crate::colgen::oracle::{Column, PassControl, Pricing, RayOracle};
use ndarray::{Array1, ArrayView1};

/// The N randomized-response shaped columns `b 1 + (a - b) e_y` of the cone
/// `c_x <= e (r . c + h min c)` (a known prior with `h = 0`, the \[E\] Prop 2
/// formula with `e = e^eps'` and `h = beta/2`), normalised by `r . c = 1`, each
/// with the largest spike the cone allows. Their weights solving `V theta = 1`
/// are all positive: a nondegenerate first basis ([`RayOracle::start`]).
pub(crate) fn spikes(
    r: ArrayView1<f64>,
    e: f64,
    h: f64,
    value: &dyn Fn(ArrayView1<f64>) -> f64,
) -> Vec<Column> {
    (0..r.len())
        .map(|y| {
            let ry = r[y];
            let b = (1.0 - e * ry) / (1.0 - ry + e * ry * h);
            let (a, b) = if b > 0.0 {
                (e * (1.0 + h * b), b)
            } else {
                (1.0 / ry, 0.0)
            };
            spike(r.len(), y, a, b, value)
        })
        .collect()
}

/// The column `b 1 + (a - b) e_y` in dimension n, with its value.
fn spike(n: usize, y: usize, a: f64, b: f64, value: &dyn Fn(ArrayView1<f64>) -> f64) -> Column {
    let mut v = Array1::from_elem(n, b);
    v[y] = a;
    Column {
        value: value(v.view()),
        vector: v,
    }
}

/// The N columns of k-ary randomized response at `e = e^eps`, `1 + (e - 1) e_y`,
/// normalised by `r . c = 1`: extreme rays of the eps-LDP cone (staircases with
/// one input on top) whose weights solving `V theta = 1` are all positive.
pub(crate) fn staircase_spikes(
    r: ArrayView1<f64>,
    e: f64,
    value: &dyn Fn(ArrayView1<f64>) -> f64,
) -> Vec<Column> {
    (0..r.len())
        .map(|y| {
            let b = 1.0 / (1.0 + (e - 1.0) * r[y]);
            spike(r.len(), y, e * b, b, value)
        })
        .collect()
}

/// The N randomized-response shaped columns `b 1 + (a - b) e_y` of the box
/// `lo <= c_x <= hi` (PMC, ALIP, LIP of a known prior), normalised by
/// `r . c = 1`, each with the largest spike the box allows:
/// `a = min(hi, (1 - lo (1 - r_y)) / r_y)`, `b = (1 - a r_y) / (1 - r_y)`. Their
/// weights solving `V theta = 1` are positive when every `a > b`; `None` when
/// some column cannot spike (`lo` or `hi` at 1).
pub(crate) fn box_spikes(
    r: ArrayView1<f64>,
    lo: f64,
    hi: f64,
    value: &dyn Fn(ArrayView1<f64>) -> f64,
) -> Option<Vec<Column>> {
    (0..r.len())
        .map(|y| {
            let ry = r[y];
            let a = hi.min((1.0 - lo * (1.0 - ry)) / ry);
            let b = (1.0 - a * ry) / (1.0 - ry);
            if !(a > b * (1.0 + 1e-9) && b >= 0.0 && a.is_finite()) {
                return None;
            }
            Some(spike(r.len(), y, a, b, value))
        })
        .collect()
}

/// An oracle with a first basis for the master ([`RayOracle::start`]).
pub(crate) struct Started<'a> {
    /// The pricing.
    pub oracle: Box<dyn RayOracle + Send + 'a>,
    /// The first basis.
    pub start: Vec<Column>,
}

impl RayOracle for Started<'_> {
    fn dimension(&self) -> usize {
        self.oracle.dimension()
    }
    fn price(&self, lambda: &Array1<f64>, tol: f64, keep: usize) -> Pricing {
        self.oracle.price(lambda, tol, keep)
    }
    fn price_with(
        &self,
        lambda: &Array1<f64>,
        tol: f64,
        keep: usize,
        control: &PassControl,
    ) -> Pricing {
        self.oracle.price_with(lambda, tol, keep, control)
    }
    fn start(&self) -> Vec<Column> {
        self.start.clone()
    }
}

/// The columns of `mechanisms`, each normalised by `r . c = 1`, with their
/// values; zero columns left out.
pub(crate) fn seed_columns(
    mechanisms: &[pmldesign_model::Mechanism],
    r: ArrayView1<f64>,
    value: &dyn Fn(ArrayView1<f64>) -> f64,
) -> Vec<Column> {
    mechanisms
        .iter()
        .flat_map(|m| {
            m.matrix()
                .columns()
                .into_iter()
                .map(|c| c.to_owned())
                .collect::<Vec<_>>()
        })
        .filter_map(|c| {
            let mass = r.dot(&c);
            (mass > 0.0).then(|| {
                let vector = c / mass;
                Column {
                    value: value(vector.view()),
                    vector,
                }
            })
        })
        .collect()
}
