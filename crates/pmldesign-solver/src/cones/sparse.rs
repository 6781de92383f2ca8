//! The eps-PML cone of one column in sparse form (docs/theory.md §3):
//! `max_x c_x <= E min_k (l_k . c + h min_x c)`, with one functional per prior
//! vertex (or the estimate alone under \[E\] Prop 2). The direct loss LP is
//! built on it, and its duals are checked against it.

use crate::error::Result;
use ndarray::Array1;
use pmldesign_model::uncertainty::{DEFAULT_VERTEX_LIMIT, l1_ball_vertices};
use pmldesign_model::{ColumnCone, UncertaintySet};

/// The cone of one column in the sparse form of the module docs:
/// `max_x c_x <= e * min_k (l_k . c + h min_x c)`.
#[derive(Clone)]
pub struct Constraints {
    /// `E` (`e^eps`, or `e^eps'` under Proposition 2).
    pub e: f64,
    /// The functionals `l_k`.
    pub(crate) functionals: Vec<Array1<f64>>,
    /// `h = beta/2` under Proposition 2, else 0 (no `t` variables).
    pub(crate) h: f64,
}

impl Constraints {
    /// The constraints of the eps-PML cone over `set`.
    pub fn new(set: &UncertaintySet, epsilon: f64) -> Result<Self> {
        let cone = ColumnCone::pml(set, epsilon)?;
        let e = cone.effective_exp_epsilon();
        Ok(match &cone {
            ColumnCone::PmlKnownPrior { prior, .. } => Constraints {
                e,
                functionals: vec![prior.masses().to_owned()],
                h: 0.0,
            },
            ColumnCone::PmlL1Ball { center, beta, .. } if cone.is_proposition_2() => Constraints {
                e,
                functionals: vec![center.masses().to_owned()],
                h: beta / 2.0,
            },
            ColumnCone::PmlL1Ball { center, beta, .. } => Constraints {
                e,
                functionals: l1_ball_vertices(center, *beta, DEFAULT_VERTEX_LIMIT)?,
                h: 0.0,
            },
            ColumnCone::PmlPolytope { vertices, .. } => Constraints {
                e,
                functionals: vertices.clone(),
                h: 0.0,
            },
            _ => unreachable!("ColumnCone::pml builds PML cones only"),
        })
    }

    pub(crate) fn uses_t(&self) -> bool {
        self.h > 0.0
    }
}
