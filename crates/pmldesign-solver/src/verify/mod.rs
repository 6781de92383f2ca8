//! Checking a design without trusting the solver that made it (docs/theory.md §4,
//! "Checking a stored design"): utilities re-measured and their duals re-priced
//! over every ray, losses re-measured and their duals re-checked against their LP.
//! It calls the measures, the cones and the oracles, never the design routes.

pub(crate) mod loss;
pub(crate) mod read;
pub(crate) mod utility;
