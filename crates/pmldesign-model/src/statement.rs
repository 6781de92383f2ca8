//! The English sentences published beside the numbers: what a data holder can
//! state from envelope bounds (`docs/theory.md` §8) and from a design's sample
//! guarantee (§6), for the CLI and the bindings alike, and for the solver,
//! which re-derives the sentences a design file states.
//!
//! ```
//! let s = pmldesign_model::statement::publishable(4f64.ln(), 0.1, true);
//! assert!(s.contains("> 1.386295) <= 0.1"));
//! let g = pmldesign_model::statement::sample_guarantee(0.5, 1e-3, 1000);
//! assert!(g.contains("1 - 0.001") && g.contains("0.5-PML"));
//! ```

use crate::envelope::EnvelopeBounds;
use crate::uncertainty::UncertaintySet;

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

/// The (eps, delta) guarantee of a design from a sample of `samples` whose ball
/// holds the true prior with probability at least `1 - delta` (\[E\] Sec. III):
/// the numbers of the solver's `Guarantee` and the design's eps, in words.
pub fn sample_guarantee(epsilon: f64, delta: f64, samples: u64) -> String {
    format!(
        "with probability at least 1 - {delta} over the sample of {samples}, the mechanism is {epsilon}-PML for the true distribution"
    )
}

/// The [`publishable`] statement of envelope bounds: their upper end at their delta.
pub fn envelope(b: &EnvelopeBounds) -> String {
    publishable(b.upper, b.delta, b.exact)
}

/// The [`publishable`] statement at the delta of `b` with a level computed
/// beside the bounds (the envelope by linear program, `(level, tight)` from the
/// solver's `EnvelopeValue::published`).
pub fn envelope_at(b: &EnvelopeBounds, (level, tight): (f64, bool)) -> String {
    publishable(level, b.delta, tight)
}

/// A set of priors as a design states it: around "the estimate" (`known prior`,
/// `every prior within l1 distance beta of the estimate`, ...).
pub fn describe_set(set: &UncertaintySet) -> String {
    match set {
        UncertaintySet::Known { .. } => "known prior".into(),
        UncertaintySet::L1Ball { beta, .. } => {
            format!("every prior within l1 distance {beta} of the estimate")
        }
        UncertaintySet::Polytope { vertices } => {
            format!("every prior in the hull of {} vertices", vertices.len())
        }
    }
}

/// A certificate's PML clause: `<=` only when the measured worst case is at most
/// the target; a value above it (by rounding, within the certified `tolerance`) is
/// stated as such, with enough digits to see it.
///
/// ```
/// use pmldesign_model::statement::pml_clause;
/// assert_eq!(pml_clause(0.5, 0.5, 1e-12), "worst-case PML 0.500000000 <= eps 0.500000000");
/// assert!(pml_clause(0.5 + 1e-15, 0.5, 1e-12).contains("exceeds eps"));
/// ```
pub fn pml_clause(worst: f64, target: f64, tolerance: f64) -> String {
    if worst <= target {
        format!("worst-case PML {worst:.9} <= eps {target:.9}")
    } else {
        format!(
            "worst-case PML {worst:.17} exceeds eps {target:.17} by {:.1e} (rounding, within the certified tolerance {tolerance:.0e})",
            worst - target
        )
    }
}
