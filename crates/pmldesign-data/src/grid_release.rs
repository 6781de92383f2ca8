//! The binary additive mechanism as released: noise of a given scale, or the
//! Laplace scale calibrated to a target level, on a public grid and range, with
//! the guarantee measured on the released 2 x M matrix (`docs/theory.md` §7b).
//! What `pml apply --laplace-scale | --laplace-epsilon | --gaussian-sigma` and
//! Python's `apply_noise` release.
//!
//! ```
//! use pmldesign_data::grid_release::{GridSettings, NoiseLevel, grid_release};
//! use pmldesign_data::stream::StreamKey;
//! use pmldesign_data::ColumnPrivatiser;
//!
//! let key = StreamKey::parse("7")?;
//! let mut r = grid_release(NoiseLevel::LaplaceEpsilon(1.0), None, &GridSettings::default(), (&key, "sign"))?;
//! // The scale found is measured eps-LDP at most 1 on the grid and range released.
//! assert!(r.statement.ldp <= 1.0);
//! let mut out = Vec::new();
//! assert!(r.privatiser.privatise(0, b"-1", &mut out));
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

use crate::discrete_noise::{DiscreteGaussian, DiscreteLaplace, ExactNoise, GridPrivatiser};
use crate::stream::StreamKey;
use pmldesign_model::lattice::{GridNoise, MAX_GRID_POINTS, check_range, tail_range};
use pmldesign_model::{ModelError, Prior, Result, additive, measures};

/// The default grid step is the largest 1/n at most the noise's scale over this.
pub const DEFAULT_STEPS_PER_SCALE: f64 = 8.0;

/// The default tail mass beyond the default range, under either secret.
pub const DEFAULT_TAIL_DELTA: f64 = 1e-9;

/// The smallest noise scale accepted (the grid then needs to be finer than any
/// release may hold).
pub const MIN_SCALE: f64 = 1e-6;

/// The largest noise scale accepted (noise that wide releases the clamped ends).
pub const MAX_SCALE: f64 = 1e12;

/// Bisection steps of the Laplace calibration.
const CALIBRATION_STEPS: usize = 60;

/// The noise asked for.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum NoiseLevel {
    /// Discrete Laplace noise of scale b.
    LaplaceScale(f64),
    /// Discrete Gaussian noise of standard deviation sigma.
    GaussianSigma(f64),
    /// The Laplace scale whose release, as measured, is eps-LDP (eps-PML for
    /// a prior).
    LaplaceEpsilon(f64),
}

impl NoiseLevel {
    /// The argument's name, for errors.
    pub fn field(&self) -> &'static str {
        match self {
            NoiseLevel::LaplaceScale(_) => "laplace_scale",
            NoiseLevel::GaussianSigma(_) => "gaussian_sigma",
            NoiseLevel::LaplaceEpsilon(_) => "laplace_epsilon",
        }
    }
}

/// The grid and range of a release. Defaults: the largest step 1/n at most the
/// scale / [`DEFAULT_STEPS_PER_SCALE`], and the smallest range whose tails
/// hold at most [`DEFAULT_TAIL_DELTA`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct GridSettings {
    /// The grid step 1/n (n whole, so that -1 and 1 are grid points).
    pub grid: Option<f64>,
    /// The range [-R, R] (R >= 1, a multiple of the step).
    pub range: Option<f64>,
    /// The tail mass beyond the default range.
    pub tail_delta: Option<f64>,
}

/// What a release guarantees, as measured on its matrix.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NoiseStatement {
    /// The exact law drawn.
    pub noise: ExactNoise,
    /// The scale b or sigma of the law.
    pub value: f64,
    /// The grid step is 1/n.
    pub n: u64,
    /// The range is [-m/n, m/n].
    pub m: u64,
    /// The LDP level of the released matrix (bounds PML for every prior).
    pub ldp: f64,
    /// The PML of the release for the prior given.
    pub pml: Option<f64>,
    /// \[E\]'s figure for the continuous mechanism, where finite.
    pub continuous: Option<f64>,
}

impl NoiseStatement {
    /// Whether every level measured is finite: if not, the release guarantees
    /// nothing.
    pub fn bounded(&self) -> bool {
        self.ldp.is_finite() && self.pml.is_none_or(f64::is_finite)
    }
}

/// A release: its privatiser and what it guarantees.
#[derive(Debug, Clone)]
pub struct GridRelease {
    /// Draws the released value of a row.
    pub privatiser: GridPrivatiser,
    /// Its measured guarantee.
    pub statement: NoiseStatement,
}

/// The release of `level` on the grid and range of `settings`, its rows drawn
/// from the stream of `key` and `column`, measured for `prior` (of the secrets
/// -1 and 1) where given.
pub fn grid_release(
    level: NoiseLevel,
    prior: Option<&Prior>,
    settings: &GridSettings,
    stream: (&StreamKey, &str),
) -> Result<GridRelease> {
    if let Some(p) = prior {
        binary(p)?;
    }
    match level {
        NoiseLevel::LaplaceEpsilon(eps) => {
            let b = calibrate(eps, prior, settings, stream)?;
            release(NoiseLevel::LaplaceScale(b), prior, settings, stream)
        }
        other => release(other, prior, settings, stream),
    }
}

/// Checks a noise scale: a finite number in [`MIN_SCALE`, `MAX_SCALE`].
pub fn check_scale(field: &str, v: f64) -> Result<()> {
    if (MIN_SCALE..=MAX_SCALE).contains(&v) {
        return Ok(());
    }
    let why = if !v.is_finite() {
        "not a finite number"
    } else if v <= 0.0 {
        "the scale must be > 0"
    } else if v < MIN_SCALE {
        "below 1e-6 the noise is far finer than any grid a release may hold"
    } else {
        "above 1e12 the noise hides everything in the clamped ends of the range"
    };
    Err(ModelError::invalid(
        field,
        format!("{v:?}"),
        why,
        "give a scale between 1e-6 and 1e12, such as 1",
    ))
}

/// The release of noise of a given scale, measured on its matrix.
fn release(
    level: NoiseLevel,
    prior: Option<&Prior>,
    settings: &GridSettings,
    stream: (&StreamKey, &str),
) -> Result<GridRelease> {
    let (NoiseLevel::LaplaceScale(value) | NoiseLevel::GaussianSigma(value)) = level else {
        unreachable!("calibrated before")
    };
    let field = level.field();
    check_scale(field, value)?;
    let n = grid_steps(settings.grid, field, value)?;
    // What the scale implies (its law on the grid, the default range) is
    // refused naming the scale.
    let about = |e: ModelError| about(field, value, e);
    let noise = match level {
        NoiseLevel::LaplaceScale(_) => {
            ExactNoise::Laplace(DiscreteLaplace::on_grid(value, n).map_err(about)?)
        }
        _ => ExactNoise::Gaussian(DiscreteGaussian::on_grid(value, n).map_err(about)?),
    };
    let m = match settings.range {
        Some(_) => range_steps(settings, noise.law(), n)?,
        None => range_steps(settings, noise.law(), n).map_err(about)?,
    };
    let privatiser = GridPrivatiser::new(noise, (n, m), stream)?;
    let w = privatiser.released()?;
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
    Ok(GridRelease {
        privatiser,
        statement,
    })
}

/// A Laplace scale whose release, as measured, is eps-LDP (eps-PML for the
/// prior). It tries \[E\]'s continuous scale, then bisects towards the LDP scale
/// `2/eps` (widened by 1e-9 for rounding), which must pass; every scale
/// returned was measured.
fn calibrate(
    eps: f64,
    prior: Option<&Prior>,
    settings: &GridSettings,
    stream: (&StreamKey, &str),
) -> Result<f64> {
    if !(eps.is_finite() && eps > 0.0) {
        return Err(ModelError::invalid(
            "laplace_epsilon",
            eps,
            "the target must be a finite number > 0",
            "give e.g. 1",
        ));
    }
    let meets = |b: f64| -> Result<bool> {
        let s = release(NoiseLevel::LaplaceScale(b), prior, settings, stream)?.statement;
        Ok(s.pml.unwrap_or(s.ldp) <= eps)
    };
    let mut hi = 2.0 / eps;
    if !meets(hi)? {
        hi *= 1.0 + 1e-9;
        if !meets(hi)? {
            return Err(ModelError::invalid(
                "laplace_epsilon",
                eps,
                format!("the release at the LDP scale {hi} does not measure below it"),
                "give the Laplace scale instead",
            ));
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
fn binary(p: &Prior) -> Result<()> {
    if p.len() == 2 {
        return Ok(());
    }
    Err(ModelError::invalid(
        "prior",
        p.len(),
        "the secret is -1 or 1: it needs two masses",
        "give P(-1),P(1) such as 0.3,0.7",
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

/// The grid's n (step 1/n): the step given when 1/step is a whole number, else
/// the largest 1/n at most the scale / [`DEFAULT_STEPS_PER_SCALE`].
fn grid_steps(grid: Option<f64>, field: &str, scale: f64) -> Result<u64> {
    let limit = (MAX_GRID_POINTS / 2) as f64;
    let Some(g) = grid else {
        let n = (DEFAULT_STEPS_PER_SCALE / scale).ceil().max(1.0);
        if n > limit {
            return Err(ModelError::invalid(
                field,
                scale,
                format!(
                    "the default grid step (the scale / 8) would need more than {MAX_GRID_POINTS} grid points"
                ),
                "give a larger scale or a coarser grid",
            ));
        }
        return Ok(n as u64);
    };
    let n = (1.0 / g).round();
    if !(g.is_finite() && g > 0.0 && g <= 1.0 && n <= limit && (n * g - 1.0).abs() <= 1e-9) {
        return Err(ModelError::invalid(
            "grid",
            g,
            format!(
                "the step must be 1/n for a whole n between 1 and {limit} (so that -1 and 1 are grid points)"
            ),
            "give such a step, e.g. 0.125",
        ));
    }
    Ok(n as u64)
}

/// The range in steps: R n when it is a whole number >= n, else the smallest
/// range whose tails are below the tail mass.
fn range_steps(settings: &GridSettings, law: GridNoise, n: u64) -> Result<u64> {
    let Some(r) = settings.range else {
        let delta = settings.tail_delta.unwrap_or(DEFAULT_TAIL_DELTA);
        return tail_range(law, n, delta)
            .map_err(|e| with_fix(e, "give a range, a coarser grid or a larger tail mass"));
    };
    let steps = (r * n as f64).round();
    if !(r.is_finite() && r >= 1.0 && (steps - r * n as f64).abs() <= 1e-9 * steps) {
        return Err(ModelError::invalid(
            "range",
            r,
            format!("the range must be a number >= 1 and a multiple of the grid step 1/{n}"),
            "give such a range, e.g. 10",
        ));
    }
    let m = steps.min(u64::MAX as f64) as u64;
    check_range(n, m)?;
    Ok(m)
}

/// `e`, which a scale `value` of `field` implied, refused naming the scale.
fn about(field: &str, value: f64, e: ModelError) -> ModelError {
    let ModelError::Invalid {
        field: inner,
        value: at,
        problem,
        fix,
    } = e
    else {
        return e;
    };
    ModelError::invalid(
        field,
        value,
        format!("it implies {inner} = {at}: {problem}"),
        fix,
    )
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
