//! Additive noise on a column of -1 and 1, released exactly on a public grid
//! (`pmldesign::data::grid_release`): the draws of `pml apply --laplace-scale |
//! --laplace-epsilon | --gaussian-sigma` for the same key, column and rows.

use super::{Result, guarded, invalid};
pub use pmldesign::data::grid_release::GridSettings;
use pmldesign::data::grid_release::{NoiseLevel, NoiseStatement, grid_release};
use pmldesign::data::stream::StreamKey;
use pmldesign::prelude::Prior;
use serde_json::{Value, json};

/// The noise asked for by name (`laplace_scale`, `gaussian_sigma`,
/// `laplace_epsilon`) and value.
pub fn noise_level(name: &str, value: f64) -> Result<NoiseLevel> {
    match name {
        "laplace_scale" => Ok(NoiseLevel::LaplaceScale(value)),
        "gaussian_sigma" => Ok(NoiseLevel::GaussianSigma(value)),
        "laplace_epsilon" => Ok(NoiseLevel::LaplaceEpsilon(value)),
        other => Err(invalid(
            "noise",
            other,
            "not a noise",
            "give one of laplace_scale, gaussian_sigma or laplace_epsilon",
        )),
    }
}

/// `values` (each -1 or 1; row `offset + i` of stream `column`) released with
/// `level` on the grid of `settings`, and the release's measured guarantee.
pub fn apply_noise(
    values: &[f64],
    (level, prior, settings): (NoiseLevel, Option<Vec<f64>>, GridSettings),
    (column, offset): (&str, u64),
    seed: Option<String>,
) -> Result<(Vec<f64>, Value)> {
    guarded(|| {
        let key = match seed {
            Some(s) => StreamKey::parse(&s)?,
            None => StreamKey::from_os(),
        };
        let prior = prior.map(Prior::new).transpose()?;
        let r = grid_release(level, prior.as_ref(), &settings, (&key, column))?;
        let n = r.statement.n as f64;
        let mut out = Vec::with_capacity(values.len());
        for (i, &x) in values.iter().enumerate() {
            if x != 1.0 && x != -1.0 {
                return Err(invalid(
                    &format!("values[{i}]"),
                    x,
                    "the secret of additive noise is -1 or 1",
                    "map the column to -1 and 1 first",
                ));
            }
            out.push(r.privatiser.draw(offset + i as u64, x > 0.0) as f64 / n);
        }
        Ok((out, statement_json(&r.statement)))
    })
}

/// The release's guarantee as JSON: the law, its grid and range, and the
/// levels measured on the released matrix (`null` where infinite).
fn statement_json(s: &NoiseStatement) -> Value {
    let finite = |x: f64| x.is_finite().then_some(x);
    json!({
        "noise": s.noise.name(),
        "scale": s.value,
        "grid_step": 1.0 / s.n as f64,
        "range": s.m as f64 / s.n as f64,
        "values": 2 * s.m + 1,
        "ldp_epsilon": finite(s.ldp),
        "pml_epsilon": s.pml.and_then(finite),
        "continuous_epsilon": s.continuous,
        "bounded": s.bounded(),
    })
}
