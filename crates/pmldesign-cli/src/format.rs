//! The formatting helpers every subcommand shares: numbers, CSV cells, sets of
//! priors and the English statements printed beside the library's numbers. No
//! mathematics here.

use pmldesign_model::UncertaintySet;
use serde_json::{Value, json};

/// A number for JSON: null when it is not finite (serde_json would write null
/// anyway; this says so where it can happen).
pub fn finite_or_null(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// A number with 6 decimals, or `inf`.
pub fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        "inf".into()
    }
}

/// A text cell of CSV output: [`defuse`]d, then quoted if it holds a comma, a quote
/// or a line break.
pub fn csv_field(s: &str) -> String {
    let s = defuse(s);
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.into_owned()
    }
}

/// The one guard against CSV injection (OWASP): a text cell that a spreadsheet would
/// run as a formula, one starting with `=`, `+`, `-`, `@`, a tab or a carriage
/// return, gets a leading single quote. Numbers (`-0.5`, `+1`) are left as they are.
/// Every label or name `pml` writes into CSV passes through here.
pub fn defuse(s: &str) -> std::borrow::Cow<'_, str> {
    let risky = s.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if risky && s.trim().parse::<f64>().is_err() {
        std::borrow::Cow::Owned(format!("'{s}"))
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// A set of priors in a design report: around "the estimate".
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

/// A set of priors in an assessment report: around "the prior".
pub fn describe_assessed_set(s: &UncertaintySet) -> String {
    match s {
        UncertaintySet::Known { .. } => "the known prior".into(),
        UncertaintySet::L1Ball { beta, .. } => {
            format!(
                "every prior within l1 distance {} of the prior",
                short(*beta)
            )
        }
        UncertaintySet::Polytope { vertices } => {
            format!("every prior in the hull of {} given priors", vertices.len())
        }
    }
}

/// A number as given when short (0.1), else to 6 decimals.
pub fn short(x: f64) -> String {
    let s = x.to_string();
    if s.len() > 10 { format!("{x:.6}") } else { s }
}

/// An optional number with 6 decimals, `-` when absent.
pub fn opt(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), num)
}

/// Fixed notation in [1e-3, 1e7), scientific outside, about nine significant
/// digits; trailing zeros dropped.
pub fn significant(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    if (1e-3..1e7).contains(&x.abs()) {
        trim_zeros(&format!("{x:.9}"))
    } else {
        let s = format!("{x:.8e}");
        match s.split_once('e') {
            Some((mantissa, exp)) => format!("{}e{exp}", trim_zeros(mantissa)),
            None => s,
        }
    }
}

fn trim_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

pub use pmldesign_data::statement::{envelope as envelope_statement, envelope_at as statement_at};

/// A design's sample guarantee in words ([`pmldesign_data::statement::sample_guarantee`]).
pub fn guarantee_statement(d: &pmldesign_solver::Design) -> Option<String> {
    let g = d.guarantee.as_ref()?;
    Some(pmldesign_data::statement::sample_guarantee(
        d.epsilon, g.delta, g.samples,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statement_rounds_the_level_up() {
        use pmldesign_data::statement::publishable as statement;
        let ln4 = 4f64.ln();
        let s = statement(ln4, 0.1, true);
        assert!(s.contains("> 1.386295) <= 0.1"), "{s}");
        assert!(s.ends_with("no smaller eps holds)"), "{s}");
        assert!(!statement(0.5, 0.05, false).contains("envelope"));
    }

    #[test]
    fn numbers_and_cells() {
        assert_eq!(num(f64::INFINITY), "inf");
        assert_eq!(short(0.1), "0.1");
        assert_eq!(short(1.0 / 3.0), "0.333333");
        assert_eq!(significant(1234.5), "1234.5");
        assert_eq!(significant(1e-7), "1e-7");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("=1+1"), "'=1+1");
        assert_eq!(finite_or_null(f64::NAN), Value::Null);
    }
}
