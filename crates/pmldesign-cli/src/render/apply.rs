//! What `pml apply` says on stderr once the output is written.

use pmldesign_data::PrivatiseSummary;
use std::path::Path;

/// One line for stderr: what was read and written, and the rows outside the alphabet.
pub fn summary_line(s: &PrivatiseSummary, data: &Path, output: &Path) -> String {
    let mut line = format!(
        "pml apply: read {} of {}, wrote {} with {} privatised",
        rows(s.rows),
        data.display(),
        output.display(),
        s.privatised
    );
    if s.skipped > 0 {
        line.push_str(&format!(
            "; {} with a value outside the alphabet skipped",
            rows(s.skipped)
        ));
    }
    if s.kept > 0 {
        line.push_str(&format!(
            "; {} with a value outside the alphabet kept with an empty privatised value",
            rows(s.kept)
        ));
    }
    if let Some((line_no, value)) = &s.first_unknown {
        line.push_str(&format!(" (the first at line {line_no}: {value:?})"));
    }
    line
}

fn rows(n: u64) -> String {
    format!("{n} row{}", if n == 1 { "" } else { "s" })
}
