//! The notion a user asks for by name and levels, built by one rule for every
//! front end: which levels each notion takes (ALIP two, metric privacy a
//! distance, the others one level), which it refuses (another notion's), and
//! the checks of [`Notion::check`]. A front end says how it spells each field
//! ([`Spelling`]), so that a refusal names what its user typed: `--epsilon-lower`
//! on the command line, `epsilon_lower` in Python.
//!
//! ```
//! use pmldesign_app::names::NotionKind;
//! use pmldesign_app::notion::{Field, Levels, Spelling, notion};
//!
//! struct Keywords;
//! impl Spelling for Keywords {
//!     fn field(&self, f: Field) -> &'static str {
//!         match f {
//!             Field::Notion => "notion",
//!             Field::Epsilon | Field::EpsilonUpper => "epsilon",
//!             Field::EpsilonLower => "epsilon_lower",
//!             Field::Metric => "metric",
//!         }
//!     }
//!     fn set(&self, f: Field, value: &str) -> String {
//!         format!("{}={value}", self.field(f))
//!     }
//! }
//! let levels = Levels { epsilon: Some(1.0), epsilon_lower: Some(0.5), epsilon_upper: None };
//! let alip = notion(NotionKind::Alip, levels, None, &Keywords)?;
//! assert_eq!(alip.epsilon(), 1.0);
//! let e = notion(NotionKind::Pml, levels, None, &Keywords).unwrap_err();
//! assert!(e.to_string().starts_with("invalid epsilon_lower = 0.5: it sets an ALIP level"));
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

use crate::names::NotionKind;
use pmldesign_model::{Metric, ModelError, Notion};

type Result<T> = std::result::Result<T, ModelError>;

/// A field of a notion's request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The notion's name.
    Notion,
    /// The level (eps).
    Epsilon,
    /// ALIP's lower level (the PMC side).
    EpsilonLower,
    /// ALIP's upper level (the LIP side; the level where not given).
    EpsilonUpper,
    /// Metric privacy's distance.
    Metric,
}

/// How a front end writes a field, so that a refusal names what its user typed.
pub trait Spelling {
    /// The field as the user gives it (`--epsilon-lower`, `epsilon_lower`).
    fn field(&self, f: Field) -> &'static str;
    /// The field set to `value` (`--notion alip`, `notion="alip"`).
    fn set(&self, f: Field, value: &str) -> String;
}

/// The levels a request gives (each `None` where not given).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Levels {
    /// The level eps (`--epsilon`, `--exp-epsilon`, `epsilon=`).
    pub epsilon: Option<f64>,
    /// ALIP's lower level.
    pub epsilon_lower: Option<f64>,
    /// ALIP's upper level (default: the level).
    pub epsilon_upper: Option<f64>,
}

/// The notion `kind` at `levels` (with `metric` for metric privacy), checked;
/// a level or a distance of another notion is refused, naming the notion
/// that takes it.
pub fn notion(
    kind: NotionKind,
    levels: Levels,
    metric: Option<Metric>,
    spell: &dyn Spelling,
) -> Result<Notion> {
    refuse_others(kind, levels, metric.as_ref(), spell)?;
    let level = || {
        levels.epsilon.ok_or_else(|| {
            missing(
                spell,
                Field::Epsilon,
                "the notion needs its level",
                spell.set(Field::Epsilon, "1"),
            )
        })
    };
    let n = match kind {
        NotionKind::Pml => Notion::Pml { epsilon: level()? },
        NotionKind::Pmc => Notion::Pmc { epsilon: level()? },
        NotionKind::Lip => Notion::Lip { epsilon: level()? },
        NotionKind::Ldp => Notion::Ldp { epsilon: level()? },
        NotionKind::Metric => Notion::Metric {
            epsilon: level()?,
            metric: metric.ok_or_else(|| {
                missing(
                    spell,
                    Field::Metric,
                    "metric privacy needs its distance",
                    format!(
                        "{} (or an N x N matrix)",
                        spell.set(Field::Metric, "discrete")
                    ),
                )
            })?,
        },
        NotionKind::Alip => alip(levels, spell)?,
    };
    n.check().map_err(|e| spelled(e, spell))?;
    Ok(n)
}

/// ALIP's levels: the upper one given, else the level; the lower one required.
fn alip(levels: Levels, spell: &dyn Spelling) -> Result<Notion> {
    let upper = levels.epsilon_upper.or(levels.epsilon).ok_or_else(|| {
        missing(
            spell,
            Field::EpsilonUpper,
            "ALIP needs its upper level",
            spell.set(Field::Epsilon, "1"),
        )
    })?;
    let lower = levels.epsilon_lower.ok_or_else(|| {
        missing(
            spell,
            Field::EpsilonLower,
            "ALIP needs its lower level (the PMC side, i >= -eps_l)",
            spell.set(Field::EpsilonLower, "0.5"),
        )
    })?;
    for (f, v) in [(Field::EpsilonLower, lower), (Field::EpsilonUpper, upper)] {
        if !v.is_finite() || v < 0.0 {
            return Err(ModelError::invalid(
                spell.field(f),
                v,
                "an ALIP level must be a finite number >= 0",
                format!("pass e.g. {}", spell.set(f, "0.5")),
            ));
        }
    }
    Ok(Notion::Alip {
        epsilon_lower: lower,
        epsilon_upper: upper,
    })
}

/// Refuses ALIP's levels without ALIP and a distance without metric privacy.
fn refuse_others(
    kind: NotionKind,
    levels: Levels,
    metric: Option<&Metric>,
    spell: &dyn Spelling,
) -> Result<()> {
    if kind != NotionKind::Alip {
        let given = [
            (Field::EpsilonLower, levels.epsilon_lower),
            (Field::EpsilonUpper, levels.epsilon_upper),
        ];
        if let Some((f, Some(v))) = given.into_iter().find(|(_, v)| v.is_some()) {
            return Err(ModelError::invalid(
                spell.field(f),
                v,
                "it sets an ALIP level",
                format!(
                    "add {}, or give the level with {}",
                    spell.set(Field::Notion, "alip"),
                    spell.field(Field::Epsilon)
                ),
            ));
        }
    }
    match (kind, metric) {
        (NotionKind::Metric, _) | (_, None) => Ok(()),
        (_, Some(m)) => Err(ModelError::invalid(
            spell.field(Field::Metric),
            m.name(),
            "it sets the distance of metric privacy",
            format!("add {}", spell.set(Field::Notion, "metric")),
        )),
    }
}

/// A required field not given.
fn missing(spell: &dyn Spelling, f: Field, problem: &str, example: String) -> ModelError {
    ModelError::invalid(
        spell.field(f),
        "none",
        problem,
        format!("pass e.g. {example}"),
    )
}

/// [`Notion::check`]'s error, its field as the front end spells it.
fn spelled(e: ModelError, spell: &dyn Spelling) -> ModelError {
    let f = match &e {
        ModelError::Invalid { field, .. } => match field.as_str() {
            "epsilon" => Field::Epsilon,
            "metric" => Field::Metric,
            _ => return e,
        },
        _ => return e,
    };
    match e {
        ModelError::Invalid {
            value,
            problem,
            fix,
            ..
        } => ModelError::Invalid {
            field: spell.field(f).to_string(),
            value,
            problem,
            fix,
        },
        other => other,
    }
}
