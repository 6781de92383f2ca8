//! The English printed beside the library's numbers: sets of priors, and the
//! statements a data holder can publish. No mathematics here.

use pmldesign_model::UncertaintySet;

pub use pmldesign_model::statement::{describe_set, envelope as envelope_statement};

/// A set of priors in an assessment report: around "the prior".
pub fn describe_assessed_set(s: &UncertaintySet) -> String {
    match s {
        UncertaintySet::Known { .. } => "the known prior".into(),
        UncertaintySet::L1Ball { beta, .. } => {
            format!(
                "every prior within l1 distance {} of the prior",
                pmldesign_model::statement::radius_text(*beta)
            )
        }
        UncertaintySet::Polytope { vertices, .. } => {
            format!("every prior in the hull of {} given priors", vertices.len())
        }
        // A set of another kind: the library's own words for it.
        other => describe_set(other),
    }
}

/// A design's sample guarantee in words: the sentence the design carries (set by
/// the solve, re-derived when a design file is read).
pub fn guarantee_statement(d: &pmldesign_solver::Design) -> Option<String> {
    d.guarantee()?.statement().map(str::to_string)
}

#[cfg(test)]
mod tests {
    #[test]
    fn statement_rounds_the_level_up() {
        use pmldesign_model::statement::publishable as statement;
        let ln4 = 4f64.ln();
        let s = statement(ln4, 0.1, true);
        assert!(s.contains("> 1.386295) <= 0.1"), "{s}");
        assert!(s.ends_with("no smaller eps holds)"), "{s}");
        assert!(!statement(0.5, 0.05, false).contains("envelope"));
    }
}
