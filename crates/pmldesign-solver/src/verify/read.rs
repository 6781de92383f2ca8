//! Reading a stored design: one reader for every route (a design file given to
//! `pml assess`, `pml apply`, a report, Python's `Design.from_json`, a record
//! file's designs, `pml serve`). The file's figures are re-derived
//! (`solution/record.rs`: the set rebuilt, privacy re-measured over the whole
//! set) and the design is verified ([`Design::verify`]: the utility re-measured,
//! the dual re-priced, the stated bound and status checked against what is
//! proven here), so no route can use a design whose claims do not hold
//! (docs/theory.md §4, "Checking a stored design").

use crate::solution::design::Design;
use crate::solution::record::DesignRecord;
use crate::verify::utility::Verification;
use serde::{Deserialize, Deserializer};

/// A design read back together with the verification that reading it ran, for
/// the callers that report it (`pml assess --design`, Python's
/// `Design.verify`), so that they do not re-price the dual a second time.
#[derive(Debug, Clone)]
pub struct VerifiedDesign {
    /// The design, every figure re-derived.
    pub design: Design,
    /// What reading it re-checked.
    pub verification: Verification,
}

impl<'de> Deserialize<'de> for VerifiedDesign {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let design = DesignRecord::deserialize(d)?
            .into_design()
            .map_err(serde::de::Error::custom)?;
        let verification = design.verify().map_err(serde::de::Error::custom)?;
        Ok(VerifiedDesign {
            design,
            verification,
        })
    }
}

impl<'de> Deserialize<'de> for Design {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        VerifiedDesign::deserialize(d).map(|v| v.design)
    }
}
