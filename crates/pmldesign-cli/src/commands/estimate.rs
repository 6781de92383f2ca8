//! `pml estimate`: the input distribution estimated from released data, with
//! intervals (`pmldesign_model::frequency`, docs/theory.md §13).

use crate::args::estimate::{EstimateArgs, MethodArg};
use crate::args::parse_counts;
use crate::error::CliError;
use crate::io::data::{count_released_data, released_records};
use crate::io::load::{
    design_from_text, public_from_text, public_record_from_text, record_from_text,
};
use crate::io::matrix::{matrix_from_text, read_text};
use crate::io::write::{check_outputs, emit};
use crate::render::estimate::render;
use pmldesign_app::EstimateAnswer;
use pmldesign_data::stream::StreamKey;
use pmldesign_model::Mechanism;
use pmldesign_model::frequency::FrequencySettings;
use pmldesign_solver::Design;
use pmldesign_solver::labels::numbered;

/// Runs `pml estimate`.
pub fn run(a: EstimateArgs) -> Result<(), CliError> {
    // The bootstrap's time limit counts from the command's start.
    let until = match a.time_limit {
        Some(t) => Some(std::time::Instant::now() + crate::args::design::time_limit(t)?),
        None => None,
    };
    check_outputs(
        &[
            ("--mechanism", Some(a.mechanism.as_path())),
            ("--data", a.data.as_deref()),
        ],
        &[("--output", a.output.path())],
    )?;
    let text = read_text("--mechanism", &a.mechanism)?;
    if let Some(r) = record_from_text("--mechanism", &a.mechanism, &text)? {
        let recorded = crate::io::load::recorded_record(&r)?.nulls();
        return run_record(&a, (r.columns(), recorded, None), &|released, s| {
            pmldesign_solver::estimate_record(&r, released, s)
        });
    }
    if let Some(p) = public_record_from_text("--mechanism", &a.mechanism, &text)? {
        let note = format!(
            "a public record file: not re-verified here: {}",
            p.unverified()
        );
        crate::say::note(&format!("note: {note}"));
        let recorded = crate::io::load::recorded_public_record(&p)?.nulls();
        return run_record(&a, (p.columns(), recorded, Some(note)), &|released, s| {
            pmldesign_solver::estimate_public_record(&p, released, s)
        });
    }
    let Read {
        mechanism,
        inputs,
        outputs,
        note,
        recorded,
    } = read_mechanism(&a, &text)?;
    let counts = released_counts(&a, &outputs, recorded)?;
    let settings = settings(&a);
    let mut answer = EstimateAnswer::new(&mechanism, &counts, &settings)
        .map_err(|e| CliError::Usage(e.to_string()))?
        .labels(inputs)
        .source(a.mechanism.display().to_string())
        .note(note);
    if let Some(reps) = a.bootstrap {
        let key = StreamKey::parse(a.seed.as_deref().unwrap_or("0"))
            .map_err(|e| CliError::Usage(format!("--seed: {e}")))?;
        answer = answer
            .bootstrap(reps, &key, until)
            .map_err(|e| CliError::Usage(format!("--bootstrap: {e}")))?;
    }
    // About the guarantee of the intervals: printed even under -q.
    for warning in answer.warnings() {
        eprintln!("warning: {warning}");
    }
    emit(a.output.path(), &render(&answer, a.output.format())?)
}

/// The mechanism of `pml estimate`, its names, what could not be verified, and
/// the recorded rule for missing values.
struct Read {
    mechanism: Mechanism,
    inputs: Vec<String>,
    outputs: Vec<String>,
    note: Option<String>,
    recorded: pmldesign_data::Nulls,
}

/// `--mechanism`: a public file (its checks redone), a design file (verified) or
/// a bare matrix (nothing to verify).
fn read_mechanism(a: &EstimateArgs, text: &str) -> Result<Read, CliError> {
    if let Some(p) = public_from_text("--mechanism", &a.mechanism, text)? {
        let recorded = crate::io::load::recorded_public(&p)?.nulls();
        return Ok(Read {
            mechanism: p.mechanism().clone(),
            inputs: p.labels().to_vec(),
            outputs: p.outputs().to_vec(),
            note: Some(format!(
                "a public file: not re-verified here: {}",
                p.unverified()
            )),
            recorded,
        });
    }
    let file = matrix_from_text("--mechanism", &a.mechanism, text)?;
    let (note, recorded) = if file.design {
        let d = design_from_text::<Design>("--mechanism", &a.mechanism, text)?;
        (None, crate::io::load::recorded(&d, &a.mechanism)?.nulls())
    } else {
        let note = "a bare matrix: nothing in it was verified".to_string();
        (Some(note), pmldesign_data::Nulls::Error)
    };
    let mechanism = Mechanism::from_rows(file.rows)
        .map_err(|e| CliError::Usage(format!("--mechanism {}: {e}", a.mechanism.display())))?;
    let inputs = file
        .labels
        .unwrap_or_else(|| numbered("x", mechanism.inputs()));
    let outputs = file
        .outputs
        .unwrap_or_else(|| numbered("y", mechanism.outputs()));
    Ok(Read {
        mechanism,
        inputs,
        outputs,
        note,
        recorded,
    })
}

/// The counts of released values: from `--counts` or by counting `--column`
/// of `--data` against the mechanism's output names. Missing values follow
/// `--nulls`, by default the rule the design recorded (as for a record).
fn released_counts(
    a: &EstimateArgs,
    outputs: &[String],
    recorded: pmldesign_data::Nulls,
) -> Result<Vec<u64>, CliError> {
    if let Some(text) = &a.counts {
        return counts_of(text, outputs);
    }
    let (Some(path), Some(column)) = (&a.data, &a.column) else {
        return Err(CliError::Usage(
            "pml estimate needs --data FILE --column NAME or --counts".into(),
        ));
    };
    let nulls = released_nulls(a.nulls.map_or(recorded, Into::into));
    let counted = count_released_data(path, a.data_format, column, outputs, nulls)?;
    if counted.dropped > 0 {
        crate::say::note(&format!(
            "note: {} released rows with a missing value were left out (--nulls drop)",
            counted.dropped
        ));
    }
    Ok(counted.counts)
}

/// How a missing released value is counted: a row left out with `--nulls drop`
/// was released missing and is left out again; `category` makes `<null>` an
/// input label, never a missing released value, so a missing one is an error.
fn released_nulls(rule: pmldesign_data::Nulls) -> pmldesign_data::Nulls {
    match rule {
        pmldesign_data::Nulls::Drop => pmldesign_data::Nulls::Drop,
        _ => pmldesign_data::Nulls::Error,
    }
}

/// `--counts`: `120,80,40` (one per output) or `y1=120,y3=40` (by name); the
/// numbers are read as `pml design --counts` reads them ([`parse_counts`]).
fn counts_of(text: &str, outputs: &[String]) -> Result<Vec<u64>, CliError> {
    let bad = |what: String| {
        CliError::Usage(format!(
            "invalid --counts = {text:?}: {what}; give one whole count per output ({}) \
             or name them as {}=120,...",
            outputs.len(),
            outputs.first().map_or("y1", String::as_str)
        ))
    };
    let items: Vec<&str> = text.split(',').collect();
    if !text.contains('=') {
        if items.len() != outputs.len() {
            return Err(bad(format!(
                "{} counts for {} outputs",
                items.len(),
                outputs.len()
            )));
        }
        let values: Vec<String> = items.iter().map(|t| t.to_string()).collect();
        return Ok(parse_counts(&values)?.0);
    }
    let mut places = Vec::with_capacity(items.len());
    let mut values = Vec::with_capacity(items.len());
    for item in items {
        let (name, value) = item
            .split_once('=')
            .ok_or_else(|| bad(format!("{item:?} has no name=")))?;
        let y = outputs
            .iter()
            .position(|o| o == name.trim())
            .ok_or_else(|| {
                bad(format!(
                    "{:?} is not an output of the mechanism",
                    name.trim()
                ))
            })?;
        if places.contains(&y) {
            return Err(bad(format!("{:?} is named twice", name.trim())));
        }
        places.push(y);
        values.push(value.to_string());
    }
    let mut counts = vec![0u64; outputs.len()];
    for (y, c) in places.into_iter().zip(parse_counts(&values)?.0) {
        counts[y] = c;
    }
    Ok(counts)
}

/// The estimation settings of `--method` and `--confidence`.
fn settings(a: &EstimateArgs) -> FrequencySettings {
    FrequencySettings {
        method: crate::args::values::named(a.method.unwrap_or(MethodArg::Em)),
        confidence: a.confidence,
        ..FrequencySettings::default()
    }
}

/// How a record's released tuples are estimated from: its design or its public
/// file ([`pmldesign_solver::estimate_record`], `estimate_public_record`).
type RecordEstimator<'a> = &'a dyn Fn(
    &[(Vec<String>, u64)],
    &FrequencySettings,
)
    -> pmldesign_solver::Result<pmldesign_solver::RecordEstimate>;

/// `pml estimate` of a record design or its public file (read, and so
/// verified), of `columns` whose design recorded the rule `recorded` for missing
/// values: the released columns `{column}_private` of `--data` counted as
/// tuples, then the record's cells and marginals estimated by `estimate`.
fn run_record(
    a: &EstimateArgs,
    (columns, recorded, note): (&[String], pmldesign_data::Nulls, Option<String>),
    estimate: RecordEstimator<'_>,
) -> Result<(), CliError> {
    let refused = [
        (
            a.counts.is_some(),
            "--counts (count the released columns with --data)",
        ),
        (
            a.column.is_some(),
            "--column (a record names its columns: {column}_private)",
        ),
        (a.bootstrap.is_some(), "--bootstrap (not yet for records)"),
        (
            a.method == Some(MethodArg::Inversion),
            "--method inversion (a record is estimated by maximum likelihood, so that its masses form a distribution)",
        ),
    ];
    if let Some((_, flag)) = refused.iter().find(|(on, _)| *on) {
        return Err(CliError::Usage(format!(
            "invalid {flag} with a record design; drop it"
        )));
    }
    let Some(path) = &a.data else {
        return Err(CliError::Usage(
            "pml estimate of a record design needs --data FILE with its released columns ({column}_private)".into(),
        ));
    };
    let private: Vec<String> = columns.iter().map(|c| format!("{c}_private")).collect();
    // A row whose values were missing was released with every private value
    // missing (--nulls drop): left out; anything else missing is refused.
    let nulls = released_nulls(a.nulls.map_or(recorded, Into::into));
    let sample = released_records(path, a.data_format, &private, nulls)?;
    let released: Vec<(Vec<String>, u64)> = sample
        .tuples()
        .iter()
        .map(|(t, n)| {
            let values = t
                .iter()
                .enumerate()
                .map(|(j, &i)| sample.labels(j)[i].clone());
            (values.collect(), *n)
        })
        .collect();
    // The record's masses at the maximum-likelihood estimate (EM), so that they
    // form a distribution (`--method inversion` is refused above).
    let estimate = estimate(&released, &settings(a))
        .map_err(|e| CliError::Usage(format!("--data {}: {e}", path.display())))?;
    warn_uncertified(
        estimate.converged,
        estimate.iterations,
        estimate.likelihood_gap,
    );
    let answer = pmldesign_app::RecordEstimateAnswer::new(estimate)
        .source(a.mechanism.display().to_string())
        .note(note);
    let report = crate::render::estimate_record::RecordReport(answer);
    emit(a.output.path(), &report.render(a.output.format())?)
}

/// The warning, in every format and even under -q, that EM stopped at its cap
/// before its likelihood gap certified the maximum.
fn warn_uncertified(converged: bool, iterations: usize, gap: Option<f64>) {
    if !converged {
        let warning = pmldesign_app::estimate::em_cap_warning(iterations, gap);
        eprintln!("warning: {warning}; report it with the counts");
    }
}
