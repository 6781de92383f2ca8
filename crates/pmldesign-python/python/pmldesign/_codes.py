"""A column as integer codes: the index of each value's label, looked up by the
engine that holds the column (numpy, pandas, polars, pyarrow), never a Python
object per row where the engine can do it. A value outside the labels is coded
``UNKNOWN`` and a null ``NULL``; :mod:`pmldesign._apply` decides what they mean.

Values are matched to labels by value, whatever their type: the integer 3 is the
label ``"3"``, as ``pml apply`` reads it from a CSV file (a design's labels are
text). Integers are row indices only when the caller says so (``codes=True``).
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, List, Literal, Optional, Tuple, cast

import numpy as np

from . import _native
from ._native import InvalidInputError

#: Codes of a value outside the labels and of a null.
UNKNOWN, NULL = -1, -2

#: What a null does, everywhere (``nulls=``, ``pml ... --nulls``): ``error``,
#: ``drop`` (left out of counts, written missing when applying) or ``category``
#: (counted and privatised as :data:`NULL_LABEL`).
NULLS = ("error", "drop", "category")
Nulls = Literal["error", "drop", "category"]

#: The category of nulls under ``nulls="category"`` (as ``pml design`` names it).
NULL_LABEL = "<null>"


def check_nulls_name(nulls: Any) -> Nulls:
    """``nulls`` as one of :data:`NULLS`, else an error naming it."""
    if nulls not in NULLS:
        raise InvalidInputError(f"invalid nulls = {nulls!r}: use 'error', 'drop' or 'category'")
    return cast(Nulls, str(nulls))


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
        return bool(values.dtype.is_float())
    return dtype is not None and getattr(dtype, "kind", "") == "f"


def refuse_floats(values: Any, name: str) -> None:
    """Floats are measurements, not categories: refused naming the column."""
    if is_float(values):
        raise InvalidInputError(
            f"invalid column {name!r}: its values are floating-point numbers ({values.dtype if kind(values) != 'arrow' else values.type}), "
            "not categories; bin them, or cast them to strings or integers, first"
        )


def codes_of(values: Any, labels: List[str], codes: bool = False) -> Coded:
    """The codes of ``values`` (int64), by the engine of their kind: each value
    matched to a label by value (a :func:`missing` one is ``NULL``), or, with
    ``codes``, integers taken as row indices."""
    if codes:
        return _row_indices(values, len(labels))
    if kind(values) == "plain" and not isinstance(values, np.ndarray):
        values = list(values)  # read twice below
    found, describe = {"pandas": _pandas, "polars": _polars, "arrow": _arrow, "plain": _plain}[kind(values)](values, labels)
    return np.where(missing(values), NULL, found), describe


def missing(values: Any) -> np.ndarray:
    """Whether each value is missing, as ``pml`` reads a field: a null (None, NaN,
    the engine's null) or text that is empty or white space only. The text rule is
    the engine's (``pmldesign_data::nulls::is_missing``), asked once per distinct
    text, so a frame and a CSV file of the same values count the same rows."""
    k = kind(values)
    if k == "pandas":
        null = np.array(values.isna().to_numpy(), dtype=bool)  # a copy: written below
        if values.dtype.kind not in "iufbcmM":  # numbers, booleans and times are never text
            text = values[~null].astype(str)
            blank = blank_texts(text.unique().tolist())
            if blank:
                null[~null] = text.isin(blank).to_numpy()
        return null
    if k == "polars":
        return _polars_missing(values)
    if k == "arrow":
        return _arrow_missing(values)
    if isinstance(values, np.ndarray) and values.dtype.kind in "iub":
        return np.zeros(values.size, dtype=bool)
    items = values.ravel().tolist() if isinstance(values, np.ndarray) else list(values)
    blanks = set(blank_texts(sorted({v for v in items if isinstance(v, str)})))
    return np.array([v is None or (isinstance(v, float) and v != v) or (isinstance(v, str) and v in blanks) for v in items], dtype=bool)


def _polars_missing(values: Any) -> np.ndarray:
    """:func:`missing` for a polars Series."""
    import polars as pl

    null = np.array(values.is_null().to_numpy(), dtype=bool)
    if values.dtype.is_numeric() or values.dtype.is_temporal() or values.dtype == pl.Boolean:
        return null
    text = values.cast(pl.String)
    blank = blank_texts(text.drop_nulls().unique().to_list())
    if blank:
        null |= np.asarray(text.is_in(blank).fill_null(False).to_numpy(), dtype=bool)
    return null


def _arrow_missing(values: Any) -> np.ndarray:
    """:func:`missing` for a pyarrow Array or ChunkedArray."""
    import pyarrow as pa
    import pyarrow.compute as pc

    null = np.array(values.is_null().to_numpy(zero_copy_only=False), dtype=bool)
    if not (pa.types.is_string(values.type) or pa.types.is_large_string(values.type) or pa.types.is_dictionary(values.type)):
        return null
    text = pc.cast(values, pa.string())
    blank = blank_texts([t for t in pc.unique(text).to_pylist() if t is not None])
    if blank:
        found = pc.fill_null(pc.is_in(text, value_set=pa.array(blank, type=pa.string())), False)
        null |= np.asarray(found.to_numpy(zero_copy_only=False), dtype=bool)
    return null


def blank_texts(distinct: List[str]) -> List[str]:
    """The texts among ``distinct`` that the engine reads as missing."""
    return [t for t, b in zip(distinct, _native.missing_text(distinct)) if b] if distinct else []


def _row_indices(values: Any, n: int) -> Coded:
    """``codes=True``: whole numbers in [0, n) are row indices (others ``UNKNOWN``,
    nulls ``NULL``); a column that is not of integers is refused."""
    k = kind(values)
    if k == "arrow":
        import pyarrow as pa
        import pyarrow.compute as pc

        ok = pa.types.is_integer(values.type)
        nulls = values.is_null().to_numpy(zero_copy_only=False)
        raw = pc.fill_null(values, -1).to_numpy(zero_copy_only=False) if ok else None
    elif k == "polars":
        ok = values.dtype.is_integer()
        nulls = values.is_null().to_numpy()
        raw = values.fill_null(-1).to_numpy() if ok else None
    elif k == "pandas":
        import pandas as pd

        ok = pd.api.types.is_integer_dtype(values.dtype)
        nulls = values.isna().to_numpy()
        raw = values.fillna(-1).to_numpy(dtype=np.int64) if ok else None
    elif isinstance(values, np.ndarray) and values.dtype.kind in "iu":
        ok, raw = True, values.ravel()
        nulls = np.zeros(raw.size, dtype=bool)
    else:
        items = values.ravel().tolist() if isinstance(values, np.ndarray) else list(values)
        nulls = np.array([v is None for v in items], dtype=bool)
        ok = all(v is None or (isinstance(v, (int, np.integer)) and not isinstance(v, bool)) for v in items)
        raw = np.array([int(v) if v is not None and -(2**63) <= v < 2**63 else -1 for v in items], dtype=np.int64) if ok else None
    if not ok:
        raise InvalidInputError(
            "invalid values with codes=True: not a column of integers; pass row indices 0..N-1, "
            "or leave codes=False to match each value to the labels"
        )
    flat = np.asarray(raw).ravel()
    return np.where(nulls, NULL, _indices(flat, n)), lambda i: repr(flat[i].item())


def _indices(raw: np.ndarray, n: int) -> np.ndarray:
    """Integers as row indices: outside [0, n) is ``UNKNOWN``."""
    codes = raw.astype(np.int64, copy=False).ravel()
    return np.where((codes >= 0) & (codes < n), codes, UNKNOWN)


def _lookup(keys: np.ndarray, labels: List[str]) -> np.ndarray:
    """The index in ``labels`` of each key (matched as text: the integer 3 is the
    label ``"3"``), one lookup per distinct key."""
    distinct, inverse = np.unique(keys, return_inverse=True)
    index = {label: i for i, label in enumerate(labels)}
    table = np.array([index.get(str(k), UNKNOWN) for k in distinct.tolist()], dtype=np.int64)
    return table[inverse.ravel()]


def _plain(values: Any, labels: List[str]) -> Coded:
    """A numpy array or any iterable: each value a label, matched as text."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iu":
        flat = values.ravel()
        return _lookup(flat, labels), lambda i: repr(flat[i].item())
    items = values.tolist() if isinstance(values, np.ndarray) else list(values)
    if not items:
        return np.zeros(0, dtype=np.int64), repr
    # A None or NaN is coded by its text here; codes_of makes it NULL.
    codes = _lookup(np.array([str(v) for v in items], dtype=str), labels)
    # A numpy scalar is shown as the value it holds (3, not np.int64(3)).
    return codes, lambda i: repr(items[i].item() if isinstance(items[i], np.generic) else items[i])


def _pandas(series: Any, labels: List[str]) -> Coded:
    """A pandas Series; a categorical one maps its categories once."""
    if str(series.dtype) == "category":
        cats = [str(c) for c in series.cat.categories]
        index = {label: i for i, label in enumerate(labels)}
        table = np.array([index.get(c, UNKNOWN) for c in cats] + [NULL], dtype=np.int64)
        raw = series.cat.codes.to_numpy()
        codes = table[np.where(raw < 0, len(cats), raw)]
    else:
        codes = _lookup(series.astype(str).to_numpy(dtype=str, na_value=""), labels)
    return codes, lambda i: repr(series.iloc[i])


def _polars(series: Any, labels: List[str]) -> Coded:
    """A polars Series: the engine's own lookup (a null stays one, ``NULL``)."""
    import polars as pl

    found = series.cast(pl.String).replace_strict(labels, list(range(len(labels))), default=UNKNOWN, return_dtype=pl.Int64)
    return found.fill_null(NULL).to_numpy(), lambda i: repr(series[i])


def _arrow(values: Any, labels: List[str]) -> Coded:
    """A pyarrow Array or ChunkedArray, looked up by Arrow itself."""
    import pyarrow as pa
    import pyarrow.compute as pc

    index = pc.index_in(pc.cast(values, pa.string()), value_set=pa.array(labels, type=pa.string()))
    # A null is UNKNOWN here; codes_of makes it NULL.
    codes = pc.fill_null(index.cast(pa.int64()), UNKNOWN).to_numpy(zero_copy_only=False)
    return codes, lambda i: repr(values[i].as_py())


def secret_of(seed: Any, stacklevel: int = 3) -> Optional[str]:
    """The key as ``pml apply --seed`` and ``pml design --seed`` take it, warning
    about a short one (under 64 bits, as ``pml`` warns)."""
    if seed is None:
        return None
    if isinstance(seed, (bytes, bytearray)):
        if len(seed) != 32:
            raise InvalidInputError(f"invalid seed = {len(seed)} bytes: a key given as bytes has 32; pass os.urandom(32)")
        return "0x" + bytes(seed).hex()
    if isinstance(seed, str):
        try:
            number = int(seed.strip(), 0)
        except ValueError:
            raise InvalidInputError(f"invalid seed = {seed!r}: not a whole number; give a decimal or 0x-hex number below 2^256") from None
    elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        number = int(seed)
    else:
        raise InvalidInputError(f"invalid seed = {seed!r}: give a whole number below 2^256, a 0x-hex string or 32 bytes")
    if not 0 <= number < 2**256:
        raise InvalidInputError(f"invalid seed = {seed!r}: a seed is a whole number in [0, 2^256); pass e.g. secrets.randbits(256)")
    if number.bit_length() < 64:
        warnings.warn(
            f"the seed is a {number.bit_length()}-bit number: whoever knows the mechanism can try every "
            "seed that short and undo the noise; keep it secret and use secrets.randbits(256)",
            UserWarning,
            stacklevel=stacklevel,
        )
    return str(number)
