//! `pml apply --laplace-scale | --gaussian-sigma`: additive noise on a column of -1
//! and 1, drawn exactly on a public grid and clamped to a public range
//! (`docs/theory.md` §7b); the guarantee stated is measured on the released
//! 2 x M matrix.

use crate::args::apply::{ApplyArgs, DEFAULT_TAIL_DELTA, check_scale};
use crate::error::CliError;
use crate::render::apply::NoiseStatement;
use pmldesign_data::stream::StreamKey;
use pmldesign_data::{
    ColumnPrivatiser, DiscreteGaussian, DiscreteLaplace, ExactNoise, GridPrivatiser,
};
use pmldesign_model::lattice::{GridNoise, MAX_GRID_POINTS, check_range, tail_range};
use pmldesign_model::{ModelError, Prior, additive, measures};

/// The default grid step is the largest 1/n at most the noise's scale over this.
pub const DEFAULT_STEPS_PER_SCALE: f64 = 8.0;

/// A privatiser of additive noise and its measured guarantee.
pub type Noisy = (Box<dyn ColumnPrivatiser>, NoiseStatement);

/// The privatiser of `--laplace-scale`, `--laplace-epsilon` or `--gaussian-sigma`,
/// with its measured guarantee; `None` without them.
pub fn grid_privatiser(
    a: &ApplyArgs,
    stream: (&StreamKey, &str),
) -> Result<Option<Noisy>, CliError> {
    let prior = match &a.prior {
        Some(p) => Some(Prior::new(p.clone()).and_then(binary).map_err(|e| {
            CliError::Usage(format!(
                "invalid --prior: {e}; give P(-1),P(1) such as --prior 0.3,0.7"
            ))
        })?),
        None => None,
    };
    let prior = prior.as_ref();
    let (flag, value) = match (a.laplace_scale, a.gaussian_sigma, a.laplace_epsilon) {
        (Some(b), _, _) => (LAPLACE, b),
        (None, Some(s), _) => ("--gaussian-sigma", s),
        (None, None, Some(eps)) => (LAPLACE, calibrate(a, eps, prior, stream)?),
        (None, None, None) => return Ok(None),
    };
    let r = release(a, (flag, value), prior, stream)?;
    Ok(Some((Box::new(r.privatiser), r.statement)))
}

const LAPLACE: &str = "--laplace-scale";

/// A release and what it guarantees, as measured.
struct Release {
    privatiser: GridPrivatiser,
    statement: NoiseStatement,
}

/// The release of noise `flag` of scale `value` on the grid and range asked for,
/// measured on its matrix.
fn release(
    a: &ApplyArgs,
    (flag, value): (&str, f64),
    prior: Option<&Prior>,
    stream: (&StreamKey, &str),
) -> Result<Release, CliError> {
    check_scale(flag, value)?;
    let usage = |e: ModelError| CliError::Usage(format!("{flag} {value}: {e}"));
    let n = grid_steps(a.grid, flag, value)?;
    let noise = if flag == LAPLACE {
        ExactNoise::Laplace(DiscreteLaplace::on_grid(value, n).map_err(usage)?)
    } else {
        ExactNoise::Gaussian(DiscreteGaussian::on_grid(value, n).map_err(usage)?)
    };
    let m = range_steps(a, noise.law(), n).map_err(usage)?;
    let privatiser = GridPrivatiser::new(noise, (n, m), stream).map_err(usage)?;
    let w = privatiser
        .released()
        .map_err(|e| CliError::Failure(format!("the released matrix of {flag}: {e}")))?;
    // A probability that underflowed hides its column's ratio: no finite level.
    let underflow = w.matrix().iter().any(|&p| p <= 0.0);
    let level = |v: f64| if underflow { f64::INFINITY } else { v };
    let statement = NoiseStatement {
        noise,
        value,
        n,
        m,
        ldp: level(measures::ldp_parameter(&w)),
        pml: prior.map(|p| level(measures::eps_min(&w, p))),
        continuous: continuous(noise, value, prior),
    };
    Ok(Release {
        privatiser,
        statement,
    })
}

/// Bisection steps of [`calibrate`].
const CALIBRATION_STEPS: usize = 60;

/// `--laplace-epsilon`: a Laplace scale whose release, as measured, is eps-LDP
/// (eps-PML for `--prior`). It tries \[E\]'s continuous scale, then bisects towards
/// the LDP scale `2/eps` (widened by 1e-9 for rounding), which must pass; every
/// scale returned was measured.
fn calibrate(
    a: &ApplyArgs,
    eps: f64,
    prior: Option<&Prior>,
    stream: (&StreamKey, &str),
) -> Result<f64, CliError> {
    let usage = |m: String| CliError::Usage(format!("--laplace-epsilon {eps}: {m}"));
    if !(eps.is_finite() && eps > 0.0) {
        return Err(usage(
            "the target must be a finite number > 0; give e.g. --laplace-epsilon 1".into(),
        ));
    }
    let meets = |b: f64| -> Result<bool, CliError> {
        let r = release(a, (LAPLACE, b), prior, stream).map_err(|e| usage(e.to_string()))?;
        Ok(r.statement.pml.unwrap_or(r.statement.ldp) <= eps)
    };
    let mut hi = 2.0 / eps;
    if !meets(hi)? {
        hi *= 1.0 + 1e-9;
        if !meets(hi)? {
            return Err(usage(format!(
                "the release at the LDP scale {hi} does not measure below it; give --laplace-scale"
            )));
        }
    }
    let start = prior.and_then(|p| additive::laplace_scale(eps, p).ok());
    let mut lo = match start {
        Some(b) if b >= hi * 1e-3 && b < hi => b,
        _ => return Ok(hi),
    };
    if meets(lo)? {
        return Ok(lo);
    }
    for _ in 0..CALIBRATION_STEPS {
        let mid = 0.5 * (lo + hi);
        if meets(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(hi)
}

/// A prior of the binary secret has two masses.
fn binary(p: Prior) -> pmldesign_model::Result<Prior> {
    if p.len() == 2 {
        return Ok(p);
    }
    Err(ModelError::invalid(
        "prior",
        p.len(),
        "it needs two masses",
        "give P(-1),P(1)",
    ))
}

/// \[E\]'s continuous figure beside the measured one: `2/b` for Laplace, or its
/// PML for the prior (\[E\] Prop. 3); none for the Gaussian, whose continuous
/// leakage is unbounded.
fn continuous(noise: ExactNoise, value: f64, prior: Option<&Prior>) -> Option<f64> {
    match (noise, prior) {
        (ExactNoise::Laplace(_), Some(p)) => additive::laplace_epsilon(value, p).ok(),
        (ExactNoise::Laplace(_), None) => Some(2.0 / value),
        (ExactNoise::Gaussian(_), _) => None,
    }
}

/// The grid's n (step 1/n): `--grid` when 1/G is a whole number, else the largest
/// 1/n at most the scale / [`DEFAULT_STEPS_PER_SCALE`].
fn grid_steps(grid: Option<f64>, flag: &str, scale: f64) -> Result<u64, CliError> {
    let limit = (MAX_GRID_POINTS / 2) as f64;
    let Some(g) = grid else {
        let n = (DEFAULT_STEPS_PER_SCALE / scale).ceil().max(1.0);
        if n > limit {
            return Err(CliError::Usage(format!(
                "invalid {flag} {scale}: the default grid step {flag}/8 would need more than {MAX_GRID_POINTS} grid points; give a larger {flag} or a coarser --grid"
            )));
        }
        return Ok(n as u64);
    };
    let n = (1.0 / g).round();
    if !(g.is_finite() && g > 0.0 && g <= 1.0 && n <= limit && (n * g - 1.0).abs() <= 1e-9) {
        return Err(CliError::Usage(format!(
            "invalid --grid {g}: the step must be 1/n for a whole n between 1 and {limit} (so that -1 and 1 are grid points); give such a step, e.g. --grid 0.125"
        )));
    }
    Ok(n as u64)
}

/// The range in steps: `--range R` when R n is a whole number >= n, else the
/// smallest range whose tails are below `--tail-delta`.
fn range_steps(a: &ApplyArgs, law: GridNoise, n: u64) -> pmldesign_model::Result<u64> {
    let Some(r) = a.range else {
        return tail_range(law, n, a.tail_delta.unwrap_or(DEFAULT_TAIL_DELTA)).map_err(|e| {
            with_fix(
                e,
                "give --range R, a coarser --grid or a larger --tail-delta",
            )
        });
    };
    let steps = (r * n as f64).round();
    if !(r.is_finite() && r >= 1.0 && (steps - r * n as f64).abs() <= 1e-9 * steps) {
        return Err(ModelError::invalid(
            "--range",
            r,
            format!("the range must be a number >= 1 and a multiple of the grid step 1/{n}"),
            "give such a range, e.g. --range 10",
        ));
    }
    let m = steps.min(u64::MAX as f64) as u64;
    check_range(n, m)?;
    Ok(m)
}

/// The error with its fix replaced.
fn with_fix(e: ModelError, fix: &str) -> ModelError {
    let ModelError::Invalid {
        field,
        value,
        problem,
        ..
    } = e
    else {
        return e;
    };
    ModelError::invalid(field, value, problem, fix)
}
