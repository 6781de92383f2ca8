//! The exceptions of `pmldesign`: `PmlError` (a `ValueError`) and one subclass
//! per kind of failure, and an engine error raised as the one of its kind.

use crate::engine::{self, Failure};
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;

pyo3::create_exception!(
    pmldesign,
    PmlError,
    PyValueError,
    "Bad input or a failed computation in pmldesign; the message is the library's one line naming the field, the value and the fix. Its subclasses say which: InvalidInputError, InfeasibleError, LimitReachedError, VerificationError."
);
pyo3::create_exception!(
    pmldesign,
    InvalidInputError,
    PmlError,
    "Bad input: an argument, a prior, a level or a file that is not what the call takes; the message names the field, the value and the fix."
);
pyo3::create_exception!(
    pmldesign,
    InfeasibleError,
    PmlError,
    "No mechanism meets the request on valid input (utility=\"estimation\" at a level where no mechanism lets every input be estimated); raise the level."
);
pyo3::create_exception!(
    pmldesign,
    LimitReachedError,
    PmlError,
    "A time limit or a work budget stopped the run before it had a certified mechanism to return; the message names the limit and how to let the run finish."
);
pyo3::create_exception!(
    pmldesign,
    VerificationError,
    PmlError,
    "A check failed: a computed mechanism's certificate, an input past double precision (a numerical limit, naming the field to change), or a design or public file read back whose content does not hold (an edited figure, dual or mechanism, or a missing field)."
);

/// Adds the exceptions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("PmlError", py.get_type::<PmlError>())?;
    m.add("InvalidInputError", py.get_type::<InvalidInputError>())?;
    m.add("InfeasibleError", py.get_type::<InfeasibleError>())?;
    m.add("LimitReachedError", py.get_type::<LimitReachedError>())?;
    m.add("VerificationError", py.get_type::<VerificationError>())?;
    Ok(())
}

/// An engine error as the Python exception of its kind (`stopped` is the error
/// that stopped a run: Ctrl-C or an exception in a callback). An internal
/// failure (an LP backend's, a panic caught) is a bare `PmlError`.
pub fn to_py_err(e: engine::Error, stopped: Option<PyErr>) -> PyErr {
    match e {
        engine::Error::Invalid(message) => InvalidInputError::new_err(message),
        engine::Error::Failed(kind, message) => match kind {
            Failure::Infeasible => InfeasibleError::new_err(message),
            Failure::Limit => LimitReachedError::new_err(message),
            Failure::Verification => VerificationError::new_err(message),
            Failure::Internal => PmlError::new_err(message),
        },
        engine::Error::Stopped => {
            stopped.unwrap_or_else(|| PyKeyboardInterrupt::new_err("design stopped"))
        }
    }
}
