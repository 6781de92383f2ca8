//! A start for designs for estimation past enumeration under eps-PML, eps-LIP
//! and ALIP of a known prior (docs/theory.md §13, "A start from sampled
//! rays"). The baselines' start, k-subset selection or its cyclic design,
//! suits a uniform prior; under a skewed one the optimum mixes many subsets
//! (under eps-PML, of prior mass `e^-eps`), which Frank-Wolfe's steps between
//! whole LP solutions reach slowly. Here random rays at the notion's two
//! density levels are weighted, with randomized response, by the restricted
//! problem of [`crate::design::simplicial`].

use crate::design::simplicial::Pool;
use chacha20::ChaCha8Rng;
use ndarray::{Array1, ArrayView1};
use pmldesign_model::Mechanism;
use rand::{Rng, SeedableRng};

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
const PRECISION: f64 = 1e-4;

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
            // Fisher-Yates on the stream's words: the same order on every platform.
            for i in (1..k).rev() {
                let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                order.swap(i, j);
            }
            fill(p, levels, &order)
        })
        .collect()
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
/// few outputs that meets the notion, kept whole) by the restricted problem;
/// `None` where the rows cannot be made to sum to 1 or the error stays above
/// `block`'s. `stop` is asked between Newton steps.
pub(crate) fn sampled_start(
    block: &Mechanism,
    p: ArrayView1<f64>,
    levels: (f64, f64),
    stop: &dyn Fn() -> bool,
) -> Option<Mechanism> {
    let k = p.len();
    let n = SAMPLED_RAYS_PER_INPUT * k;
    let rays = sampled_rays(p, levels, n);
    let mut pool = Pool::start(block.clone(), p);
    let f = pool.f();
    // Each ray has mass 1: together they take the share.
    pool.add_columns(rays.into_iter().map(|q| q / n as f64), SHARE);
    pool.solve(f, PRECISION * f, stop);
    if !pool.restore_sums() || pool.f() >= f {
        return None;
    }
    pool.mechanism().ok()
}
