//! Structured mechanisms from the literature, per notion (docs/theory.md §5b):
//! balanced partitions of the inputs (deterministic for PML, K-group randomized
//! response for LDP, their analogues for PMC, ALIP and LIP), contiguous
//! partitions (ordered losses), cyclic covers (fractional covers by arcs of
//! mass about `e^-eps` for PML, cyclic k-subset selection for LDP) and the
//! region-1 closed form. Each is calibrated to the notion ([`calibrate`]),
//! re-measured over the whole set, scored, and the best of each family kept:
//! the baselines every design is compared with and starts from.

mod calibrate;
pub(crate) mod cover;
pub(crate) mod partition;

use crate::reference::closed_form::high_privacy;
use crate::reference::guesses::{Guessed, Guesser};
use calibrate::{headline, largest_weight, mixed};
use ndarray::{Array1, Array2};
use pmldesign_model::measures::NotionLevels;
use pmldesign_model::{Mechanism, Notion, UncertaintySet};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// A family of structured mechanisms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Family {
    /// K groups of balanced reference mass (LPT), the group released.
    BalancedPartition,
    /// K groups contiguous in the inputs' order (ordered losses).
    ContiguousPartition,
    /// L arcs of a circle laid out by the reference masses.
    MassCover,
    /// L = N arcs of k consecutive inputs (cyclic k-subsets).
    SubsetCover,
    /// L groups of balanced mass, arcs of k consecutive groups.
    GroupCover,
    /// The high-privacy closed form of region 1 (\[V\] Sec. V-A).
    HighPrivacy,
    /// One output (a loss's best constant guess).
    ConstantGuess,
}

impl Family {
    /// A short description for tables.
    pub fn describe(&self) -> &'static str {
        match self {
            Family::BalancedPartition => "balanced partition",
            Family::ContiguousPartition => "contiguous partition",
            Family::MassCover => "cover by mass",
            Family::SubsetCover => "cyclic k-subsets",
            Family::GroupCover => "cover by groups",
            Family::HighPrivacy => "region-1 closed form",
            Family::ConstantGuess => "best constant guess",
        }
    }
}

/// One structured mechanism, calibrated to the design's notion and re-measured.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StructuredBaseline {
    /// Its family.
    pub family: Family,
    /// Groups (partitions) or arcs (covers) before decoding; N for region 1.
    pub groups: usize,
    /// Arc length in units of `1/groups` (covers), else 0.
    pub arc: usize,
    /// Weight t on the structure, the rest uniform over its outputs (1: pure).
    pub mix: f64,
    /// The notion's headline level re-measured over the whole set.
    pub level: f64,
    /// Its worst-case PML over the set (the tables' common column).
    pub worst_case_pml: f64,
    /// Its objective (a utility, or minus an expected loss).
    pub utility: f64,
    /// The matrix (for a loss, outputs decoded to guesses). Written to a design
    /// file only up to 65,536 entries, N K (a cover at N = 2048 has N^2:
    /// 97 MB of JSON); a reader re-derives it all the same, and after reading a
    /// file that left it out holds the placeholder ([`StructuredBaseline::has_matrix`]).
    /// A loss baseline past 2^20 entries (N > 1024) holds the placeholder too
    /// ([`StructuredBaseline::released`] builds it).
    #[serde(skip_serializing_if = "too_large_to_state", default = "unread_matrix")]
    pub mechanism: Mechanism,
    /// A loss baseline's outputs merged by their guess (what is scored and
    /// measured), from which its N x N release is built.
    #[serde(skip)]
    guessed: Option<Guessed>,
}

/// Most entries (N^2) of a loss baseline's release held in memory: 8 MB at
/// N = 1024; past it, seven families at N = 4096 held 940 MB.
pub(crate) const MATERIALISED_ENTRIES: usize = 1 << 20;

/// Most entries of a baseline's matrix a design file states (N K).
pub(crate) const STATED_ENTRIES: usize = 1 << 16;

fn too_large_to_state(m: &Mechanism) -> bool {
    m.inputs() * m.outputs() > STATED_ENTRIES
}

/// The inputs of the placeholder for a matrix a file left out (a baseline's,
/// randomized response's): a 1 x 1 identity, as no design has one input.
pub(crate) const UNREAD_INPUTS: usize = 1;

/// The placeholder for a matrix a file left out.
pub(crate) fn unread_matrix() -> Mechanism {
    Mechanism::identity(UNREAD_INPUTS)
}

/// Whether `m` is [`unread_matrix`]'s placeholder, not a matrix read or built.
pub(crate) fn is_unread(m: &Mechanism) -> bool {
    m.inputs() == UNREAD_INPUTS
}

/// How a candidate is scored and what is released.
pub(crate) struct Scorer<'a> {
    /// The objective of a mechanism (a utility; a loss scores by `loss`).
    pub(crate) value: &'a (dyn Fn(&Mechanism) -> f64 + Sync),
    /// For a loss, how a candidate's outputs are merged by their best guess
    /// (post-processing keeps the notion) and that release's expected loss;
    /// a loss also tries contiguous partitions (ordered losses) and K = 1
    /// (the best constant guess).
    pub(crate) loss: Option<&'a Guesser<'a>>,
}

/// The best structured mechanism of each family for `notion` over `set`, in
/// the order of [`Family`]; families with nothing better than a constant are
/// left out, except the constant guess of a loss.
///
/// The candidates are built and scored in parallel and reduced in their
/// enumeration order, so the result is the same at every thread count: per
/// family, the candidate of highest objective (the first among equals) that
/// meets the notion when re-measured over the whole set.
pub(crate) fn structured_baselines(
    set: &UncertaintySet,
    notion: &Notion,
    scorer: &Scorer,
) -> Vec<StructuredBaseline> {
    let n = set.len();
    if n < 2 || matches!(notion, Notion::Metric { .. }) {
        return Vec::new();
    }
    let reference = set.reference();
    let lpt = partition::Balanced::new(reference.view());
    let problem = Problem(set, notion, scorer);
    let jobs = candidate_jobs(&problem, &reference, &lpt);
    let found: Vec<StructuredBaseline> = jobs.into_par_iter().filter_map(|job| job()).collect();
    let mut best: Vec<StructuredBaseline> = Vec::new();
    for family in FAMILIES {
        let mut of: Vec<&StructuredBaseline> =
            found.iter().filter(|c| c.family == family).collect();
        // Stable: the first of equal objectives stays first.
        of.sort_by(|a, b| b.utility.total_cmp(&a.utility));
        if let Some(c) = of
            .into_iter()
            .find_map(|c| certified(c.clone(), set, notion))
        {
            best.push(materialised(c));
        }
    }
    best
}

/// Every family, in the order baselines are listed.
const FAMILIES: [Family; 7] = [
    Family::BalancedPartition,
    Family::ContiguousPartition,
    Family::MassCover,
    Family::SubsetCover,
    Family::GroupCover,
    Family::HighPrivacy,
    Family::ConstantGuess,
];

/// What every candidate is built for: the set, the notion and the scoring.
#[derive(Clone, Copy)]
struct Problem<'s>(&'s UncertaintySet, &'s Notion, &'s Scorer<'s>);

/// One candidate to build and score (`None` when it does not apply).
type Job<'s> = Box<dyn Fn() -> Option<StructuredBaseline> + Send + Sync + 's>;

/// The candidates of every family, in enumeration order: balanced (and for a
/// loss contiguous) partitions for each K, covers by mass or cyclic k-subsets
/// for each arc length, covers by balanced groups, and region 1.
fn candidate_jobs<'s>(c: &Problem<'s>, r: &Array1<f64>, lpt: &partition::Balanced) -> Vec<Job<'s>> {
    let mut jobs = partition_jobs(c, r, lpt);
    jobs.extend(cover_jobs(c, r, lpt));
    let Problem(set, notion, scorer) = *c;
    let n = set.len();
    if let (UncertaintySet::Known { prior, .. }, Notion::Pml { epsilon }) = (set, notion) {
        jobs.push(Box::new(move || {
            let m = high_privacy(prior, *epsilon).ok()?;
            scored(Family::HighPrivacy, (n, 0, 1.0), m, scorer)
        }));
    }
    jobs
}

/// Balanced partitions for each K (for a loss also contiguous ones, and K = 1).
fn partition_jobs<'s>(c: &Problem<'s>, r: &Array1<f64>, lpt: &partition::Balanced) -> Vec<Job<'s>> {
    let Problem(set, notion, scorer) = *c;
    let n = set.len();
    let mut jobs: Vec<Job<'s>> = Vec::new();
    let ks = group_counts(n, notion, scorer.loss.is_some());
    for &k in ks.iter().filter(|&&k| affordable(scorer, n, k)) {
        let family = match k {
            1 => Family::ConstantGuess,
            _ => Family::BalancedPartition,
        };
        let shape = partition::shape(&lpt.groups(k), k);
        jobs.push(Box::new(move || {
            candidate(family, &shape, 0, set, notion, scorer)
        }));
        if scorer.loss.is_some() && k > 1 {
            let g = partition::contiguous(r.view(), k);
            let shape = partition::shape(&g, k);
            let family = Family::ContiguousPartition;
            jobs.push(Box::new(move || {
                candidate(family, &shape, 0, set, notion, scorer)
            }));
        }
    }
    jobs
}

/// Covers by mass or cyclic k-subsets for each arc length, then covers by
/// balanced groups.
fn cover_jobs<'s>(c: &Problem<'s>, r: &Array1<f64>, lpt: &partition::Balanced) -> Vec<Job<'s>> {
    let Problem(set, notion, scorer) = *c;
    let n = set.len();
    let mut jobs: Vec<Job<'s>> = Vec::new();
    for (family, masses, l) in circles(n, notion, r) {
        if !affordable(scorer, n, l) {
            continue;
        }
        let ks = arc_lengths(l, notion);
        for &k in &ks {
            let masses = masses.clone();
            jobs.push(Box::new(move || {
                let shape = cover::cover(masses.view(), l, k);
                candidate(family, &shape, k, set, notion, scorer)
            }));
        }
        if family == Family::MassCover && notion.lower().is_none() {
            // The shortest pure arc, found by bisection inside its job.
            let from = ((-notion.epsilon()).exp() * l as f64).floor() as usize;
            jobs.push(Box::new(move || {
                let shape = |k: usize| cover::cover(masses.view(), l, k);
                let k = smallest_pure(l, from.max(1), set, notion, &shape)?;
                if ks.contains(&k) {
                    return None;
                }
                candidate(family, &shape(k), k, set, notion, scorer)
            }));
        }
    }
    for (l, k, group) in group_covers(n, notion, r, lpt) {
        let first = group.clone();
        jobs.push(Box::new(move || {
            let shape = cover::group_cover(&first, l, k);
            candidate(Family::GroupCover, &shape, k, set, notion, scorer)
        }));
        if !matches!(set, UncertaintySet::Known { .. }) && notion.lower().is_none() {
            jobs.push(Box::new(move || {
                let shape = |k: usize| cover::group_cover(&group, l, k);
                let k = smallest_pure(l, k, set, notion, &shape)?;
                candidate(Family::GroupCover, &shape(k), k, set, notion, scorer)
            }));
        }
    }
    jobs
}

/// Whether a loss's guesses for K outputs (`K N^2` operations) fit the
/// baselines' budget; every utility candidate does.
fn affordable(scorer: &Scorer, n: usize, k: usize) -> bool {
    scorer.loss.is_none() || (k * n * n) as f64 <= 2e8
}

/// The shortest arc (`k` of L, more than `from - 1`) whose pure cover
/// `shape(k)` meets the notion over the set, by bisection (the worst-case mass
/// of an arc grows with k), if one shorter than the whole circle does.
fn smallest_pure(
    l: usize,
    from: usize,
    set: &UncertaintySet,
    notion: &Notion,
    shape: &dyn Fn(usize) -> Array2<f64>,
) -> Option<usize> {
    let pure = |k: usize| largest_weight(&shape(k), set, notion) == Some(1.0);
    let (mut lo, mut hi) = (from.saturating_sub(1), l - 1);
    if hi == 0 || lo >= hi || !pure(hi) {
        return None;
    }
    // Invariant: `hi` is pure, `lo` is not (or 0).
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if pure(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

impl StructuredBaseline {
    /// Whether the matrix was read (or built), not the placeholder of a file
    /// that left it out.
    pub fn has_matrix(&self) -> bool {
        !is_unread(&self.mechanism)
    }

    /// The released matrix: [`StructuredBaseline::mechanism`], or for a loss
    /// baseline that holds the placeholder its N x N release, built
    /// (`None` for a baseline read from a file that left it out).
    pub fn released(&self) -> Option<Mechanism> {
        match (&self.guessed, self.has_matrix()) {
            (_, true) => Some(self.mechanism.clone()),
            (Some(g), false) => g.released(),
            (None, false) => None,
        }
    }

    /// The matrix its levels are measured on: a loss baseline's merged
    /// guesses (the release without its zero columns), else its matrix.
    fn measured(&self) -> &Mechanism {
        self.guessed
            .as_ref()
            .map_or(&self.mechanism, Guessed::merged)
    }

    /// A one-line name with its parameters, for tables.
    pub fn label(&self) -> String {
        let how = if self.mix < 1.0 { " + uniform" } else { "" };
        match self.family {
            Family::BalancedPartition | Family::ContiguousPartition => {
                format!("{}, K = {}{how}", self.family.describe(), self.groups)
            }
            Family::MassCover | Family::SubsetCover | Family::GroupCover => format!(
                "{}, {} of {} arcs{how}",
                self.family.describe(),
                self.arc,
                self.groups
            ),
            Family::HighPrivacy | Family::ConstantGuess => self.family.describe().to_string(),
        }
    }
}

/// The best of `baselines` if its objective beats a design's `u`: then the
/// design returns that baseline. By more than rounding (`1e-12 (1 + |u|)`)
/// where the search `converged` (its design, with at most N outputs, stays);
/// at all where a limit stopped it (a search stopped by the clock once kept a
/// mechanism 7e-14 below the best baseline, LDP at N = 2048).
pub fn beating(
    baselines: &[StructuredBaseline],
    u: f64,
    converged: bool,
) -> Option<&StructuredBaseline> {
    let rounding = if converged {
        1e-12 * (1.0 + u.abs())
    } else {
        0.0
    };
    baselines
        .iter()
        .max_by(|a, b| a.utility.total_cmp(&b.utility))
        .filter(|b| b.utility > u + rounding)
}

/// The shape calibrated to the notion and scored (not yet measured).
fn candidate(
    family: Family,
    shape: &Array2<f64>,
    arc: usize,
    set: &UncertaintySet,
    notion: &Notion,
    scorer: &Scorer,
) -> Option<StructuredBaseline> {
    let t = largest_weight(shape, set, notion)?;
    if t <= 0.0 && !(scorer.loss.is_some() && shape.ncols() == 1) {
        return None;
    }
    let m = mixed(shape, t)?;
    scored(family, (shape.ncols(), arc, t), m, scorer)
}

/// The released mechanism of `m` (`groups`, `arc`, `mix` its parameters) with
/// its objective; its levels are measured by [`certified`].
fn scored(
    family: Family,
    (groups, arc, mix): (usize, usize, f64),
    m: Mechanism,
    scorer: &Scorer,
) -> Option<StructuredBaseline> {
    let (mechanism, utility, guessed) = match scorer.loss {
        None => {
            let utility = (scorer.value)(&m);
            (m, utility, None)
        }
        Some(loss) => {
            let (g, expected_loss) = loss(&m)?;
            (unread_matrix(), -expected_loss, Some(g))
        }
    };
    Some(StructuredBaseline {
        family,
        groups,
        arc,
        mix,
        level: f64::NAN,
        worst_case_pml: f64::NAN,
        utility,
        mechanism,
        guessed,
    })
}

/// A loss baseline with its release built where it has at most
/// [`MATERIALISED_ENTRIES`] entries; any other as it is.
fn materialised(mut c: StructuredBaseline) -> StructuredBaseline {
    if let Some(g) = &c.guessed
        && g.merged().inputs().pow(2) <= MATERIALISED_ENTRIES
        && let Some(m) = g.released()
    {
        c.mechanism = m;
    }
    c
}

/// `c` with its levels re-measured over the whole set, if it meets the notion.
fn certified(
    mut c: StructuredBaseline,
    set: &UncertaintySet,
    notion: &Notion,
) -> Option<StructuredBaseline> {
    let levels = NotionLevels::measure_notion(c.measured(), set, notion);
    if levels.excess(notion) > 0.0 {
        return None;
    }
    (c.level, c.worst_case_pml) = (headline(&levels, notion), levels.pml);
    Some(c)
}

/// Group counts tried: every K up to 16, then by factors of 1.5, and those
/// around `e^eps` (where a deterministic PML partition stops fitting, and
/// where K-group randomized response is best for LDP); K = 1 for a loss.
fn group_counts(n: usize, notion: &Notion, ordered: bool) -> Vec<usize> {
    let mut ks: Vec<usize> = (2..=n.min(16)).collect();
    let mut k = 16.0_f64;
    while (k as usize) < n {
        k *= 1.5;
        ks.push((k as usize).min(n));
    }
    let around = notion.epsilon().exp().min(n as f64) as usize;
    ks.extend(around.saturating_sub(2)..=(around + 2).min(n));
    if ordered {
        ks.push(1);
    }
    ks.retain(|&k| k >= 1 && k <= n && (k >= 2 || ordered));
    ks.sort_unstable();
    ks.dedup();
    ks
}

/// Most arcs of a cover by mass: the rounding of `k/L` above `e^-eps` then
/// costs at most `ln(1 + e^eps / 256)` of information density, usually far less
/// (the best L of the range is taken), and the baseline's matrix stays N x 256.
const MAX_ARCS: usize = 256;

/// The circles covers are laid on, with their number of arcs: by the reference
/// masses for the prior-dependent notions (L among the three in `[2, min(max(N, 32), 256)]`
/// whose smallest feasible `k/L` lies closest above `e^-eps`), by `1/N` each
/// with `L = N` for LDP.
fn circles(
    n: usize,
    notion: &Notion,
    reference: &Array1<f64>,
) -> Vec<(Family, Array1<f64>, usize)> {
    if notion.is_prior_free() {
        return vec![(Family::SubsetCover, Array1::from_elem(n, 1.0 / n as f64), n)];
    }
    let t = (-notion.epsilon()).exp();
    let top = n.clamp(32, MAX_ARCS);
    let mut ls: Vec<(f64, usize)> = (2..=top)
        .map(|l| ((t * l as f64).ceil() / (t * l as f64), l))
        .collect();
    ls.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    ls.into_iter()
        .take(3)
        .map(|(_, l)| (Family::MassCover, reference.clone(), l))
        .collect()
}

/// Most groups of a cover by balanced groups: its information is `ln(L/k)`
/// when the groups balance, so more groups approximate `e^-eps` by `k/L`
/// more closely (N = 1024, eps = 0.9: 5e-4 below eps with 256 groups).
const MAX_GROUPS: usize = 1024;

/// The best three covers by balanced groups for the upper level (none for PMC
/// and the prior-free notions): for every L in `[2, min(N / 2, 1024)]`, LPT
/// groups of the reference, the shortest arc whose windows all reach
/// `e^-eps`, ranked by their information ([`cover::shortest_arc`]).
fn group_covers(
    n: usize,
    notion: &Notion,
    reference: &Array1<f64>,
    lpt: &partition::Balanced,
) -> Vec<(usize, usize, Vec<usize>)> {
    let Some(up) = notion.upper() else {
        return Vec::new();
    };
    let t = (-up).exp();
    let mut found: Vec<(f64, usize, usize, Vec<usize>)> = (2..=(n / 2).min(MAX_GROUPS))
        .into_par_iter()
        .filter_map(|l| {
            let group = lpt.groups(l);
            let mut g = vec![0.0; l];
            for (x, &h) in group.iter().enumerate() {
                g[h] += reference[x];
            }
            cover::shortest_arc(&g, t).map(|(k, info)| (info, l, k, group))
        })
        .collect();
    found.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    found.truncate(3);
    found.into_iter().map(|(_, l, k, g)| (l, k, g)).collect()
}

/// Arc lengths k tried on a circle of L arcs: about `L e^-eps` (and one
/// above, for sets wider than a prior) for the PML side; about
/// `L / (e^eps + 1)` (k-subset selection's best) for LDP and the lower levels.
fn arc_lengths(l: usize, notion: &Notion) -> Vec<usize> {
    let lf = l as f64;
    let e = notion.epsilon().exp();
    let mut ks = vec![
        (lf / e).ceil() as usize,
        (lf / e).ceil() as usize + 1,
        (lf / (e + 1.0)).round() as usize,
        (lf / (e + 1.0)).ceil() as usize,
    ];
    ks.retain(|&k| k >= 1 && k < l);
    ks.sort_unstable();
    ks.dedup();
    ks
}
