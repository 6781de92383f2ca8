"""A column as integer codes: the index of each value's label, looked up by the
engine that holds the column (numpy, pandas, polars, pyarrow), never a Python
object per row where the engine can do it. A value outside the labels is coded
``UNKNOWN`` and a null ``NULL``; :mod:`pmldesign._apply` decides what they mean.
"""

from __future__ import annotations

from typing import Any, Callable, Tuple

import numpy as np

from ._native import PmlError

#: Codes of a value outside the labels and of a null.
UNKNOWN, NULL = -1, -2

#: ``describe(i)``: the value at row i, for an error message.
Coded = Tuple[np.ndarray, Callable[[int], str]]


def kind(values: Any) -> str:
    """``pandas``, ``polars`` or ``arrow`` for their Series and arrays, else ``plain``."""
    module, name = type(values).__module__, type(values).__name__
    if module.startswith("pandas") and name == "Series":
        return "pandas"
    if module.startswith("polars") and name == "Series":
        return "polars"
    if module.startswith("pyarrow") and name.endswith(("Array", "ChunkedArray")):
        return "arrow"
    return "plain"


def is_float(values: Any) -> bool:
    """A column of floating-point numbers: not categories (numpy, pandas, polars, Arrow)."""
    dtype = getattr(values, "dtype", None) if kind(values) != "arrow" else None
    if kind(values) == "arrow":
        import pyarrow as pa

        return bool(pa.types.is_floating(values.type))
    if kind(values) == "polars":
        return bool(dtype.is_float())
    return dtype is not None and getattr(dtype, "kind", "") == "f"


def refuse_floats(values: Any, name: str) -> None:
    """Floats are measurements, not categories: refused naming the column."""
    if is_float(values):
        raise PmlError(
            f"invalid column {name!r}: its values are floating-point numbers ({values.dtype if kind(values) != 'arrow' else values.type}), "
            "not categories; bin them, or cast them to strings or integers, first"
        )


def codes_of(values: Any, labels: list) -> Coded:
    """The codes of ``values`` (int64), by the engine of their kind."""
    return {"pandas": _pandas, "polars": _polars, "arrow": _arrow, "plain": _plain}[kind(values)](values, labels)


def _indices(raw: np.ndarray, n: int) -> np.ndarray:
    """Integers as row indices: outside [0, n) is ``UNKNOWN``."""
    codes = raw.astype(np.int64, copy=False).ravel()
    return np.where((codes >= 0) & (codes < n), codes, UNKNOWN)


def _lookup(keys: np.ndarray, labels: list) -> np.ndarray:
    """The index in ``labels`` of each string key, one lookup per distinct key."""
    distinct, inverse = np.unique(keys, return_inverse=True)
    index = {label: i for i, label in enumerate(labels)}
    table = np.array([index.get(k, UNKNOWN) for k in distinct.tolist()], dtype=np.int64)
    return table[inverse.ravel()]


def _plain(values: Any, labels: list) -> Coded:
    """A numpy array or any iterable: integers are row indices, anything else a label."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iu":
        flat = values.ravel()
        return _indices(flat, len(labels)), lambda i: repr(flat[i].item())
    items = values.tolist() if isinstance(values, np.ndarray) else list(values)
    if not items:
        return np.zeros(0, dtype=np.int64), repr
    keys = np.empty(len(items), dtype=object)
    special = np.zeros(len(items), dtype=np.int64)
    for i, v in enumerate(items):
        if v is None or (isinstance(v, float) and v != v):
            special[i], keys[i] = NULL, ""
        elif isinstance(v, (int, np.integer)) and not isinstance(v, bool):
            inside = 0 <= v < len(labels)
            special[i], keys[i] = (0, labels[v]) if inside else (UNKNOWN, "")
        else:
            keys[i] = str(v)
    codes = np.where(special < 0, special, _lookup(keys.astype(str), labels))
    return codes, lambda i: repr(items[i])


def _pandas(series: Any, labels: list) -> Coded:
    """A pandas Series; a categorical one maps its categories once."""
    if str(series.dtype) == "category":
        cats = [str(c) for c in series.cat.categories]
        index = {label: i for i, label in enumerate(labels)}
        table = np.array([index.get(c, UNKNOWN) for c in cats] + [NULL], dtype=np.int64)
        raw = series.cat.codes.to_numpy()
        codes = table[np.where(raw < 0, len(cats), raw)]
    else:
        nulls = series.isna().to_numpy()
        if series.dtype.kind in "iu":
            found = _indices(series.fillna(-1).to_numpy(dtype=np.int64), len(labels))
        else:
            found = _lookup(series.astype(str).to_numpy(dtype=str, na_value=""), labels)
        codes = np.where(nulls, NULL, found)
    return codes, lambda i: repr(series.iloc[i])


def _polars(series: Any, labels: list) -> Coded:
    """A polars Series: the engine's own lookup (nulls stay nulls)."""
    import polars as pl

    nulls = series.is_null().to_numpy()
    if series.dtype.is_integer():
        codes = _indices(series.fill_null(-1).to_numpy(), len(labels))
    else:
        found = series.cast(pl.String).replace_strict(labels, list(range(len(labels))), default=UNKNOWN, return_dtype=pl.Int64)
        codes = found.fill_null(NULL).to_numpy()
    return np.where(nulls, NULL, codes), lambda i: repr(series[i])


def _arrow(values: Any, labels: list) -> Coded:
    """A pyarrow Array or ChunkedArray, looked up by Arrow itself."""
    import pyarrow as pa
    import pyarrow.compute as pc

    nulls = values.is_null().to_numpy(zero_copy_only=False)
    if pa.types.is_integer(values.type):
        codes = _indices(pc.fill_null(values, -1).to_numpy(zero_copy_only=False), len(labels))
    else:
        index = pc.index_in(pc.cast(values, pa.string()), value_set=pa.array(labels, type=pa.string()))
        codes = pc.fill_null(index.cast(pa.int64()), UNKNOWN).to_numpy(zero_copy_only=False)
    return np.where(nulls, NULL, codes), lambda i: repr(values[i].as_py())
