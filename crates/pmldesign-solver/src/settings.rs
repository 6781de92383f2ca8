//! The one settings struct of a solve ([`crate::Problem::settings`]), in the style
//! of Clarabel's settings: every field public, documented defaults, and
//! [`Settings::validate`] to check a hand-built value before a run.

use crate::error::Result;
use crate::limits::MAX_STRUCTURED_N;
use pmldesign_model::ModelError;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How pricing searches the extreme rays (docs/theory.md §4b).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum PricingMethod {
    /// Branch and bound where the cone and the utility allow it (the known
    /// prior, \[E\] Prop 2's ball, PMC/ALIP/LIP for a known prior and LDP, with a
    /// utility that has a [`crate::Utility::separable`] form), enumeration
    /// otherwise.
    #[default]
    Auto,
    /// Every extreme ray, enumerated (the reference; alphabet limits apply).
    Enumerate,
}

/// Settings of a solve. `Settings::default()` is what the `pml` command line uses.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// Largest alphabet for exhaustive ray enumeration (it grows like
    /// `N 2^(N-1)`); branch-and-bound pricing has no limit. Default 24.
    pub max_alphabet: usize,
    /// How pricing finds the ray of largest reduced cost. Default
    /// [`PricingMethod::Auto`].
    pub pricing: PricingMethod,
    /// Which LP minimises a loss. Default [`LossMethod::Auto`].
    pub loss_method: LossMethod,
    /// The column-generation loop: batch, passes, tolerances, time limit and
    /// interrupt (defaults in [`ColumnGenerationSettings`]).
    pub column_generation: ColumnGenerationSettings,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_alphabet: MAX_STRUCTURED_N,
            pricing: PricingMethod::Auto,
            loss_method: LossMethod::Auto,
            column_generation: ColumnGenerationSettings::default(),
        }
    }
}

/// The least share of a time limit a design gets where several share it
/// ([`Settings::share_until`]): past it a design returns its best structured
/// baseline, reported as a time-limit stop.
const MIN_SHARE: Duration = Duration::from_millis(1);

impl Settings {
    /// These settings for the next of `parts` designs (it included) that share
    /// the time left before `deadline`: each gets `1/parts` of it, at least
    /// a millisecond (a record's column designs, `compare`'s notions).
    /// Unchanged without a deadline.
    pub(crate) fn share_until(&self, deadline: Option<Instant>, parts: usize) -> Settings {
        let mut s = self.clone();
        if let Some(d) = deadline {
            let left = d.saturating_duration_since(Instant::now()) / parts.max(1) as u32;
            s.column_generation.time_limit = Some(left.max(MIN_SHARE));
        }
        s
    }

    /// When a loop over `n` inputs started now must stop for the time limit
    /// (its share, [`ColumnGenerationSettings::loop_time`]); `None` without a
    /// limit.
    pub(crate) fn loop_deadline(&self, n: usize) -> Option<std::time::Instant> {
        self.column_generation
            .deadline_from(std::time::Instant::now(), n)
    }

    /// Stops column generation once the certified relative gap is at most `gap`
    /// (in (0, 1); default 1e-9, the gap at which a design counts as optimal).
    pub fn gap(mut self, gap: f64) -> Self {
        self.column_generation.gap_tolerance = gap;
        self
    }

    /// Returns the best certified mechanism after about `limit`.
    pub fn time_limit(mut self, limit: Duration) -> Self {
        self.column_generation.time_limit = Some(limit);
        self
    }

    /// These settings with `share` of the time limit (for a run split into
    /// parts: the inner and outer designs past Prop 2, a sample's simpler route).
    pub(crate) fn with_time_share(&self, share: f64) -> Settings {
        let mut s = self.clone();
        let cg = &mut s.column_generation;
        cg.time_limit = cg.time_limit.map(|t| t.mul_f64(share));
        s
    }

    /// Checks every field; the error names the field, its value and the fix.
    pub fn validate(&self) -> Result<()> {
        let cg = &self.column_generation;
        let bad = |field: &str, value: String, why: &str, fix: &str| {
            Err(ModelError::invalid(field, value, why, fix).into())
        };
        if !(cg.gap_tolerance.is_finite() && cg.gap_tolerance > 0.0 && cg.gap_tolerance < 1.0) {
            return bad(
                "gap_tolerance",
                format!("{}", cg.gap_tolerance),
                "the relative gap must lie in (0, 1)",
                "give a relative gap such as 1e-6",
            );
        }
        if cg.time_limit.is_some_and(|t| t.is_zero()) {
            return bad(
                "time_limit",
                "0 s".into(),
                "a design needs some time",
                "give a positive duration, or None for no limit",
            );
        }
        if cg.batch == 0 || cg.max_iterations == 0 {
            return bad(
                "batch/max_iterations",
                format!("{}/{}", cg.batch, cg.max_iterations),
                "column generation adds at least one ray per pass and makes at least one pass",
                "use positive values (defaults 256 and 10000)",
            );
        }
        if !(cg.pricing_tolerance.is_finite() && cg.pricing_tolerance >= 0.0) {
            return bad(
                "pricing_tolerance",
                format!("{}", cg.pricing_tolerance),
                "the pricing tolerance must be finite and >= 0",
                "use the default 1e-11",
            );
        }
        if let Some(a) = cg.smoothing.filter(|a| !(0.0..1.0).contains(a)) {
            return bad(
                "smoothing",
                format!("{a}"),
                "dual smoothing must lie in [0, 1)",
                "use None (chosen per cone), 0 (off) or a value such as 0.5",
            );
        }
        if self.max_alphabet < 2 {
            return bad(
                "max_alphabet",
                self.max_alphabet.to_string(),
                "enumeration needs at least 2 symbols",
                "use the default 24",
            );
        }
        Ok(())
    }
}

/// A flag that another thread sets to stop a running solve at its next check
/// (Ctrl-C in the CLI and the Python package). Every long loop checks it:
/// column generation, the rounds of a pricing pass, the master simplex and
/// polishing. The run then returns its best certified mechanism, as at a time
/// limit. Clones share the flag.
#[derive(Debug, Clone, Default)]
pub struct Interrupt(Option<Arc<Flag>>);

/// The shared state of an [`Interrupt`].
#[derive(Debug)]
struct Flag {
    set: AtomicBool,
    /// Checks after which the flag sets itself ([`Interrupt::after_checks`];
    /// `u64::MAX`: never).
    countdown: AtomicU64,
}

impl Interrupt {
    /// A flag, not set.
    pub fn new() -> Self {
        Self::with_countdown(u64::MAX)
    }

    /// A test hook: a flag that sets itself at its `k`-th check (`k >= 1`), so
    /// a test can stop every long loop at every step without timing anything.
    #[doc(hidden)]
    pub fn after_checks(k: u64) -> Self {
        Self::with_countdown(k.max(1))
    }

    fn with_countdown(countdown: u64) -> Self {
        Interrupt(Some(Arc::new(Flag {
            set: AtomicBool::new(false),
            countdown: AtomicU64::new(countdown),
        })))
    }

    /// Sets the flag: the solve stops at its next check.
    pub fn set(&self) {
        if let Some(f) = &self.0 {
            f.set.store(true, Ordering::Relaxed);
        }
    }

    /// True once the flag is set.
    pub fn is_set(&self) -> bool {
        let Some(f) = &self.0 else { return false };
        if f.set.load(Ordering::Relaxed) {
            return true;
        }
        if f.countdown.load(Ordering::Relaxed) != u64::MAX
            && f.countdown.fetch_sub(1, Ordering::Relaxed) <= 1
        {
            f.set.store(true, Ordering::Relaxed);
        }
        f.set.load(Ordering::Relaxed)
    }

    /// True once the flag is set or `deadline` has passed: when a long loop
    /// (column generation, a pricing search, polishing) must stop.
    pub(crate) fn or_past(&self, deadline: Option<Instant>) -> bool {
        self.is_set() || deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Flags compare equal: an interrupt is not part of what a run computes.
impl PartialEq for Interrupt {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Settings of the column-generation loop.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnGenerationSettings {
    /// Rays added to the working set per pricing pass.
    pub batch: usize,
    /// Pricing passes before giving up.
    pub max_iterations: usize,
    /// A ray enters only if its reduced cost exceeds this (relative to `1 + |bound|`),
    /// or half the gap tolerance if that is larger.
    pub pricing_tolerance: f64,
    /// Stop once the certified gap is at most this, relative to the utility
    /// (`max(gap_tolerance |U|, 1e-15)`). Default 1e-9, the gap at which a design
    /// is reported optimal ([`crate::tolerance::OPTIMALITY_GAP`]).
    pub gap_tolerance: f64,
    /// Stop after this long with the best mechanism and bound so far (then the
    /// solution is feasible and certified private, and its gap says how far from
    /// optimal it may be).
    pub time_limit: Option<std::time::Duration>,
    /// Stops the loop at its next pass when set from another thread (then as at
    /// a time limit). Default: never set.
    pub interrupt: crate::settings::Interrupt,
    /// Dual smoothing (Wentges) in `[0, 1)`: each pass first prices the point
    /// this far from the master's dual toward the dual of the best bound so far
    /// (halved at every pass where that point finds no entering ray; 0: off).
    /// `None` (the default) chooses: 0.5 over the exact l1 ball past \[E\]
    /// Prop 2, where the master's dual oscillates and smoothing shortens the
    /// run several times over (a Zipf column of 120 categories), 0 elsewhere,
    /// where it slows the design down (LDP at N = 64: about twice as long).
    pub smoothing: Option<f64>,
    /// Mechanisms whose columns (normalised by the reference prior) start in
    /// the master's working set, so that the loop's mechanism is at least as
    /// good as each of them once the master is solved. A design fills it with
    /// its structured baselines (docs/theory.md §5b); default empty.
    pub seeds: Vec<pmldesign_model::Mechanism>,
}

/// Seconds per entry of an N x N mechanism that a design spends after its loop
/// ([`ColumnGenerationSettings::loop_time`]): measured at N = 2048 with a 5 s
/// limit, 2.2 s from the loop's end to the design (the master's last pivots,
/// polishing, certifying, the envelope) and 1.1 s to write it as JSON (the
/// mechanism and two randomized-response matrices, 400 MB), with a margin for
/// the start columns and the notions' slower certificates.
pub const FINISH_SECONDS_PER_ENTRY: f64 = 1e-6;

impl ColumnGenerationSettings {
    /// The share of a time limit given to column generation over `n` inputs:
    /// 90%, less `FINISH_SECONDS_PER_ENTRY` (1e-6 s) for each of the N^2 entries of the
    /// mechanism, which polishing, certifying, the envelope, the baselines and
    /// writing the design take after the loop (about 4.2 s at N = 2048, 0.07 s
    /// at N = 256), so that a design returns within about the limit; at least
    /// nothing (the loop then stops at its first look at the clock).
    pub fn loop_time(&self, limit: std::time::Duration, n: usize) -> std::time::Duration {
        let finish = std::time::Duration::from_secs_f64(FINISH_SECONDS_PER_ENTRY * (n * n) as f64);
        limit.mul_f64(0.9).saturating_sub(finish)
    }

    /// When a loop over `n` inputs started at `start` must stop for the time
    /// limit (`None` without one).
    pub fn deadline_from(&self, start: Instant, n: usize) -> Option<Instant> {
        self.time_limit.map(|t| start + self.loop_time(t, n))
    }

    /// When the loop of a design for estimation over `n` inputs, started at
    /// `start`, must stop: the loop's deadline less the time `table` the
    /// estimation table that follows is expected to take, never before `start`.
    pub fn estimation_deadline_from(
        &self,
        start: Instant,
        n: usize,
        table: Duration,
    ) -> Option<Instant> {
        self.deadline_from(start, n)
            .map(|d| d.checked_sub(table).unwrap_or(start).max(start))
    }

    /// When polishing the loop's weights (an exact basis, least squares over
    /// the support) must stop: half of the finishing share after the loop's
    /// own deadline, so that the rest (repair, certificate, writing) still fits:
    /// at N = 2048 polishing alone can otherwise run to the limit itself.
    pub(crate) fn polish_deadline_from(&self, start: Instant, n: usize) -> Option<Instant> {
        let finish = std::time::Duration::from_secs_f64(FINISH_SECONDS_PER_ENTRY * (n * n) as f64);
        self.time_limit
            .map(|t| start + t.mul_f64(0.9).saturating_sub(finish / 2))
    }
}

impl Default for ColumnGenerationSettings {
    fn default() -> Self {
        ColumnGenerationSettings {
            batch: 256,
            max_iterations: 10_000,
            pricing_tolerance: 1e-11,
            gap_tolerance: crate::tolerance::OPTIMALITY_GAP,
            time_limit: None,
            interrupt: crate::settings::Interrupt::default(),
            smoothing: None,
            seeds: Vec::new(),
        }
    }
}

/// How a loss design solves its LP (docs/theory.md §4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum LossMethod {
    /// Column generation for a known prior and the ball under Proposition 2 up
    /// to N = 64, and past it the direct LP over labels generated by exact
    /// pricing (docs/theory.md §4, "Losses by generated labels"); the full
    /// direct LP for other sets (and if column generation fails numerically);
    /// with the `highs` feature, the direct LP. Past Proposition 2 the direct LP takes the
    /// ball's vertex list while it is short, and column generation over the
    /// exact ball's ray families beyond.
    Auto,
    /// The direct sparse LP over all N^2 entries (any uncertainty set), by
    /// Clarabel's interior point (HiGHS's simplex with the `highs` feature),
    /// with the direct LP's multipliers as its dual.
    Direct,
    /// Column generation with exact pricing: knapsacks for a known prior and
    /// the ball under Proposition 2, branch and bound over the exact ball's ray
    /// families past it (docs/theory.md §4b); other sets are an error.
    ColumnGeneration,
    /// The l1 ball past \[E\] Prop 2, bracketed: column generation over an
    /// inner and an outer slice, with the certified gap between them
    /// (docs/theory.md §4b). Only when asked for.
    InnerOuter,
    /// No LP: eps = 0 or no privacy needed (closed forms).
    ClosedForm,
}
