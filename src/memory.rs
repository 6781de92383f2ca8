//! The whole loop in memory: a design applied to a slice of values, and the
//! input distribution estimated back from the released names, labelled by the
//! design's inputs. The same draws as `pml apply` makes of the same rows of a
//! column of that name under the same key, and the same answer as `pml
//! estimate`.
//!
//! ```
//! use pmldesign::prelude::*;
//!
//! let prior = Prior::new(vec![0.5, 0.3, 0.2])?;
//! let d = Problem::new(UncertaintySet::known(prior))
//!     .epsilon(1.0)
//!     .labels(vec!["red".into(), "green".into(), "blue".into()])
//!     .solve()?;
//! let values: Vec<&str> = ["red", "green", "red", "blue"].repeat(250);
//! let key = StreamKey::parse("0x3c6ef372fe94f82ba54ff53a5f1d36f1510e527fade682d19b05688c2b3e6c1f")?;
//! let released = apply_values(&d, &values, (&key, "colour"))?;
//! let estimate = estimate_values(&d, &released, &FrequencySettings::default())?;
//! let json = estimate.to_json();
//! assert_eq!(json["rows"], 1000);
//! assert!(json["estimates"].as_array().unwrap().iter().any(|e| e["label"] == "red"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use pmldesign_app::EstimateAnswer;
use pmldesign_data::stream::{ColumnStream, StreamKey};
use pmldesign_data::{MechanismSampler, Rows, privatise_mapped};
use pmldesign_model::ModelError;
use pmldesign_model::frequency::FrequencySettings;
use pmldesign_solver::Design;
use std::collections::HashMap;

/// Each of `values` (a label of the design's inputs) privatised through
/// `design`: row `i` draws from place `i` of the stream of `column` under
/// `key`. Returns the names of the released outputs; a value that is not a
/// label is refused naming its row.
pub fn apply_values<S: AsRef<str>>(
    design: &Design,
    values: &[S],
    (key, column): (&StreamKey, &str),
) -> Result<Vec<String>, ModelError> {
    let codes = indices("values", design.labels(), values)?;
    let sampler = MechanismSampler::new(design.mechanism())?;
    let stream = ColumnStream::new(key, column, 1);
    let mut out = vec![0u32; codes.len()];
    privatise_mapped(&sampler, &codes, &stream, Rows::From(0), &mut out, |&x| {
        Some(x as usize)
    })?;
    Ok(out
        .iter()
        .map(|&y| design.outputs()[y as usize].clone())
        .collect())
}

/// The input distribution behind `released` (names of the design's outputs),
/// each group labelled by the design's inputs: the answer of `pml estimate`.
pub fn estimate_values<S: AsRef<str>>(
    design: &Design,
    released: &[S],
    settings: &FrequencySettings,
) -> Result<EstimateAnswer, ModelError> {
    let mut counts = vec![0u64; design.outputs().len()];
    for y in indices("released", design.outputs(), released)? {
        counts[y as usize] += 1;
    }
    Ok(
        EstimateAnswer::new(design.mechanism(), &counts, settings)?
            .labels(design.labels().to_vec()),
    )
}

/// The index of each of `values` among `names`, or an error naming the first
/// that is none of them.
fn indices<S: AsRef<str>>(
    field: &str,
    names: &[String],
    values: &[S],
) -> Result<Vec<u32>, ModelError> {
    let at: HashMap<&str, u32> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i as u32))
        .collect();
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            at.get(v.as_ref()).copied().ok_or_else(|| {
                let shown: Vec<&str> = names.iter().take(5).map(String::as_str).collect();
                ModelError::invalid(
                    format!("{field}[{i}]"),
                    format!("{:?}", v.as_ref()),
                    "not a name of the design",
                    format!(
                        "give one of {}{}",
                        shown.join(", "),
                        if names.len() > 5 { ", ..." } else { "" }
                    ),
                )
            })
        })
        .collect()
}
