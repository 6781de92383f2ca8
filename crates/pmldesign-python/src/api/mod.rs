//! The `#[pyfunction]`s of `pmldesign._native`: argument conversion, the GIL, Ctrl-C
//! and progress callbacks. Every computation is a call into [`crate::engine`].

use crate::engine::{self, Objective, Options, Progress, Question, RadiusFrom};
use crate::errors::{InvalidInputError, to_py_err};
use numpy::{AllowTypeChange, PyArray2, PyArrayLike1, PyArrayLike2, ToPyArray};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::time::{Duration, Instant};

mod release;

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
    m.add_function(wrap_pyfunction!(release::apply_codes, m)?)?;
    m.add_function(wrap_pyfunction!(release::apply_noise, m)?)?;
    m.add_function(wrap_pyfunction!(release::names_fit, m)?)?;
    m.add_function(wrap_pyfunction!(release::apply_categories, m)?)?;
    m.add_function(wrap_pyfunction!(release::apply_summary, m)?)?;
    m.add_function(wrap_pyfunction!(release::key_positions, m)?)?;
    m.add_function(wrap_pyfunction!(release::bin_labels, m)?)?;
    m.add_function(wrap_pyfunction!(randomized_response, m)?)?;
    m.add_function(wrap_pyfunction!(release::bin_text, m)?)?;
    m.add_function(wrap_pyfunction!(release::bin_codes, m)?)?;
    m.add_function(wrap_pyfunction!(release::missing_text, m)?)?;
    m.add_function(wrap_pyfunction!(release::recorded_reading, m)?)?;
    m.add_function(wrap_pyfunction!(release::reading_settings, m)?)?;
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
    loss_method: String,
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
            loss_method: self.loss_method,
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

/// See `pmldesign.assess`.
#[pyfunction]
#[pyo3(signature = (mechanism, prior, beta=None, envelope_delta=0.05, labels=None, counts=None, delta=None, radius="free".to_string(), priors=None, metric=None, metric_matrix=None))]
#[allow(clippy::too_many_arguments)]
fn assess<'py>(
    py: Python<'py>,
    mechanism: Matrix<'py>,
    prior: Option<Vector<'py>>,
    beta: Option<f64>,
    envelope_delta: f64,
    labels: Option<Vec<String>>,
    counts: Option<Vector<'py>>,
    delta: Option<f64>,
    radius: String,
    priors: Option<Vec<Vec<f64>>>,
    metric: Option<String>,
    metric_matrix: Option<Vec<Vec<f64>>>,
) -> PyResult<Bound<'py, PyAny>> {
    let req = engine::AssessRequest {
        rows: rows(&mechanism),
        prior: prior.map(|p| p.as_array().to_vec()),
        counts: counts.map(|c| c.as_array().to_vec()),
        beta,
        delta,
        radius,
        priors,
        metric: (metric, metric_matrix),
        envelope_delta,
        names: labels,
    };
    let v = engine::assess(req).map_err(|e| to_py_err(e, None))?;
    to_python(py, &v)
}

/// See `pmldesign.estimate`: the input distribution behind counts of released
/// outputs (`pmldesign_model::frequency`).
#[pyfunction]
#[pyo3(signature = (mechanism, counts, method="em".to_string(), confidence=0.95, bootstrap=None, seed=None, labels=None, note=None, time_limit=None))]
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
    time_limit: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let counts = counts.as_array().to_vec();
    let seed = seed.unwrap_or_else(|| "0".into());
    let check = bootstrap.map(|reps| (reps, seed.as_str(), time_limit));
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
#[pyo3(signature = (prior, epsilon, beta=None, utility="mi".to_string(), alip=None, labels=None, time_limit=None, metric=None, metric_matrix=None))]
#[allow(clippy::too_many_arguments)]
fn compare<'py>(
    py: Python<'py>,
    prior: Vector<'py>,
    epsilon: f64,
    beta: Option<f64>,
    utility: String,
    alip: Option<(f64, f64)>,
    labels: Option<Vec<String>>,
    time_limit: Option<f64>,
    metric: Option<String>,
    metric_matrix: Option<Vec<Vec<f64>>>,
) -> PyResult<Bound<'py, PyAny>> {
    let prior = prior.as_array().to_vec();
    run_design(py, None, move |_| {
        let distance = (metric.as_deref(), metric_matrix);
        engine::compare(
            prior,
            epsilon,
            beta,
            &utility,
            alip,
            (labels, time_limit),
            distance,
        )
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
