//! Large eps-PML designs for a known prior assembled from designs of blocks
//! (docs/theory.md §4e): the inputs are dealt into K blocks, each block's
//! mechanism is designed for its own normalised prior at the same eps, and the
//! K mechanisms are coupled through their output distributions. The result has
//! every block's densities (so it is eps-PML when they are) and f-information
//! `sum_j m_j I_j`, `m_j` the blocks' masses (the densities are kept, so each
//! block's terms are its own): when every block reaches the a-priori bound
//! (eps for mutual information, `e^eps - 1` for chi-square, docs/theory.md
//! §4d), so does the whole, and it is certified against that bound without a
//! pass over N inputs.

use crate::colgen::engine::Progress;
use crate::design::optimum::Optimum;
use crate::error::Result;
use crate::objective::utility::Utility;
use crate::settings::Settings;
use crate::solution::route::Route;
use ndarray::Array2;
use pmldesign_model::{ColumnCone, DensityRange, Mechanism, Notion, Prior, UncertaintySet};
use rayon::prelude::*;

/// Inputs per block, about: blocks of this size are proven optimal in a few
/// seconds (docs/theory.md §4e).
const BLOCK: usize = 256;
/// Blocks designed at once.
const PAIR: usize = 2;
/// Designs over more inputs than this are tried by blocks first.
pub(crate) const BLOCKS_ABOVE: usize = 384;

/// The design by blocks of an eps-PML design over `set` (a known prior, or the
/// l1 ball under \[E\] Prop 2 through its center, [`known_level`]) with a-priori
/// bound `a_priori`: each block has its share of the time limit; without one,
/// every block must reach the bound within the gap tolerance (`None`: some
/// block did not, Ctrl-C, or the route does not apply), and with one the
/// blocks' designs at the limit are coupled (not converged unless all reached it).
/// After each pair, `progress` has the pairs done, the information the blocks
/// done guarantee (at least `floor`, a baseline's) and the a-priori bound.
pub(crate) fn by_blocks(
    cone: &ColumnCone,
    utility: &dyn Utility,
    (a_priori, floor): (f64, f64),
    settings: &Settings,
    progress: &mut dyn FnMut(Progress),
) -> Result<Option<Optimum>> {
    let Some((prior, epsilon)) = known_level(cone) else {
        return Ok(None);
    };
    let n = prior.len();
    // Blocks at the level reach at most the utility's bound there (eps for
    // mutual information, e^eps - 1 for chi-square, ...): no use where the
    // whole's bound lies above.
    let at_level = utility
        .bound_on_density(DensityRange::Levels {
            lower: None,
            upper: epsilon,
        })
        .unwrap_or(f64::INFINITY);
    let reachable = a_priori <= at_level + crate::tolerance::gap_allowance(1e-12, at_level);
    if n <= BLOCKS_ABOVE || !a_priori.is_finite() || epsilon <= 0.0 || !reachable {
        return Ok(None);
    }
    let notion = &Notion::Pml { epsilon };
    let owned = prior.masses();
    let masses = owned.as_slice().expect("contiguous");
    let blocks = dealt(masses, n.div_ceil(BLOCK));
    if !fine_enough(masses, &blocks, (-epsilon).exp()) {
        return Ok(None);
    }
    // Two blocks at a time: their masters are serial, so two share the cores.
    let mut share = settings.with_time_share(PAIR as f64 / blocks.len() as f64);
    // The whole's seeds are over N inputs; each block seeds from its own baselines.
    share.column_generation.seeds.clear();
    let gap = settings.column_generation.gap_tolerance;
    let timed = settings.column_generation.time_limit.is_some();
    let mut converged = true;
    let mut designs = Vec::with_capacity(blocks.len());
    // The blocks done, coupled with constants for the rest, hold `sum m_j I_j`.
    let mut held = 0.0;
    for (pairs, pair) in blocks.chunks(PAIR).enumerate() {
        let done: Vec<(f64, Prior, f64, Mechanism)> = pair
            .par_iter()
            .map(|block| {
                let (mass, inner) = block_prior(prior, block)?;
                let set = UncertaintySet::known(inner.clone());
                let d = crate::design::utility::design_notion_with_progress(
                    &set,
                    notion,
                    utility,
                    &share,
                    &mut |_: Progress| {},
                )?;
                Ok((mass, inner, d.utility_value, d.mechanism))
            })
            .collect::<Result<_>>()?;
        for (mass, inner, value, mechanism) in done {
            let within = value >= a_priori - crate::tolerance::gap_allowance(gap, a_priori);
            // Without a time limit only a design proven optimal will do (else
            // the whole is designed directly); with one, the blocks' best by then.
            if (!within && !timed) || settings.column_generation.interrupt.is_set() {
                return Ok(None);
            }
            converged &= within;
            held += mass * value;
            designs.push((mass, inner, mechanism));
        }
        progress(Progress {
            iterations: pairs + 1,
            lower_bound: held.max(floor),
            upper_bound: a_priori,
            rays_priced: 0,
        });
    }
    let mechanism = coupled(n, &blocks, &designs)?;
    Ok(Some(Optimum {
        mechanism,
        upper_bound: a_priori,
        dual: None,
        rays: None,
        pricing: Route::Blocks,
        iterations: 0,
        rays_priced: 0,
        converged,
        repaired: true,
    }))
}

/// The prior and the level of the known-prior PML cone whose designs lie in
/// `cone`: the prior at eps, and for the l1 ball under \[E\] Prop 2 its center
/// at `eps' = ln e'` (a column whose densities at the center stay within `e'`
/// meets the ball's cone; docs/theory.md §4e). The design is re-measured over
/// the whole set all the same.
fn known_level(cone: &ColumnCone) -> Option<(&Prior, f64)> {
    match cone {
        ColumnCone::PmlKnownPrior { prior, epsilon } => Some((prior, *epsilon)),
        ColumnCone::PmlL1Ball { center, .. } if cone.is_proposition_2() => {
            Some((center, cone.effective_exp_epsilon().ln()))
        }
        _ => None,
    }
}

/// Whether every input is small within its block beside the sets' mass
/// `t = e^-eps` (at most t / 4): sets of exact mass then exist in numbers. An
/// input heavier than t cannot reach density e^eps at all (`e^eps p_x > 1`), so
/// its block could not reach eps, and would only delay the direct route.
fn fine_enough(p: &[f64], blocks: &[Vec<usize>], t: f64) -> bool {
    blocks.iter().all(|b| {
        let mass: f64 = b.iter().map(|&x| p[x]).sum();
        b.iter().all(|&x| p[x] <= t / 4.0 * mass)
    })
}

/// The inputs dealt into k blocks by decreasing mass, round robin, so that
/// every block holds large and small masses alike (in input order within each).
fn dealt(p: &[f64], k: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..p.len()).collect();
    order.sort_by(|&a, &b| p[b].total_cmp(&p[a]).then(a.cmp(&b)));
    let mut blocks = vec![Vec::new(); k];
    for (i, x) in order.into_iter().enumerate() {
        blocks[i % k].push(x);
    }
    for b in &mut blocks {
        b.sort_unstable();
    }
    blocks
}

/// A block's mass and its prior normalised to 1.
pub fn block_prior(prior: &Prior, block: &[usize]) -> Result<(f64, Prior)> {
    let p = prior.masses();
    let mass: f64 = block.iter().map(|&x| p[x]).sum();
    let inner = Prior::new(block.iter().map(|&x| p[x] / mass).collect::<Vec<_>>())?;
    Ok((mass, inner))
}

/// The blocks' mechanisms coupled through their output distributions: each
/// block's outputs laid on [0, 1) by their probabilities under its prior, one
/// output per piece of the common refinement, `W[x][k] = len_k W_j[x][y_j] /
/// q_j(y_j)` for x in block j, whose output piece k falls in `y_j`.
pub fn coupled(
    n: usize,
    blocks: &[Vec<usize>],
    designs: &[(f64, Prior, Mechanism)],
) -> Result<Mechanism> {
    let marginals: Vec<ndarray::Array1<f64>> = designs
        .iter()
        .map(|(_, r, m)| m.output_marginal(r))
        .collect();
    let cuts: Vec<Vec<f64>> = marginals
        .iter()
        .map(|q| {
            let mut acc = 0.0;
            q.iter()
                .map(|v| {
                    acc += v;
                    acc
                })
                .collect()
        })
        .collect();
    let mut points: Vec<f64> = cuts
        .iter()
        .flatten()
        .copied()
        .filter(|&c| c < 1.0)
        .collect();
    points.push(0.0);
    points.push(1.0);
    points.sort_by(f64::total_cmp);
    points.dedup();
    let pieces: Vec<(f64, f64)> = points
        .windows(2)
        .filter(|w| w[1] > w[0])
        .map(|w| (w[1] - w[0], 0.5 * (w[0] + w[1])))
        .collect();
    let mut w = Array2::zeros((n, pieces.len()));
    let each = blocks.iter().zip(designs).zip(cuts.iter().zip(&marginals));
    for ((block, (_, _, m)), (cut, q)) in each {
        let matrix = m.matrix();
        for (k, &(len, mid)) in pieces.iter().enumerate() {
            let y = cut.partition_point(|&c| c <= mid).min(q.len() - 1);
            for (i, &x) in block.iter().enumerate() {
                w[[x, k]] = len * matrix[[i, y]] / q[y];
            }
        }
    }
    for mut row in w.rows_mut() {
        let s = row.sum();
        row.mapv_inplace(|v| v / s);
    }
    Ok(Mechanism::new(w)?)
}
