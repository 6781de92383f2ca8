//! A start for designs for estimation past enumeration under eps-PML, eps-LIP
//! and ALIP of a known prior (docs/theory.md §13, "A start from sampled
//! rays"). The baselines' start, k-subset selection or its cyclic design,
//! suits a uniform prior; under a skewed one the optimum mixes many subsets
//! (under eps-PML, of prior mass `e^-eps`), which Frank-Wolfe's steps between
//! whole LP solutions reach slowly. Here random rays at the notion's two
//! density levels are weighted, with randomized response, by the restricted
//! problem of [`crate::design::simplicial`].

use crate::colgen::oracle::{PassControl, RayOracle};
use crate::design::simplicial::Pool;
use crate::pricing::quadratic::QuadraticRays;
use chacha20::ChaCha8Rng;
use ndarray::{Array1, ArrayView1};
use pmldesign_model::frequency::inverse_fisher;
use pmldesign_model::{ColumnCone, Mechanism};
use rand::{Rng, SeedableRng};

/// The share of the loop's time the start may take: its rounds lower the
/// error faster than Frank-Wolfe's LPs past 128 inputs (at 256 labels, a Zipf
/// prior and eps 1, each round about 5 s and 3 % of the error), which then
/// take what is left.
pub const SAMPLED_SHARE: f64 = 0.8;

/// Sampled rays per input.
pub const SAMPLED_RAYS_PER_INPUT: usize = 6;

/// The alphabets a start is sampled for: at 64 labels (Zipf prior, eps 1, 60 s) Frank-Wolfe from the baselines'
/// start ends nearer the optimum than from a sampled one, at 128 it ends 2.3
/// times farther; past 256 the restricted problem's Newton steps, which cost
/// the cube of the rays' count, take seconds each.
pub const SAMPLED_START_SIZES: std::ops::RangeInclusive<usize> = 65..=256;

/// The start is sampled only where its error is above the notion's floor by
/// more than this factor (under a uniform prior k-subset selection is within
/// a fraction of a per cent of it).
pub const SAMPLED_START_ABOVE_FLOOR: f64 = 1.1;

/// Seconds per cubed ray of one Newton step of the restricted problem (about
/// what one takes on two cores at 768 and 1,536 rays).
pub const NEWTON_SECONDS_PER_CUBE: f64 = 3e-10;

/// The seconds one Newton step over the sampled rays of `k` inputs takes
/// ([`NEWTON_SECONDS_PER_CUBE`]).
pub(crate) fn newton_step(k: usize) -> std::time::Duration {
    let n = (SAMPLED_RAYS_PER_INPUT * k) as f64;
    std::time::Duration::from_secs_f64(NEWTON_SECONDS_PER_CUBE * n.powi(3))
}

/// The stream's seed: the same rays for the same prior and level.
const SEED: u64 = 0x706d_6c2f_7261_7973;

/// The share of the weight the sampled rays enter with.
const SHARE: f64 = 0.5;

/// The restricted problem is solved to this fraction of f: a start, not an
/// optimum.
const PRECISION: f64 = 1e-3;

/// Rays entering per round of [`priced_round`] at most.
const ENTERING: usize = 64;

/// The pricing's effort in a round: four times its starts of a pass.
const ROUND_EFFORT: u64 = 4;

/// A ray enters where its reduced cost is above this fraction of f.
const ENTERS: f64 = 1e-9;

/// The share of the weight a round's rays enter with: small, so that the
/// rows' sums are restored by a small move.
const ROUND_SHARE: f64 = 0.01;

/// `n` rays `q` of `p . q = 1` at two levels `(lo, hi)` of the information
/// density (eps-PML: `(0, e^eps)`; eps-LIP and ALIP: `(e^-eps_l, e^eps_u)`):
/// every input at `lo`, then inputs taken in a random order up to `hi` while
/// the mass they add, `p_x (hi - lo)`, stays within `1 - lo`, the next one at
/// the fraction that fills it. Every ray keeps each density within the levels,
/// whatever the order.
pub fn sampled_rays(p: ArrayView1<f64>, levels: (f64, f64), n: usize) -> Vec<Array1<f64>> {
    let k = p.len();
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut order: Vec<usize> = (0..k).collect();
    (0..n)
        .map(|_| {
            shuffle(&mut order, &mut rng);
            fill(p, levels, &order)
        })
        .collect()
}

/// `order` shuffled by Fisher-Yates on the stream's words: the same order on
/// every platform.
pub(crate) fn shuffle(order: &mut [usize], rng: &mut ChaCha8Rng) {
    for i in (1..order.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
}

/// The ray of [`sampled_rays`] for one order of the inputs.
fn fill(p: ArrayView1<f64>, (lo, hi): (f64, f64), order: &[usize]) -> Array1<f64> {
    let mut q = Array1::from_elem(p.len(), lo);
    let mut mass = 0.0;
    let room = (1.0 - lo) / (hi - lo);
    for &x in order {
        if mass + p[x] <= room {
            q[x] = hi;
            mass += p[x];
        } else {
            q[x] = lo + (hi - lo) * (room - mass) / p[x];
            break;
        }
    }
    q
}

/// Sampled rays ([`sampled_rays`]) weighted with `block` (a mechanism of
/// few outputs that meets the notion, kept whole) by the restricted problem,
/// then rounds of [`priced_round`] while `stop` allows and each lowers the
/// error; `None` where the rows cannot be made to sum to 1 or the error stays
/// above `block`'s. `stop` is asked between Newton steps.
pub(crate) fn sampled_start(
    block: &Mechanism,
    p: ArrayView1<f64>,
    (levels, cone): ((f64, f64), &ColumnCone),
    stop: &dyn Fn() -> bool,
) -> Option<Mechanism> {
    let n = SAMPLED_RAYS_PER_INPUT * p.len();
    let rays = sampled_rays(p, levels, n);
    let mut pool = Pool::start(block.clone(), p);
    let f = pool.f();
    // Each ray has mass 1: together they take the share.
    pool.add_columns(rays.into_iter().map(|q| q / n as f64), SHARE);
    pool.solve(f, PRECISION * f, stop);
    if !pool.restore_sums() || pool.f() >= f {
        return None;
    }
    while !stop() {
        match priced_round(&pool, cone, stop) {
            Some(next) if next.f() < pool.f() => pool = next,
            _ => break,
        }
    }
    pool.mechanism().ok()
}

/// One round of column generation on the restricted problem: up to
/// [`ENTERING`] rays of positive reduced cost `v^T J^-2 v - lambda . v` under
/// the pool's multipliers ([`Pool::multipliers`]), found by the quadratic
/// pricing's ascent, enter with a [`ROUND_SHARE`] of the weight, and one
/// centring pass ([`Pool::centre`]) at the precision [`PRECISION`] of f
/// weights them; `None` where none enters or the rows cannot be made to sum
/// to 1.
fn priced_round(pool: &Pool, cone: &ColumnCone, stop: &dyn Fn() -> bool) -> Option<Pool> {
    let inv = inverse_fisher(&pool.fisher())?;
    let c = inv.dot(&inv);
    let lambda = pool.multipliers(&c)?;
    let p = pool.p();
    // A loose gap: the ascent's rays are what the round needs, not a proof.
    let oracle = QuadraticRays::new(cone, p.view(), &c, 1.0)?;
    let f = pool.f();
    let control = PassControl {
        effort: ROUND_EFFORT,
        ..Default::default()
    };
    let entering = oracle
        .price_with(&lambda, ENTERS * f, ENTERING, &control)
        .entering;
    if entering.is_empty() {
        return None;
    }
    let count = entering.len() as f64;
    let mut next = pool.clone();
    // Each ray with mass 1 / count: together they take the share.
    let rays = entering
        .into_iter()
        .map(|(_, col)| &col.vector / (p.dot(&col.vector) * count));
    next.add_columns(rays, ROUND_SHARE);
    // Where this small move cannot restore the sums, the Newton steps do
    // (their infeasible start); the last check below decides.
    next.restore_sums();
    next.centre(PRECISION * f, PRECISION * f, stop);
    next.restore_sums().then_some(next)
}
