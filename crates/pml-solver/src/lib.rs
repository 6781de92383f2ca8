//! # pml-solver
//!
//! Optimal privacy mechanisms under pointwise maximal leakage (PML): extreme-ray
//! enumeration of the column cones of `pml-model`, the linear program over rays for
//! any sub-convex [`Utility`] (docs/theory.md §4), closed forms (docs/theory.md §5),
//! randomized-response baselines and the [`Certificate`] every [`Design`] carries.
//!
//! ```
//! use pml_model::{Prior, UncertaintySet};
//! use pml_solver::{design, DesignSettings, FInformation};
//!
//! // [E] Example 1: p = (0.4, 0.2, 0.2, 0.2), e^eps = 9/8.
//! let set = UncertaintySet::known(Prior::new(vec![0.4, 0.2, 0.2, 0.2])?);
//! let d = design(&set, (9.0f64 / 8.0).ln(), &FInformation::mutual_information(),
//!                &DesignSettings::default())?;
//! assert_eq!(d.mechanism.outputs(), 4);
//! assert!(d.certificate.worst_case_pml <= (9.0f64 / 8.0).ln() + 1e-10);
//! # Ok::<(), pml_solver::SolverError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod backend;
pub mod baseline;
pub mod branch_bound;
pub mod certificate;
pub mod closed_form;
pub mod compare;
pub mod design;
pub mod envelope;
pub mod error;
pub mod generic;
pub mod intersection;
pub mod loss;
pub mod master;
pub mod notion_rays;
pub mod ray_lp;
pub mod rays;
pub mod sample_design;
pub mod utility;

pub use baseline::{Baselines, RandomizedResponse};
pub use certificate::Certificate;
pub use compare::{Comparison, ComparisonRow, common_level_notions, compare};
pub use design::{
    Design, DesignSettings, DesignStatus, PricingMethod, design, design_notion,
    design_notion_with_progress, design_with_progress,
};
pub use error::SolverError;
pub use intersection::{Constraint, IntersectionDesign, design_intersection};
pub use loss::{Loss, LossDesign, minimise_loss};
pub use ray_lp::Progress;
pub use rays::RaySet;
pub use sample_design::{
    RadiusMethod, SampleDesign, SimplerRoute, design_from_sample, design_from_sample_with_progress,
};
pub use utility::{FInformation, MapAccuracy, Separable, Utility};
