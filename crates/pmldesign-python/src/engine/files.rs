//! Design and public files read back: every reader verifies what it reads.

use super::{Error, Result, guarded, refused};
use pmldesign::prelude::*;
use pmldesign::solver::sizes::{MAX_ALPHABET, MAX_MATRIX_FILE_BYTES};
use serde_json::{Value, json};

/// Checks the JSON of a design (a utility's or a loss's) as the library reads it
/// back: the set rebuilt through its checked constructors and the mechanism
/// re-measured under the stated notion over the whole set, so an edited, leaky
/// design is refused.
/// Returns the design as read back: every figure re-derived (the envelope and
/// the guarantee's statement included), the file parsed once.
pub fn check_design(text: &str) -> Result<Value> {
    guarded(|| Ok(serde_json::to_value(read_design(text)?)?))
}

/// The public file of a design's JSON (`pml publish`): the design read back
/// (verified) first, then cut to what receivers get.
pub fn public_design(text: &str) -> Result<String> {
    guarded(|| Ok(pmldesign::solver::PublicDesign::of(&read_design(text)?).to_json()))
}

/// A public file read back, its checks and sentence re-derived; the file as
/// read, and what a receiver cannot re-verify from it.
pub fn check_public(text: &str) -> Result<Value> {
    guarded(|| {
        let text = design_text(text)?;
        let p = pmldesign::solver::PublicDesign::from_json(text)
            .map_err(|e| refused(text, Error::from(e).context("public file")))?;
        let mut v = serde_json::to_value(&p)?;
        v["unverified"] = json!(p.unverified());
        Ok(v)
    })
}

/// A design read back from its JSON (verified as it is read), refused past the
/// largest file a matrix of [`MAX_ALPHABET`] symbols takes (before it is parsed).
pub(crate) fn read_design(text: &str) -> Result<Design> {
    let text = design_text(text)?;
    serde_json::from_str::<Design>(text).map_err(|e| refused(text, format!("design JSON: {e}")))
}

/// A design's JSON within the size a design takes, less a byte-order mark (a
/// file saved with one is the same design).
fn design_text(text: &str) -> Result<&str> {
    if text.len() as u64 > MAX_MATRIX_FILE_BYTES {
        return Err(Error::Invalid(format!(
            "design JSON: {} bytes, more than a design of N = {MAX_ALPHABET} symbols takes ({MAX_MATRIX_FILE_BYTES})",
            text.len()
        )));
    }
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}

/// Whether a certificate's JSON holds ([`Certificate::holds`]): its measured
/// levels within its notion's and the tolerance, no negative entry, rows
/// summing to 1.
pub fn certificate_holds(text: &str) -> Result<bool> {
    guarded(|| {
        let c = serde_json::from_str::<pmldesign::solver::Certificate>(text)
            .map_err(|e| Error::Invalid(format!("invalid certificate: {e}")))?;
        Ok(c.holds())
    })
}

/// Verifies the JSON of a design as `pml assess --design` does
/// ([`Design::verify`]): read back (privacy re-measured), the utility or loss
/// re-measured, the stored dual re-priced; the verdict as that command writes
/// it ([`pmldesign_app::Verdict`]), its source `<design>`.
pub fn verify_design(text: &str) -> Result<Value> {
    guarded(|| {
        // Reading verifies it: the verification is the one reading ran.
        let text = design_text(text)?;
        let read = serde_json::from_str::<pmldesign::solver::VerifiedDesign>(text)
            .map_err(|e| refused(text, format!("design JSON: {e}")))?;
        Ok(pmldesign_app::Verdict::new(&read.design, &read.verification, "<design>").to_json())
    })
}
