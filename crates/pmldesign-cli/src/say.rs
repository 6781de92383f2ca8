//! What `pml` says on stderr beside its output: notes and summaries
//! ([`note`]), which `--quiet` silences, and warnings about a guarantee
//! ([`warn_guarantee`]), which it never does. A line belongs to the second kind
//! when it says that the release is weaker than its user may think: no finite
//! level, missingness released as is, a matrix whose guarantee was not checked,
//! a seed short enough to try them all.

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

/// A warning about a guarantee on stderr, whatever `--quiet` says: the release
/// is weaker than its user may think, and a script that silences the notes must
/// still see it.
pub fn warn_guarantee(text: &str) {
    eprintln!("{text}");
}
