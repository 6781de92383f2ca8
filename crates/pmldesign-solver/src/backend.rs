//! The LP backend behind `good_lp`: `microlp` (pure Rust, no system libraries) by
//! default, HiGHS with the optional `highs` cargo feature (built from source; needs
//! cmake and a C++ compiler). Every result is certified the same way whichever
//! backend solved it.

#[cfg(feature = "highs")]
pub(crate) use good_lp::highs as lp_backend;
#[cfg(not(feature = "highs"))]
pub(crate) use good_lp::microlp as lp_backend;

/// Name of the LP backend compiled in (`"microlp"` or `"highs"`), for reports.
pub const LP_BACKEND: &str = if cfg!(feature = "highs") {
    "highs"
} else {
    "microlp"
};
