//! Numbers as `pml` prints them: fixed decimals, `inf` and short forms.
//! Every report formats its numbers here, so that they read the same everywhere.

pub use pmldesign_model::printed::{certified, level};

/// A number with 6 decimals, or `inf`.
pub fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        "inf".into()
    }
}

/// A number as given when short (0.1), else to 6 decimals.
pub fn short(x: f64) -> String {
    let s = x.to_string();
    if s.len() > 10 { format!("{x:.6}") } else { s }
}

/// An optional privacy level rounded up ([`level`]), `-` when absent.
pub fn opt_level(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), level)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_cells() {
        assert_eq!(num(f64::INFINITY), "inf");
        assert_eq!(short(0.1), "0.1");
        assert_eq!(short(1.0 / 3.0), "0.333333");
        assert_eq!(significant(1234.5), "1234.5");
        assert_eq!(significant(1e-7), "1e-7");
    }
}
