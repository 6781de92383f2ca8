//! Linear programming with nothing about privacy: the `good_lp` backend behind a
//! stall guard, and the dense restricted master of column generation.

pub(crate) mod backend;
pub(crate) mod basis;
pub(crate) mod master;
