//! One spelling of every name a user gives for a value of the library's enums:
//! `pml`'s flags (`--loss hamming`) and Python's options (`loss="hamming"`)
//! both parse through these tables, so a name means the same everywhere and
//! an unknown one is refused alike, naming the field and the names it takes
//! (`--nulls` / `nulls=` parse through `pmldesign_data::Nulls::parse`).

use pmldesign_model::frequency::FrequencyMethod;
use pmldesign_model::sample::RadiusMethod;
use pmldesign_model::{Metric, ModelError};
use pmldesign_solver::{Loss, LossMethod, PricingMethod, RecordMode};

/// A value a user names: its field, and every name with its value.
pub trait Named: Sized {
    /// The option's name (`loss`, `pricing`, ...).
    const FIELD: &'static str;
    /// What else the option takes beside the names, if anything (for the fix).
    const OTHERWISE: Option<&'static str> = None;
    /// Every name and its value, in the order documented.
    fn all() -> Vec<(&'static str, Self)>;
}

/// The value named `name`, or an error naming the field and the names it takes.
pub fn parse<T: Named>(name: &str) -> Result<T, ModelError> {
    let found = T::all().into_iter().find(|(n, _)| *n == name);
    found.map(|(_, v)| v).ok_or_else(|| {
        let names: Vec<&str> = T::all().iter().map(|(n, _)| *n).collect();
        let names = names.join(", ");
        let fix = match T::OTHERWISE {
            Some(other) => format!("use one of {names}, or {other}"),
            None => format!("use one of {names}"),
        };
        ModelError::invalid(T::FIELD, name, format!("unknown {}", T::FIELD), fix)
    })
}

/// The names of `T`, in the order documented.
pub fn names<T: Named>() -> Vec<&'static str> {
    T::all().into_iter().map(|(n, _)| n).collect()
}

impl Named for Loss {
    const FIELD: &'static str = "loss";
    const OTHERWISE: Option<&'static str> = Some("an N x N matrix");
    fn all() -> Vec<(&'static str, Self)> {
        vec![
            ("hamming", Loss::Hamming),
            ("absolute", Loss::Absolute),
            ("squared", Loss::Squared),
        ]
    }
}

impl Named for PricingMethod {
    const FIELD: &'static str = "pricing";
    fn all() -> Vec<(&'static str, Self)> {
        vec![
            ("auto", PricingMethod::Auto),
            ("enumerate", PricingMethod::Enumerate),
        ]
    }
}

impl Named for LossMethod {
    const FIELD: &'static str = "loss_method";
    fn all() -> Vec<(&'static str, Self)> {
        vec![
            ("auto", LossMethod::Auto),
            ("direct", LossMethod::Direct),
            ("column-generation", LossMethod::ColumnGeneration),
        ]
    }
}

impl Named for RadiusMethod {
    const FIELD: &'static str = "radius";
    fn all() -> Vec<(&'static str, Self)> {
        vec![
            ("free", RadiusMethod::DistributionFree),
            ("kappa", RadiusMethod::Kappa),
        ]
    }
}

impl Named for FrequencyMethod {
    const FIELD: &'static str = "method";
    fn all() -> Vec<(&'static str, Self)> {
        vec![
            ("em", FrequencyMethod::Em),
            ("inversion", FrequencyMethod::Inversion),
        ]
    }
}

impl Named for RecordMode {
    const FIELD: &'static str = "mode";
    fn all() -> Vec<(&'static str, Self)> {
        vec![
            ("auto", RecordMode::Auto),
            ("joint", RecordMode::Joint),
            ("compose", RecordMode::Compose),
            ("ldp", RecordMode::Ldp),
        ]
    }
}

/// A privacy notion by its name, before its levels (`--notion`, `notion=`):
/// each front end then reads the levels it takes (docs/theory.md §1). Not
/// `#[non_exhaustive]`: a new notion is one every front end has to handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotionKind {
    /// eps-PML.
    Pml,
    /// eps-PMC.
    Pmc,
    /// (eps_l, eps_u)-ALIP.
    Alip,
    /// eps-LIP.
    Lip,
    /// eps-LDP.
    Ldp,
    /// Metric (d-) privacy.
    Metric,
}

impl Named for NotionKind {
    const FIELD: &'static str = "notion";
    fn all() -> Vec<(&'static str, Self)> {
        vec![
            ("pml", NotionKind::Pml),
            ("pmc", NotionKind::Pmc),
            ("alip", NotionKind::Alip),
            ("lip", NotionKind::Lip),
            ("ldp", NotionKind::Ldp),
            ("metric", NotionKind::Metric),
        ]
    }
}

impl Named for Metric {
    const FIELD: &'static str = "metric";
    const OTHERWISE: Option<&'static str> = Some("an N x N matrix");
    fn all() -> Vec<(&'static str, Self)> {
        vec![("discrete", Metric::Discrete), ("line", Metric::Line)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T: Named + PartialEq + std::fmt::Debug>() {
        for (name, value) in T::all() {
            assert_eq!(parse::<T>(name).unwrap(), value, "{name}");
        }
        let e = parse::<T>("no-such-name").unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("invalid {} = no-such-name: unknown", T::FIELD)),
            "{e}"
        );
        assert!(e.contains(&names::<T>().join(", ")), "{e}");
    }

    #[test]
    fn every_name_parses_to_its_value_and_no_other_does() {
        round_trip::<Loss>();
        round_trip::<PricingMethod>();
        round_trip::<LossMethod>();
        round_trip::<RadiusMethod>();
        round_trip::<FrequencyMethod>();
        round_trip::<RecordMode>();
        round_trip::<NotionKind>();
        round_trip::<Metric>();
        assert!(
            parse::<Loss>("x")
                .unwrap_err()
                .to_string()
                .ends_with("or an N x N matrix")
        );
    }
}
