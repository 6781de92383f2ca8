//! The LP over extreme rays solved by column generation (docs/theory.md §4): the
//! [`RayOracle`](oracle::RayOracle) seam that pricing implements, the start columns
//! and the loop. It never names a ray family.

pub(crate) mod engine;
pub(crate) mod generation;
pub(crate) mod oracle;
pub(crate) mod restricted;
pub(crate) mod stabilise;
pub(crate) mod start;
