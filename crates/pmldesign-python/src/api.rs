//! The `#[pyfunction]`s of `pmldesign._native`: argument conversion, the GIL, Ctrl-C
//! and progress callbacks. Every computation is a call into [`crate::engine`].

use crate::engine::{self, Objective, Options, Progress, Question, RadiusFrom};
use crate::errors::{InvalidInputError, PmlError, to_py_err};
use numpy::{
    AllowTypeChange, PyArray1, PyArray2, PyArrayLike1, PyArrayLike2, PyArrayMethods,
    PyReadonlyArray1, ToPyArray,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::time::{Duration, Instant};

/// A 1-D float64 argument (a sequence or any array numpy can cast).
type Vector<'py> = PyArrayLike1<'py, f64, AllowTypeChange>;
/// A 2-D float64 argument; rows are inputs.
type Matrix<'py> = PyArrayLike2<'py, f64, AllowTypeChange>;

/// How often a run re-acquires the GIL to look for Ctrl-C (at most).
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// Registers the functions, the exception and the constants.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    crate::errors::register(m)?;
    m.add("PML_TOLERANCE", engine::PML_TOLERANCE)?;
    m.add("ROW_SUM_TOLERANCE", engine::ROW_SUM_TOLERANCE)?;
    m.add("OUTPUT_FORMAT_VERSION", engine::OUTPUT_FORMAT_VERSION)?;
    m.add("MAX_CATEGORIES", engine::MAX_CATEGORIES)?;
    m.add_function(wrap_pyfunction!(design, m)?)?;
    m.add_function(wrap_pyfunction!(design_from_counts, m)?)?;
    m.add_function(wrap_pyfunction!(check_design, m)?)?;
    m.add_function(wrap_pyfunction!(estimate, m)?)?;
    m.add_function(wrap_pyfunction!(verify_design, m)?)?;
    m.add_function(wrap_pyfunction!(certificate_holds, m)?)?;
    m.add_function(wrap_pyfunction!(public_design, m)?)?;
    m.add_function(wrap_pyfunction!(check_public, m)?)?;
    m.add_function(wrap_pyfunction!(apply_codes, m)?)?;
    m.add_function(wrap_pyfunction!(apply_noise, m)?)?;
    m.add_function(wrap_pyfunction!(names_fit, m)?)?;
    m.add_function(wrap_pyfunction!(apply_categories, m)?)?;
    m.add_function(wrap_pyfunction!(apply_summary, m)?)?;
    m.add_function(wrap_pyfunction!(key_positions, m)?)?;
    m.add_function(wrap_pyfunction!(bin_labels, m)?)?;
    m.add_function(wrap_pyfunction!(randomized_response, m)?)?;
    m.add_function(wrap_pyfunction!(bin_text, m)?)?;
    m.add_function(wrap_pyfunction!(bin_codes, m)?)?;
    m.add_function(wrap_pyfunction!(assess, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(envelope, m)?)?;
    m.add_function(wrap_pyfunction!(bound, m)?)?;
    m.add_function(wrap_pyfunction!(design_record, m)?)?;
    m.add_function(wrap_pyfunction!(check_record, m)?)?;
    m.add_function(wrap_pyfunction!(public_record, m)?)?;
    m.add_function(wrap_pyfunction!(check_public_record, m)?)?;
    m.add_function(wrap_pyfunction!(estimate_public_record, m)?)?;
    m.add_function(wrap_pyfunction!(estimate_record, m)?)?;
    m.add_function(wrap_pyfunction!(design_report, m)?)?;
    m.add_function(wrap_pyfunction!(record_report, m)?)?;
    Ok(())
}

/// A JSON value as Python objects (through `json.loads`, so that the dict equals
/// what `json.load` gives for the CLI's output).
fn to_python<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (v.to_string(),))
}

/// Watches a run from the progress callback: every [`SIGNAL_POLL`] (or every pass
/// with a callback) it takes the GIL, checks for Ctrl-C and calls the callback;
/// an exception from either stops the run and is kept to be raised.
struct Watch {
    callback: Option<Py<PyAny>>,
    started: Instant,
    last: Instant,
    error: Option<PyErr>,
}

impl Watch {
    fn new(callback: Option<Py<PyAny>>) -> Self {
        let now = Instant::now();
        Watch {
            callback,
            started: now,
            last: now,
            error: None,
        }
    }

    /// True to continue the run.
    fn tick(&mut self, p: &Progress) -> bool {
        if self.callback.is_none() && self.last.elapsed() < SIGNAL_POLL {
            return true;
        }
        self.last = Instant::now();
        let outcome = Python::attach(|py| -> PyResult<()> {
            py.check_signals()?;
            if let Some(cb) = &self.callback {
                let info = PyDict::new(py);
                info.set_item("iterations", p.iterations)?;
                info.set_item("lower_bound", p.lower_bound)?;
                info.set_item("upper_bound", p.upper_bound)?;
                info.set_item("rays_priced", p.rays_priced)?;
                info.set_item("elapsed", self.started.elapsed().as_secs_f64())?;
                cb.call1(py, (info,))?;
            }
            Ok(())
        });
        match outcome {
            Ok(()) => true,
            Err(e) => {
                self.error = Some(e);
                false
            }
        }
    }
}

/// Runs a design without the GIL, watched by a [`Watch`]; returns its JSON as Python.
fn run_design<'py>(
    py: Python<'py>,
    callback: Option<Py<PyAny>>,
    job: impl FnOnce(engine::Observer<'_>) -> engine::Result<serde_json::Value> + Send,
) -> PyResult<Bound<'py, PyAny>> {
    let (result, stopped) = py.detach(move || {
        let mut watch = Watch::new(callback);
        let r = job(&mut |p| watch.tick(p));
        (r, watch.error)
    });
    match result {
        // A Ctrl-C after the last look (during the certificate, the baselines
        // or the envelope) still stops the call: otherwise Python could run
        // the next statements before raising it.
        Ok(v) => {
            py.check_signals()?;
            to_python(py, &v)
        }
        Err(e) => Err(to_py_err(e, stopped)),
    }
}

/// The options every design takes, from the dict the Python layer builds (its
/// keys are the keyword arguments of `pmldesign.design`).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct DesignOptions {
    utility: String,
    loss: Option<String>,
    loss_matrix: Option<Vec<Vec<f64>>>,
    labels: Option<Vec<String>>,
    time_limit: Option<f64>,
    gap: f64,
    pricing: String,
    envelope_delta: f64,
}

impl DesignOptions {
    /// The engine's options: a loss matrix, else a named loss, else the utility.
    fn into_engine(self) -> Options {
        let objective = match (self.loss, self.loss_matrix) {
            (_, Some(m)) => Objective::LossMatrix(m),
            (Some(name), None) => Objective::NamedLoss(name),
            (None, None) => Objective::Utility(self.utility),
        };
        Options {
            objective,
            labels: self.labels,
            time_limit: self.time_limit,
            gap: self.gap,
            pricing: self.pricing,
            envelope_delta: self.envelope_delta,
        }
    }
}

/// Rows of a 2-D array.
fn rows(m: &Matrix<'_>) -> Vec<Vec<f64>> {
    m.as_array().outer_iter().map(|r| r.to_vec()).collect()
}

/// See `pmldesign.design`.
#[pyfunction]
#[pyo3(signature = (prior, epsilon, options, *, beta=None, notion="pml".to_string(),
    epsilon_lower=None, metric=None, metric_matrix=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn design<'py>(
    py: Python<'py>,
    prior: Vector<'py>,
    epsilon: f64,
    options: DesignOptions,
    beta: Option<f64>,
    notion: String,
    epsilon_lower: Option<f64>,
    metric: Option<String>,
    metric_matrix: Option<Vec<Vec<f64>>>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let req = engine::DesignRequest {
        metric,
        metric_matrix,
        prior: prior.as_array().to_vec(),
        epsilon,
        epsilon_lower,
        beta,
        notion,
        options: options.into_engine(),
    };
    run_design(py, progress, move |o| engine::design(&req, o))
}

/// See `pmldesign.design_from_counts`.
#[pyfunction]
#[pyo3(signature = (counts, epsilon, options, *, delta, radius="free".to_string(), private_prior=None, progress=None))]
#[allow(clippy::too_many_arguments)]
fn design_from_counts<'py>(
    py: Python<'py>,
    counts: Vector<'py>,
    epsilon: f64,
    options: DesignOptions,
    delta: f64,
    radius: String,
    private_prior: Option<(f64, String)>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let req = engine::CountsRequest {
        counts: counts.as_array().to_vec(),
        epsilon,
        delta,
        radius,
        private_prior,
        options: options.into_engine(),
    };
    run_design(py, progress, move |o| engine::design_from_counts(&req, o))
}

/// See `pmldesign.design_record`: the record design file's JSON.
#[pyfunction]
#[pyo3(signature = (columns, labels, tuples, epsilon, *, delta=None, mode="auto".to_string(), split=None, max_cells=1024, time_limit=None, gap=1e-9))]
#[allow(clippy::too_many_arguments)]
fn design_record(
    py: Python<'_>,
    columns: Vec<String>,
    labels: Vec<Vec<String>>,
    tuples: Vec<(Vec<usize>, u64)>,
    epsilon: f64,
    delta: Option<f64>,
    mode: String,
    split: Option<Vec<f64>>,
    max_cells: usize,
    time_limit: Option<f64>,
    gap: f64,
) -> PyResult<String> {
    let req = crate::record::RecordRequest {
        columns,
        labels,
        tuples,
        epsilon,
        delta,
        mode,
        split,
        max_cells,
        time_limit,
        gap,
    };
    py.detach(move || crate::record::design_record(req))
        .map_err(|e| to_py_err(e, None))
}

/// See `pmldesign.estimate` with a record design: the cells and marginals
/// behind released tuples, as JSON.
#[pyfunction]
fn estimate_record(
    py: Python<'_>,
    text: String,
    released: Vec<(Vec<String>, u64)>,
    confidence: f64,
) -> PyResult<String> {
    py.detach(move || crate::record::estimate_record(&text, released, confidence))
        .map_err(|e| to_py_err(e, None))
}

/// See `pmldesign.RecordDesign.public`: the public file of a record design.
#[pyfunction]
fn public_record(py: Python<'_>, text: String) -> PyResult<String> {
    py.detach(move || crate::record::public_record(&text))
        .map_err(|e| to_py_err(e, None))
}

/// See `pmldesign.PublicRecord.from_json`: the file read back and written again.
#[pyfunction]
fn check_public_record(py: Python<'_>, text: String) -> PyResult<String> {
    py.detach(move || crate::record::check_public_record(&text))
        .map_err(|e| to_py_err(e, None))
}

/// See `pmldesign.estimate` with a `PublicRecord`: as [`estimate_record`].
#[pyfunction]
fn estimate_public_record(
    py: Python<'_>,
    text: String,
    released: Vec<(Vec<String>, u64)>,
    confidence: f64,
) -> PyResult<String> {
    py.detach(move || crate::record::estimate_public_record(&text, released, confidence))
        .map_err(|e| to_py_err(e, None))
}

/// See `pmldesign.RecordDesign.from_json`: the file read back and written again.
#[pyfunction]
fn check_record(py: Python<'_>, text: String) -> PyResult<String> {
    py.detach(move || crate::record::check_record(&text))
        .map_err(|e| to_py_err(e, None))
}

/// See `pmldesign.Design.to_html`: the HTML report of a design's JSON (read back
/// and re-certified first), with its trade-off curve under `tradeoff` seconds.
#[pyfunction]
#[pyo3(signature = (text, tradeoff=None, design_file=None))]
fn design_report(
    py: Python<'_>,
    text: String,
    tradeoff: Option<f64>,
    design_file: Option<String>,
) -> PyResult<String> {
    py.detach(move || crate::report::design_report(&text, tradeoff, design_file))
        .map_err(|e| to_py_err(e, None))
}

/// See `pmldesign.RecordDesign.to_html`: the HTML report of a record design's JSON.
#[pyfunction]
#[pyo3(signature = (text, design_file=None))]
fn record_report(py: Python<'_>, text: String, design_file: Option<String>) -> PyResult<String> {
    py.detach(move || crate::report::record_report(&text, design_file))
        .map_err(|e| to_py_err(e, None))
}

/// See `pmldesign.Design.from_json`: re-certifies a design's JSON and returns the
/// design as read back (its figures re-derived).
#[pyfunction]
fn check_design(py: Python<'_>, text: String) -> PyResult<Bound<'_, PyAny>> {
    let v = py
        .detach(move || engine::check_design(&text))
        .map_err(|e| to_py_err(e, None))?;
    to_python(py, &v)
}

/// See `pmldesign.Design.public`: the public file of a design's JSON.
#[pyfunction]
fn public_design(py: Python<'_>, text: String) -> PyResult<String> {
    py.detach(move || engine::public_design(&text))
        .map_err(|e| to_py_err(e, None))
}

/// See `pmldesign.PublicDesign.from_json`: a public file read back, verified.
#[pyfunction]
fn check_public(py: Python<'_>, text: String) -> PyResult<Bound<'_, PyAny>> {
    let v = py
        .detach(move || engine::check_public(&text))
        .map_err(|e| to_py_err(e, None))?;
    to_python(py, &v)
}

/// See `pmldesign.Certificate.holds`: the library's verdict on a certificate.
#[pyfunction]
fn certificate_holds(text: String) -> PyResult<bool> {
    engine::certificate_holds(&text).map_err(|e| to_py_err(e, None))
}

/// See `pmldesign.Design.verify`: the verification of a design's JSON.
#[pyfunction]
fn verify_design(py: Python<'_>, text: String) -> PyResult<Bound<'_, PyAny>> {
    let v = py
        .detach(move || engine::verify_design(&text))
        .map_err(|e| to_py_err(e, None))?;
    to_python(py, &v)
}

/// See `pmldesign.apply`: one output code per input code, as `pml apply` draws
/// the same rows of the same column.
#[pyfunction]
#[pyo3(signature = (mechanism, codes, column, offset=0, seed=None, positions=None))]
fn apply_codes<'py>(
    py: Python<'py>,
    mechanism: Matrix<'py>,
    codes: PyArrayLike1<'py, u32, AllowTypeChange>,
    column: String,
    offset: u64,
    seed: Option<String>,
    positions: Option<PyArrayLike1<'py, u64, AllowTypeChange>>,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let rows = rows(&mechanism);
    let codes = contiguous(&codes);
    let positions = positions.as_ref().map(|p| contiguous(p));
    let out = PyArray1::<u32>::zeros(py, codes.len(), false);
    {
        let mut written = out.readwrite();
        let dst = written
            .as_slice_mut()
            .map_err(|e| PmlError::new_err(e.to_string()))?;
        py.detach(|| {
            let at = (offset, positions.as_deref());
            engine::apply_codes(rows, &codes, &column, at, seed, dst)
        })
        .map_err(|e| to_py_err(e, None))?;
    }
    Ok(out)
}

/// Whether `names` name `m` values: as many, each non-blank and distinct
/// (`pmldesign_model::names::check_names_for`, the rule of `--output-labels`).
#[pyfunction]
fn names_fit(names: Vec<String>, m: usize) -> bool {
    engine::names_fit(&names, m)
}

/// See `pmldesign.apply_noise`: additive noise on values -1 and 1, released
/// on a public grid as `pml apply --laplace-scale` draws the same rows.
#[pyfunction]
#[pyo3(signature = (values, noise, level, column, offset=0, seed=None, prior=None, grid=None, range=None, tail_delta=None))]
#[allow(clippy::too_many_arguments)]
fn apply_noise<'py>(
    py: Python<'py>,
    values: PyArrayLike1<'py, f64, AllowTypeChange>,
    noise: &str,
    level: f64,
    column: String,
    offset: u64,
    seed: Option<String>,
    prior: Option<Vec<f64>>,
    grid: Option<f64>,
    range: Option<f64>,
    tail_delta: Option<f64>,
) -> PyResult<(Bound<'py, PyArray1<f64>>, Bound<'py, PyAny>)> {
    let level = engine::noise_level(noise, level).map_err(|e| to_py_err(e, None))?;
    let values = contiguous(&values).into_owned();
    let settings = engine::GridSettings {
        grid,
        range,
        tail_delta,
    };
    let (out, statement) = py
        .detach(|| engine::apply_noise(&values, (level, prior, settings), (&column, offset), seed))
        .map_err(|e| to_py_err(e, None))?;
    Ok((PyArray1::from_vec(py, out), to_python(py, &statement)?))
}

/// The elements of a 1-D array, borrowed where it is contiguous.
fn contiguous<'a, T: numpy::Element + Clone>(
    a: &'a PyReadonlyArray1<'_, T>,
) -> std::borrow::Cow<'a, [T]> {
    let view = a.as_array();
    match view.to_slice() {
        Some(s) => std::borrow::Cow::Borrowed(s),
        None => std::borrow::Cow::Owned(view.to_vec()),
    }
}

/// See `pmldesign.apply` on a pandas categorical Series: `codes` are its category
/// codes (int8, int16, int32 or int64, as pandas stores them; none negative) and
/// `table[c]` the mechanism's row of category c. The output codes are int8, int16
/// or int32, the type pandas stores codes in for that many outputs, so that a
/// Categorical is built from them without a copy.
#[pyfunction]
#[pyo3(signature = (mechanism, codes, table, column, offset=0, seed=None))]
fn apply_categories<'py>(
    py: Python<'py>,
    mechanism: Matrix<'py>,
    codes: &Bound<'py, PyAny>,
    table: Vec<usize>,
    column: String,
    offset: u64,
    seed: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let draw = Categories {
        rows: rows(&mechanism),
        outputs: mechanism.as_array().ncols(),
        table,
        column,
        offset,
        seed,
    };
    if let Ok(c) = codes.extract::<PyArrayLike1<'py, i8>>() {
        return draw.by_width(py, &c);
    }
    if let Ok(c) = codes.extract::<PyArrayLike1<'py, i16>>() {
        return draw.by_width(py, &c);
    }
    if let Ok(c) = codes.extract::<PyArrayLike1<'py, i32>>() {
        return draw.by_width(py, &c);
    }
    let c = codes.extract::<PyArrayLike1<'py, i64, AllowTypeChange>>()?;
    draw.by_width(py, &c)
}

/// The arguments of [`apply_categories`] but the codes.
struct Categories {
    rows: Vec<Vec<f64>>,
    outputs: usize,
    table: Vec<usize>,
    column: String,
    offset: u64,
    seed: Option<String>,
}

impl Categories {
    /// Output codes as pandas stores them for this many outputs (its
    /// `coerce_indexer_dtype`).
    fn by_width<'py, C>(
        self,
        py: Python<'py>,
        codes: &PyReadonlyArray1<'py, C>,
    ) -> PyResult<Bound<'py, PyAny>>
    where
        C: numpy::Element + Copy + Sync + std::fmt::Display,
        usize: TryFrom<C>,
    {
        if self.outputs < i8::MAX as usize {
            self.draw::<C, i8>(py, codes)
        } else if self.outputs < i16::MAX as usize {
            self.draw::<C, i16>(py, codes)
        } else {
            self.draw::<C, i32>(py, codes)
        }
    }

    fn draw<'py, C, O>(
        self,
        py: Python<'py>,
        codes: &PyReadonlyArray1<'py, C>,
    ) -> PyResult<Bound<'py, PyAny>>
    where
        C: numpy::Element + Copy + Sync + std::fmt::Display,
        usize: TryFrom<C>,
        O: numpy::Element + Send + TryFrom<usize>,
    {
        let codes = contiguous(codes);
        let out = PyArray1::<O>::zeros(py, codes.len(), false);
        let mut written = out.readwrite();
        let dst = written
            .as_slice_mut()
            .map_err(|e| PmlError::new_err(e.to_string()))?;
        let Categories {
            rows,
            table,
            column,
            offset,
            seed,
            ..
        } = self;
        py.detach(|| {
            let row_of = |&c: &C| usize::try_from(c).ok().and_then(|c| table.get(c).copied());
            engine::apply_mapped(rows, (&codes, row_of), &column, (offset, None), seed, dst)
        })
        .map_err(|e| to_py_err(e, None))?;
        drop(written);
        Ok(out.into_any())
    }
}

/// k-ary randomized response over `n` inputs at `ldp_epsilon` (`None`:
/// infinite, the identity), as the solver builds its baselines: a design file
/// leaves its matrix out, and `Baseline.mechanism` rebuilds it here.
#[pyfunction]
#[pyo3(signature = (n, ldp_epsilon=None))]
fn randomized_response(
    py: Python<'_>,
    n: usize,
    ldp_epsilon: Option<f64>,
) -> PyResult<Bound<'_, PyArray2<f64>>> {
    let level = ldp_epsilon.unwrap_or(f64::INFINITY);
    let w = pmldesign::solver::closed_form::randomized_response(n, level)
        .map_err(|e| InvalidInputError::new_err(e.to_string()))?;
    Ok(w.matrix().to_pyarray(py))
}

/// The labels of the bins between `edges` (`count(..., bins=)`), as `pml design
/// --bins` names them.
#[pyfunction]
fn bin_labels(edges: Vec<f64>) -> PyResult<Vec<String>> {
    let bins = pmldesign::data::Bins::new("bins", edges)
        .map_err(|e| InvalidInputError::new_err(e.to_string()))?;
    Ok(bins.labels().to_vec())
}

/// The edges as a design records them (`pml design --bins` writes the same).
#[pyfunction]
fn bin_text(edges: Vec<f64>) -> PyResult<String> {
    let bins = pmldesign::data::Bins::new("bins", edges)
        .map_err(|e| InvalidInputError::new_err(e.to_string()))?;
    Ok(bins.text())
}

/// The bin of each number (-1: NaN or outside the edges), as `pml apply` cuts a
/// column.
#[pyfunction]
fn bin_codes<'py>(
    py: Python<'py>,
    edges: Vec<f64>,
    values: Vector<'py>,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let bins = pmldesign::data::Bins::new("bins", edges)
        .map_err(|e| InvalidInputError::new_err(e.to_string()))?;
    let out: Vec<i64> = values
        .as_array()
        .iter()
        .map(|&v| bins.index_of_number(v).map_or(-1, |i| i as i64))
        .collect();
    Ok(PyArray1::from_vec(py, out))
}

/// The stream places of user keys (`apply(..., key=)`).
#[pyfunction]
fn key_positions<'py>(py: Python<'py>, keys: Vec<String>) -> Bound<'py, PyArray1<u64>> {
    let out: Vec<u64> = py.detach(move || {
        keys.iter()
            .map(|k| pmldesign::data::stream::key_position(k.as_bytes()))
            .collect()
    });
    PyArray1::from_vec(py, out)
}

/// See `pmldesign.assess`.
#[pyfunction]
#[pyo3(signature = (mechanism, prior, beta=None, envelope_delta=0.05, labels=None))]
fn assess<'py>(
    py: Python<'py>,
    mechanism: Matrix<'py>,
    prior: Vector<'py>,
    beta: Option<f64>,
    envelope_delta: f64,
    labels: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyAny>> {
    let prior = prior.as_array().to_vec();
    let v = engine::assess(rows(&mechanism), prior, beta, envelope_delta, labels)
        .map_err(|e| to_py_err(e, None))?;
    to_python(py, &v)
}

/// See `pmldesign.estimate`: the input distribution behind counts of released
/// outputs (`pmldesign_model::frequency`).
#[pyfunction]
#[pyo3(signature = (mechanism, counts, method="em".to_string(), confidence=0.95, bootstrap=None, seed=None, labels=None, note=None))]
#[allow(clippy::too_many_arguments)]
fn estimate<'py>(
    py: Python<'py>,
    mechanism: Matrix<'py>,
    counts: Vector<'py>,
    method: String,
    confidence: f64,
    bootstrap: Option<usize>,
    seed: Option<String>,
    labels: Option<Vec<String>>,
    note: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let counts = counts.as_array().to_vec();
    let seed = seed.unwrap_or_else(|| "0".into());
    let check = bootstrap.map(|reps| (reps, seed.as_str()));
    let about = (labels, note);
    let v = engine::estimate(
        rows(&mechanism),
        &counts,
        (&method, confidence),
        check,
        about,
    )
    .map_err(|e| to_py_err(e, None))?;
    to_python(py, &v)
}

/// See `pmldesign.compare`.
#[pyfunction]
#[pyo3(signature = (prior, epsilon, beta=None, utility="mi".to_string(), alip=None, labels=None))]
fn compare<'py>(
    py: Python<'py>,
    prior: Vector<'py>,
    epsilon: f64,
    beta: Option<f64>,
    utility: String,
    alip: Option<(f64, f64)>,
    labels: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyAny>> {
    let prior = prior.as_array().to_vec();
    run_design(py, None, move |_| {
        engine::compare(prior, epsilon, beta, &utility, alip, labels)
    })
}

/// See `pmldesign.envelope`.
#[pyfunction]
#[pyo3(signature = (mechanism, prior, deltas=None, delta=0.05, lp=false, time_limit=None, labels=None))]
#[allow(clippy::too_many_arguments)]
fn envelope<'py>(
    py: Python<'py>,
    mechanism: Matrix<'py>,
    prior: Vector<'py>,
    deltas: Option<Vec<f64>>,
    delta: f64,
    lp: bool,
    time_limit: Option<f64>,
    labels: Option<Vec<String>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (rows, prior) = (rows(&mechanism), prior.as_array().to_vec());
    run_design(py, None, move |_| {
        engine::envelope(rows, prior, deltas, delta, lp, time_limit, labels)
    })
}

/// See `pmldesign.bounds`: one planning question by name, with its arguments.
#[pyfunction]
#[pyo3(signature = (question, *, samples=0, delta=0.0, alphabet=0, beta=0.0, epsilon=0.0,
    epsilon_prime=0.0, estimate=None))]
#[allow(clippy::too_many_arguments)]
fn bound<'py>(
    py: Python<'py>,
    question: &str,
    samples: u64,
    delta: f64,
    alphabet: usize,
    beta: f64,
    epsilon: f64,
    epsilon_prime: f64,
    estimate: Option<Vec<f64>>,
) -> PyResult<Bound<'py, PyAny>> {
    // An estimate asks for Theorem 2 with its kappa (`--radius kappa`).
    let kappa_of = || engine::kappa_of(estimate.clone()).map_err(|e| to_py_err(e, None));
    let q = match question {
        "radius" => Question::Radius {
            samples,
            delta,
            alphabet,
            kappa_of: kappa_of()?,
            samples_from_estimate: false,
        },
        "failure_probability" => Question::FailureProbability {
            samples,
            beta,
            alphabet,
            kappa_of: kappa_of()?,
        },
        "epsilon_prime" => Question::EpsilonPrime {
            epsilon,
            radius: RadiusFrom::Beta(beta),
        },
        "delta_min" => Question::DeltaMin {
            epsilon,
            epsilon_prime,
            samples,
            alphabet,
        },
        "samples" => Question::Samples {
            epsilon,
            epsilon_prime,
            delta,
            alphabet,
        },
        "max_epsilon" => Question::MaxEpsilon {
            epsilon_prime,
            samples,
            delta,
            alphabet,
        },
        other => {
            return Err(InvalidInputError::new_err(format!(
                "invalid question = {other:?}: unknown planning question; use radius, failure_probability, epsilon_prime, delta_min, samples or max_epsilon"
            )));
        }
    };
    let v = engine::bound(q).map_err(|e| to_py_err(e, None))?;
    to_python(py, &v)
}

/// See `pmldesign.apply(..., summary=True)`: the summary of a release of a
/// column or frame, as `pml apply --summary` writes one (its `format` is
/// `frame`). `counts` are the rows read, privatised, skipped, kept with an
/// empty value and written missing; `columns` the raw and written names.
#[pyfunction]
fn apply_summary<'py>(
    py: Python<'py>,
    counts: (u64, u64, u64, u64, u64),
    first_unknown: Option<(u64, String)>,
    columns: Vec<(String, String)>,
    raw_kept: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (rows, privatised, skipped, kept, nulls) = counts;
    let summary = pmldesign_app::apply::PrivatiseSummary {
        rows,
        privatised,
        skipped,
        kept,
        first_unknown,
        nulls,
    };
    let columns = columns
        .into_iter()
        .map(|(column, written_as)| pmldesign_app::apply::WrittenColumn { column, written_as })
        .collect();
    let answer = pmldesign_app::apply::ApplySummary::new(
        summary,
        pmldesign_app::apply::TableFormat::Frame,
        columns,
        raw_kept,
    );
    to_python(py, &answer.to_json())
}
