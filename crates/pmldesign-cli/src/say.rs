//! What `pml` says on stderr beside its output: notes and summaries, which
//! `--quiet` silences, and warnings about a guarantee, which it never does.

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by `--quiet`.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Silences notes, summaries and the progress line from now on (`--quiet`).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was given.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// A note or a summary line on stderr, unless `--quiet`.
pub fn note(text: &str) {
    if !quiet() {
        eprintln!("{text}");
    }
}
