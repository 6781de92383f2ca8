//! Numerical limits (docs/theory.md §10): the valid inputs past which a design
//! in double precision cannot be certified to the tolerance of 1e-12, named
//! with the field, the value and a fix.
//!
//! A design whose certificate check fails (or whose LP fails numerically) on
//! such an input ends in [`SolverError::NumericalLimit`] rather than a bare
//! "certificate check failed": the user learns which input is at fault and what
//! to change. A stop by the time limit or a work budget says so instead
//! ([`SolverError::Stopped`]). No mechanism is emitted either way. The limits were measured by the edges suite
//! (`crates/pmldesign-solver/tests/edges.rs`); a failure outside them stays a
//! bare error, which that suite reports as a bug.

use crate::error::{NumericalLimit, SolverError};
use pmldesign_model::{Notion, UncertaintySet};

/// The largest alphabet any part of pml reads a matrix or a design for (every
/// reader of files, the reports): a file larger than such a matrix needs is
/// refused before it is read ([`MAX_MATRIX_FILE_BYTES`]). A design at N = 4096
/// peaks at about 1.3 GB (LDP; 0.8 GB under PML).
pub const MAX_ALPHABET: usize = 4096;

/// The most outputs a mechanism that pml makes or reads may have, with at most
/// [`MAX_ENTRIES`] entries in all (`limits::outputs_fit`): a weighted
/// 2-design over 128 inputs, the optimal design for estimation there under
/// the uniform prior, needs up to 65 orbits of 128 outputs (docs/theory.md
/// §13).
pub const MAX_OUTPUTS: usize = 16_384;

/// Whether a mechanism of `inputs` x `outputs` is within what pml makes and
/// reads ([`most_outputs`]).
pub fn outputs_fit(inputs: usize, outputs: usize) -> bool {
    outputs <= most_outputs(inputs)
}

/// The most entries a mechanism that pml makes or reads may have: twice N
/// outputs at [`MAX_ALPHABET`], the fewest with which a design for
/// estimation there is within about 4 times the floor (at 4,096 Zipf labels
/// and eps 1, 9,043 against randomized response's 5.7 million); such a design
/// file takes about 0.6 GB, within [`MAX_MATRIX_FILE_BYTES`], and its design
/// peaks at 1.4 GB.
pub const MAX_ENTRIES: usize = 2 * MAX_ALPHABET * MAX_ALPHABET;

/// The most outputs a mechanism over `inputs` may have: [`MAX_OUTPUTS`], and
/// at most [`MAX_ENTRIES`] entries in all.
pub fn most_outputs(inputs: usize) -> usize {
    MAX_OUTPUTS.min(MAX_ENTRIES / inputs.max(1))
}

/// Refuses an alphabet past [`MAX_ALPHABET`] before anything of its size is
/// built (an N x N matrix at N = 100,000 is 80 GB): the largest N a design is
/// made for is the largest that any reader takes back.
pub fn check_alphabet(n: usize) -> Result<(), SolverError> {
    if n <= MAX_ALPHABET {
        return Ok(());
    }
    Err(pmldesign_model::ModelError::invalid(
        "prior",
        format!("{n} symbols"),
        format!("pml designs for alphabets of at most {MAX_ALPHABET} symbols"),
        format!("merge categories into at most {MAX_ALPHABET}"),
    )
    .into())
}

/// Seconds per entry of an N x N matrix of the work a loss or estimation design
/// does whatever its time limit (the baselines, two randomized-response
/// matrices, its N x N mechanism's certificate, writing): 8 to 10.5 s measured
/// at N = 4096 for designs the limit stopped at once (2-core machine, load 5).
pub const FIXED_SECONDS_PER_ENTRY: f64 = 6e-7;

/// [`FIXED_SECONDS_PER_ENTRY`] for a utility's design (few outputs): 2.5 to
/// 3.5 s measured at N = 4096.
pub const FIXED_SECONDS_PER_ENTRY_UTILITY: f64 = 2.2e-7;

/// The smallest time limit a design over `n` inputs can keep (return within
/// `1.1 T + 0.5 s`), given its fixed work per entry of an N x N matrix:
/// 0 up to about 900 inputs, 8.7 s at N = 4096 for a loss.
pub fn smallest_time_limit(n: usize, per_entry: f64) -> std::time::Duration {
    let fixed = per_entry * (n * n) as f64;
    std::time::Duration::from_secs_f64(((fixed - 0.5) / 1.1).max(0.0))
}

/// [`FIXED_SECONDS_PER_ENTRY_UTILITY`] for a utility's design over a set of
/// priors (an l1 ball or a polytope): every baseline's and the design's
/// certificate takes the least output probability over the set, column by
/// column. 0.96 s at N = 1024 and 4.35 s at N = 2048 (mutual information from
/// counts, the limit spent before any pass; 2-core machine).
pub const FIXED_SECONDS_PER_ENTRY_UTILITY_SET: f64 = 1.1e-6;

/// [`FIXED_SECONDS_PER_ENTRY`] for a loss or estimation design over a set of
/// priors: 3.4 s at N = 1024 and 16.9 s at N = 2048 (Hamming loss from
/// counts, the limit spent before any pass or after one short one; 2-core
/// machine), most of it after the loop ([`SET_FINISH_SECONDS_PER_ENTRY`]).
pub const FIXED_SECONDS_PER_ENTRY_SET: f64 = 4.4e-6;

/// Seconds per entry of an N x N mechanism that a loss design over a set of
/// priors spends after its loop beyond
/// [`crate::settings::FINISH_SECONDS_PER_ENTRY`] (certifying the design and
/// its baselines over the set), so that a limit just above the smallest one
/// leaves the loop no time. Taken off the loop's time limit (`for_loss_over`).
pub const SET_FINISH_SECONDS_PER_ENTRY: f64 = 2.6e-6;

/// Whether the least output probability over `set` costs a transfer per
/// column: a polytope, or an l1 ball past Proposition 2 (`beta >= 2 min p`),
/// where the first donor of a column cannot give all of `beta / 2`.
pub fn costly_certificate(set: &pmldesign_model::UncertaintySet) -> bool {
    use pmldesign_model::UncertaintySet;
    match set {
        UncertaintySet::Known { .. } => false,
        UncertaintySet::L1Ball { center, beta, .. } => {
            !pmldesign_model::uncertainty::within_proposition_2(center, *beta)
        }
        _ => true,
    }
}

/// The fixed work per entry of a design over `set`, of a utility (`utility`)
/// or of a loss or estimation: a known prior's figures
/// ([`FIXED_SECONDS_PER_ENTRY_UTILITY`], [`FIXED_SECONDS_PER_ENTRY`]), or
/// where certifying over the set is costly ([`costly_certificate`]) the set's
/// ([`FIXED_SECONDS_PER_ENTRY_UTILITY_SET`], [`FIXED_SECONDS_PER_ENTRY_SET`]).
pub fn fixed_per_entry(set: &pmldesign_model::UncertaintySet, utility: bool) -> f64 {
    match (costly_certificate(set), utility) {
        (false, true) => FIXED_SECONDS_PER_ENTRY_UTILITY,
        (false, false) => FIXED_SECONDS_PER_ENTRY,
        (true, true) => FIXED_SECONDS_PER_ENTRY_UTILITY_SET,
        (true, false) => FIXED_SECONDS_PER_ENTRY_SET,
    }
}

/// Refuses a time limit that a design over `n` inputs cannot keep
/// ([`smallest_time_limit`]) before any work, naming the smallest that can be.
pub fn check_time_limit(
    limit: Option<std::time::Duration>,
    n: usize,
    per_entry: f64,
) -> Result<(), SolverError> {
    let least = smallest_time_limit(n, per_entry);
    let Some(t) = limit.filter(|&t| t < least) else {
        return Ok(());
    };
    Err(SolverError::TimeLimitTooShort {
        limit: t,
        least,
        fixed_seconds: per_entry * (n * n) as f64,
        n,
        parts: 1,
    })
}

/// The most bytes a file holding one matrix of [`MAX_ALPHABET`] inputs and outputs
/// (or a design of it, with its certificate and baselines, about three matrices)
/// may take: 40 characters a number, and 1 MiB for the rest.
pub const MAX_MATRIX_FILE_BYTES: u64 = 3 * (MAX_ALPHABET as u64).pow(2) * 40 + (1 << 20);

/// Largest alphabet for the structured enumeration (about `N 2^(N-1)` rays).
pub const MAX_STRUCTURED_N: usize = 24;

/// Largest alphabet for the generic double-description enumeration.
pub const MAX_GENERIC_N: usize = 12;

/// Largest alphabet for the structured notion rays (about `N 2^(N-1)` of them,
/// held in memory).
pub const MAX_NOTION_N: usize = 16;

/// The facts about an input that the limits look at.
struct Input {
    /// Smallest positive prior mass of the set (its reference, and every vertex
    /// of a polytope).
    min_mass: f64,
    /// Smallest and largest level of the notion.
    smallest: f64,
    largest: f64,
    /// The set reaches the boundary of the simplex: a ball of radius at least
    /// `2 min p`, or a polytope.
    boundary: bool,
    /// The ball's radius, if it is one.
    beta: Option<f64>,
    /// More than one prior.
    set_of_priors: bool,
    /// PMC, ALIP, LIP or metric privacy: ratios bounded both ways.
    two_sided: bool,
    loss: bool,
}

impl Input {
    fn new(set: &UncertaintySet, notion: &Notion, loss: bool) -> Self {
        let levels = [notion.upper(), notion.lower(), Some(notion.epsilon())];
        let levels = levels.iter().flatten().copied();
        let reference = set.reference();
        // The smallest positive mass: a ball's centre may hold a 0 (a category
        // never observed), which the ball gives mass.
        let positive = reference.iter().copied().filter(|x| *x > 0.0);
        let mut min_mass = positive.fold(1.0, f64::min);
        if let UncertaintySet::Polytope { vertices, .. } = set {
            let positive = vertices.iter().flatten().copied().filter(|x| *x > 0.0);
            min_mass = positive.fold(min_mass, f64::min);
        }
        let beta = match set {
            UncertaintySet::L1Ball { beta, .. } => Some(*beta),
            _ => None,
        };
        Input {
            min_mass,
            smallest: levels.clone().fold(f64::INFINITY, f64::min),
            largest: levels.fold(0.0, f64::max),
            boundary: match set {
                UncertaintySet::Known { .. } => false,
                UncertaintySet::L1Ball { center, beta, .. } => {
                    !pmldesign_model::uncertainty::within_proposition_2(center, *beta)
                }
                // (min_mass is 0 with a zero at the centre: the ball reaches the boundary.)
                // A polytope, or a set of another kind: take it as reaching it.
                _ => true,
            },
            beta,
            set_of_priors: !matches!(set, UncertaintySet::Known { .. }),
            two_sided: notion.lower().is_some() || matches!(notion, Notion::Metric { .. }),
            loss,
        }
    }
}

/// The numerical limit a design of `notion` over `set` (a loss design when
/// `loss`) is past, if any. Inside a limit a design may still succeed, and
/// then it is certified like any other; when its check fails, the error is
/// [`SolverError::NumericalLimit`] with this limit.
pub fn numerical_limit(
    set: &UncertaintySet,
    notion: &Notion,
    loss: bool,
) -> Option<NumericalLimit> {
    limit(&Input::new(set, notion, loss))
}

/// The limit `input` is past, if any: the first rule of the table
/// (docs/theory.md §10, most specific first) whose condition holds.
fn limit(i: &Input) -> Option<NumericalLimit> {
    let loss_level = if i.smallest < 1e-3 {
        i.smallest
    } else {
        i.largest
    };
    // The smallest output probability cancels to a relative error of about
    // u e^eps / min p over a set reaching the boundary.
    let cancels = f64::EPSILON * i.largest.exp() / i.min_mass > 1e-13;
    let beta = i.beta.unwrap_or(0.0);
    let rules = [
        (
            i.loss && i.two_sided && beta >= 1.0,
            ("beta", beta),
            "a two-sided notion's loss LP over a ball of radius 1 or more is past microlp's accuracy",
            "use a radius below 1",
        ),
        (
            i.loss && i.min_mass < 1e-9,
            ("prior", i.min_mass),
            "prior masses below 1e-9 make the loss LP singular",
            "merge the rarest categories into others",
        ),
        (
            i.loss && (i.smallest < 1e-3 || i.largest > 20.0),
            ("epsilon", loss_level),
            "the loss LP is solved for levels in [1e-3, 20]",
            "use a level in [1e-3, 20]",
        ),
        (
            i.min_mass < 1e-6 || (i.boundary && i.min_mass < 1e-3),
            ("prior", i.min_mass),
            "prior masses below 1e-6 (1e-3 over sets reaching the simplex's boundary) are within the rounding of the design",
            "merge the rarest categories into others",
        ),
        (
            i.smallest < 1e-4 || (i.two_sided && i.smallest < 1e-3),
            ("epsilon", i.smallest),
            "levels below 1e-4 (1e-3 for two-sided notions) are within the rounding of the rays",
            "use a level of at least 1e-3",
        ),
        (
            i.boundary && i.largest > 5.0,
            ("epsilon", i.largest),
            "levels above 5 over a set reaching the simplex's boundary exceed it by more than 1e-12 after rounding",
            "use a level of at most 5, or a radius below twice the smallest mass",
        ),
        (
            i.boundary && cancels,
            ("prior", i.min_mass),
            "over a set reaching the simplex's boundary, masses below 2.2e-3 e^eps cancel the smallest output probability to a relative error u e^eps / min p above 1e-13",
            "merge the rarest categories into others, or use a radius below twice the smallest mass",
        ),
        (
            i.two_sided && i.beta.is_some_and(|b| b < 1e-4),
            ("beta", beta),
            "two-sided notions over a ball of radius below 1e-4 are within the enumerator's tolerances",
            "use the known prior (radius 0) or a radius of at least 1e-4",
        ),
        (
            // The generic enumerator snaps entries e^-eps below 1e-13 to 0.
            i.two_sided && i.set_of_priors && i.largest > 10.0,
            ("epsilon", i.largest),
            "two-sided notions above 10 over a set of priors need entries below the enumerator's tolerance",
            "use a level of at most 10",
        ),
    ];
    let (_, (field, value), limit, fix) = rules.into_iter().find(|rule| rule.0)?;
    Some(NumericalLimit {
        field,
        value,
        limit,
        fix,
    })
}

/// `err` as the user should read it: an LP stopped by its clock is a stop by
/// the time limit (`out_of_time`: the design's deadline has passed) or by the
/// LP's stall guard, never a numerical limit; a failed check or a failed LP on
/// an input past a numerical limit is that limit; anything else (a stop by a
/// named work budget included) is `err` itself.
pub fn explain(
    err: SolverError,
    set: &UncertaintySet,
    notion: &Notion,
    loss: bool,
    out_of_time: bool,
) -> SolverError {
    match &err {
        SolverError::Lp(detail) if is_clock_stop(detail) => {
            let detail = detail.clone();
            if out_of_time {
                SolverError::Stopped {
                    by: "time_limit",
                    detail,
                    fix: "give a longer time limit",
                }
            } else {
                SolverError::Stopped {
                    by: "the LP's stall guard (5 + 1e-4 n^1.5 s for n variables)",
                    detail,
                    fix: "use a smaller alphabet or a set of priors with fewer vertices",
                }
            }
        }
        SolverError::Certificate(_) | SolverError::Lp(_) => {
            match numerical_limit(set, notion, loss) {
                Some(limit) => SolverError::NumericalLimit {
                    limit,
                    detail: err.to_string(),
                },
                None => err,
            }
        }
        _ => err,
    }
}

/// True when an LP's error says that its clock stopped it (microlp's words).
fn is_clock_stop(detail: &str) -> bool {
    detail.contains("Time limit reached")
}

/// The largest information-density level a cone is built for: `e^690` and
/// `e^-690` are normal doubles with room to spare (`e^710` overflows).
pub const MAX_DESIGN_LEVEL: f64 = 690.0;

/// `notion` with every level at most [`MAX_DESIGN_LEVEL`].
pub(crate) fn capped_levels(notion: &Notion) -> Notion {
    let c = |e: f64| e.min(MAX_DESIGN_LEVEL);
    match *notion {
        Notion::Pml { epsilon } => Notion::Pml {
            epsilon: c(epsilon),
        },
        Notion::Pmc { epsilon } => Notion::Pmc {
            epsilon: c(epsilon),
        },
        Notion::Alip {
            epsilon_lower,
            epsilon_upper,
        } => Notion::Alip {
            epsilon_lower: c(epsilon_lower),
            epsilon_upper: c(epsilon_upper),
        },
        Notion::Lip { epsilon } => Notion::Lip {
            epsilon: c(epsilon),
        },
        Notion::Ldp { epsilon } => Notion::Ldp {
            epsilon: c(epsilon),
        },
        // Each factor e^(eps d) is capped where it is built (`Metric::factor`);
        // a notion without a level of its own here is kept as stated.
        _ => notion.clone(),
    }
}

/// Most inputs of a square baseline whose error is scored by its Fisher
/// information (`2 N^3` operations: about 0.25 s at N = 1024, 12 s at N = 4096
/// on a loaded 2-core machine). Past it such a baseline is left out of an
/// estimation design's comparisons (a rule on N, so a reader re-derives the
/// same list); randomized response and randomized response toward the prior
/// (closed form) and mechanisms with fewer outputs than inputs (singular J)
/// are scored at every N.
pub const SCORED_SQUARE_UP_TO: usize = 1024;

/// Inputs past which a comparison's rows and a trade-off curve carry no
/// estimation figures: each row's is a Fisher information and the trace of
/// its inverse (`N^2 K + N^3`), for every notion's design and baseline.
pub const FIGURES_UP_TO: usize = SCORED_SQUARE_UP_TO;

/// The alphabet to which a notion's rays are enumerated by default: the
/// structured families of eps-PML up to [`MAX_STRUCTURED_N`], the other
/// notions' rays up to [`MAX_NOTION_N`].
pub(crate) fn enumeration_limit(notion: &pmldesign_model::Notion) -> usize {
    match notion {
        pmldesign_model::Notion::Pml { .. } => MAX_STRUCTURED_N,
        _ => MAX_NOTION_N,
    }
}

/// Whether the LPs of a design for estimation are priced by ascent with
/// separable majorants (`pricing::quadratic`, docs/theory.md §13) past
/// [`enumeration_limit`]: eps-PML of a known prior or of an l1 ball within
/// Proposition 2, eps-LDP, and eps-PMC, eps-LIP and ALIP of a known prior of
/// full support.
pub(crate) fn estimation_by_ascent(
    notion: &pmldesign_model::Notion,
    set: &pmldesign_model::UncertaintySet,
) -> bool {
    use pmldesign_model::{Notion, UncertaintySet};
    let known = matches!(set, UncertaintySet::Known { .. });
    // Proposition 2's ball: a radius below twice the least mass of the centre.
    let proposition_2 = matches!(set, UncertaintySet::L1Ball { center, beta, .. }
        if pmldesign_model::uncertainty::within_proposition_2(center, *beta));
    let covered = match notion {
        Notion::Pml { .. } => known || proposition_2,
        Notion::Ldp { .. } => true,
        Notion::Pmc { .. } | Notion::Lip { .. } | Notion::Alip { .. } => {
            known && set.reference().iter().all(|&m| m > 0.0)
        }
        _ => false,
    };
    covered && set.len() > enumeration_limit(notion)
}

/// Whether a design for estimation can be made for `notion` over `set`: by
/// enumeration up to [`enumeration_limit`], by ascent past it
/// ([`estimation_by_ascent`]); never under metric privacy.
pub(crate) fn estimation_designable(
    notion: &pmldesign_model::Notion,
    set: &pmldesign_model::UncertaintySet,
) -> bool {
    let metric = matches!(notion, pmldesign_model::Notion::Metric { .. });
    !metric && (set.len() <= enumeration_limit(notion) || estimation_by_ascent(notion, set))
}
