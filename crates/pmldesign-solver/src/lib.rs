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
//! // [E] Example 1: p = (0.4, 0.2, 0.2, 0.2), e^eps = 9/8.
//! let set = UncertaintySet::known(Prior::new(vec![0.4, 0.2, 0.2, 0.2])?);
//! let d = Problem::new(set)
//!     .epsilon((9.0f64 / 8.0).ln())
//!     .utility(FInformation::mutual_information())
//!     .solve()?;
//! assert_eq!(d.mechanism().outputs(), 4);
//! assert!(d.certificate().worst_case_pml() <= (9.0f64 / 8.0).ln() + 1e-10);
//! # Ok::<(), pmldesign_solver::SolverError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

// Layers, bottom to top (ARCHITECTURE.md; scripts/layers.json checks them): each
// module imports only its own layer or lower ones.
mod colgen;
pub mod compare;
mod cones;
mod design;
pub mod envelope;
mod error;
mod limits;
mod lp;
mod objective;
mod pricing;
mod problem;
mod record;
mod reference;
mod settings;
mod solution;
pub mod tolerance;
mod verify;

pub use colgen::engine::Progress;
pub use compare::{Comparison, ComparisonRow, compare};
pub use design::intersection::{Constraint, IntersectionDesign, design_intersection};
pub use design::sample::radius;
pub use error::{NumericalLimit, Result, SolverError};
pub use objective::loss::Loss;
pub use objective::utility::{
    BUILTIN_NAMES, FInformation, MapAccuracy, Separable, Utility, builtin,
};
pub use pmldesign_model::sample::RadiusMethod;
pub use problem::{Problem, Sample};
pub use record::{
    Naive, PublicRecord, RecordDesign, RecordEstimate, RecordGuarantee, RecordMode, RecordProblem,
    RecordUtility, estimate_public_record, estimate_record,
};
pub use reference::baseline::{BaselineRow, Baselines, RandomizedResponse};
pub use reference::closed_form;
pub use reference::structured::{Family, StructuredBaseline};
pub use settings::{ColumnGenerationSettings, Interrupt, LossMethod, PricingMethod, Settings};
pub use solution::certificate::{Certificate, DualCertificate};
pub use solution::design::{Design, DesignStatus, LossOutcome};
pub use solution::estimation::{Estimation, EstimationRow};
pub use solution::simulated::{AdviceDraws, SimulatedErrors};

/// The layout version of every JSON output other than a design file (which has
/// its own, `FORMAT_VERSION` of the record): `pml compare`, `estimate`, `assess`,
/// `bounds` and `envelope` as JSON, and Python's `compare`. Raised when a key
/// changes meaning or goes away, so that a script can check what it reads.
pub const OUTPUT_FORMAT_VERSION: u32 = 1;
pub use solution::guarantee::{Guarantee, SimplerRoute};
pub use solution::loss::{DirectDual, LossDual, NotionDual};
pub use solution::provenance::Provenance;
pub use solution::public::{PublicChecks, PublicDesign, PublicSet};
pub use solution::route::Route;
pub use verify::read::VerifiedDesign;
pub use verify::utility::{Repricing, Verification};

/// The sizes pml makes and reads: the largest alphabet, the most outputs and
/// entries of a mechanism, and the largest matrix or design file a reader
/// opens.
pub mod sizes {
    pub use crate::limits::{MAX_ALPHABET, MAX_ENTRIES, MAX_MATRIX_FILE_BYTES, MAX_OUTPUTS};
}

/// The LP solvers compiled in, by the names reports give them.
pub mod backend {
    pub use crate::lp::backend::{LOSS_LP_BACKEND, LP_BACKEND};
}

/// Input and output names: the checks on given labels and the names a design
/// writes where none are given (`x1..xN`, `y1..yM`).
pub mod labels {
    pub use crate::problem::check_labels;
    pub use crate::solution::design::numbered;
}

/// The solver's internals, for its own tests (the pricing-agreement tests, and
/// the tests of each module's items in tests/units/) and component benches
/// only: not part of the public API, and free to change.
#[doc(hidden)]
pub mod internals {
    pub use crate::colgen::engine::{RayLpSolution, dual_bound, solve_with_oracle};
    pub use crate::colgen::oracle::{Column, PassControl, Pricing, RayOracle};
    pub use crate::cones::double_description::extreme_rays;
    pub use crate::cones::notions::{box_cut, ldp_staircase};
    pub use crate::cones::rays::{
        LevelRay, RaySet, StructuredFamily, enumerate, generic_rays, structured,
    };
    pub use crate::design::inner_outer::PastProposition2;
    pub use crate::design::optimum::optimise_over_rays;
    pub use crate::design::utility::optimise_in_cone;
    pub use crate::limits::numerical_limit;
    pub use crate::objective::estimation_floor::{RELAXATION_STEPS, notion_floor};
    pub use crate::pricing::branch_bound::{BoxCut, Levels, ThreeLevel, TwoLevel, Union};
    pub use crate::pricing::choice::pricing_oracle;
    pub use crate::pricing::enumerated::{MaterialisedRays, StructuredRays, solve};
    pub use crate::reference::baseline::{
        baselines, randomized_response_baselines, randomized_response_worst_case_pml,
    };
    pub use crate::reference::guesses::guesses;
    pub use crate::solution::design::unchecked_with_mechanism;
    // Tuning constants: where the solver switches routes or stops adding figures.
    pub use crate::record::{AUTO_JOINT_CELLS, MAX_CHANNEL_ENTRIES, MEASURED_CELLS, SPLIT_BUDGET};
    pub use crate::solution::estimation::ESTIMATION_UP_TO;
    pub use crate::solution::simulated::{
        ADVICE_INPUTS_UP_TO, ADVICE_REPLICATES, ADVICE_SEED, ADVICE_WORK_UP_TO,
    };
    // The modules whose pub items the tests in tests/units/ reach (one file per
    // module there, named after its path).
    pub mod colgen {
        pub mod oracle {
            pub use crate::colgen::oracle::*;
        }
        pub mod stabilise {
            pub use crate::colgen::stabilise::*;
        }
    }
    pub mod cones {
        pub mod double_description {
            pub use crate::cones::double_description::*;
        }
        pub mod notions {
            pub use crate::cones::notions::*;
        }
        pub mod rays {
            pub use crate::cones::rays::*;
        }
        pub mod sparse {
            pub use crate::cones::sparse::*;
        }
    }
    pub mod design {
        pub mod blocks {
            pub use crate::design::blocks::*;
        }
        pub mod loss {
            pub use crate::design::loss::*;
        }
        pub mod loss_direct {
            pub use crate::design::loss_direct::*;
        }
        pub mod loss_ipm {
            pub use crate::design::loss_ipm::*;
        }
        pub mod mirror {
            pub use crate::design::mirror::*;
        }
        pub mod sampled_start {
            pub use crate::design::sampled_start::*;
        }
        pub mod settle {
            pub use crate::design::settle::*;
        }
        pub mod simplicial {
            pub use crate::design::simplicial::*;
        }
        pub mod systematic {
            pub use crate::design::systematic::*;
        }
    }
    pub mod limits {
        pub use crate::limits::*;
    }
    pub mod lp {
        pub mod basis {
            pub use crate::lp::basis::*;
        }
        pub mod master {
            pub use crate::lp::master::*;
        }
    }
    pub mod objective {
        pub mod a_priori {
            pub use crate::objective::a_priori::*;
        }
        pub mod estimation_floor {
            pub use crate::objective::estimation_floor::*;
        }
        pub mod estimation_levels {
            pub use crate::objective::estimation_levels::*;
        }
        pub mod estimation_mixture {
            pub use crate::objective::estimation_mixture::*;
        }
        pub mod loss {
            pub use crate::objective::loss::*;
        }
        pub mod utility {
            pub use crate::objective::utility::*;
        }
    }
    pub mod pricing {
        pub mod branch_bound {
            pub use crate::pricing::branch_bound::*;
            pub mod box_cut {
                pub use crate::pricing::branch_bound::box_cut::*;
            }
            pub mod halves {
                pub use crate::pricing::branch_bound::halves::*;
            }
            pub mod lattice {
                pub use crate::pricing::branch_bound::lattice::*;
            }
            pub mod segment {
                pub use crate::pricing::branch_bound::segment::*;
            }
            pub mod staircase {
                pub use crate::pricing::branch_bound::staircase::*;
            }
            pub mod three_level {
                pub use crate::pricing::branch_bound::three_level::*;
            }
            pub mod two_level {
                pub use crate::pricing::branch_bound::two_level::*;
                pub mod chain_line {
                    pub use crate::pricing::branch_bound::two_level::chain_line::*;
                }
            }
        }
        pub mod exact_mass {
            pub use crate::pricing::exact_mass::*;
        }
        pub mod line_metric {
            pub use crate::pricing::line_metric::*;
        }
        pub mod notion_slices {
            pub use crate::pricing::notion_slices::*;
        }
        pub mod quadratic {
            pub mod flips {
                pub use crate::pricing::quadratic::flips::*;
            }
            pub mod relaxation {
                pub use crate::pricing::quadratic::relaxation::*;
            }
        }
    }
    pub mod record {
        pub mod split {
            pub use crate::record::split::*;
        }
    }
    pub mod reference {
        pub mod guesses {
            pub use crate::reference::guesses::*;
        }
        pub mod literature {
            pub use crate::reference::literature::*;
        }
        pub mod pair_balance {
            pub use crate::reference::pair_balance::*;
        }
        pub mod structured {
            pub use crate::reference::structured::*;
            pub mod cover {
                pub use crate::reference::structured::cover::*;
            }
            pub mod partition {
                pub use crate::reference::structured::partition::*;
            }
        }
    }
    pub mod settings {
        pub use crate::settings::*;
    }
    pub mod solution {
        pub mod certificate {
            pub use crate::solution::certificate::*;
        }
        pub mod estimation {
            pub use crate::solution::estimation::*;
        }
    }
}
