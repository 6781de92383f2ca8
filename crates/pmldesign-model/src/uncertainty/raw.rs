//! The stored layout of an [`UncertaintySet`], read as written and then checked
//! as the constructors check it, so a file cannot hold what code cannot build.

use super::UncertaintySet;
use crate::error::ModelError;
use crate::prior::Prior;

/// [`UncertaintySet`] as stored: the same tags and fields, not yet checked.
#[derive(serde::Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub(super) enum RawSet {
    Known {
        prior: Prior,
    },
    L1Ball {
        #[serde(deserialize_with = "crate::prior::center_from_vec")]
        center: Prior,
        beta: f64,
    },
    Polytope {
        vertices: Vec<Vec<f64>>,
    },
}

/// A ball built past [`UncertaintySet::l1_ball`]'s checks, for the tests of
/// what the checks (and the passes over a set) do with any radius.
pub fn unchecked_ball(center: Prior, beta: f64) -> UncertaintySet {
    UncertaintySet::L1Ball { center, beta }
}

/// A polytope built past [`UncertaintySet::polytope`]'s checks.
pub fn unchecked_polytope(vertices: Vec<Vec<f64>>) -> UncertaintySet {
    UncertaintySet::Polytope { vertices }
}

impl TryFrom<RawSet> for UncertaintySet {
    type Error = ModelError;
    fn try_from(raw: RawSet) -> Result<Self, ModelError> {
        let set = match raw {
            RawSet::Known { prior } => UncertaintySet::Known { prior },
            RawSet::L1Ball { center, beta } => UncertaintySet::L1Ball { center, beta },
            RawSet::Polytope { vertices } => UncertaintySet::Polytope { vertices },
        };
        set.validate()?;
        Ok(set)
    }
}
