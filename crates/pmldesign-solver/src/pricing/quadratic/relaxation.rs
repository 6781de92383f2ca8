//! Certified bounds on the largest reduced cost of a quadratic utility
//! `mu(v) = v^T C v` over a slice `p . v = 1` of a cone (docs/theory.md §13,
//! "Pricing the linearisation past enumeration").
//!
//! On the slice, `v = p^ + z` with `p^ = p / |p|^2` and `z` orthogonal to p, so
//! `v^T C v = p^T C p^ + 2 (C p^) . z + z^T C_P z` with `C_P = Q C Q`,
//! `Q = I - p p^T / |p|^2`. A diagonal `D` with `z^T C_P z <= z^T D z` for every
//! such z (checked by a Cholesky factorisation, with a margin) gives
//!
//! `mu(v) - lambda . v <= sum_x d_x v_x^2 + (h0 - lambda) . v + kappa`,
//! `h0 = 2 C p^ - 2 D p^`, `kappa = p^T D p^ - p^T C p^`,
//!
//! separable in v. Its maximum over the slice is found exactly where every
//! coordinate takes one of two levels (the cone's rays), and bounded by an
//! LP elsewhere: [`Majorant::bound_pml`] and [`Majorant::bound_ldp`].

use faer::Side;
use ndarray::{Array1, Array2, ArrayView1};

/// Relative margins tried on the diagonal before a majorant is given up.
const MARGINS: [f64; 4] = [1e-10, 1e-8, 1e-6, 1e-4];

/// A separable majorant of `v^T C v` on the slice `p . v = 1`.
#[derive(Debug, Clone)]
pub struct Majorant {
    d: Array1<f64>,
    h0: Array1<f64>,
    kappa: f64,
}

impl Majorant {
    /// The majorants of `c` over the slice of `p` (module docs): the diagonal of
    /// `C_P` raised by its off-diagonal part's largest eigenvalue on the
    /// complement of p, and the diagonal of `C_P` scaled by the largest
    /// eigenvalue of `C_P` in that diagonal's metric; those whose order a
    /// Cholesky factorisation confirms.
    pub fn of(c: &Array2<f64>, p: ArrayView1<f64>) -> Vec<Majorant> {
        let n = p.len();
        let cp = projected(c, p);
        let diag = cp.diag().mapv(|x| x.max(0.0));
        let mut out = Vec::new();
        let off = &cp - &Array2::from_diag(&diag);
        let shifted = largest_eigenvalue(&projected(&off, p)).map(|mu| &diag + mu.max(0.0));
        let root = diag.mapv(|x| if x > 0.0 { x.sqrt() } else { 1.0 });
        let scaled = Array2::from_shape_fn((n, n), |(i, j)| cp[[i, j]] / (root[i] * root[j]));
        let stretched = largest_eigenvalue(&scaled).map(|mu| &root * &root * mu.max(0.0));
        for d in [shifted, stretched].into_iter().flatten() {
            if let Some(d) = confirmed(&cp, p, d) {
                out.push(Majorant::assemble(c, p, d));
            }
        }
        out
    }

    fn assemble(c: &Array2<f64>, p: ArrayView1<f64>, d: Array1<f64>) -> Majorant {
        let hat = &p / p.dot(&p);
        let c_hat = c.dot(&hat);
        let d_hat = &d * &hat;
        let h0 = (&c_hat - &d_hat) * 2.0;
        let kappa = hat.dot(&d_hat) - hat.dot(&c_hat);
        Majorant { d, h0, kappa }
    }

    /// A bound on `max (v^T C v - lambda . v)` over `0 <= v <= e`, `p . v = 1`
    /// (the eps-PML cone of a known prior): `d_x v_x^2 <= e d_x v_x` there,
    /// with equality at both ends, and the linear bound's maximum over the
    /// slice is a fractional knapsack.
    pub fn bound_pml(&self, p: ArrayView1<f64>, e: f64, lambda: &Array1<f64>) -> f64 {
        let l = &self.d * e + &self.h0 - lambda;
        let v = knapsack_vertex(p, l.view(), e);
        self.kappa + l.dot(&v)
    }

    /// A bound on `max (v^T C v - lambda . v)` over `lo <= v <= hi`,
    /// `p . v = 1` (the cones of eps-PMC, eps-LIP and ALIP for a known prior of
    /// full support, `lo = e^-eps_l`, `hi_x` the upper level or the most the
    /// slice leaves input x): `d_x v_x^2 <= d_x ((lo + hi_x) v_x - lo hi_x)`
    /// there (the chord), with equality at both ends, and the linear bound's
    /// maximum over the slice is a fractional knapsack above `lo`.
    pub fn bound_box(
        &self,
        p: ArrayView1<f64>,
        lo: f64,
        hi: &Array1<f64>,
        lambda: &Array1<f64>,
    ) -> f64 {
        let l = &self.d * &(hi + lo) + &self.h0 - lambda;
        let chord: f64 = (&self.d * hi).sum() * lo;
        let v = box_vertex(p, l.view(), lo, hi);
        self.kappa - chord + l.dot(&v)
    }

    /// A bound on `max (v^T C v - lambda . v)` over the slice of the eps-PML
    /// cone of an l1 ball within Proposition 2, `max v <= e (1 + h min v)`
    /// (`e = e^eps'`, `h = beta / 2`): the union over `m` in `[0, 1]` of the
    /// boxes `m <= v <= e (1 + h m)`. Over an interval `[m1, m2]` the boxes lie
    /// in `[m1, e (1 + h m2)]` (each coordinate also at most what the slice
    /// leaves it above `m1`), bounded by [`Majorant::bound_box`]; the interval
    /// of largest bound is halved, best first, `pieces` times.
    pub fn bound_ball(
        &self,
        p: ArrayView1<f64>,
        (e, h): (f64, f64),
        lambda: &Array1<f64>,
        pieces: usize,
    ) -> f64 {
        let piece = |m1: f64, m2: f64| {
            let hi = box_tops(p, e * (1.0 + h * m2), m1);
            self.bound_box(p, m1, &hi, lambda)
        };
        best_first(piece, pieces)
    }

    /// A bound on `max (v^T C v - lambda . v)` over the rays
    /// `v = (1 + a b) / (1 + a p . b)`, b in {0, 1}^N (the eps-LDP cone,
    /// `a = e^eps - 1`). On rays `v_x^2 = (1 + ((1 + a)^2 - 1) b_x) / P^2`
    /// with `P = 1 + a p . b`, so the majorant is linear in b for each P; over
    /// an interval of `p . b` each coefficient is maximised over its P exactly
    /// and b relaxed to `[0, 1]^N` (an LP with one ranged row). The interval of
    /// largest bound is halved, best first, `pieces` times: the result depends
    /// on lambda alone.
    pub fn bound_ldp(
        &self,
        p: ArrayView1<f64>,
        a: f64,
        lambda: &Array1<f64>,
        pieces: usize,
    ) -> f64 {
        let h = &self.h0 - lambda;
        let piece = LdpPiece {
            p,
            a,
            k: (1.0 + a) * (1.0 + a) - 1.0,
            d: &self.d,
            h: &h,
            sums: (self.d.sum(), h.sum()),
        };
        best_first(|s1, s2| piece.bound(s1, s2), pieces) + self.kappa
    }
}

/// The largest of `bound` over intervals covering `[0, 1]`: sixteen equal ones,
/// then the interval of largest bound halved, best first, `pieces / 2` times,
/// so the result depends on `bound` alone (the LDP and ball bounds).
fn best_first(bound: impl Fn(f64, f64) -> f64, pieces: usize) -> f64 {
    let mut open: Vec<(f64, f64, f64)> = (0..16)
        .map(|i| (i as f64 / 16.0, (i + 1) as f64 / 16.0))
        .map(|(s1, s2)| (bound(s1, s2), s1, s2))
        .collect();
    for _ in 0..pieces / 2 {
        let Some(top) = (0..open.len()).max_by(|&i, &j| open[i].0.total_cmp(&open[j].0)) else {
            break;
        };
        let (_, s1, s2) = open.swap_remove(top);
        let mid = 0.5 * (s1 + s2);
        open.push((bound(s1, mid), s1, mid));
        open.push((bound(mid, s2), mid, s2));
    }
    open.iter().map(|o| o.0).fold(f64::NEG_INFINITY, f64::max)
}

/// The majorant's pieces under eps-LDP ([`Majorant::bound_ldp`]).
struct LdpPiece<'a> {
    p: ArrayView1<'a, f64>,
    a: f64,
    k: f64,
    d: &'a Array1<f64>,
    h: &'a Array1<f64>,
    sums: (f64, f64),
}

impl LdpPiece<'_> {
    /// The bound over rays with `p . b` in `[s1, s2]`.
    fn bound(&self, s1: f64, s2: f64) -> f64 {
        let (p1, p2) = (1.0 + self.a * s1, 1.0 + self.a * s2);
        let gamma = Array1::from_shape_fn(self.p.len(), |x| {
            max_over(self.k * self.d[x], self.a * self.h[x], p1, p2)
        });
        let constant = max_over(self.sums.0, self.sums.1, p1, p2);
        constant + ranged_knapsack(self.p, gamma.view(), s1, s2)
    }
}

/// `max alpha / P^2 + beta / P` over `P` in `[p1, p2]` (`p1 > 0`): at an end or
/// at the stationary point `P = -2 alpha / beta`.
fn max_over(alpha: f64, beta: f64, p1: f64, p2: f64) -> f64 {
    let f = |t: f64| alpha / (t * t) + beta / t;
    let mut m = f(p1).max(f(p2));
    if beta != 0.0 {
        let t = -2.0 * alpha / beta;
        if t > p1 && t < p2 {
            m = m.max(f(t));
        }
    }
    m
}

/// `max g . v` over `0 <= v <= top`, `p . v = 1` (`top * sum p >= 1`): inputs
/// of mass 0 at `top` where `g > 0`, the others filled at `top` in order of
/// `g / p` until the mass is spent (the last one partly).
pub(crate) fn knapsack_vertex(p: ArrayView1<f64>, g: ArrayView1<f64>, top: f64) -> Array1<f64> {
    let mut v = Array1::zeros(p.len());
    let mut left = 1.0;
    for x in by_ratio(p, g) {
        if left <= 0.0 {
            break;
        }
        let take = top.min(left / p[x]);
        v[x] = take;
        left -= take * p[x];
    }
    for x in 0..p.len() {
        if p[x] <= 0.0 && g[x] > 0.0 {
            v[x] = top;
        }
    }
    v
}

/// The upper ends of the box `lo <= v <= top` on the slice `p . v = 1` of a
/// prior of full support (a density notion's, or one box of a ball's): `top`, or
/// less where the slice leaves input x at most `(1 - lo (1 - p_x)) / p_x`.
pub fn box_tops(p: ArrayView1<f64>, top: f64, lo: f64) -> Array1<f64> {
    p.mapv(|m| top.min((1.0 - lo * (1.0 - m)) / m))
}

/// `max g . v` over `lo <= v <= hi`, `p . v = 1` for a prior of full support
/// (`lo <= 1 <= hi`): every input at `lo`, then the mass left filled up to `hi`
/// in order of `g / p` (the last one partly): a vertex of the slice.
pub fn box_vertex(
    p: ArrayView1<f64>,
    g: ArrayView1<f64>,
    lo: f64,
    hi: &Array1<f64>,
) -> Array1<f64> {
    fill_box(&by_ratio(p, g), p, lo, hi)
}

/// [`box_vertex`] for inputs already in decreasing order of `g / p`.
pub(crate) fn fill_box(
    order: &[usize],
    p: ArrayView1<f64>,
    lo: f64,
    hi: &Array1<f64>,
) -> Array1<f64> {
    let mut v = Array1::from_elem(p.len(), lo);
    let mut left = 1.0 - lo * p.sum();
    for &x in order {
        if left <= 0.0 {
            break;
        }
        let take = (hi[x] - lo).min(left / p[x]);
        v[x] += take;
        left -= take * p[x];
    }
    v
}

/// The inputs of positive mass in decreasing order of `g / p` (ties by index):
/// the order in which both knapsacks fill.
pub(crate) fn by_ratio(p: ArrayView1<f64>, g: ArrayView1<f64>) -> Vec<usize> {
    let mut order: Vec<(f64, usize)> = (0..p.len())
        .filter(|&x| p[x] > 0.0)
        .map(|x| (-g[x] / p[x], x))
        .collect();
    order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    order.into_iter().map(|(_, x)| x).collect()
}

/// `max gamma . b` over `b` in `[0, 1]^N` with `s1 <= p . b <= s2`: the items
/// of positive gain in order of `gamma / p` up to `s2`, then, if the mass is
/// short of `s1`, the least costly others up to it.
fn ranged_knapsack(p: ArrayView1<f64>, gamma: ArrayView1<f64>, s1: f64, s2: f64) -> f64 {
    let mut value: f64 = (0..p.len())
        .filter(|&x| p[x] <= 0.0)
        .map(|x| gamma[x].max(0.0))
        .sum();
    let mut mass = 0.0;
    for x in by_ratio(p, gamma) {
        let cap = if gamma[x] > 0.0 { s2 } else { s1 };
        if mass >= cap {
            if gamma[x] > 0.0 {
                continue;
            }
            break;
        }
        let take = ((cap - mass) / p[x]).min(1.0);
        value += take * gamma[x];
        mass += take * p[x];
    }
    value
}

/// `Q M Q` for symmetric M, `Q = I - p p^T / |p|^2`, in `O(N^2)`:
/// `M - (p w^T + w p^T) / |p|^2 + (p . w) p p^T / |p|^4` with `w = M p`.
fn projected(m: &Array2<f64>, p: ArrayView1<f64>) -> Array2<f64> {
    let norm = p.dot(&p);
    let w = m.dot(&p);
    let pw = p.dot(&w) / (norm * norm);
    Array2::from_shape_fn(m.raw_dim(), |(i, j)| {
        m[[i, j]] - (p[i] * w[j] + w[i] * p[j]) / norm + pw * p[i] * p[j]
    })
}

/// The largest eigenvalue of a symmetric matrix (`None` if the solver fails).
fn largest_eigenvalue(m: &Array2<f64>) -> Option<f64> {
    let n = m.nrows();
    let mat = faer::Mat::<f64>::from_fn(n, n, |i, j| 0.5 * (m[[i, j]] + m[[j, i]]));
    let values = mat.self_adjoint_eigenvalues(Side::Lower).ok()?;
    values.last().copied().filter(|x| x.is_finite())
}

/// `d` raised by the first margin at which `Q (D - C_P) Q + p p^T` factorises
/// (so `D - C_P` is positive semidefinite on the complement of p), or `None`.
fn confirmed(cp: &Array2<f64>, p: ArrayView1<f64>, d: Array1<f64>) -> Option<Array1<f64>> {
    let n = p.len();
    let scale = d.iter().fold(0.0f64, |m, x| m.max(x.abs())).max(1e-300);
    let norm = p.dot(&p);
    for margin in MARGINS {
        let raised = &d + margin * scale;
        let gap = Array2::from_diag(&raised) - cp;
        let gap = projected(&gap, p);
        let m = faer::Mat::<f64>::from_fn(n, n, |i, j| {
            0.5 * (gap[[i, j]] + gap[[j, i]]) + scale * p[i] * p[j] / norm
        });
        if m.llt(Side::Lower).is_ok() {
            return Some(raised);
        }
    }
    None
}
