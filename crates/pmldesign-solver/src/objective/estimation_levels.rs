//! The least `tr J^-1` of an eps-LDP mechanism at a prior whose masses take few
//! values (docs/theory.md §13, "A floor from priors of few levels"). Such a
//! prior is left unchanged by permuting the inputs of one level, so an optimal
//! mechanism can be averaged over those permutations: its Fisher information
//! is fixed by a handful of numbers, and every ray of one orbit (the numbers
//! `u_i` of each level's inputs at the high value) adds the same. The problem
//! over the orbits is small and its pricing exact: a barrier method solves it,
//! and its multipliers prove the floor.

use faer::linalg::solvers::Solve;
use ndarray::{Array1, Array2, Axis};
use pmldesign_model::frequency::inverse_fisher;

/// The barrier's weight grows by this factor between centrings.
const GROWTH: f64 = 50.0;

/// Centrings, at most (the weight grows by [`GROWTH`]^16, about 1.5e27).
const CENTRINGS: usize = 16;

/// A centring ends where the squared Newton decrement falls below this.
const CENTRED: f64 = 1e-8;

/// Newton steps per centring, at most.
const NEWTON_STEPS: usize = 60;

/// The barrier's bound on `f - min f` at which a level's problem is solved,
/// relative to f, and the reduced cost below which orbit generation stops.
const PRECISION: f64 = 1e-6;

/// The floor proved is lowered by this fraction for rounding: the sums behind
/// it run over a few thousand orbits of terms near 1.
pub const ROUNDING: f64 = 1e-9;

/// A prior of few levels: `sizes[i]` inputs of mass `masses[i]` each.
#[derive(Clone, Debug)]
pub struct Levels {
    /// How many inputs each level holds.
    pub sizes: Vec<usize>,
    /// The mass of each input at each level.
    pub masses: Vec<f64>,
}

/// The orbits' contributions: per orbit, the Fisher information's numbers
/// (`features`: each level's eigenvalue off its constant direction, for the
/// levels of two or more inputs, then the upper triangle of the L x L matrix
/// on the levels' constant directions) and each level's mean row entry
/// (`means`, whose weighted sums are the row sums).
struct Orbits {
    features: Array2<f64>,
    means: Array2<f64>,
    /// The levels with an eigenvalue off their constant direction: (level, n - 1).
    spread: Vec<(usize, f64)>,
    sizes: Vec<usize>,
    l: usize,
}

impl Levels {
    fn count(&self) -> usize {
        self.sizes.iter().map(|n| n + 1).product()
    }

    /// Every orbit's numbers at the LDP level `epsilon`: a ray with `u_i`
    /// inputs of level i at the high value is `(e^eps 1_S + 1_rest) / D`,
    /// `D = 1 + (e^eps - 1) sum_i u_i a_i`.
    fn orbits(&self, epsilon: f64) -> Orbits {
        let l = self.sizes.len();
        let spread: Vec<(usize, f64)> = (0..l)
            .filter(|&i| self.sizes[i] >= 2)
            .map(|i| (i, (self.sizes[i] - 1) as f64))
            .collect();
        let width = spread.len() + l * (l + 1) / 2;
        let count = self.count();
        let mut features = Array2::zeros((count, width));
        let mut means = Array2::zeros((count, l));
        let (high, beta) = (epsilon.exp(), epsilon.exp_m1());
        let mut u = vec![0usize; l];
        for c in 0..count {
            let d = 1.0 + beta * (0..l).map(|i| u[i] as f64 * self.masses[i]).sum::<f64>();
            let (h, lo) = (high / d, 1.0 / d);
            let n: Vec<f64> = self.sizes.iter().map(|&n| n as f64).collect();
            let uf: Vec<f64> = u.iter().map(|&x| x as f64).collect();
            let m: Vec<f64> = (0..l)
                .map(|i| (uf[i] * h + (n[i] - uf[i]) * lo) / n[i])
                .collect();
            let square = |i: usize| (uf[i] * h * h + (n[i] - uf[i]) * lo * lo) / n[i];
            let pair = |i: usize| match self.sizes[i] >= 2 {
                true => {
                    let (a, b) = (uf[i], n[i] - uf[i]);
                    (a * (a - 1.0) * h * h + 2.0 * a * b * h * lo + b * (b - 1.0) * lo * lo)
                        / (n[i] * (n[i] - 1.0))
                }
                false => 0.0,
            };
            for (s, &(i, _)) in spread.iter().enumerate() {
                features[[c, s]] = square(i) - pair(i);
            }
            let mut at = spread.len();
            for i in 0..l {
                for k in i..l {
                    features[[c, at]] = match i == k {
                        true => square(i) - pair(i) + n[i] * pair(i),
                        false => (n[i] * n[k]).sqrt() * m[i] * m[k],
                    };
                    at += 1;
                }
            }
            for i in 0..l {
                means[[c, i]] = m[i];
            }
            next_counts(&mut u, &self.sizes);
        }
        Orbits {
            features,
            means,
            spread,
            sizes: self.sizes.clone(),
            l,
        }
    }
}

/// The next counts in mixed radix (`u_i` in `0..=sizes[i]`).
fn next_counts(u: &mut [usize], sizes: &[usize]) {
    for (x, &n) in u.iter_mut().zip(sizes) {
        if *x < n {
            *x += 1;
            return;
        }
        *x = 0;
    }
}

/// `J` in the orbits' numbers: each spread level's eigenvalue and the L x L
/// matrix on the constant directions.
struct Structured {
    eigen: Vec<f64>,
    r: Array2<f64>,
}

impl Orbits {
    fn structured(&self, x: &Array1<f64>) -> Structured {
        let s = self.spread.len();
        let mut r = Array2::zeros((self.l, self.l));
        let mut at = s;
        for i in 0..self.l {
            for k in i..self.l {
                r[[i, k]] = x[at];
                r[[k, i]] = x[at];
                at += 1;
            }
        }
        Structured {
            eigen: x.iter().take(s).copied().collect(),
            r,
        }
    }

    /// `tr J^-1`, its gradient and Hessian in the numbers `x`; `None` where J
    /// is not positive definite. For the packed entry a = (i, k) of R, with
    /// `E_a = e_i e_k^T + e_k e_i^T` (once where i = k): `d tr R^-1 = -<R^-2,
    /// E_a>` and `d2 = 2 tr(R^-1 E_a R^-1 E_b R^-1)`.
    fn trace_inverse(&self, x: &Array1<f64>) -> Option<(f64, Array1<f64>, Array2<f64>)> {
        let j = self.structured(x);
        let width = x.len();
        let (mut f, mut grad, mut hess) =
            (0.0, Array1::zeros(width), Array2::zeros((width, width)));
        for (s, &(_, weight)) in self.spread.iter().enumerate() {
            let a = j.eigen[s];
            if a <= 0.0 {
                return None;
            }
            f += weight / a;
            grad[s] = -weight / (a * a);
            hess[[s, s]] = 2.0 * weight / (a * a * a);
        }
        let inv = inverse_fisher(&j.r)?;
        let inv2 = inv.dot(&inv);
        f += inv.diag().sum();
        let pairs = self.packed();
        let at = self.spread.len();
        let terms = |&(i, k): &(usize, usize)| -> Vec<(usize, usize)> {
            if i == k {
                vec![(i, i)]
            } else {
                vec![(i, k), (k, i)]
            }
        };
        for (a, pa) in pairs.iter().enumerate() {
            let ea = terms(pa);
            grad[at + a] = -ea.iter().map(|&(u, v)| inv2[[v, u]]).sum::<f64>();
            for (b, pb) in pairs.iter().enumerate().skip(a) {
                let eb = terms(pb);
                let mut h = 0.0;
                for &(u, v) in &ea {
                    for &(w, z) in &eb {
                        h += inv[[v, w]] * inv2[[z, u]];
                    }
                }
                hess[[at + a, at + b]] = 2.0 * h;
                hess[[at + b, at + a]] = 2.0 * h;
            }
        }
        Some((f, grad, hess))
    }

    /// The packed upper triangle's index pairs.
    fn packed(&self) -> Vec<(usize, usize)> {
        (0..self.l)
            .flat_map(|i| (i..self.l).map(move |k| (i, k)))
            .collect()
    }

    /// `<J^-2, M_c>` for every orbit c at the numbers `x`: each spread
    /// level's `(n - 1) alpha_c / alpha^2`, and `tr(R^-2 R_c)`.
    fn priced(&self, x: &Array1<f64>) -> Option<Array1<f64>> {
        let j = self.structured(x);
        let inv = inverse_fisher(&j.r)?;
        let inv2 = inv.dot(&inv);
        let at = self.spread.len();
        let mut weights = Array1::zeros(x.len());
        for (s, &(_, n)) in self.spread.iter().enumerate() {
            weights[s] = n / (j.eigen[s] * j.eigen[s]);
        }
        let mut b = at;
        for i in 0..self.l {
            for k in i..self.l {
                weights[b] = if i == k {
                    inv2[[i, i]]
                } else {
                    2.0 * inv2[[i, k]]
                };
                b += 1;
            }
        }
        Some(self.features.dot(&weights))
    }
}

/// The least `tr J^-1` of an eps-LDP mechanism at the prior `levels`, as a
/// proven lower bound (lowered by [`ROUNDING`]); `None` where the solve fails.
pub fn level_floor(levels: &Levels, epsilon: f64) -> Option<f64> {
    let orbits = levels.orbits(epsilon);
    let (t, omega) = orbit_generation(&orbits)?;
    certify(&orbits, &t, &omega)
}

/// The floor proved at weights `t` with multipliers `omega` (docs/theory.md
/// §13): with `Y = kappa J^-2`, `tr J'^-1 >= 2 tr Y^1/2 - <Y, J'>` for every
/// mechanism's J', and `<Y, J'> <= kappa Phi`, `Phi = sum omega_i + max_c
/// (<J^-2, M_c> - omega . m_c)`; the best kappa gives `T^2 / Phi`.
fn certify(orbits: &Orbits, t: &Array1<f64>, omega: &Array1<f64>) -> Option<f64> {
    let x = orbits.features.t().dot(t);
    let (f, _, _) = orbits.trace_inverse(&x)?;
    let phi = omega.sum() + most_reduced(orbits, &x, omega)?.1;
    (phi > 0.0 && f.is_finite()).then(|| f * f / phi * (1.0 - ROUNDING))
}

/// Every orbit's reduced cost `<J^-2, M_c> - omega . m_c` at the numbers `x`,
/// and the largest.
fn most_reduced(
    orbits: &Orbits,
    x: &Array1<f64>,
    omega: &Array1<f64>,
) -> Option<(Array1<f64>, f64)> {
    let reduced = orbits.priced(x)? - orbits.means.dot(omega);
    let worst = reduced.fold(f64::NEG_INFINITY, |m, v| m.max(*v));
    Some((reduced, worst))
}

/// Orbit generation: the problem over a few orbits solved by the barrier
/// method ([`restricted`]), the orbits of positive reduced cost added (at
/// most [`ENTERING`] a round) and those left without weight dropped, until
/// none prices above the solve's precision times f ([`ROUGH`], then
/// [`PRECISION`]). The weights over every orbit and the multipliers.
fn orbit_generation(orbits: &Orbits) -> Option<(Array1<f64>, Array1<f64>)> {
    let count = orbits.features.nrows();
    let mut active = first_orbits(orbits);
    let mut weights = vec![1.0 / active.len() as f64; active.len()];
    let mut best: Option<(Array1<f64>, Array1<f64>)> = None;
    // Rounds solve to ROUGH until no orbit prices above it, then to PRECISION.
    let mut fine = false;
    for _ in 0..ROUNDS {
        let precision = if fine { PRECISION } else { ROUGH };
        let (t, omega) = restricted(orbits, &active, &weights, precision)?;
        let mut full = Array1::zeros(count);
        for (&c, &w) in active.iter().zip(&t) {
            full[c] = w;
        }
        let x = orbits.features.t().dot(&full);
        let f = orbits.trace_inverse(&x)?.0;
        let (reduced, worst) = most_reduced(orbits, &x, &omega)?;
        best = Some((full, omega));
        if worst <= precision * f {
            if fine {
                break;
            }
            fine = true;
            weights = t.to_vec();
            continue;
        }
        let most = t.fold(0.0f64, |m, w| m.max(*w));
        let kept: Vec<(usize, f64)> = active
            .iter()
            .zip(&t)
            .filter(|(_, w)| **w > DROPPED * most)
            .map(|(&c, &w)| (c, w))
            .collect();
        let mut entering: Vec<usize> = (0..count)
            .filter(|c| reduced[*c] > 0.0 && !kept.iter().any(|(k, _)| k == c))
            .collect();
        entering.sort_by(|a, b| reduced[*b].total_cmp(&reduced[*a]));
        entering.truncate(ENTERING);
        let share = most * 0.1;
        active = kept
            .iter()
            .map(|(c, _)| *c)
            .chain(entering.iter().copied())
            .collect();
        weights = kept
            .iter()
            .map(|(_, w)| *w)
            .chain(entering.iter().map(|_| share))
            .collect();
    }
    best
}

/// Rounds of orbit generation, at most.
const ROUNDS: usize = 60;

/// Orbits entering per round, at most.
const ENTERING: usize = 8;

/// The precision of the first rounds of orbit generation (relative to f), and
/// the reduced cost below which they stop.
const ROUGH: f64 = 1e-5;

/// An orbit whose weight falls below this fraction of the largest leaves.
const DROPPED: f64 = 1e-12;

/// The first orbits: each level's count at 0, half and all of its inputs.
fn first_orbits(orbits: &Orbits) -> Vec<usize> {
    let sizes = &orbits.sizes;
    let mut out = Vec::new();
    let mut pick = vec![0usize; sizes.len()];
    loop {
        let index = pick
            .iter()
            .zip(sizes)
            .rev()
            .fold(0usize, |acc, (&which, &n)| {
                let u = [0, n / 2, n][which];
                acc * (n + 1) + u
            });
        if !out.contains(&index) {
            out.push(index);
        }
        if !next_choice(&mut pick) {
            break;
        }
    }
    out
}

/// The next of the 3^L choices (0, half, all) per level; false after the last.
fn next_choice(pick: &mut [usize]) -> bool {
    for x in pick.iter_mut() {
        if *x < 2 {
            *x += 1;
            return true;
        }
        *x = 0;
    }
    false
}

/// The barrier method over the orbits `active` from the weights `start`
/// (rows summing to 1 once the first steps restore them): the weights and the
/// row sums' multipliers divided by the barrier's weight.
fn restricted(
    orbits: &Orbits,
    active: &[usize],
    start: &[f64],
    precision: f64,
) -> Option<(Array1<f64>, Array1<f64>)> {
    let x = orbits.features.select(Axis(0), active);
    let a = orbits.means.select(Axis(0), active);
    let n = active.len() as f64;
    let mut t = Array1::from(start.to_vec());
    let f0 = orbits.trace_inverse(&x.t().dot(&t))?.0;
    // The first centring's bound on f - min f is f itself.
    let mut tau = n / f0;
    let mut omega = Array1::zeros(orbits.l);
    for _ in 0..CENTRINGS {
        for _ in 0..NEWTON_STEPS {
            let (next, nu, decrement, feasible) = newton(orbits, (&x, &a), &t, tau)?;
            t = next;
            omega = nu / tau;
            if feasible && decrement < CENTRED {
                break;
            }
        }
        let f = orbits.trace_inverse(&x.t().dot(&t))?.0;
        if n / tau <= precision * f {
            break;
        }
        tau *= GROWTH;
    }
    Some((t, omega))
}

/// One Newton step of `tau tr J(t)^-1 - sum log t_c` over the orbits whose
/// numbers are the rows of `x` and whose mean entries are those of `a`, under
/// the row sums (infeasible start: the residual is in the step; the KKT
/// system solved whole by LU): the weights, the multipliers, the squared
/// decrement and whether the step began at row sums of 1.
fn newton(
    orbits: &Orbits,
    (x, a): (&Array2<f64>, &Array2<f64>),
    t: &Array1<f64>,
    tau: f64,
) -> Option<(Array1<f64>, Array1<f64>, f64, bool)> {
    let (n, l) = (t.len(), orbits.l);
    let (_, gx, hx) = orbits.trace_inverse(&x.t().dot(t))?;
    let grad = x.dot(&gx) * tau - t.mapv(|w| 1.0 / w);
    let h = x.dot(&hx).dot(&x.t()) * tau;
    let residual = Array1::ones(l) - a.t().dot(t);
    let kkt = faer::Mat::<f64>::from_fn(n + l, n + l, |i, k| match (i < n, k < n) {
        (true, true) => h[[i, k]] + if i == k { 1.0 / (t[i] * t[i]) } else { 0.0 },
        (true, false) => a[[i, k - n]],
        (false, true) => a[[k, i - n]],
        (false, false) => 0.0,
    });
    let rhs = faer::Mat::<f64>::from_fn(n + l, 1, |i, _| match i < n {
        true => -grad[i],
        false => residual[i - n],
    });
    let sol = kkt.partial_piv_lu().solve(rhs.as_ref());
    let d = Array1::from_shape_fn(n, |i| sol[(i, 0)]);
    let nu = Array1::from_shape_fn(l, |i| sol[(n + i, 0)]);
    if !d.iter().chain(&nu).all(|v| v.is_finite()) {
        return None;
    }
    let decrement = -grad.dot(&d);
    let mut step = 1.0f64;
    for (w, dw) in t.iter().zip(&d) {
        if *dw < 0.0 {
            step = step.min(-0.99 * w / dw);
        }
    }
    let feasible = residual.iter().all(|r: &f64| r.abs() < 1e-13);
    let value = |w: &Array1<f64>| -> f64 {
        let f = orbits
            .trace_inverse(&x.t().dot(w))
            .map_or(f64::INFINITY, |(f, _, _)| f);
        tau * f - w.mapv(f64::ln).sum()
    };
    let here = value(t);
    while feasible && step > 1e-12 {
        let next = t + &(&d * step);
        if value(&next) <= here - 0.25 * step * decrement.max(0.0) {
            break;
        }
        step *= 0.5;
    }
    Some((t + &(&d * step), nu, decrement.max(0.0), feasible))
}
