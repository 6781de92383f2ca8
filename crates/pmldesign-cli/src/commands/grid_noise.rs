//! `pml apply --laplace-scale | --laplace-epsilon | --gaussian-sigma`: additive
//! noise on a column of -1 and 1, drawn exactly on a public grid and clamped to
//! a public range, its guarantee measured on the released 2 x M matrix
//! (`pmldesign_data::grid_release`, `docs/theory.md` §7b). This module reads
//! the flags and names them in errors.

use crate::args::apply::ApplyArgs;
use crate::error::CliError;
use pmldesign_data::ColumnPrivatiser;
use pmldesign_data::grid_release::{GridSettings, NoiseLevel, NoiseStatement, grid_release};
use pmldesign_data::stream::StreamKey;
use pmldesign_model::{ModelError, Prior};

/// A privatiser of additive noise and its measured guarantee.
pub type Noisy = (Box<dyn ColumnPrivatiser>, NoiseStatement);

/// The privatiser of `--laplace-scale`, `--laplace-epsilon` or `--gaussian-sigma`,
/// with its measured guarantee; `None` without them.
pub fn grid_privatiser(
    a: &ApplyArgs,
    stream: (&StreamKey, &str),
) -> Result<Option<Noisy>, CliError> {
    let level = match (a.laplace_scale, a.gaussian_sigma, a.laplace_epsilon) {
        (Some(b), _, _) => NoiseLevel::LaplaceScale(b),
        (None, Some(s), _) => NoiseLevel::GaussianSigma(s),
        (None, None, Some(eps)) => NoiseLevel::LaplaceEpsilon(eps),
        (None, None, None) => return Ok(None),
    };
    let prior = a
        .prior
        .as_ref()
        .map(|p| Prior::new(p.clone()))
        .transpose()
        .map_err(|e| {
            CliError::Usage(format!(
                "invalid --prior: {e}; give P(-1),P(1) such as --prior 0.3,0.7"
            ))
        })?;
    let settings = GridSettings {
        grid: a.grid,
        range: a.range,
        tail_delta: a.tail_delta,
    };
    let r = grid_release(level, prior.as_ref(), &settings, stream).map_err(flags)?;
    Ok(Some((Box::new(r.privatiser), r.statement)))
}

/// The library's error with its argument named as the flag the user typed.
fn flags(e: ModelError) -> CliError {
    let ModelError::Invalid {
        field,
        value,
        problem,
        fix,
    } = e
    else {
        return CliError::Usage(e.to_string());
    };
    let flag = match field.as_str() {
        "laplace_scale" | "gaussian_sigma" | "laplace_epsilon" | "grid" | "range"
        | "tail_delta" | "prior" => format!("--{}", field.replace('_', "-")),
        other => other.to_string(),
    };
    CliError::Usage(format!("invalid {flag} = {value}: {problem}; {fix}"))
}
