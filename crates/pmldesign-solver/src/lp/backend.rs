//! The LP backend behind `good_lp`: `microlp` (pure Rust, no system libraries) by
//! default, HiGHS with the optional `highs` cargo feature (built from source; needs
//! cmake and a C++ compiler). Every result is certified the same way whichever
//! backend solved it.

#[cfg(feature = "highs")]
use good_lp::highs as lp_backend;

#[cfg(not(feature = "highs"))]
use good_lp::microlp as lp_backend;
use good_lp::{Solver, SolverModel, WithTimeLimit};
use std::sync::mpsc::RecvTimeoutError;
use std::time::Instant;

/// Name of the LP backend compiled in (`"microlp"` or `"highs"`), for reports.
pub const LP_BACKEND: &str = if cfg!(feature = "highs") {
    "highs"
} else {
    "microlp"
};

/// Name of the solver of the direct loss LP (`"clarabel"`, the interior point of
/// the `loss_ipm` module, or `"highs"`), for reports; `microlp` stands in if
/// Clarabel fails numerically.
pub const LOSS_LP_BACKEND: &str = if cfg!(feature = "highs") {
    "highs"
} else {
    "clarabel"
};

/// The backend for an LP of `variables` variables, stopped after
/// [`stall_guard`] seconds, or at `deadline` if that comes first: microlp can
/// cycle on a degenerate LP (seen on a master of five columns at eps =
/// 1.4e-10), and an LP that runs past its guard fails with an error instead of
/// running forever.
pub(crate) fn guarded_until(
    variables: usize,
    deadline: Option<Instant>,
) -> impl Solver<Model = impl SolverModel + WithTimeLimit> {
    let left = deadline.map_or(f64::INFINITY, |d| {
        d.saturating_duration_since(Instant::now()).as_secs_f64()
    });
    let seconds = stall_guard(variables).min(left);
    move |problem| lp_backend(problem).with_time_limit(seconds)
}

/// Seconds an LP of `variables` variables may run: 5 s plus `1e-4 n^1.5`
/// (`n = 4096`, the direct loss LP at N = 64, gets 31 s and solves in about 2 s;
/// `n = 10^4` gets 105 s).
fn stall_guard(variables: usize) -> f64 {
    5.0 + 1e-4 * (variables as f64).powf(1.5)
}

/// Runs `solve` on a thread of its own and waits for it until `deadline`:
/// microlp looks at its clock once per thousand pivots, which on a large LP is
/// many seconds (the direct LP of PMC over a ball at N = 32 ended 56 s past a
/// 5 s limit), and building a large LP does not look at all. At the deadline
/// the answer is "time limit reached" (microlp's words, read by
/// `limits::explain` as a stop by the clock); the solve left behind stops at
/// its own next look at the same deadline, and its answer is dropped. Without
/// a deadline `solve` runs on the calling thread.
pub(crate) fn until_deadline<T: Send + 'static>(
    deadline: Option<Instant>,
    what: &'static str,
    solve: impl FnOnce() -> crate::error::Result<T> + Send + 'static,
) -> crate::error::Result<T> {
    let Some(deadline) = deadline else {
        return solve();
    };
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("pml-lp".into())
        .spawn(move || {
            let _ = tx.send(solve());
        })
        .map_err(|e| {
            crate::error::SolverError::Lp(format!("{what}: could not start its thread: {e}"))
        })?;
    let failed = |why: &str| Err(crate::error::SolverError::Lp(format!("{what}: {why}")));
    match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(answer) => answer,
        Err(RecvTimeoutError::Timeout) => {
            failed("Time limit reached before finding a feasible solution")
        }
        Err(RecvTimeoutError::Disconnected) => failed("the solver stopped without an answer"),
    }
}
