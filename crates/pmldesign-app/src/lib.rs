//! The answers of pmldesign's commands as typed values, one per command, built
//! once and shared by every front end: `pml` prints them (`--format json`, or
//! as tables read from the same value) and the Python package returns them, so
//! that the two agree key for key and number for number.
//!
//! ```
//! use pmldesign_app::Audit;
//! use pmldesign_model::{Mechanism, Prior};
//!
//! let w = Mechanism::from_rows(vec![vec![0.8, 0.2], vec![0.2, 0.8]])?;
//! let prior = Prior::new(vec![0.5, 0.5])?;
//! let audit = Audit::new(&w, &prior, None, 0.05)?;
//! let json = audit.to_json();
//! assert_eq!(json["format_version"], 1);
//! // The mechanism is eps-PML for eps = ln(0.8 / 0.5) at the least.
//! assert!((json["eps_min"].as_f64().unwrap() - 1.6f64.ln()).abs() < 1e-12);
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

mod json;

pub mod apply;
pub mod audit;
pub mod bounds;
pub mod design;
pub mod envelope;
pub mod estimate;
pub mod names;
pub mod notion;
pub mod record_estimate;
pub mod recorded;
pub mod verdict;

pub use apply::{ApplySummary, TableFormat, WrittenColumn};
pub use audit::{Audit, RadiusSource};
pub use bounds::{BoundsAnswer, Question, RadiusFrom};
pub use design::{DesignRequest, Objective, Priors};
pub use envelope::{DEFAULT_DELTAS, EnvelopeAnswer, bounds_json};
pub use estimate::EstimateAnswer;
pub use json::{finite_or_null, versioned};
pub use record_estimate::RecordEstimateAnswer;
pub use recorded::Reading;
pub use verdict::{RecordVerdict, Verdict};
