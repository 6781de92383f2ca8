//! The `#[pyfunction]`s that release data: a mechanism applied to codes, to a
//! pandas categorical and to noise on -1/1 values, bins, user keys' places, and
//! the summary of a release (`pml apply`'s). Every draw is a call into
//! [`crate::engine`].

use super::{Matrix, Vector, rows, to_python};
use crate::engine;
use crate::errors::{InvalidInputError, PmlError, VerificationError, to_py_err};
use numpy::{AllowTypeChange, PyArray1, PyArrayLike1, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;

/// See `pmldesign.apply`: one output code per input code, as `pml apply` draws
/// the same rows of the same column.
#[pyfunction]
#[pyo3(signature = (mechanism, codes, column, offset=0, seed=None, positions=None))]
pub(super) fn apply_codes<'py>(
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
pub(super) fn names_fit(names: Vec<String>, m: usize) -> bool {
    engine::names_fit(&names, m)
}

/// See `pmldesign.apply_noise`: additive noise on values -1 and 1, released
/// on a public grid as `pml apply --laplace-scale` draws the same rows.
#[pyfunction]
#[pyo3(signature = (values, noise, level, column, offset=0, seed=None, prior=None, grid=None, range=None, tail_delta=None))]
#[allow(clippy::too_many_arguments)]
pub(super) fn apply_noise<'py>(
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
pub(super) fn apply_categories<'py>(
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

/// The labels of the bins between `edges` (`count(..., bins=)`), as `pml design
/// --bins` names them.
#[pyfunction]
pub(super) fn bin_labels(edges: Vec<f64>) -> PyResult<Vec<String>> {
    let bins = pmldesign::data::Bins::new("bins", edges)
        .map_err(|e| InvalidInputError::new_err(e.to_string()))?;
    Ok(bins.labels().to_vec())
}

/// The edges as a design records them (`pml design --bins` writes the same).
#[pyfunction]
pub(super) fn bin_text(edges: Vec<f64>) -> PyResult<String> {
    let bins = pmldesign::data::Bins::new("bins", edges)
        .map_err(|e| InvalidInputError::new_err(e.to_string()))?;
    Ok(bins.text())
}

/// The bin of each number (-1: NaN or outside the edges), as `pml apply` cuts a
/// column.
#[pyfunction]
pub(super) fn bin_codes<'py>(
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

/// Whether each text is missing as `pml` reads a field (empty or white space
/// only): the one rule every front end applies before its nulls rule.
#[pyfunction]
pub(super) fn missing_text(values: Vec<String>) -> Vec<bool> {
    values
        .iter()
        .map(|v| pmldesign::data::nulls::is_missing(v.as_bytes()))
        .collect()
}

/// The stream places of user keys (`apply(..., key=)`).
#[pyfunction]
pub(super) fn key_positions<'py>(py: Python<'py>, keys: Vec<String>) -> Bound<'py, PyArray1<u64>> {
    let out: Vec<u64> = py.detach(move || {
        keys.iter()
            .map(|k| pmldesign::data::stream::key_position(k.as_bytes()))
            .collect()
    });
    PyArray1::from_vec(py, out)
}

/// See `pmldesign.apply(..., summary=True)`: the summary of a release of a
/// column or frame, as `pml apply --summary` writes one (its `format` is
/// `frame`). `counts` are the rows read, privatised, skipped, kept with an
/// empty value and written missing; `columns` the raw and written names.
#[pyfunction]
pub(super) fn apply_summary<'py>(
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

/// A file's layout by name (`design`, `public`, `record` with its `mode`,
/// `public_record`), as [`pmldesign_app::recorded::Layout`] reads it.
fn layout<'a>(
    name: &str,
    mode: Option<&str>,
    columns: &'a [String],
) -> PyResult<pmldesign_app::recorded::Layout<'a>> {
    use pmldesign_app::recorded::Layout;
    let invalid = |e: pmldesign::model::ModelError| InvalidInputError::new_err(e.to_string());
    Ok(match name {
        "design" => Layout::Design,
        "public" => Layout::Public,
        "public_record" => Layout::PublicRecord(columns),
        "record" => {
            let mode = pmldesign_app::names::parse(mode.unwrap_or("")).map_err(invalid)?;
            Layout::Record(mode, columns)
        }
        other => {
            return Err(PmlError::new_err(format!(
                "internal: no file layout named {other:?}"
            )));
        }
    })
}

/// How a file's data were read, as its parts recorded it (`nulls`, and each
/// column's edges), checked by the library's one rule: the parts agree on
/// nulls, and recorded edges cut exactly their column's labels.
#[pyfunction]
#[pyo3(signature = (layout_name, columns, labels, parts, mode=None))]
pub(super) fn recorded_reading(
    layout_name: &str,
    columns: Vec<String>,
    labels: Vec<Vec<String>>,
    parts: Vec<std::collections::BTreeMap<String, String>>,
    mode: Option<String>,
) -> PyResult<(String, Vec<Option<Vec<f64>>>)> {
    let layout = layout(layout_name, mode.as_deref(), &columns)?;
    let parts: Vec<_> = parts.iter().collect();
    let labels: Vec<&[String]> = labels.iter().map(Vec::as_slice).collect();
    // Only pml writes these settings: one it refuses means the file was altered.
    let reading = pmldesign_app::Reading::read(layout, &parts, &labels)
        .map_err(|e| VerificationError::new_err(e.to_string()))?;
    let bins = reading.bins().iter();
    let edges = bins.map(|b| b.as_ref().map(|b| b.edges().to_vec()));
    Ok((reading.nulls().name().to_string(), edges.collect()))
}

/// The settings part `part` of a file keeps for a reading (`nulls` by name,
/// each column's edges), as `pml design --nulls --bins` writes them.
#[pyfunction]
#[pyo3(signature = (layout_name, columns, nulls, bins, part, mode=None))]
pub(super) fn reading_settings(
    layout_name: &str,
    columns: Vec<String>,
    nulls: &str,
    bins: Vec<Option<Vec<f64>>>,
    part: usize,
    mode: Option<String>,
) -> PyResult<Vec<(String, String)>> {
    let invalid = |e: pmldesign::model::ModelError| InvalidInputError::new_err(e.to_string());
    let layout = layout(layout_name, mode.as_deref(), &columns)?;
    let nulls = pmldesign::data::Nulls::parse("nulls", nulls).map_err(invalid)?;
    let bins = bins
        .into_iter()
        .map(|e| e.map(|e| pmldesign::data::Bins::new("bins", e)).transpose())
        .collect::<Result<Vec<_>, _>>()
        .map_err(invalid)?;
    Ok(pmldesign_app::Reading::new(nulls, bins).settings(layout, part))
}
