//! # pmldesign-data
//!
//! The data side of optimal mechanism design under pointwise maximal leakage: a CSV
//! column counted into an empirical prior ([`count_column`], `docs/theory.md` §6), a
//! mechanism applied to a CSV column ([`privatise_column`] with a
//! [`CategoricalPrivatiser`]), reproducible draws ([`seeded_rng`]) and mechanism
//! matrices read from CSV ([`matrix`]). The mathematics, and the sentences published
//! beside its numbers, are in `pmldesign-model`.
//!
//! ```
//! use pmldesign_data::{CategoricalPrivatiser, OnUnknown, Placement, count_column,
//!                privatise_column, seeded_rng};
//! use pmldesign_model::Mechanism;
//!
//! let csv = "id,colour\n1,red\n2,blue\n3,red\n";
//! let counts = count_column(csv.as_bytes(), "colour", None)?;
//! assert_eq!(counts.prior()?.masses().to_vec(), [2.0 / 3.0, 1.0 / 3.0]);
//!
//! // Randomized response on the two colours, reproducible with the seed.
//! let w = Mechanism::from_rows(vec![vec![0.75, 0.25], vec![0.25, 0.75]])?;
//! let labels = counts.labels.clone();
//! let mut privatiser = CategoricalPrivatiser::new(&w, labels.clone(), labels, seeded_rng(7))?;
//! let mut out = Vec::new();
//! let summary = privatise_column(csv.as_bytes(), &mut out, "colour",
//!     Placement::Append("colour_private"), OnUnknown::Error, &mut privatiser)?;
//! assert_eq!(summary.privatised, 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod counts;
pub mod digest;
pub mod matrix;
pub mod privatise;
pub mod sampler;
mod table;

pub use counts::{CategoryCounts, MAX_CATEGORIES, count_column, count_values};
pub use privatise::{
    ColumnPrivatiser, OnUnknown, Placement, PrivatiseError, PrivatiseSummary, privatise_column,
};
pub use sampler::{
    AdditiveNoise, AliasTable, BinaryAdditivePrivatiser, CategoricalPrivatiser, MechanismSampler,
    SamplerRng, entropy_rng, seeded_rng,
};
