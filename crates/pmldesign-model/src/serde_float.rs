//! JSON has no infinity: serde_json writes a non-finite double as `null`. Levels
//! that may be infinite (PMC and LDP of a column with a zero, the LDP parameter
//! of the identity) read `null` back as `+inf` with these functions
//! (`#[serde(deserialize_with = "..")]`).

use serde::{Deserialize, Deserializer};

/// A double, with `null` read as `+inf`.
pub fn null_is_infinite<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::INFINITY))
}

/// A list of doubles, each `null` read as `+inf`.
pub fn null_is_infinite_vec<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
    let v = Vec::<Option<f64>>::deserialize(d)?;
    Ok(v.into_iter().map(|x| x.unwrap_or(f64::INFINITY)).collect())
}
