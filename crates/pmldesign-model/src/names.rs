//! Names of symbols (a mechanism's input labels, its outputs): each non-blank and
//! distinct, the one rule every reader and writer of names applies.

use crate::error::{ModelError, Result};

/// Names that must each be non-blank and distinct: an error names `field[i]` of
/// the first that is not.
pub fn check_names(field: &str, names: &[String]) -> Result<()> {
    // A set, not a scan of the names before each: linear in a file's size,
    // where the scan is quadratic in the count of names (files of 100,000
    // outputs are read).
    let mut seen = std::collections::HashSet::with_capacity(names.len());
    for (i, l) in names.iter().enumerate() {
        if l.trim().is_empty() {
            return Err(ModelError::invalid(
                format!("{field}[{i}]"),
                format!("{l:?}"),
                "blank label",
                "give every symbol a name",
            ));
        }
        if !seen.insert(l.as_str()) {
            return Err(ModelError::invalid(
                format!("{field}[{i}]"),
                l,
                "duplicate label",
                "give every symbol a distinct name",
            ));
        }
    }
    Ok(())
}

/// Names for `m` values (the outputs of a mechanism, the private values of a
/// column): exactly `m` of them, each non-blank and distinct. The one rule of
/// `--output-labels` and `output_labels=`.
pub fn check_names_for(field: &str, names: &[String], m: usize) -> Result<()> {
    if names.len() != m {
        return Err(ModelError::invalid(
            field,
            format!("{} names", names.len()),
            format!("it takes {m} names, one per value"),
            format!("give {m} distinct, non-empty names"),
        ));
    }
    check_names(field, names)
}
