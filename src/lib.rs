//! # pmldesign
//!
//! Optimal privacy mechanisms under pointwise maximal leakage (PML), exact and
//! certified. This facade re-exports the model ([`model`]), the solver
//! ([`solver`]) and the data side ([`data`]: CSV columns counted and privatised),
//! and [`ndarray`], whose arrays hold mechanisms and priors; the `pml`
//! command-line tool is the crate `pmldesign-cli`. [`prelude`] has what most
//! programs need: problems for a column or a whole record, the design and its
//! certificate, baselines, guarantees and estimates.
//!
//! ```
//! use pmldesign::prelude::*;
//!
//! // Design the mutual-information-optimal mechanism that is eps-PML for every prior
//! // within l1 distance 0.05 of an estimate ([E] Prop 2).
//! let estimate = Prior::new(vec![0.4, 0.3, 0.2, 0.1])?;
//! let set = UncertaintySet::l1_ball(estimate, 0.05)?;
//! let d = Problem::new(set)
//!     .epsilon(2f64.ln())
//!     .utility(FInformation::mutual_information())
//!     .solve()?;
//! assert!(d.certificate().holds()); // every level within the stated tolerance (<= 1e-12)
//! assert!(d.utility_value() >= d.baselines().pml_calibrated.utility);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub use ndarray;
pub use pmldesign_app as app;

mod memory;
pub use memory::{apply_values, estimate_values};
pub use pmldesign_data as data;
pub use pmldesign_model as model;
pub use pmldesign_solver as solver;

/// The types most programs need, from a CSV column to its privatised copy.
pub mod prelude {
    pub use crate::memory::{apply_values, estimate_values};
    pub use pmldesign_app::EstimateAnswer;
    pub use pmldesign_data::stream::StreamKey;
    pub use pmldesign_data::{
        CategoricalPrivatiser, CategoryCounts, OnUnknown, Placement, count_column, privatise_column,
    };
    pub use pmldesign_model::frequency::{
        FrequencyEstimate, FrequencyMethod, FrequencySettings, estimate_frequencies,
    };
    pub use pmldesign_model::record::RecordSample;
    pub use pmldesign_model::{
        ColumnCone, Mechanism, Metric, ModelError, Notion, Prior, UncertaintySet, measures,
    };
    pub use pmldesign_solver::{
        BaselineRow, Baselines, Certificate, Design, DesignStatus, DualCertificate, Estimation,
        FInformation, Guarantee, Loss, LossOutcome, MapAccuracy, Problem, Progress, Provenance,
        RadiusMethod, RandomizedResponse, RecordDesign, RecordMode, RecordProblem, Route, Sample,
        Settings, SolverError, StructuredBaseline, Utility, closed_form, estimate_record,
    };
}

/// The README's library example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The user guide's Rust quick start (docs/quickstart/rust.md), run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/quickstart/rust.md")]
pub struct GuideRustDoctests;
