//! # pmldesign-solver
//!
//! Optimal privacy mechanisms under pointwise maximal leakage (PML): extreme-ray
//! enumeration of the column cones of `pmldesign-model`, the linear program over rays for
//! any sub-convex [`Utility`] (docs/theory.md §4), closed forms (docs/theory.md §5),
//! randomized-response baselines and the [`Certificate`] every [`Design`] carries.
//!
//! ```
//! use pmldesign_model::{Prior, UncertaintySet};
//! use pmldesign_solver::{FInformation, Problem};
//!
//! // \[E\] Example 1: p = (0.4, 0.2, 0.2, 0.2), e^eps = 9/8.
//! let set = UncertaintySet::known(Prior::new(vec![0.4, 0.2, 0.2, 0.2])?);
//! let d = Problem::new(set)
//!     .epsilon((9.0f64 / 8.0).ln())
//!     .utility(FInformation::mutual_information())
//!     .solve()?;
//! assert_eq!(d.mechanism.outputs(), 4);
//! assert!(d.certificate.worst_case_pml <= (9.0f64 / 8.0).ln() + 1e-10);
//! # Ok::<(), pmldesign_solver::SolverError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod backend;
pub mod baseline;
mod branch_bound;
pub mod certificate;
pub mod closed_form;
pub mod compare;
mod design;
pub mod envelope;
pub mod error;
mod generic;
mod intersection;
mod limits;
mod line_metric;
pub mod loss;
mod loss_ball;
mod master;
mod notion_loss;
mod notion_lp;
mod notion_rays;
mod problem;
mod ray_lp;
mod rays;
mod record;
mod sample_design;
mod settings;
pub mod utility;
mod verify;

pub use backend::LP_BACKEND;
pub use baseline::{Baselines, RandomizedResponse};
pub use certificate::{Certificate, DualCertificate};
pub use compare::{Comparison, ComparisonRow, common_level_notions, compare};
pub use design::{Design, DesignStatus, LossOutcome, numbered};
pub use error::{Result, SolverError};
pub use intersection::{Constraint, IntersectionDesign, design_intersection};
pub use limits::{NumericalLimit, numerical_limit};
pub use loss::{DirectDual, Loss, LossDual, LossMethod};
pub use problem::{Problem, Sample, check_labels};
pub use ray_lp::{ColumnGenerationSettings, Progress};
pub use sample_design::{Guarantee, RadiusMethod, SimplerRoute, radius};
pub use settings::{Interrupt, PricingMethod, Settings};
pub use utility::{FInformation, MapAccuracy, Separable, Utility};
pub use verify::{Repricing, Verification};

/// The solver's internals, for its own tests and benches only: not part of the
/// public API, and free to change.
#[doc(hidden)]
pub mod internals {
    /// Structured and generic ray enumeration.
    pub mod rays {
        pub use crate::rays::*;
    }
    /// The LP over rays.
    pub mod ray_lp {
        pub use crate::ray_lp::*;
    }
    /// Ray families of the notions.
    pub mod notion_rays {
        pub use crate::notion_rays::*;
    }
    /// Branch-and-bound pricing.
    pub mod branch_bound {
        pub use crate::branch_bound::*;
    }
    pub use crate::design::{
        PastProposition2, design, design_notion, design_notion_with_progress, design_with_progress,
        optimise_in_cone, optimise_over_rays, pricing_oracle,
    };
    pub use crate::loss::{
        LossDesign, minimise_loss, minimise_loss_with, minimise_loss_with_progress,
    };
    pub use crate::notion_loss::minimise_notion_loss;
}
