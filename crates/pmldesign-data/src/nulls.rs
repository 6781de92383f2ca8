//! Missing values: what counting and privatising do with a null (a Parquet null,
//! an empty or blank CSV field; Python's `None`, `NaN`, `pd.NA`).
//!
//! The choice is the data holder's and is made once, at design time; it is
//! recorded in the design (`provenance.settings.nulls`) so that `pml apply`
//! privatises the rows as they were counted (`docs/theory.md` §6).

use pmldesign_model::{ModelError, Result};
use serde::{Deserialize, Serialize};

/// The category a null becomes under [`Nulls::Category`]. A value written
/// `<null>` in the data is the same category.
pub const NULL_LABEL: &str = "<null>";

/// How to get past a missing value when counting, in every error that refuses one.
pub(crate) const COUNT_FIX: &str = "fill it in, or say what a missing value does: \
     --nulls drop (left out) or --nulls category (counted as <null>); nulls= in Python";

/// How to get past a missing value when privatising, in every error that refuses one.
pub(crate) const APPLY_FIX: &str = "design with --nulls drop or category (nulls= in Python), \
     fill the missing values, or skip or keep such rows";

/// What a null does.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Nulls {
    /// Refused, naming its row (the default everywhere).
    #[default]
    Error,
    /// Left out of the counts; when privatising, written as a null (the row is
    /// kept). Whether a value is missing is then released as it is, outside any
    /// guarantee: the choice for data where missingness is public.
    Drop,
    /// Counted, and privatised, as one more category, [`NULL_LABEL`]: missingness
    /// is protected with the rest of the value.
    Category,
}

impl Nulls {
    /// The name used by `--nulls` and `nulls=` (`error`, `drop`, `category`).
    pub fn name(self) -> &'static str {
        match self {
            Nulls::Error => "error",
            Nulls::Drop => "drop",
            Nulls::Category => "category",
        }
    }

    /// The choice named `text`, as [`Nulls::name`] writes it; anything else is an
    /// error naming `field`.
    pub fn parse(field: &str, text: &str) -> Result<Self> {
        match text {
            "error" => Ok(Nulls::Error),
            "drop" => Ok(Nulls::Drop),
            "category" => Ok(Nulls::Category),
            _ => Err(ModelError::invalid(
                field,
                format!("{text:?}"),
                "not a way to handle missing values",
                "give error, drop or category",
            )),
        }
    }
}

/// Whether a CSV field (or a text value) is missing: empty or blank (white space
/// only, as `str::trim` sees it).
#[inline]
pub fn is_missing(value: &[u8]) -> bool {
    value.is_empty() || std::str::from_utf8(value).is_ok_and(|s| s.trim().is_empty())
}

impl Nulls {
    /// A record's row under this rule: under [`Nulls::Category`] each missing
    /// value becomes [`NULL_LABEL`]; under [`Nulls::Drop`] a row with a missing
    /// value is left out (`false`: not counted, written with every private value
    /// missing); under [`Nulls::Error`] the values are left as they are (a
    /// missing one is then refused, naming its field).
    pub fn record_row(self, values: &mut [&[u8]]) -> bool {
        match self {
            Nulls::Error => true,
            Nulls::Drop => !values.iter().any(|v| is_missing(v)),
            Nulls::Category => {
                for v in values.iter_mut().filter(|v| is_missing(v)) {
                    *v = NULL_LABEL.as_bytes();
                }
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_rows_under_each_rule() {
        let row = || [&b"a"[..], &b" "[..]];
        let mut v = row();
        assert!(Nulls::Error.record_row(&mut v) && v == row());
        assert!(!Nulls::Drop.record_row(&mut row()));
        assert!(Nulls::Drop.record_row(&mut [&b"a"[..], &b"b"[..]]));
        let mut v = row();
        assert!(Nulls::Category.record_row(&mut v));
        assert_eq!(v, [&b"a"[..], NULL_LABEL.as_bytes()]);
    }

    #[test]
    fn names_round_trip() {
        for n in [Nulls::Error, Nulls::Drop, Nulls::Category] {
            assert_eq!(Nulls::parse("nulls", n.name()).unwrap(), n);
        }
        let e = Nulls::parse("--nulls", "skip").unwrap_err().to_string();
        assert!(
            e.contains("--nulls") && e.contains("error, drop or category"),
            "{e}"
        );
        assert!(is_missing(b"") && is_missing(b" \t") && !is_missing(b" a"));
    }
}
