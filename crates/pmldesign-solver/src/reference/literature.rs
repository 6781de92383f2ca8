//! The literature's estimation mechanisms as the design's notion allows them
//! (docs/theory.md §13): k-subset selection, optimised unary encoding and
//! Hadamard response, calibrated where a closed calibration exists:
//!
//! - eps-LDP: boost `a = e^eps - 1` (all three are eps-LDP there);
//! - eps-PMC, eps-LIP and ALIP for a known prior of full support: k-subset
//!   selection only, at the boost that keeps the density of an input outside
//!   the largest released set at least `-eps_l` and, with an upper level, that
//!   of an input inside the smallest at most `eps_u` ([`Level::boost_range`]);
//! - eps-PML for a known prior or an l1 ball of radius beta: an output S of
//!   any of them leaks `ln((1 + a) / (1 + a Q(S)))`, largest at the smallest mass a
//!   prior Q of the set gives a released set (the d smallest masses less
//!   `beta / 2`, at least 0), so `a = (e^eps - 1) / (1 - e^eps m)` where
//!   `e^eps m < 1`, with m that smallest mass (subsets of size d for k-subset
//!   selection, a single input for OUE, whose empty output leaks nothing, the
//!   inputs whose high set holds an output for Hadamard response).

use crate::limits::MAX_ALPHABET;
use crate::reference::pair_balance;
use ndarray::ArrayView1;
use pmldesign_model::frequency::{
    balanced_base_blocks, hadamard_mass_range, hadamard_response, subset_error_uniform,
    weighted_cyclic_subsets,
};
use pmldesign_model::{Mechanism, Notion, UncertaintySet};

/// Outputs past which k-subset selection is not written out as a mechanism.
pub const SUBSET_OUTPUTS_UP_TO: usize = 2048;

/// The subset size of least error under the uniform prior at the boost the
/// notion allows for that size (the general prior's error is computed once,
/// at that size).
pub(crate) fn best_size(sorted: &[f64], level: &Level) -> Option<(usize, f64)> {
    let k = sorted.len();
    let (mut smallest, mut largest) = (0.0, 0.0);
    let mut best: Option<(usize, f64, f64)> = None;
    for size in 1..k {
        smallest += sorted[size - 1];
        largest += sorted[k - size];
        let Some(a) = level.boost_range(smallest, largest) else {
            continue;
        };
        let e = subset_error_uniform(k, size, a);
        if best.is_none_or(|(_, _, b)| e < b) {
            best = Some((size, a, e));
        }
    }
    best.map(|(size, a, _)| (size, a))
}

/// What the design's notion allows an output of smallest released mass m.
pub enum Level {
    /// eps-LDP: `e^eps - 1`, whatever m.
    Ldp(f64),
    /// eps-PML over priors that may take `shift` from a released set's mass.
    Pml {
        /// The level eps.
        epsilon: f64,
        /// The mass a prior of the set may take from a released set's.
        shift: f64,
    },
    /// eps-PMC, eps-LIP and ALIP for a known prior of full support: the
    /// information density within `[-lower, upper]` (no upper level for PMC).
    Density {
        /// The density's lower end is `-lower`.
        lower: f64,
        /// The density's upper end (`None`: none).
        upper: Option<f64>,
    },
}

impl Level {
    /// The level of `notion` over `set` (`None`: a notion and set the
    /// literature's mechanisms are not calibrated to here).
    pub fn of(notion: &Notion, set: &UncertaintySet) -> Option<Self> {
        match (notion, set) {
            (Notion::Ldp { epsilon }, _) => Some(Level::Ldp(*epsilon)),
            (Notion::Pml { epsilon }, UncertaintySet::Known { .. }) => Some(Level::Pml {
                epsilon: *epsilon,
                shift: 0.0,
            }),
            (Notion::Pml { epsilon }, UncertaintySet::L1Ball { beta, .. }) => Some(Level::Pml {
                epsilon: *epsilon,
                shift: beta / 2.0,
            }),
            (
                Notion::Pmc { .. } | Notion::Lip { .. } | Notion::Alip { .. },
                UncertaintySet::Known { .. },
            ) if set.reference().iter().all(|&m| m > 0.0) => Some(Level::Density {
                lower: notion.lower()?,
                upper: notion.upper(),
            }),
            _ => None,
        }
    }

    /// The boost at which every output whose released set has mass between
    /// `smallest` and `largest` meets the level: [`Level::boost`] at the
    /// smallest under PML and LDP. Under a density notion an input of a set of
    /// mass m has density `ln((1 + a) / (1 + a m))`, at most `eps_u` for every
    /// such set where `a <= (e^eps_u - 1) / (1 - e^eps_u smallest)`, and an
    /// input outside it `-ln(1 + a m)`, at least `-eps_l` where
    /// `a <= (e^eps_l - 1) / largest`.
    pub fn boost_range(&self, smallest: f64, largest: f64) -> Option<f64> {
        let Level::Density { lower, upper } = *self else {
            return self.boost(smallest);
        };
        let above = upper.map_or(f64::INFINITY, |u| {
            let room = 1.0 - u.exp() * smallest;
            if room <= 0.0 {
                f64::INFINITY
            } else {
                u.exp_m1() / room
            }
        });
        let a = (lower.exp_m1() / largest).min(above);
        (a.is_finite() && a > 0.0).then_some(a)
    }

    /// The boost `a` at which an output whose released set has mass `m`
    /// under the reference prior meets the level; `None` where none is finite
    /// or where the level allows no boost, and under a density notion, whose
    /// lower level binds at the largest mass of a released set
    /// ([`Level::boost_range`]).
    pub fn boost(&self, m: f64) -> Option<f64> {
        let a = match *self {
            Level::Density { .. } => return None,
            Level::Ldp(epsilon) => epsilon.exp_m1(),
            Level::Pml { epsilon, shift } => {
                let worst = (m - shift).max(0.0);
                let room = 1.0 - epsilon.exp() * worst;
                if room <= 0.0 {
                    return None;
                }
                epsilon.exp_m1() / room
            }
        };
        (a.is_finite() && a > 0.0).then_some(a)
    }
}

/// k-subset selection written out, `W(S|x) = (1 + a [x in S]) / Z`, where its
/// `C(k, size)` outputs are at most [`SUBSET_OUTPUTS_UP_TO`].
pub fn subset_mechanism(k: usize, size: usize, a: f64) -> Option<Mechanism> {
    let mut sets: Vec<Vec<usize>> = vec![Vec::new()];
    for x in 0..k {
        let mut next = Vec::new();
        for s in sets {
            if s.len() < size {
                let mut with = s.clone();
                with.push(x);
                next.push(with);
            }
            if s.len() + (k - x) > size {
                next.push(s);
            }
            if next.len() > SUBSET_OUTPUTS_UP_TO {
                return None;
            }
        }
        sets = next;
    }
    let z = sets.len() as f64 * (1.0 + a * size as f64 / k as f64);
    let rows = (0..k)
        .map(|x| {
            let row = sets
                .iter()
                .map(|s| (1.0 + a * f64::from(u8::from(s.contains(&x)))) / z);
            row.collect()
        })
        .collect();
    Mechanism::from_rows(rows).ok()
}

/// Hadamard response over the masses `p` at the boost `level` allows its
/// binding output (the least mass of an output's input set), for 2 to
/// [`MAX_ALPHABET`] inputs; under a density notion (PMC, LIP, ALIP) at the
/// boost its two levels allow over the outputs' input sets
/// ([`Level::boost_range`]: the least mass binds the upper level, the largest
/// mass of a set that leaves an input out the lower one). Under eps-PML, where
/// every such mass is at least `e^-eps` (less the ball's shift), every boost
/// meets the level and the response is its limit, each input's high set
/// uniformly; `None` where the level allows no boost.
pub fn hadamard(p: ArrayView1<f64>, level: &Level) -> Option<Mechanism> {
    if !(2..=MAX_ALPHABET).contains(&p.len()) {
        return None;
    }
    let (least, largest) = hadamard_mass_range(p)?;
    let a = match (level.boost_range(least, largest), level) {
        (Some(a), _) => a,
        (None, Level::Pml { epsilon, shift }) if epsilon.exp() * (least - shift) >= 1.0 => {
            f64::INFINITY
        }
        (None, _) => return None,
    };
    hadamard_response(p.len(), a).ok()
}

/// The cyclic subset design at k-subset selection's best size and boost for
/// `level`, for 3 to [`MAX_ALPHABET`] inputs; `None` where no boost is
/// finite. Its orbits are picked and weighted from up to twice as many
/// candidate base blocks as an LP vertex uses (`k / 2 + 1`) so that every pair
/// of inputs shares the same weight of blocks where the LP finds such weights
/// (`pair_balance`): under the uniform prior its error is then k-subset
/// selection's figure. Where `k / 2 + 1` orbits fit in
/// [`crate::limits::MAX_OUTPUTS`] (k up to 180) the candidates fill it; past
/// that they fill 4,096 outputs, which keep the design's steps affordable.
pub fn cyclic_design(p: ArrayView1<f64>, level: &Level) -> Option<Mechanism> {
    let k = p.len();
    if !(3..=MAX_ALPHABET).contains(&k) {
        return None;
    }
    let mut sorted = p.to_vec();
    sorted.sort_by(f64::total_cmp);
    let (size, a) = best_size(&sorted, level)?;
    let exact = (k / 2 + 1) * k <= crate::limits::MAX_OUTPUTS;
    let budget = match exact {
        true => crate::limits::MAX_OUTPUTS,
        false => crate::limits::MAX_ALPHABET,
    };
    let candidates = (budget / k).clamp(1, 2 * (k / 2 + 1));
    let blocks = balanced_base_blocks(k, size, candidates);
    let weights = pair_balance::even_weights(k, &blocks)
        .unwrap_or_else(|| vec![1.0 / candidates as f64; candidates]);
    weighted_cyclic_subsets(k, a, &blocks, &weights).ok()
}

/// Randomized response toward the prior, `a 1 p^T + (1 - a) I` with `a =
/// e^-eps` at the PMC level `eps` (`p` scaled to sum to 1): the least error
/// for estimation under eps-PMC (docs/theory.md §13, "PMC's floor"), for 2
/// to [`MAX_ALPHABET`] inputs of positive mass (its error has a closed form
/// at every size); `None` otherwise.
pub fn toward_prior(p: ArrayView1<f64>, pmc_level: f64) -> Option<Mechanism> {
    let (k, a) = (p.len(), (-pmc_level).exp());
    if !(2..=MAX_ALPHABET).contains(&k) || p.iter().any(|&x| x <= 0.0) {
        return None;
    }
    // The masses as they sum (within the prior's tolerance of 1), so that the
    // rows sum to 1 to rounding.
    let total = p.sum();
    let w = ndarray::Array2::from_shape_fn((k, k), |(x, y)| {
        a * (p[y] / total) + if x == y { 1.0 - a } else { 0.0 }
    });
    Mechanism::new(w).ok()
}

/// Hadamard response's name in tables, with its outputs K.
pub(crate) fn hadamard_label(m: &Mechanism) -> String {
    format!("{HADAMARD}, K = {}", m.outputs())
}

/// How Hadamard response's table row begins.
pub const HADAMARD: &str = "Hadamard response";
