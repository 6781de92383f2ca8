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
        "for every post-processing Z of the output, P(l(X -> Z) > {}) <= {delta}{}",
        crate::printed::level(epsilon),
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

/// The guarantee of a design over the ball around a noisy estimate
/// ([`crate::private_prior`]): the release's PML for the true distribution, and
/// the published mechanism's differential privacy about the dataset.
pub fn private_sample_guarantee(
    epsilon: f64,
    delta: f64,
    noisy_total: u64,
    epsilon_d: f64,
) -> String {
    format!(
        "with probability at least 1 - {delta} over the sample and the noise, every row's release is {epsilon}-PML for the true distribution; the published mechanism is {epsilon_d}-DP about the dataset (a row added or removed; {}-DP for a row changed), a post-processing of counts given discrete Laplace noise of scale 1/{epsilon_d} (noisy total {noisy_total})",
        2.0 * epsilon_d
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
            format!(
                "every prior within l1 distance {} of the estimate",
                radius_text(*beta)
            )
        }
        UncertaintySet::Polytope { vertices } => {
            format!("every prior in the hull of {} vertices", vertices.len())
        }
    }
}

/// A ball's radius as a statement prints it: as given when it has at most six
/// significant digits, else rounded down to six, so that the ball named is never
/// larger than the one certified (a smaller ball's guarantee is implied).
///
/// ```
/// use pmldesign_model::statement::radius_text;
/// assert_eq!(radius_text(0.1), "0.1");
/// assert_eq!(radius_text(0.33570193932026215), "0.335701");
/// assert_eq!(radius_text(1.0415165300257812), "1.04151");
/// ```
pub fn radius_text(beta: f64) -> String {
    let plain = beta.to_string();
    let digits = plain.trim_start_matches(['0', '.']).replace('.', "");
    if digits.len() <= 6 || !beta.is_finite() || beta <= 0.0 {
        return plain;
    }
    let decimals = (5 - beta.log10().floor() as i32).max(0);
    let scale = 10f64.powi(decimals);
    format!("{:.*}", decimals as usize, (beta * scale).floor() / scale)
}

/// A certificate's PML clause: `<=` only when the measured worst case is at most
/// the target; a value above it (by rounding, within the certified `tolerance`) is
/// stated as such, with enough digits to see it.
///
/// ```
/// use pmldesign_model::statement::pml_clause;
/// assert_eq!(pml_clause(0.5, 0.5, 1e-12), "worst-case PML 0.500000000 <= eps 0.500000000");
/// assert!(pml_clause(0.5 + 1e-15, 0.5, 1e-12).starts_with("holds within the certified tolerance 1e-12"));
/// ```
pub fn pml_clause(worst: f64, target: f64, tolerance: f64) -> String {
    if worst <= target {
        format!(
            "worst-case PML {} <= eps {target:.9}",
            crate::printed::level_at(worst, 9)
        )
    } else {
        // The verdict first; the arithmetic after, without 17 digits.
        format!(
            "holds within the certified tolerance {tolerance:.0e}: worst-case PML is eps {target:.9} + {} (rounding)",
            crate::printed::level(worst - target)
        )
    }
}
