//! Rounds of mirror descent for designs for estimation past enumeration
//! (docs/theory.md §13, "Rounds of mirror descent"). Under a skewed prior the
//! optimum mixes thousands of rays, more than the restricted problem's Newton
//! steps ([`crate::design::simplicial`], cubic in the count) can weight. Here
//! each ray keeps its own weight and the weights move by exponentiated
//! gradient steps, each two products of the rays' matrix with a k x k one;
//! every step ends with the Bregman projection onto the row sums (the
//! exponential tilt `a_j e^(beta . c_j)`, beta by Newton's method on its
//! convex dual, k unknowns). Between steps the quadratic pricing's ascent adds
//! rays of positive reduced cost.

use crate::design::estimation::merge_proportional;
use crate::error::Result;
use crate::pricing::quadratic::QuadraticRays;
use ndarray::{Array1, Array2, ArrayView1, Axis, Slice};
use pmldesign_model::frequency::inverse_fisher;
use pmldesign_model::linalg::least_squares;
use pmldesign_model::{ColumnCone, Mechanism};
use rayon::prelude::*;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// The first rounds' step: each weight is multiplied by `e^(ETA (g_j / median g - 1))`,
/// `g_j = c_j^T J^-2 c_j` the rate of ray j (the gradient of `-f`).
const ETA: f64 = 4.0;

/// Rays per block of the products with the rays' matrix, each block on its
/// own thread.
const BLOCK: usize = 1024;

/// Tries of a step, each a quarter of the last, before it is given up.
const BACKOFF: usize = 3;

/// Largest exponent of one step's factor or tilt (either way).
const EXPONENT: f64 = 30.0;

/// Rounds at most (where no time limit ends them first).
pub const ROUNDS: u64 = 200;

/// Ascents of one pricing (each from its own pseudo-random direction).
const ASCENTS: usize = 512;

/// The share of the weight a pricing's rays enter with in the first rounds.
const SHARE: f64 = 0.01;

/// Rays whose weight falls below this fraction of the mean leave before the
/// next pricing's rays enter.
const PRUNE: f64 = 1e-6;

/// The row sums' distance from 1 the tilt reaches, or the step is refused.
const SUMS: f64 = 1e-13;

/// Newton steps of one tilt at most.
const TILT_STEPS: usize = 60;

/// Rounds stop once one lowers f by less than this fraction of it (without a
/// time limit this ends the rounds).
pub const ROUND_GAIN: f64 = 1e-6;

/// Rounds taken back and tried again with half the step ([`mirror_rounds`]).
pub const RETRIES: usize = 6;

/// The pricing's stream: a different seed each round.
const SEED: u64 = 0x6d69_7272_6f72_2f72;

/// The alphabets the rounds run for, after a start by systematic sampling
/// (at 1,024 labels and a 60 s limit the systematic start alone, with four
/// times the pieces, does better: a round there takes seconds).
pub const MIRROR_SIZES: std::ops::RangeInclusive<usize> = 65..=512;

/// The alphabets the rounds run for under eps-LDP, from the best baseline
/// (no systematic start there): past enumeration, where that start's error
/// is above the floor by more than [`LDP_MIRROR_ABOVE_FLOOR`]. With a Zipf
/// prior and a 60 s limit they end at 20.22 per row at 32 labels and eps 2
/// (Frank-Wolfe alone 20.27) and at 457.3 at 128 labels and eps 1 (457.8).
pub const LDP_MIRROR_SIZES: std::ops::RangeInclusive<usize> = 17..=512;

/// Under eps-LDP the rounds run only where the start's error is above the
/// floor by more than this factor: nearer, Frank-Wolfe's LPs alone end lower
/// (with a Zipf prior, 32 labels, eps 1 and 60 s, where the start is 0.4 %
/// above the floor: 108.73 against 108.75 after rounds).
pub const LDP_MIRROR_ABOVE_FLOOR: f64 = 1.01;

/// The share of the loop's time the rounds may take: Frank-Wolfe's LPs,
/// which take the rest, gain less from there (at 256 Zipf labels, eps 1 and
/// 60 s, 152.9 against 153.1 at 0.8).
pub const MIRROR_SHARE: f64 = 0.9;

/// Seconds per term (`outputs x k^2`) of one descent step: its products with
/// the rays' matrix and the tilt's, single-threaded.
pub const MIRROR_SECONDS_PER_TERM: f64 = 1e-9;

/// The seconds one descent step over `outputs` rays of `k` inputs takes
/// ([`MIRROR_SECONDS_PER_TERM`]).
pub(crate) fn mirror_step(k: usize, outputs: usize) -> std::time::Duration {
    let terms = outputs as f64 * (k * k) as f64;
    std::time::Duration::from_secs_f64(MIRROR_SECONDS_PER_TERM * terms)
}

/// Rays scaled to `p . c = 1`, one per row, and their weights; the rows of
/// the mixture `sum_j a_j c_j` sum to 1.
#[derive(Clone)]
pub(crate) struct Mirror {
    p: Array1<f64>,
    rays: Array2<f64>,
    weights: Array1<f64>,
}

impl Mirror {
    /// The columns of `m` as rays, each weighted by its probability `p . w`;
    /// columns of probability 0 left out.
    pub(crate) fn of(m: &Mechanism, p: ArrayView1<f64>) -> Option<Self> {
        let w = m.matrix();
        let kept: Vec<usize> = (0..w.ncols())
            .filter(|&y| p.dot(&w.column(y)) > 0.0)
            .collect();
        let mut rays = Array2::zeros((kept.len(), p.len()));
        let mut weights = Array1::zeros(kept.len());
        for (j, &y) in kept.iter().enumerate() {
            let mass = p.dot(&w.column(y));
            rays.row_mut(j).assign(&(&w.column(y) / mass));
            weights[j] = mass;
        }
        (!kept.is_empty()).then(|| Mirror {
            p: p.to_owned(),
            rays,
            weights,
        })
    }

    /// `each` over the rays in blocks of [`BLOCK`] rows, in parallel, the
    /// answers in the blocks' order (so the same bytes at any thread count).
    fn blocks<T: Send>(&self, each: impl Fn(Slice) -> T + Sync) -> Vec<T> {
        let n = self.rays.nrows();
        (0..n)
            .step_by(BLOCK)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|start| each(Slice::from(start..(start + BLOCK).min(n))))
            .collect()
    }

    /// `sum_j a_j c_j c_j^T` for weights `a`, the blocks' sums added in order.
    fn fisher_at(&self, a: &Array1<f64>) -> Array2<f64> {
        let k = self.p.len();
        let parts = self.blocks(|rows| {
            let block = self.rays.slice_axis(Axis(0), rows);
            let scaled = &block * &a.slice_axis(Axis(0), rows).insert_axis(Axis(1));
            scaled.t().dot(&block)
        });
        parts
            .into_iter()
            .fold(Array2::zeros((k, k)), |sum, part| sum + part)
    }

    /// `sum_j w_j c_j`, row by row within each block (contiguous, where the
    /// transposed product walks the rays' matrix by columns), the blocks'
    /// sums added in order.
    fn combine(&self, w: &Array1<f64>) -> Array1<f64> {
        let parts = self.blocks(|rows| {
            let block = self.rays.slice_axis(Axis(0), rows);
            let mut sum = Array1::<f64>::zeros(self.p.len());
            for (ray, &wj) in block.rows().into_iter().zip(w.slice_axis(Axis(0), rows)) {
                sum.scaled_add(wj, &ray);
            }
            sum
        });
        parts
            .into_iter()
            .fold(Array1::zeros(self.p.len()), |sum, part| sum + part)
    }

    /// The products `beta . c_j`.
    fn project(&self, beta: &Array1<f64>) -> Array1<f64> {
        let parts = self.blocks(|rows| self.rays.slice_axis(Axis(0), rows).dot(beta));
        parts.into_iter().flatten().collect()
    }

    /// The rates `c_j^T C c_j`.
    fn rates(&self, c: &Array2<f64>) -> Array1<f64> {
        let parts = self.blocks(|rows| {
            let block = self.rays.slice_axis(Axis(0), rows);
            (&block.dot(c) * &block).sum_axis(Axis(1))
        });
        parts.into_iter().flatten().collect()
    }

    /// One exponentiated gradient step of size `eta` by the rates `g`
    /// ([`Self::rates`] of `J^-2`), then the tilt; where the tilt fails the
    /// step is shortened
    /// ([`BACKOFF`]). False (nothing changed) where the rates or every tilt
    /// fail.
    fn descend(&mut self, g: &Array1<f64>, mut eta: f64) -> bool {
        let mut sorted = g.to_vec();
        sorted.sort_by(f64::total_cmp);
        let mid = sorted[sorted.len() / 2];
        if !(mid > 0.0 && mid.is_finite()) {
            return false;
        }
        for _ in 0..BACKOFF {
            let mut next = self.clone();
            let factor = g.mapv(|r| (eta * (r / mid - 1.0)).clamp(-EXPONENT, EXPONENT).exp());
            next.weights = &self.weights * &factor;
            if next.tilt() {
                *self = next;
                return true;
            }
            eta /= 4.0;
        }
        false
    }

    /// The weights tilted to `a_j e^(beta . c_j)` with the rows summing to 1
    /// within [`SUMS`]: beta minimises the convex `sum_j a_j e^(beta . c_j) -
    /// sum_x beta_x`, whose gradient is the rows' excess and whose Hessian is
    /// the tilted J. A step with the last Hessian (an N x N solve) is taken
    /// where it shrinks the excess; otherwise the Hessian is recomputed (a
    /// product with the rays' matrix) and its Newton step halved until it
    /// does (the excess is a merit that rounding does not blur near the
    /// solution, as the dual's value would). False (nothing changed) where
    /// the sums are not reached.
    fn tilt(&mut self) -> bool {
        let tilted = |beta: &Array1<f64>| {
            let e = self
                .project(beta)
                .mapv(|x| x.clamp(-EXPONENT, EXPONENT).exp());
            &self.weights * &e
        };
        let excess = |w: &Array1<f64>| self.combine(w) - 1.0;
        let size = |r: &Array1<f64>| r.dot(r).sqrt();
        let mut beta = Array1::<f64>::zeros(self.p.len());
        let mut w = self.weights.clone();
        let mut r = excess(&w);
        let (mut hessian, mut fresh) = (self.fisher_at(&w), true);
        for _ in 0..TILT_STEPS {
            if r.iter().all(|x| x.abs() <= SUMS) {
                self.weights = w;
                return true;
            }
            let Some(d) = least_squares(&hessian, &r) else {
                return false;
            };
            let mut step = 1.0;
            loop {
                let trial = &beta - &(&d * step);
                let tw = tilted(&trial);
                let tr = excess(&tw);
                if size(&tr) <= (1.0 - 1e-4 * step) * size(&r) {
                    (beta, w, r, fresh) = (trial, tw, tr, false);
                    break;
                }
                if !fresh {
                    (hessian, fresh) = (self.fisher_at(&w), true);
                    break;
                }
                step *= 0.5;
                if step < 1e-6 {
                    return false;
                }
            }
        }
        false
    }

    /// The row sums' multipliers: lambda with `lambda . c_j = g_j` for the
    /// rays' rates g, by least squares weighted by the weights, whose normal
    /// matrix is `j`, the J of the weights.
    fn multipliers(&self, j: &Array2<f64>, g: &Array1<f64>) -> Option<Array1<f64>> {
        let right = self.combine(&(&self.weights * g));
        least_squares(j, &right)
    }

    /// Rays of weight below [`PRUNE`] of the mean removed, `entering` added
    /// with a `share` of the weight (a ray already held takes its part of the
    /// share: rays of one shape are one ray), the lightest of the others
    /// removed where more than `most` would be left, and the rows' sums
    /// restored; false (nothing changed) where the tilt fails.
    fn enter(&mut self, entering: &[Array1<f64>], most: usize, share: f64) -> bool {
        let mean = self.weights.sum() / self.weights.len() as f64;
        let scaled: Vec<Array1<f64>> = entering.iter().map(|v| v / self.p.dot(v)).collect();
        let share = if scaled.is_empty() { 0.0 } else { share };
        let each = share / scaled.len().max(1) as f64;
        let mut rays = Distinct::default();
        for j in (0..self.weights.len()).filter(|&j| self.weights[j] > PRUNE * mean) {
            rays.add(self.rays.row(j), self.weights[j] * (1.0 - share));
        }
        let held = rays.rows.len();
        for v in &scaled {
            rays.add(v.view(), each);
        }
        let Distinct { rows, weights, .. } = rays;
        let mut gone = vec![false; rows.len()];
        if rows.len() > most {
            let mut lightest: Vec<usize> = (0..held).collect();
            lightest.sort_by(|&i, &j| weights[i].total_cmp(&weights[j]).then(i.cmp(&j)));
            for &i in &lightest[..rows.len() - most] {
                gone[i] = true;
            }
        }
        let views: Vec<ArrayView1<f64>> = (0..rows.len())
            .filter(|&i| !gone[i])
            .map(|i| rows[i])
            .collect();
        let weights: Vec<f64> = (0..rows.len())
            .filter(|&i| !gone[i])
            .map(|i| weights[i])
            .collect();
        let Ok(rays) = ndarray::stack(Axis(0), &views) else {
            return false;
        };
        let mut next = Mirror {
            p: self.p.clone(),
            rays,
            weights: Array1::from(weights),
        };
        next.tilt() && {
            *self = next;
            true
        }
    }

    /// The rays of positive reduced cost that the quadratic pricing's
    /// ascents reach under `c = J^-2` and the rates `g`, at most a quarter of
    /// `most`; the round picks the ascents' seed.
    fn priced(
        &self,
        (j, c, g): (&Array2<f64>, &Array2<f64>, &Array1<f64>),
        (cone, most): (&ColumnCone, usize),
        round: u64,
    ) -> Vec<Array1<f64>> {
        self.multipliers(j, g)
            .zip(QuadraticRays::ascending(cone, self.p.view(), c))
            .map(|(lambda, oracle)| oracle.ascents(&lambda, ASCENTS, SEED.wrapping_add(round)))
            .unwrap_or_default()
            .into_iter()
            .take(most / 4)
            .map(|(_, v)| v)
            .collect()
    }

    /// The mixture as a mechanism, columns of one shape merged.
    pub(crate) fn mechanism(&self) -> Result<Mechanism> {
        merge_proportional((&self.rays * &self.weights.view().insert_axis(Axis(1))).reversed_axes())
    }
}

/// A mixture with its J, `J^-1` and f, `tr(J^-1)`.
struct Point {
    mirror: Mirror,
    j: Array2<f64>,
    inv: Array2<f64>,
    f: f64,
}

impl Point {
    /// `mirror` measured; `None` where its J is singular.
    fn of(mirror: Mirror) -> Option<Self> {
        let j = mirror.fisher_at(&mirror.weights);
        let inv = inverse_fisher(&j)?;
        let f = inv.diag().sum();
        Some(Point { mirror, j, inv, f })
    }

    /// The one of lower f, `self` on a tie lost by `other`.
    fn better(self, other: Point) -> Point {
        match other.f <= self.f {
            true => other,
            false => self,
        }
    }
}

/// Rays gathered one by one, copies (equal to the last bit) kept as one ray
/// weighted by the sum of their weights, in order of first appearance.
#[derive(Default)]
struct Distinct<'a> {
    seen: HashMap<Vec<u64>, usize>,
    rows: Vec<ArrayView1<'a, f64>>,
    weights: Vec<f64>,
}

impl<'a> Distinct<'a> {
    fn add(&mut self, ray: ArrayView1<'a, f64>, w: f64) {
        match self.seen.entry(ray.iter().map(|x| x.to_bits()).collect()) {
            Entry::Occupied(at) => self.weights[*at.get()] += w,
            Entry::Vacant(slot) => {
                slot.insert(self.rows.len());
                self.rows.push(ray);
                self.weights.push(w);
            }
        }
    }
}

/// Rounds of one pricing, one descent step and the pricing's rays' entry
/// from `start` under the cone's rays, while `stop` allows, each round lowers
/// f by [`ROUND_GAIN`] and at most [`ROUNDS`] of them, with at most `most`
/// rays. A round that raises f (near the optimum a step overshoots, and the
/// rays leaving for the entering ones can be missed) is taken back and tried
/// again with half the step and half the share, [`RETRIES`] times in all.
/// The mixture, or `None` where no step could be taken.
pub fn mirror_rounds(
    start: &Mechanism,
    p: ArrayView1<f64>,
    (cone, most): (&ColumnCone, usize),
    stop: &dyn Fn() -> bool,
) -> Option<Mechanism> {
    // The point each round starts from.
    let mut kept = Point::of(Mirror::of(start, p)?)?;
    let (mut eta, mut share, mut retries) = (ETA, SHARE, 0);
    let mut moved = false;
    for round in 0..ROUNDS {
        if stop() {
            break;
        }
        let c = kept.inv.dot(&kept.inv);
        let g = kept.mirror.rates(&c);
        let entering = kept.mirror.priced((&kept.j, &c, &g), (cone, most), round);
        let mut mirror = kept.mirror.clone();
        moved |= mirror.descend(&g, eta);
        let entered = !stop() && mirror.enter(&entering, most, share);
        let Some(next) = Point::of(mirror) else {
            break;
        };
        if !entered {
            kept = kept.better(next);
            break;
        }
        if next.f > kept.f && retries < RETRIES {
            (eta, share, retries) = (eta / 2.0, share / 2.0, retries + 1);
            continue;
        }
        if next.f > kept.f * (1.0 - ROUND_GAIN) {
            kept = kept.better(next);
            break;
        }
        kept = next;
    }
    moved.then(|| kept.mirror.mechanism().ok()).flatten()
}
