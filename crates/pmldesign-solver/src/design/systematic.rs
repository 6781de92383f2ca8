//! A start for designs for estimation by systematic sampling (docs/theory.md
//! §13, "A start by systematic sampling"): random orders of the inputs laid
//! end to end, each input taking its prior mass on a line, and the line cut
//! into pieces of equal mass. A piece is a ray at the notion's two levels (the
//! inputs it holds up to the higher one), and the equal mixture of the pieces
//! is a mechanism whose rows sum to 1 by construction, since every input is
//! laid once per order. Past the sizes whose restricted problem the Newton
//! steps of [`crate::design::simplicial`] can weight, it is the start; within
//! them, the element they start from.

use super::estimation::merge_proportional;
use super::sampled_start::shuffle;
use crate::limits::{MAX_ALPHABET, MAX_OUTPUTS, outputs_fit};
use crate::settings::{FINISH_SECONDS_PER_ENTRY, Settings};
use chacha20::ChaCha8Rng;
use ndarray::{Array2, ArrayView1};
use pmldesign_model::Mechanism;
use rand::SeedableRng;

/// Outputs per input the start has at most: at 256 Zipf labels and eps 1 its
/// error is about 1.12 times the floor at 20, 1.08 at 32 and 1.06 at 64 (the
/// excess over the population's 1.02, the sampling's spread, falls as 1 / n).
pub const SYSTEMATIC_OUTPUTS_PER_INPUT: usize = 64;

/// The alphabets the start is made for: at 64 labels (Zipf prior, eps 1, 60 s)
/// Frank-Wolfe from the baselines' start ends nearer the optimum (0.97 % from
/// the floor, against 1.6 % from this start); up to [`MAX_ALPHABET`], where
/// no square baseline is scored past
/// [`SCORED_SQUARE_UP_TO`](crate::limits::SCORED_SQUARE_UP_TO) and randomized
/// response is hundreds of times the floor (the start is valued itself, at
/// its `n^2` terms per output).
pub const SYSTEMATIC_START_SIZES: std::ops::RangeInclusive<usize> = 65..=MAX_ALPHABET;

/// The share of a time limit the start's outputs may cost where rounds of
/// mirror descent follow it ([`crate::design::mirror::MIRROR_SIZES`]).
pub const SYSTEMATIC_SHARE: f64 = 0.25;

/// The share where none follow: past 512 labels one priced pass of
/// Frank-Wolfe takes tens of seconds (about 40 s at 1,024), so the start is
/// most of the design (docs/benchmarks.md, past 1,024 labels).
pub const SYSTEMATIC_SHARE_ALONE: f64 = 0.6;

/// The fewest outputs per input the start is made with: with fewer than N
/// outputs J is singular, and near N the sampling's spread dominates (at
/// 1,024 Zipf labels, eps 1: 1,699 per row at 2.4 N, 1,176 at 3.3 N, against
/// the floor's 595), yet far below randomized response past 1,024 inputs (at
/// 4,096 labels 100,428 at 1.18 N and 17,475 at 1.57 N, against 5.68
/// million). The start is taken only where it is better than the baseline.
pub const SYSTEMATIC_FEWEST_PER_INPUT: f64 = 1.1;

/// Seconds per term `n^2` of an output's share of the Fisher information, as
/// the start is valued: about 8e-11 at 4,096 inputs on two cores (10.9 s for
/// 8,190 outputs, the inverse included), with a margin for a loaded machine.
pub const SYSTEMATIC_SECONDS_PER_TERM: f64 = 2e-10;

/// The stream's seed: the same pieces for the same prior, levels and count.
const SEED: u64 = 0x706d_6c2f_7379_7374;

/// Entries of a piece may pass the higher level by this much (rounding in
/// the shares).
const LEVEL_ROUNDING: f64 = 1e-12;

/// A piece within this fraction of its mass is full: the rest is rounding,
/// and the next input starts the next piece (what passes the last piece is
/// such rounding too, which the mechanism's row sums mend).
const FULL: f64 = 1e-12;

/// At most `target` pieces (one per row of the answer), all but fewer than
/// `1 / room` of them, cut from `r = floor(target room)` random orders of the
/// inputs laid end to end: `n = floor(r / room)` pieces of mass
/// `m = r / n >= room`, `room = (1 - lo) / (hi - lo)` the mass a ray at the
/// levels `(lo, hi)` holds at `hi`. Piece j is `lo + ((1 - lo) / m) s`, `s_x`
/// the share of input x's mass it holds: mass 1, within the levels, and the
/// pieces' mean is 1 at every input (each is laid `r` times, `n m = r`). An
/// input the piece across the end of an order already holds goes last in the
/// next order, so that no piece holds it twice; `None` where that cannot
/// keep it out (`m + max p > 1`), or fewer than two pieces fit.
pub fn systematic_pieces(
    p: ArrayView1<f64>,
    (lo, hi): (f64, f64),
    target: usize,
) -> Option<Array2<f64>> {
    let k = p.len();
    let room = (1.0 - lo) / (hi - lo);
    let orders = (target as f64 * room).floor().max(1.0);
    let n = (orders / room).floor() as usize;
    let m = orders / n as f64;
    if n < 2 || !(room > 0.0 && room <= 1.0) || m + p.fold(0.0f64, |a, &b| a.max(b)) > 1.0 {
        return None;
    }
    let step = (1.0 - lo) / m;
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut order: Vec<usize> = (0..k).collect();
    let mut line = Line {
        pieces: Array2::from_elem((n, k), lo),
        piece: 0,
        filled: 0.0,
        m,
        step,
    };
    for _ in 0..orders as usize {
        shuffle(&mut order, &mut rng);
        let across = line.piece.min(n - 1);
        order.sort_by_key(|&x| line.pieces[[across, x]] > lo);
        for &x in &order {
            line.lay(x, p[x]);
        }
    }
    let within = |v: &f64| *v >= lo && *v <= hi * (1.0 + LEVEL_ROUNDING);
    line.pieces.iter().all(within).then_some(line.pieces)
}

/// The line being cut: the pieces so far, the one being filled and the mass
/// it holds (kept per piece, so that rounding stays relative to a piece).
struct Line {
    pieces: Array2<f64>,
    piece: usize,
    filled: f64,
    m: f64,
    step: f64,
}

impl Line {
    /// Input `x` of mass `mass` laid next: each piece it reaches gains `step`
    /// times the share of the mass it holds.
    fn lay(&mut self, x: usize, mass: f64) {
        let mut left = mass;
        while left > 0.0 && self.piece < self.pieces.nrows() {
            if self.m - self.filled <= FULL * self.m {
                (self.piece, self.filled) = (self.piece + 1, 0.0);
                continue;
            }
            let take = left.min(self.m - self.filled);
            self.pieces[[self.piece, x]] += self.step * take / mass;
            left -= take;
            self.filled += take;
        }
    }
}

/// The equal mixture of [`systematic_pieces`] as a mechanism (column j the
/// piece's ray times `1 / n`, the rows' rounding mended and proportional
/// columns merged as every estimation design's are); `None` where the pieces
/// are.
pub(crate) fn systematic_mechanism(
    p: ArrayView1<f64>,
    levels: (f64, f64),
    target: usize,
) -> Option<Mechanism> {
    let pieces = systematic_pieces(p, levels, target)?;
    let n = pieces.nrows() as f64;
    let w = pieces.reversed_axes().mapv(|v| v / n);
    merge_proportional(w)
        .ok()
        .filter(|m| outputs_fit(m.inputs(), m.outputs()))
}

/// The outputs of the start by systematic sampling over `n` inputs
/// ([`systematic_mechanism`]): the most of [`SYSTEMATIC_OUTPUTS_PER_INPUT`]
/// times n that fit what pml writes (a quarter of it where rounds add rays
/// to them, `rounds`) and, under a time limit, [`SYSTEMATIC_SHARE`] of it
/// ([`SYSTEMATIC_SHARE_ALONE`] without rounds) at
/// [`FINISH_SECONDS_PER_ENTRY`] for each entry written and [`SYSTEMATIC_SECONDS_PER_TERM`] for each term `n^2` of its
/// Fisher information: a rule on n and the limit, so the same input and
/// limit give the same start. `None` outside [`SYSTEMATIC_START_SIZES`] or
/// where fewer than [`SYSTEMATIC_FEWEST_PER_INPUT`] times n outputs fit.
pub(crate) fn systematic_outputs(settings: &Settings, n: usize, rounds: bool) -> Option<usize> {
    if !SYSTEMATIC_START_SIZES.contains(&n) {
        return None;
    }
    let room = match rounds {
        true => MAX_OUTPUTS / 4,
        false => MAX_OUTPUTS,
    };
    let mut outputs = (SYSTEMATIC_OUTPUTS_PER_INPUT * n).min(room);
    while !outputs_fit(n, outputs) {
        outputs /= 2;
    }
    if let Some(t) = settings.column_generation.time_limit {
        let nf = n as f64;
        let each = FINISH_SECONDS_PER_ENTRY * nf + SYSTEMATIC_SECONDS_PER_TERM * nf * nf;
        let share = match rounds {
            true => SYSTEMATIC_SHARE,
            false => SYSTEMATIC_SHARE_ALONE,
        };
        let fits = (share * t.as_secs_f64() / each).floor() as usize;
        outputs = outputs.min(fits);
    }
    (outputs as f64 >= SYSTEMATIC_FEWEST_PER_INPUT * n as f64).then_some(outputs)
}
