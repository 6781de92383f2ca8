//! # pmldesign-model
//!
//! The objects of optimal mechanism design under pointwise maximal leakage (PML):
//! priors, mechanisms, leakage measures, uncertainty sets of priors and the privacy
//! constraints as column cones. Numbering follows `docs/theory.md` and the core paper
//! "Mechanism design from empirical distributions" (cited as \[E\]).
//!
//! ```
//! use pmldesign_model::{Mechanism, Prior, measures};
//! let p = Prior::new(vec![0.4, 0.2, 0.2, 0.2])?;
//! let w = Mechanism::identity(4);
//! // The identity leaks the most any outcome can: -ln(min p).
//! assert!((measures::eps_min(&w, &p) - (5.0f64).ln()).abs() < 1e-12);
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod additive;
pub mod cone;
pub mod envelope;
pub mod error;
pub mod frequency;
pub mod lattice;
pub mod linalg;
pub mod measures;
pub mod mechanism;
pub mod metric;
pub mod names;
pub mod notion;
pub mod printed;
pub mod prior;
pub mod private_prior;
pub(crate) mod ranking;
pub mod record;
pub mod sample;
pub mod serde_float;
pub mod statement;
pub mod uncertainty;

pub use cone::ColumnCone;
pub use error::{ModelError, Result};
pub use mechanism::Mechanism;
pub use metric::Metric;
pub use notion::{DensityRange, Notion};
pub use prior::Prior;
pub use uncertainty::UncertaintySet;

/// The model's internals, for its own tests only (tests/units/): not part of
/// the public API, and free to change.
#[doc(hidden)]
pub mod internals {
    /// The private modules of `frequency` whose pub items the tests in
    /// tests/units/ reach (one file per module there, named after its path).
    pub mod frequency {
        pub mod fisher {
            pub use crate::frequency::fisher::*;
        }
        pub mod fit {
            pub use crate::frequency::fit::*;
        }
        pub mod quadrature {
            pub use crate::frequency::quadrature::*;
        }
        pub mod subset {
            pub use crate::frequency::subset::*;
        }
    }
    pub mod ranking {
        pub use crate::ranking::*;
    }
    /// Sets built past the constructors' checks.
    pub mod uncertainty {
        pub use crate::uncertainty::raw::{unchecked_ball, unchecked_polytope};
    }
}
