//! What a mechanism is worth: sub-convex utilities (\[E\] eq. 2) and label losses
//! (docs/theory.md §4). Nothing here knows a cone or a solver.

pub(crate) mod a_priori;
pub(crate) mod estimation;
pub(crate) mod estimation_floor;
pub(crate) mod estimation_levels;
pub(crate) mod estimation_mixture;
pub(crate) mod loss;
pub(crate) mod utility;
