//! Record designs for Python (`pmldesign.design_record`, `RecordDesign.from_json`):
//! the JSON of the record design file, as `pml design --column A --column B` writes.

use crate::engine::{IN_MEMORY, Objective, Options, Result, guarded, invalid, refused, settings};
use pmldesign::model::record::RecordSample;
use pmldesign::solver::sizes::MAX_MATRIX_FILE_BYTES;
use pmldesign::solver::{Interrupt, PublicRecord, RecordDesign, RecordMode, RecordProblem};

/// A record's sample and how to release it.
pub struct RecordRequest {
    pub columns: Vec<String>,
    pub labels: Vec<Vec<String>>,
    pub tuples: Vec<(Vec<usize>, u64)>,
    pub epsilon: f64,
    pub delta: Option<f64>,
    pub mode: String,
    pub split: Option<Vec<f64>>,
    pub max_cells: usize,
    pub time_limit: Option<f64>,
    pub gap: f64,
}

/// Designs the release of a record and returns its design file's JSON.
pub fn design_record(req: RecordRequest) -> Result<String> {
    guarded(|| {
        let sample = RecordSample::new(req.columns, req.labels, req.tuples)?;
        let mode: RecordMode = pmldesign_app::names::parse(&req.mode)?;
        let options = Options {
            objective: Objective::Utility("mi".into()),
            labels: None,
            time_limit: req.time_limit,
            gap: req.gap,
            pricing: "auto".into(),
            loss_method: "auto".into(),
            envelope_delta: 0.05,
        };
        let mut p = RecordProblem::new(sample, req.epsilon)
            .mode(mode)
            .max_cells(req.max_cells)
            .settings(settings(&options, Interrupt::new())?);
        if let Some(d) = req.delta {
            p = p.delta(d);
        }
        if let Some(split) = req.split {
            p = p.split(split);
        }
        Ok(p.solve()?.to_json())
    })
}

/// The joint distribution and the marginals behind released tuples of a record
/// design (read back and verified first), as the JSON of
/// `pmldesign_solver::RecordEstimate`.
pub fn estimate_record(
    text: &str,
    released: Vec<(Vec<String>, u64)>,
    confidence: f64,
) -> Result<String> {
    use pmldesign::model::frequency::FrequencySettings;
    guarded(|| {
        let r = read_record(text)?;
        let settings = FrequencySettings {
            confidence,
            ..FrequencySettings::default()
        };
        let e = pmldesign::solver::estimate_record(&r, &released, &settings)?;
        let answer = pmldesign_app::RecordEstimateAnswer::new(e).source(IN_MEMORY);
        Ok(answer.to_json().to_string())
    })
}

/// The public file of a record design's JSON (`pml publish`): the design read
/// back (re-certified) first; a `joint` record is refused with the reason.
pub fn public_record(text: &str) -> Result<String> {
    guarded(|| Ok(PublicRecord::of(&read_record(text)?)?.to_json()))
}

/// A public record file read back (every part re-checked, the sentence
/// re-derived) and written again.
pub fn check_public_record(text: &str) -> Result<String> {
    guarded(|| Ok(read_public_record(text)?.to_json()))
}

/// [`estimate_record`] from a public record file.
pub fn estimate_public_record(
    text: &str,
    released: Vec<(Vec<String>, u64)>,
    confidence: f64,
) -> Result<String> {
    use pmldesign::model::frequency::FrequencySettings;
    guarded(|| {
        let p = read_public_record(text)?;
        let settings = FrequencySettings {
            confidence,
            ..FrequencySettings::default()
        };
        let e = pmldesign::solver::estimate_public_record(&p, &released, &settings)?;
        let note = format!(
            "a public record file: not re-verified here: {}",
            p.unverified()
        );
        let answer = pmldesign_app::RecordEstimateAnswer::new(e)
            .source(IN_MEMORY)
            .note(Some(note));
        Ok(answer.to_json().to_string())
    })
}

/// A public record file read back, refused past the largest file a record
/// design takes.
fn read_public_record(text: &str) -> Result<PublicRecord> {
    if text.len() as u64 > 64 * MAX_MATRIX_FILE_BYTES {
        return Err(invalid(
            "public record JSON",
            text.len(),
            "larger than any public record file pml writes",
            "pass the text of PublicRecord.to_json()",
        ));
    }
    PublicRecord::from_json(text).map_err(|e| refused(text, e))
}

/// A record design file read back (every design re-certified, every figure
/// re-derived) and written again.
pub fn check_record(text: &str) -> Result<String> {
    guarded(|| Ok(read_record(text)?.to_json()))
}

/// A record design read back from its JSON (every design re-certified, every
/// figure re-derived), refused past the largest file a record design takes.
pub(crate) fn read_record(text: &str) -> Result<RecordDesign> {
    if text.len() as u64 > 64 * MAX_MATRIX_FILE_BYTES {
        return Err(invalid(
            "record design JSON",
            text.len(),
            "larger than any record design pml writes",
            "pass the text of RecordDesign.to_json()",
        ));
    }
    RecordDesign::from_json(text).map_err(|e| refused(text, e))
}
