//! Text in HTML: escaping and the number forms the report prints (the CLI's:
//! six decimals, `inf`, short forms).

/// `s` with `& < > " '` escaped, safe in element content and quoted attributes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

pub use pmldesign_model::printed::{certified, level};

/// A number with 6 decimals, or `inf` / `nan` (utilities and probabilities; a
/// privacy level is printed rounded up by [`level`]).
pub fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else if x.is_nan() {
        "nan".into()
    } else {
        "inf".into()
    }
}

/// A number as given when short (0.1), else to 6 decimals.
pub fn short(x: f64) -> String {
    let s = x.to_string();
    if s.len() > 10 { num(x) } else { s }
}

/// A tick label: at most 4 significant digits, trailing zeros dropped.
pub fn tick(x: f64) -> String {
    if x == 0.0 {
        return "0".into();
    }
    let a = x.abs();
    let s = if (1e-3..1e5).contains(&a) {
        let decimals = (3 - a.log10().floor() as i32).clamp(0, 6) as usize;
        format!("{x:.decimals$}")
    } else {
        return format!("{x:.1e}");
    };
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_numbers() {
        assert_eq!(escape("<script>&'\""), "&lt;script&gt;&amp;&#39;&quot;");
        assert_eq!(num(f64::INFINITY), "inf");
        assert_eq!(short(0.1), "0.1");
        assert_eq!(tick(0.25), "0.25");
        assert_eq!(tick(1500.0), "1500");
        assert_eq!(tick(2e-5), "2.0e-5");
    }
}
