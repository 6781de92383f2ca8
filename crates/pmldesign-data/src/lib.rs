//! # pmldesign-data
//!
//! The data side of optimal mechanism design under pointwise maximal leakage: a CSV
//! column counted into an empirical prior ([`count_column`], `docs/theory.md` §6), a
//! mechanism applied to a CSV column ([`privatise_column`] with a
//! [`CategoricalPrivatiser`]), draws from one keyed stream for any partitioning
//! ([`stream`]) and mechanism matrices read from CSV ([`matrix`]). The mathematics, and the sentences published
//! beside its numbers, are in `pmldesign-model`.
//!
//! ```
//! use pmldesign_data::{CategoricalPrivatiser, OnUnknown, Placement, count_column,
//!                privatise_column};
//! use pmldesign_data::stream::StreamKey;
//! use pmldesign_model::Mechanism;
//!
//! let csv = "id,colour\n1,red\n2,blue\n3,red\n";
//! let counts = count_column(csv.as_bytes(), "colour", None)?;
//! assert_eq!(counts.prior()?.masses().to_vec(), [2.0 / 3.0, 1.0 / 3.0]);
//!
//! // Randomized response on the two colours, reproducible with the (secret) key.
//! let w = Mechanism::from_rows(vec![vec![0.75, 0.25], vec![0.25, 0.75]])?;
//! let labels = counts.labels.clone();
//! let key = StreamKey::parse("0x3c6ef372fe94f82ba54ff53a5f1d36f1510e527fade682d19b05688c2b3e6c1f")?;
//! let mut privatiser = CategoricalPrivatiser::new(&w, labels.clone(), labels, (&key, "colour"))?;
//! let mut out = Vec::new();
//! let summary = privatise_column(csv.as_bytes(), &mut out, "colour",
//!     Placement::Private("colour_private"), OnUnknown::Error, &mut privatiser)?;
//! assert_eq!(summary.privatised, 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod bins;
mod blank_rows;
pub mod bootstrap;
pub mod codes;
#[cfg(feature = "parquet")]
pub mod columnar;
pub mod counts;
pub mod digest;
pub mod discrete_noise;
pub mod grid_release;
pub mod matrix;
pub mod nulls;
pub mod private_counts;
pub mod privatise;
pub mod record_privatise;
pub mod records;
pub mod sampler;
pub mod simulate;
pub mod stream;
mod table;

pub use bins::{Binned, Bins};
pub use codes::{Rows, privatise_codes, privatise_codes_at, privatise_mapped};
pub use counts::{
    CategoryCounts, Counting, MAX_CATEGORIES, STOP_EVERY, count_column, count_column_until,
    count_released, count_values, stopped,
};
pub use discrete_noise::{DiscreteGaussian, DiscreteLaplace, ExactNoise, GridPrivatiser};
pub use nulls::{NULL_LABEL, Nulls};
pub use privatise::{
    ColumnPrivatiser, Handling, OnUnknown, Placement, PrivatiseError, PrivatiseSummary, RowPlace,
    privatise_column, privatise_column_by,
};
pub use records::{RecordCounting, count_records, count_records_with};
pub use sampler::{AliasTable, CategoricalPrivatiser, MechanismSampler, SamplerRng, seeded_rng};
pub use table::{csv_columns, csv_record};
