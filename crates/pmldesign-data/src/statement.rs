//! The English sentences published beside the numbers: what a data holder can
//! state from envelope bounds (`docs/theory.md` §8). Produced here, at the edge,
//! for the CLI and the bindings alike; the model returns numbers only.
//!
//! ```
//! let s = pmldesign_data::statement::publishable(4f64.ln(), 0.1, true);
//! assert!(s.contains("> 1.386295) <= 0.1"));
//! ```

use pmldesign_model::envelope::EnvelopeBounds;

/// The statement a data holder can publish when `eps_c(delta) <= epsilon`: "for
/// every post-processing Z, `P(l(X -> Z) > eps) <= delta`", with eps rounded *up*
/// to 6 decimals so that the printed level is never below the bound; `tight` adds
/// that no smaller eps holds.
pub fn publishable(epsilon: f64, delta: f64, tight: bool) -> String {
    format!(
        "for every post-processing Z of the output, P(l(X -> Z) > {:.6}) <= {delta}{}",
        (epsilon * 1e6).ceil() / 1e6,
        if tight {
            " (the envelope: no smaller eps holds)"
        } else {
            ""
        }
    )
}

/// The [`publishable`] statement of envelope bounds: their upper end at their delta.
pub fn envelope(b: &EnvelopeBounds) -> String {
    publishable(b.upper, b.delta, b.exact)
}
