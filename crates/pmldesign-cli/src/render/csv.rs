//! Text cells of CSV output, quoted where needed and guarded against formula
//! injection: every label or name `pml` writes into CSV passes through here.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("=1+1"), "'=1+1");
    }
}
