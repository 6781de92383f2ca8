//! Privacy levels as text: rounded *up* at the precision printed, so that a
//! printed eps, LDP level, PML or leakage, read back, is never below the level
//! measured (a reader who publishes the printed figure never understates it).
//! Utilities and other numbers keep their rounding to nearest.
//!
//! ```
//! use pmldesign_model::printed::{certified, level};
//! assert_eq!(level(14.1718864), "14.171887");
//! assert_eq!(level(0.5), "0.500000");
//! assert_eq!(level(2e-12), "2e-12");
//! assert_eq!(level(f64::INFINITY), "inf");
//! assert_eq!(certified(0.5 + 1e-15, 0.5, 1e-12), "0.500000");
//! let eps = (9f64 / 8.0).ln(); // 0.1177830357: met with equality, printed as eps is
//! assert_eq!(certified(eps, eps, 1e-12), format!("{eps:.6}"));
//! ```

/// A level at 6 decimals, rounded up ([`level_at`]).
pub fn level(x: f64) -> String {
    level_at(x, 6)
}

/// A level at `decimals` decimals, rounded up: the text, read back as a number,
/// is at least `x`. A positive level below one unit of the last decimal is
/// written in scientific notation with three significant digits, rounded up
/// (`2e-12`, never `0.000000`); `inf` and `nan` as such.
pub fn level_at(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    let unit = 10f64.powi(-(decimals as i32));
    if x > 0.0 && x < unit {
        return scientific_up(x);
    }
    let fixed = |v: f64| format!("{v:.decimals$}");
    let text = fixed(x);
    match text.parse::<f64>() {
        Ok(v) if v < x => fixed(v + unit),
        _ => text,
    }
}

/// A level certified against `target` within `tolerance`: a level within the
/// tolerance of the target is the target, printed as the target is (at 6
/// decimals; the certificate states the tolerance beside it), so that a level
/// met with equality reads as the eps asked for; any other, [`level`].
pub fn certified(x: f64, target: f64, tolerance: f64) -> String {
    if (x - target).abs() <= tolerance {
        return format!("{target:.6}");
    }
    level(x)
}

/// `x > 0` with three significant digits in scientific notation, rounded up,
/// trailing zeros of the mantissa dropped (`2e-12`, `1.25e-9`).
fn scientific_up(x: f64) -> String {
    let text = format!("{x:.2e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let (mut m, mut e): (f64, i32) = (
        mantissa.parse().unwrap_or(0.0),
        exponent.parse().unwrap_or(0),
    );
    if text.parse::<f64>().is_ok_and(|v| v < x) {
        m += 0.01;
        if m >= 9.995 {
            m /= 10.0;
            e += 1;
        }
    }
    let m = format!("{m:.2}");
    let m = m.trim_end_matches('0').trim_end_matches('.');
    format!("{m}e{e}")
}
