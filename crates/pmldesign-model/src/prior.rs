//! The prior distribution of the secret X (\[E\] Sec. II): every mass strictly positive.

use crate::error::{ModelError, Result};
use ndarray::{Array1, ArrayView1};
use serde::{Deserialize, Serialize};

/// Tolerance on `sum p = 1` accepted by [`Prior::new`].
pub const PRIOR_SUM_TOLERANCE: f64 = 1e-9;

/// A probability distribution on `[N]` with full support (the interior of the simplex).
///
/// PML is defined relative to a prior with `p_x > 0` for all x (\[E\] Thm 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Vec<f64>", into = "Vec<f64>")]
pub struct Prior {
    masses: Array1<f64>,
}

impl Prior {
    /// Validates masses that already form a distribution: finite, each `> 0`,
    /// at least two of them, summing to 1 within [`PRIOR_SUM_TOLERANCE`].
    pub fn new(masses: impl Into<Vec<f64>>) -> Result<Self> {
        let masses: Vec<f64> = masses.into();
        check_entries("prior", &masses, "a mass")?;
        summing_to_one(masses)
    }

    /// Builds the prior proportional to non-negative weights (counts or unnormalised
    /// masses): `p_x = w_x / sum w`. Every weight must be finite and `> 0`.
    pub fn normalised(weights: impl Into<Vec<f64>>) -> Result<Self> {
        let weights: Vec<f64> = weights.into();
        check_entries("weights", &weights, "a weight")?;
        let sum: f64 = weights.iter().sum();
        Ok(Prior {
            masses: Array1::from_iter(weights.iter().map(|w| w / sum)),
        })
    }

    /// An estimate at the centre of an l1 ball (\[E\] Sec. III): masses `>= 0`
    /// summing to 1, at least two entries; a category never observed in a sample
    /// has mass 0. Only a set of priors around it may use it: a known prior needs
    /// full support ([`Prior::has_full_support`]), which `Problem::solve` checks.
    pub fn center(masses: impl Into<Vec<f64>>) -> Result<Self> {
        let masses: Vec<f64> = masses.into();
        check_center("prior", &masses, "a mass")?;
        summing_to_one(masses)
    }

    /// [`Prior::center`] from counts: `count_x / m`, zeros allowed, `m > 0`.
    pub fn center_normalised(weights: impl Into<Vec<f64>>) -> Result<Self> {
        let weights: Vec<f64> = weights.into();
        check_center("weights", &weights, "a weight")?;
        let sum: f64 = weights.iter().sum();
        Ok(Prior {
            masses: Array1::from_iter(weights.iter().map(|w| w / sum)),
        })
    }

    /// Every mass is `> 0` (the prior of a known-prior design must be).
    pub fn has_full_support(&self) -> bool {
        self.masses.iter().all(|&p| p > 0.0)
    }

    /// The smallest positive mass.
    pub fn min_positive_mass(&self) -> f64 {
        self.masses
            .iter()
            .copied()
            .filter(|&p| p > 0.0)
            .fold(f64::INFINITY, f64::min)
    }

    /// The uniform prior on `n >= 2` symbols.
    pub fn uniform(n: usize) -> Result<Self> {
        Prior::normalised(vec![1.0; n])
    }

    /// Alphabet size N.
    pub fn len(&self) -> usize {
        self.masses.len()
    }

    /// Always false: a prior has at least two symbols.
    pub fn is_empty(&self) -> bool {
        self.masses.is_empty()
    }

    /// The masses `p_x`.
    pub fn masses(&self) -> ArrayView1<'_, f64> {
        self.masses.view()
    }

    /// `p_min = min_x p_x`.
    pub fn min_mass(&self) -> f64 {
        self.masses.iter().copied().fold(f64::INFINITY, f64::min)
    }

    /// `p_max = max_x p_x`.
    pub fn max_mass(&self) -> f64 {
        self.masses.iter().copied().fold(0.0, f64::max)
    }

    /// `p . c`, the probability of an output with column `c`.
    pub fn dot(&self, c: ArrayView1<f64>) -> f64 {
        self.masses.dot(&c)
    }
}

impl TryFrom<Vec<f64>> for Prior {
    type Error = ModelError;
    fn try_from(v: Vec<f64>) -> Result<Self> {
        Prior::new(v)
    }
}

impl From<Prior> for Vec<f64> {
    fn from(p: Prior) -> Vec<f64> {
        p.masses.to_vec()
    }
}

/// Checked masses that must sum to 1 within [`PRIOR_SUM_TOLERANCE`].
fn summing_to_one(masses: Vec<f64>) -> Result<Prior> {
    let sum: f64 = masses.iter().sum();
    if (sum - 1.0).abs() > PRIOR_SUM_TOLERANCE {
        return Err(ModelError::invalid(
            "prior",
            format_list(&masses),
            format!("masses sum to {sum}, not 1 (tolerance {PRIOR_SUM_TOLERANCE:e})"),
            "pass masses that sum to 1 (divide counts or weights by their total)",
        ));
    }
    Ok(Prior {
        masses: Array1::from(masses),
    })
}

/// The entries of a ball's centre: as [`check_entries`], but zeros allowed (not
/// all of them).
fn check_center(field: &str, values: &[f64], what: &str) -> Result<()> {
    let positive: Vec<f64> = values
        .iter()
        .map(|&v| if v == 0.0 { 1.0 } else { v })
        .collect();
    check_entries(field, &positive, what)?;
    if values.iter().all(|&v| v == 0.0) {
        return Err(ModelError::invalid(
            field,
            format_list(values),
            format!("every {what} is 0"),
            "give at least one positive entry",
        ));
    }
    Ok(())
}

/// A ball's centre as it is stored: [`Prior::center`].
pub(crate) fn center_from_vec<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Prior, D::Error> {
    let v = Vec::<f64>::deserialize(d)?;
    Prior::center(v).map_err(serde::de::Error::custom)
}

fn check_entries(field: &str, values: &[f64], what: &str) -> Result<()> {
    if values.len() < 2 {
        return Err(ModelError::invalid(
            field,
            format_list(values),
            format!(
                "has {} entries; a secret needs at least 2 values",
                values.len()
            ),
            "give one entry per category",
        ));
    }
    for (i, &v) in values.iter().enumerate() {
        if !v.is_finite() || v <= 0.0 {
            let problem = if v.is_nan() {
                format!("{what} is NaN")
            } else if !v.is_finite() {
                format!("{what} is infinite")
            } else {
                format!("{what} must be > 0 (PML needs full support)")
            };
            return Err(ModelError::invalid(
                format!("{field}[{i}]"),
                v,
                problem,
                "give every category a positive, finite value; drop or merge categories that never occur",
            ));
        }
    }
    Ok(())
}

/// Formats a list of numbers as `a,b,c` for error messages.
pub(crate) fn format_list(v: &[f64]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}
