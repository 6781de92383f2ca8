//! The native module `pmldesign._native` of the Python package `pmldesign`: optimal,
//! certified privacy mechanisms under pointwise maximal leakage (PML) from numpy.
//!
//! `engine` holds every call into the Rust library `pml`; `api` holds the
//! `#[pyfunction]`s, which convert Python values, release the GIL, watch for Ctrl-C
//! and call `engine` only. The public Python API (`Design`, `design`, ...) is the
//! pure-Python package in `python/pmldesign/`.
#![forbid(unsafe_code)]

mod api;
mod engine;
mod errors;
mod record;
mod report;

use pyo3::prelude::*;

/// The native part of `pmldesign` (use the `pmldesign` package, not this module).
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    api::register(m)
}
