//! What every set of priors must satisfy, checked by
//! [`UncertaintySet::validate`](super::UncertaintySet::validate): its
//! constructors, reading it from JSON and every solve.

use crate::error::{ModelError, Result};

/// A ball's radius: finite and `> 0`.
pub(super) fn beta(beta: f64) -> Result<()> {
    if !beta.is_finite() || beta <= 0.0 {
        return Err(ModelError::invalid(
            "beta",
            beta,
            "the l1 radius must be a finite number > 0",
            "omit beta for a known prior, or pass a radius such as 0.01",
        ));
    }
    Ok(())
}

/// A polytope's vertices: at least one, each a probability vector (finite,
/// `>= 0`, summing to 1 within [`crate::prior::PRIOR_SUM_TOLERANCE`]) on the
/// same `n >= 2` symbols.
pub(super) fn vertices(vertices: &[Vec<f64>]) -> Result<()> {
    let n = vertices.first().map_or(0, Vec::len);
    if vertices.is_empty() || n < 2 {
        return Err(ModelError::invalid(
            "vertices",
            vertices.len(),
            "a polytope of priors needs at least one vertex on at least 2 symbols",
            "list the extreme priors of the set",
        ));
    }
    for (k, v) in vertices.iter().enumerate() {
        let sum: f64 = v.iter().sum();
        if v.len() != n
            || v.iter().any(|x| !x.is_finite() || *x < 0.0)
            || (sum - 1.0).abs() > crate::prior::PRIOR_SUM_TOLERANCE
        {
            return Err(ModelError::invalid(
                format!("vertices[{k}]"),
                crate::prior::format_list(v),
                format!("is not a probability vector on {n} symbols"),
                "give non-negative masses summing to 1, one per symbol",
            ));
        }
    }
    Ok(())
}
