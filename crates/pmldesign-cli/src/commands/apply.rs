//! `pml apply`: run a mechanism on a CSV column, one record at a time. The sampling
//! is `pmldesign_data::sampler`, the streaming `pmldesign_data::privatise_column`.

use crate::args::DataFormat;
use crate::args::apply::{ApplyArgs, Unknown};
use crate::args::check_labels;
use crate::error::CliError;
use crate::io::data::{open_data, open_file};
use crate::io::key::stream_key;
use crate::io::load::{design_from_text, record_from_text, recorded, recorded_record};
use crate::io::matrix::{matrix_from_text, read_text};
use crate::io::write::{check_outputs, write_atomic, write_atomic_with, write_error};
use crate::render::apply::{NoiseStatement, noise_line, nulls_warning, summary_line};
use crate::render::csv::defuse;
use pmldesign_app::{ApplySummary, Reading, TableFormat, WrittenColumn};
use pmldesign_data::record_privatise::{
    BinnedRecord, ColumnByColumn, JointPrivatiser, RawColumns, RecordHandling, RecordPrivatiser,
    private_names, privatise_record,
};
use pmldesign_data::stream::StreamKey;
use pmldesign_data::{
    Binned, CategoricalPrivatiser, ColumnPrivatiser, Handling, Nulls, OnUnknown, Placement,
    PrivatiseError, RowPlace, privatise_column_by,
};
use pmldesign_model::{Mechanism, UncertaintySet};
use pmldesign_solver::labels::numbered;
use pmldesign_solver::{RecordDesign, RecordMode};

/// Runs `pml apply`.
pub fn run(a: ApplyArgs) -> Result<(), CliError> {
    run_until(a, &|| None)
}

/// Why a run asked to stop (`pml serve`'s cancel or time limit), if it did.
pub type Stop<'a> = &'a (dyn Fn() -> Option<String> + Sync);

/// Runs `pml apply`, stopping with nothing written as soon as `stop` says why
/// (checked at every write of the output, so between rows or batches).
pub fn run_until(a: ApplyArgs, stop: Stop<'_>) -> Result<(), CliError> {
    check_outputs(
        &[
            ("--data", Some(&a.data)),
            ("--mechanism", a.mechanism.as_deref()),
            ("--seed-file", a.seed_file.as_deref()),
        ],
        &[
            ("--output", Some(&a.output)),
            ("--summary", a.summary.as_deref()),
        ],
    )?;
    if a.output.as_os_str() == "-" && a.summary.as_ref().is_some_and(|s| s.as_os_str() == "-") {
        return Err(CliError::Usage(
            "invalid --summary -: the release goes to stdout (--output -); give --summary a file"
                .into(),
        ));
    }
    let key = stream_key(a.seed.as_deref(), a.seed_file.as_deref())?;
    let text = match &a.mechanism {
        Some(path) => Some(read_text("--mechanism", path)?),
        None => None,
    };
    if let (Some(path), Some(text)) = (&a.mechanism, &text) {
        if crate::io::load::public_from_text("--mechanism", path, text)?.is_some()
            || crate::io::load::public_record_from_text("--mechanism", path, text)?.is_some()
        {
            return Err(CliError::Usage(format!(
                "invalid --mechanism {}: a public file (pml publish), which carries no certificate to verify; apply the design file it was published from",
                path.display()
            )));
        }
        if let Some(r) = record_from_text("--mechanism", path, text)? {
            return run_record(&a, &r, &key, stop);
        }
    }
    let column = a.column.clone().ok_or_else(|| {
        CliError::Usage("pml apply needs --column NAME: the column to privatise (a record design names its own)".into())
    })?;
    let (mut privatiser, statement, recorded, certified) =
        privatiser(&a, &column, text.as_deref(), &key)?;
    let nulls = a.nulls.map_or(recorded, Into::into);
    let on_unknown = on_unknown(&a);
    let default_name = format!("{column}_private");
    let name = a.output_column.as_deref().unwrap_or(&default_name);
    let placement = match (a.replace, a.keep_raw) {
        (true, _) => Placement::Replace,
        (false, true) => Placement::Append(name),
        (false, false) => Placement::Private(name),
    };
    // Opened once, before the output exists.
    let format = table_format(&a)?;
    let source = open_source(&a, format)?;
    let summary = write_atomic_with("--output", &a.output, |w| {
        let rows = a.key.as_deref().map_or(RowPlace::Position, RowPlace::Key);
        let how = Handling {
            placement,
            on_unknown,
            rows,
            nulls,
        };
        let privatiser = privatiser.as_mut();
        let w = &mut Stopping { inner: w, stop };
        let done = match source {
            Source::Parquet(file) => privatise_parquet(file, w, &column, how, privatiser),
            Source::Csv(file) => privatise_column_by(file, w, &column, how, privatiser),
        };
        done.map_err(|e| stopped(stop).unwrap_or_else(|| privatise_error(e, &a)))
    })?;
    let written = WrittenColumn {
        written_as: if a.replace {
            column.clone()
        } else {
            name.to_owned()
        },
        column: column.clone(),
    };
    let answer = ApplySummary::new(summary, format, vec![written], a.keep_raw);
    say_summary(&answer, &a)?;
    if let Some(statement) = statement {
        say_noise(&statement);
    }
    warn_kept_raw(&a, std::slice::from_ref(&column));
    if let (Some(set), Some(counts)) = (&certified, privatiser.counts()) {
        warn_other_population(&a, &column, set, counts);
    }
    Ok(())
}

/// The confidence level of [`warn_other_population`]'s sampling radius.
const POPULATION_DELTA: f64 = 1e-6;

/// Warns (even under `-q`: it is about the guarantee) when the values of the
/// column privatised lie farther from the design's set of priors than these
/// rows' own sampling radius (`pml bounds radius`, distribution-free, at delta
/// [`POPULATION_DELTA`]): the design was certified for another population.
fn warn_other_population(a: &ApplyArgs, column: &str, set: &UncertaintySet, counts: &[u64]) {
    let m: u64 = counts.iter().sum();
    if m == 0 {
        return;
    }
    let q: Vec<f64> = counts.iter().map(|&c| c as f64 / m as f64).collect();
    let (Some(distance), Ok(radius)) = (
        set.l1_distance(&q),
        pmldesign_model::sample::radius_free(m, POPULATION_DELTA, counts.len()),
    ) else {
        return;
    };
    if distance <= radius {
        return;
    }
    let certified = match set {
        UncertaintySet::L1Ball { beta, .. } => {
            format!("the l1 ball of radius {beta} it was designed for")
        }
        _ => "the prior it was designed for".to_string(),
    };
    crate::say::warn_guarantee(&format!(
        "warning: --data {} column {column}: the {m} rows' frequencies are at l1 distance {distance:.4} from {certified}, past their own sampling radius {radius:.4} (delta {POPULATION_DELTA:e}): the design's guarantee is about another population; design from these data (pml design --data ... --delta ...)",
        a.data.display()
    ));
}

/// Under `--keep-raw`, the warning that the output is no release (printed even
/// under `-q`: it is about the guarantee).
fn warn_kept_raw(a: &ApplyArgs, columns: &[String]) {
    if a.keep_raw {
        crate::say::warn_guarantee(&format!(
            "warning: --keep-raw: {} holds the raw column(s) {} beside the privatised values; it is not a release: hand out a copy without them (apply without --keep-raw)",
            a.output.display(),
            columns.join(", ")
        ));
    }
}

/// What was read and written, a note (and the `--summary` file); rows written
/// missing, a warning.
fn say_summary(answer: &ApplySummary, a: &ApplyArgs) -> Result<(), CliError> {
    if let Some(path) = &a.summary {
        write_atomic(
            "--summary",
            path,
            &crate::render::pretty(&answer.to_json())?,
        )?;
    }
    crate::say::note(&summary_line(answer, &a.data, &a.output));
    if let Some(warning) = nulls_warning(answer.counts()) {
        crate::say::warn_guarantee(&warning);
    }
    Ok(())
}

/// The measured guarantee of additive noise: a note, or a warning where no
/// finite level holds.
fn say_noise(statement: &NoiseStatement) {
    let line = noise_line(statement);
    if statement.bounded() {
        crate::say::note(&line);
    } else {
        crate::say::warn_guarantee(&format!("warning: {line}"));
    }
}

/// The output of a run that can be stopped: every write first asks `stop`, and
/// fails (so that nothing is kept) once it gives a reason.
struct Stopping<'a> {
    inner: &'a mut (dyn std::io::Write + Send),
    stop: Stop<'a>,
}

impl std::io::Write for Stopping<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match (self.stop)() {
            // Not `Interrupted`, which `write_all` retries.
            Some(why) => Err(std::io::Error::other(why)),
            None => self.inner.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The error of a run that `stop` stopped, if it did.
fn stopped(stop: Stop<'_>) -> Option<CliError> {
    stop().map(|why| CliError::Usage(format!("pml apply stopped: {why}; nothing was written")))
}

/// The error of a privatisation, naming the flag at fault.
fn privatise_error(e: PrivatiseError, a: &ApplyArgs) -> CliError {
    let data = a.data.display();
    match e {
        PrivatiseError::Input(e) => CliError::Usage(format!("--data {data}: {e}")),
        PrivatiseError::Unknown(e) => CliError::Usage(format!(
            "--data {data}: {e} (`--on-unknown skip|keep` in the CLI)"
        )),
        PrivatiseError::Read(e) => CliError::Failure(format!("cannot read --data {data}: {e}")),
        PrivatiseError::Write(e) => write_error("--output", &a.output, &e),
        other => CliError::Failure(format!("--data {data}: {other}")),
    }
}

fn on_unknown(a: &ApplyArgs) -> OnUnknown {
    match a.on_unknown {
        Unknown::Error => OnUnknown::Error,
        Unknown::Skip => OnUnknown::Skip,
        Unknown::Keep => OnUnknown::Keep,
    }
}

/// `pml apply` with a record design: every column it names, privatised together
/// (CSV or Parquet), each `{column}_private` appended in place of the raw
/// columns (or beside them, `--keep-raw`; or in their places, `--replace`).
fn run_record(
    a: &ApplyArgs,
    r: &RecordDesign,
    key: &StreamKey,
    stop: Stop<'_>,
) -> Result<(), CliError> {
    let refused = [
        (
            a.column.is_some(),
            "--column (the record design names its columns)",
        ),
        (
            a.output_column.is_some(),
            "--output-column (each column gets {column}_private, or --replace)",
        ),
        (a.labels().is_some(), "--labels (the design names them)"),
    ];
    if let Some((_, flag)) = refused.iter().find(|(on, _)| *on) {
        return Err(CliError::Usage(format!(
            "invalid {flag} with a record design; drop it"
        )));
    }
    let mut privatiser = record_privatiser(r, &record_output_names(a, r)?, key)?;
    let format = table_format(a)?;
    let source = open_source(a, format)?;
    // As the design read them (`pml design --nulls`), unless --nulls says otherwise.
    let recorded = recorded_record(r)?.nulls();
    let raw = match (a.replace, a.keep_raw) {
        (true, _) => RawColumns::Replaced,
        (false, true) => RawColumns::Kept,
        (false, false) => RawColumns::Dropped,
    };
    let how = RecordHandling {
        on_unknown: on_unknown(a),
        raw,
        nulls: a.nulls.map_or(recorded, Into::into),
        rows: a.key.as_deref().map_or(RowPlace::Position, RowPlace::Key),
    };
    let summary = write_atomic_with("--output", &a.output, |w| {
        let p = privatiser.as_mut();
        let w = &mut Stopping { inner: w, stop };
        match source {
            Source::Parquet(file) => privatise_record_parquet(file, w, r.columns(), how, p),
            Source::Csv(file) => privatise_record(file, w, r.columns(), how, p),
        }
        .map_err(|e| stopped(stop).unwrap_or_else(|| privatise_error(e, a)))
    })?;
    let written = r
        .columns()
        .iter()
        .zip(private_names(r.columns(), raw))
        .map(|(c, written_as)| WrittenColumn {
            column: c.clone(),
            written_as,
        })
        .collect();
    say_summary(&ApplySummary::new(summary, format, written, a.keep_raw), a)?;
    warn_kept_raw(a, r.columns());
    Ok(())
}

/// The privatiser of a record design, its binned columns cut at the edges it
/// recorded (`pml design --bins COLUMN=EDGES`).
fn record_privatiser(
    r: &RecordDesign,
    names: &[Vec<String>],
    key: &StreamKey,
) -> Result<Box<dyn RecordPrivatiser>, CliError> {
    let bins = recorded_record(r)?.bins().to_vec();
    let inner = draws(r, names, key)?;
    Ok(match bins.iter().any(Option::is_some) {
        true => Box::new(BinnedRecord::new(bins, inner)),
        false => inner,
    })
}

/// The values each private column of a record design takes (compose and ldp:
/// its design's outputs; joint: its labels, as the decoded outputs are written).
fn private_values(r: &RecordDesign) -> Vec<Vec<String>> {
    match r.mode() {
        RecordMode::Joint => (0..r.columns().len())
            .map(|j| r.sample().labels(j).to_vec())
            .collect(),
        _ => r.designs().iter().map(|d| d.outputs().to_vec()).collect(),
    }
}

/// The names each private column is written with: [`private_values`], renamed
/// where `--output-labels COLUMN=NAMES` says (one distinct, non-empty name per
/// value). Written as they are, so that `pml estimate` matches them.
fn record_output_names(a: &ApplyArgs, r: &RecordDesign) -> Result<Vec<Vec<String>>, CliError> {
    let mut names = private_values(r);
    for text in &a.output_labels {
        let named = crate::args::apply::record_output_names(text)
            .and_then(|(c, n)| Some((r.columns().iter().position(|k| k == c)?, n)));
        let Some((j, given)) = named else {
            return Err(CliError::Usage(format!(
                "invalid --output-labels {text}: with a record design name the column, as --output-labels COLUMN=N1,N2,..., COLUMN one of {}",
                elide_list(r.columns())
            )));
        };
        if pmldesign_model::names::check_names_for("output_labels", &given, names[j].len()).is_err()
        {
            return Err(CliError::Usage(format!(
                "invalid --output-labels {text}: column {} takes {} private values ({}); give as many distinct, non-empty names",
                r.columns()[j],
                names[j].len(),
                elide_list(&names[j])
            )));
        }
        names[j] = given;
    }
    Ok(names)
}

/// The draws of a record design, its private columns written with `names`:
/// the joint design's one draw a row, or one design per column on its own
/// stream.
fn draws(
    r: &RecordDesign,
    names: &[Vec<String>],
    key: &StreamKey,
) -> Result<Box<dyn RecordPrivatiser>, CliError> {
    let failure =
        |e: pmldesign_model::ModelError| CliError::Failure(format!("the record design: {e}"));
    if r.mode() == RecordMode::Joint {
        let labels = private_values(r);
        // Each decoded value written by its column's name for it.
        let decoded = r
            .decoded()
            .iter()
            .map(|t| {
                t.iter()
                    .enumerate()
                    .map(|(j, v)| match labels[j].iter().position(|l| l == v) {
                        Some(i) => names[j][i].clone(),
                        None => v.clone(),
                    })
                    .collect()
            })
            .collect();
        let p = JointPrivatiser::new(
            r.designs()[0].mechanism(),
            labels,
            decoded,
            (key, r.columns()),
        )
        .map_err(failure)?;
        return Ok(Box::new(p));
    }
    let mut columns: Vec<Box<dyn ColumnPrivatiser>> = Vec::new();
    for ((d, c), outputs) in r.designs().iter().zip(r.columns()).zip(names) {
        let p = CategoricalPrivatiser::new(
            d.mechanism(),
            d.labels().to_vec(),
            outputs.clone(),
            (key, c.as_str()),
        )
        .map_err(failure)?;
        columns.push(Box::new(p));
    }
    Ok(Box::new(ColumnByColumn(columns)))
}

/// A privatiser, for additive noise its measured guarantee, what a missing
/// value does as the design recorded it (`--nulls` at design time), and a
/// verified design's set of priors.
type Privatiser = (
    Box<dyn ColumnPrivatiser>,
    Option<NoiseStatement>,
    Nulls,
    Option<UncertaintySet>,
);

/// The sampler asked for: a mechanism with its labels, or additive noise on a
/// grid ([`super::grid_noise`]).
fn privatiser(
    a: &ApplyArgs,
    column: &str,
    text: Option<&str>,
    key: &StreamKey,
) -> Result<Privatiser, CliError> {
    let stream = (key, column);
    if let Some((p, statement)) = super::grid_noise::grid_privatiser(a, stream)? {
        return Ok((p, Some(statement), Nulls::Error, None));
    }
    let path = a
        .mechanism
        .as_ref()
        .expect("clap requires one of the three");
    let shown = path.display();
    let mut certified = None;
    // Read once: the matrix, and the claims of a design file beside it.
    let text = text.unwrap_or_default();
    let file = matrix_from_text("--mechanism", path, text)?;
    // A verified design is applied as it was verified: its own matrix and names.
    let (mechanism, own, outputs, recorded) =
        match check_claims(path, text, file.design, a.unverified)? {
            Some(d) => {
                let recorded = recorded(&d, path)?;
                certified = Some(d.uncertainty().clone());
                (
                    d.mechanism().clone(),
                    d.labels().to_vec(),
                    Some(d.outputs().to_vec()),
                    recorded,
                )
            }
            None => {
                let m = Mechanism::from_rows(file.rows)
                    .map_err(|e| CliError::Usage(format!("--mechanism {shown}: {e}")))?;
                let own =
                    pmldesign_solver::labels::check_labels(file.labels.as_deref(), m.inputs())
                        .map_err(|e| {
                            CliError::Usage(format!("--mechanism {shown}: the row labels: {e}"))
                        })?;
                (m, own, file.outputs, Reading::new(Nulls::Error, vec![None]))
            }
        };
    let labels = match a.labels() {
        // A design's rows are certified for its labels: never re-keyed.
        Some(l) if file.design && l != own.as_slice() => {
            return Err(CliError::Usage(format!(
                "invalid --labels {}: the design in --mechanism {shown} is certified for its own labels {}, and its rows cannot be re-keyed; drop --labels and map the column's values to the design's labels",
                elide_list(l),
                elide_list(&own)
            )));
        }
        Some(l) => check_labels(Some(l), mechanism.inputs())?,
        None => own,
    };
    let given = match &a.output_labels[..] {
        [] => None,
        [one] => Some(crate::args::apply::output_names_for(one, column)),
        [_, second, ..] => {
            return Err(CliError::Usage(format!(
                "invalid --output-labels {second}: a mechanism's outputs are named once; give one --output-labels N1,N2,..."
            )));
        }
    };
    let outputs = match given.or(outputs) {
        Some(o) => o,
        None => numbered("y", mechanism.outputs()),
    };
    // Written as cells of the output CSV: guarded against formula injection.
    let outputs: Vec<String> = outputs.iter().map(|o| defuse(o).into_owned()).collect();
    let p = CategoricalPrivatiser::new(&mechanism, labels, outputs, stream).map_err(|e| {
        CliError::Usage(format!(
            "--mechanism {shown}: {e} (use --labels / --output-labels to name them)"
        ))
    })?;
    let nulls = recorded.nulls();
    match recorded.bins().first().cloned().flatten() {
        Some(bins) => Ok((Box::new(Binned::new(bins, p)), None, nulls, certified)),
        None => Ok((Box::new(p), None, nulls, certified)),
    }
}

/// A list of labels for a message: the first few, then how many more.
fn elide_list(labels: &[String]) -> String {
    const SHOWN: usize = 8;
    let head = labels
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(",");
    match labels.len().checked_sub(SHOWN) {
        Some(more) if more > 0 => format!("{head},... ({more} more)"),
        _ => head,
    }
}

/// The format of `--data` and `--output`: Parquet for both, or CSV for both (a
/// format is not converted on the way).
fn table_format(a: &ApplyArgs) -> Result<TableFormat, CliError> {
    let input = DataFormat::of(&a.data, a.data_format) == DataFormat::Parquet;
    let output = DataFormat::of(&a.output, a.data_format) == DataFormat::Parquet;
    if input != output {
        let name = |p: bool| if p { "Parquet" } else { "CSV" };
        return Err(CliError::Usage(format!(
            "invalid --output {}: --data is {} but the output would be {}; give --output a name of the same format (.parquet for Parquet)",
            a.output.display(),
            name(input),
            name(output)
        )));
    }
    Ok(match input {
        true => TableFormat::Parquet,
        false => TableFormat::Csv,
    })
}

/// `--data`, opened in its format.
fn open_source(a: &ApplyArgs, format: TableFormat) -> Result<Source, CliError> {
    Ok(match format {
        TableFormat::Parquet => Source::Parquet(open_file(&a.data)?),
        _ => Source::Csv(open_data(&a.data)?),
    })
}

/// The opened `--data`, in its format.
enum Source {
    Csv(Box<dyn std::io::Read>),
    Parquet(std::fs::File),
}

/// `privatise_column_by` for a Parquet file (the `parquet` feature).
#[cfg(feature = "parquet")]
fn privatise_parquet(
    file: std::fs::File,
    w: &mut (dyn std::io::Write + Send),
    column: &str,
    how: Handling<'_>,
    privatiser: &mut dyn ColumnPrivatiser,
) -> Result<pmldesign_data::PrivatiseSummary, PrivatiseError> {
    pmldesign_data::columnar::privatise_parquet_by(file, w, column, how, privatiser)
}

/// A record design on a Parquet file (the `parquet` feature).
#[cfg(feature = "parquet")]
fn privatise_record_parquet(
    file: std::fs::File,
    w: &mut (dyn std::io::Write + Send),
    columns: &[String],
    how: RecordHandling<'_>,
    privatiser: &mut dyn RecordPrivatiser,
) -> Result<pmldesign_data::PrivatiseSummary, PrivatiseError> {
    pmldesign_data::columnar::privatise_record_parquet(file, w, columns, how, privatiser)
}

/// Without the `parquet` feature a Parquet file is refused.
#[cfg(not(feature = "parquet"))]
fn privatise_record_parquet(
    _: std::fs::File,
    _: &mut (dyn std::io::Write + Send),
    _: &[String],
    _: RecordHandling<'_>,
    _: &mut dyn RecordPrivatiser,
) -> Result<pmldesign_data::PrivatiseSummary, PrivatiseError> {
    Err(no_parquet_support())
}

/// Without the `parquet` feature a Parquet file is refused.
#[cfg(not(feature = "parquet"))]
fn privatise_parquet(
    _: std::fs::File,
    _: &mut (dyn std::io::Write + Send),
    _: &str,
    _: Handling<'_>,
    _: &mut dyn ColumnPrivatiser,
) -> Result<pmldesign_data::PrivatiseSummary, PrivatiseError> {
    Err(no_parquet_support())
}

#[cfg(not(feature = "parquet"))]
fn no_parquet_support() -> PrivatiseError {
    PrivatiseError::Input(pmldesign_model::ModelError::invalid(
        "data format",
        "parquet",
        "this pml was built without Parquet support",
        "rebuild it with default features, or give CSV",
    ))
}

/// A design file is verified before it is applied (its privacy re-measured over
/// its set, its utility and bound re-checked) and returned, unless `unverified`,
/// which warns that no guarantee holds; a bare matrix carries no claim to check,
/// and a note says so.
fn check_claims(
    path: &std::path::Path,
    text: &str,
    design: bool,
    unverified: bool,
) -> Result<Option<pmldesign_solver::Design>, CliError> {
    let shown = path.display();
    if !design {
        crate::say::warn_guarantee(&format!(
            "warning: --mechanism {shown} is a bare matrix: no privacy guarantee was checked"
        ));
        return Ok(None);
    }
    if unverified {
        crate::say::warn_guarantee(&format!(
            "warning: --unverified: the design in --mechanism {shown} was not checked; no privacy guarantee holds for the output"
        ));
        return Ok(None);
    }
    // Reading a design verifies it (its privacy, utility, dual and status).
    design_from_text::<pmldesign_solver::Design>("--mechanism", path, text)
        .map(Some)
        .map_err(|e| match e {
            CliError::Usage(m) => CliError::Usage(format!(
                "{m} (the design fails its check: fix the file, or pass --unverified to apply it without a guarantee)"
            )),
            other => other,
        })
}

#[cfg(test)]
mod tests {
    use super::run_until;
    use crate::args::{Cli, Command};
    use clap::Parser;

    /// A run asked to stop (`pml serve`'s cancel or time limit) writes nothing
    /// and says why; one never asked runs to the end.
    #[test]
    fn a_stopped_run_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("in.csv");
        std::fs::write(&data, "c\na\nb\na\n").unwrap();
        let matrix = dir.path().join("m.csv");
        std::fs::write(&matrix, "0.75,0.25\n0.25,0.75\n").unwrap();
        let out = dir.path().join("out.csv");
        let args = || {
            let argv = [
                "pml", "apply", "--column", "c", "--labels", "a,b", "--seed", "0x1234",
            ];
            let paths = ["--mechanism", matrix.to_str().unwrap(), "--data"];
            let more = [data.to_str().unwrap(), "--output", out.to_str().unwrap()];
            match Cli::try_parse_from(argv.into_iter().chain(paths).chain(more)) {
                Ok(Cli {
                    command: Command::Apply(a),
                    ..
                }) => a,
                other => panic!("{other:?}"),
            }
        };
        let e = run_until(args(), &|| Some("cancelled".into())).unwrap_err();
        assert!(e.to_string().contains("stopped: cancelled"), "{e}");
        assert!(!out.exists());
        run_until(args(), &|| None).unwrap();
        assert!(out.exists());
    }
}
