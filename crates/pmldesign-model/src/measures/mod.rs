//! Leakage measures of a given mechanism, one module per concept
//! (`docs/theory.md` §2-3, §6). Every function and type is also re-exported here,
//! so `pmldesign_model::measures::eps_min` and the like are the paths to use.
//!
//! - [`pml`]: pointwise maximal leakage under a known prior (\[E\] Thm 1, Defs 3-4);
//! - [`pmc`](mod@pmc): pointwise maximal cost, the lower side of the information density
//!   (\[D\] Thm 1);
//! - [`lip`]: ALIP and LIP levels (\[D\] Defs 4-5);
//! - [`ldp`]: the prior-free LDP parameter (\[D\] Def 6);
//! - [`maximal_leakage`](mod@maximal_leakage): maximal leakage;
//! - [`metric`](mod@metric): the metric-privacy level for a distance d;
//! - [`conversions`]: the level of one notion that another guarantees (\[D\], \[T\]);
//! - [`sensitivity`](mod@sensitivity): leakage over a set of priors and its Theorem 4 bounds (\[E\]);
//! - [`assessment`]: every figure of a mechanism under a prior and over a set.

pub mod assessment;
pub mod conversions;
pub mod ldp;
pub mod lip;
pub mod maximal_leakage;
pub mod metric;
pub mod pmc;
pub mod pml;
pub mod sensitivity;

pub use assessment::{Assessment, NotionLevels, SetAssessment, Theorem4Check};
pub use conversions::{
    alip_to_ldp, ldp_to_alip, ldp_to_lip, ldp_to_pmc, ldp_to_pml, pmc_to_alip, pmc_to_pml,
    pml_to_alip, pml_to_pmc, randomized_response_pmc,
};
pub use ldp::ldp_parameter;
pub use lip::{alip_parameters, lip_parameter};
pub use maximal_leakage::maximal_leakage;
pub use metric::metric_level;
pub use pmc::{column_pmc, max_output_probability, pmc, pmc_per_outcome, worst_case_pmc};
pub use pml::{
    TAIL_MERGE_TOLERANCE, TailPoint, column_pml, eps_max, eps_min, pml_per_outcome, privacy_region,
    privacy_thresholds, tail_curve, tail_probability,
};
pub use sensitivity::{sensitivity, theorem4_bound, theorem4_sensitivity_bound};
