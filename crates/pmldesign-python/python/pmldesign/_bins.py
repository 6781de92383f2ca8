"""Numeric columns cut at public edges, as ``pml design --bins`` cuts them: bin i
holds ``e_i <= v < e_(i+1)`` (the last its right edge too) and is labelled by its
interval, ``[0, 10)``, the bins in numeric order. The edges must be public: edges
taken from the data (quantiles, the range) leak through the alphabet itself. The
cut is the engine's own (``pmldesign_data::Bins``), so Python and the CLI agree.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np

from . import _native
from ._codes import NULL, NULL_LABEL, UNKNOWN, kind, missing
from ._native import InvalidInputError


def edges_of(bins: Any, field: str = "bins") -> List[float]:
    """The edges: a sequence of numbers (``-inf``/``inf`` allowed at the ends), or
    the text a design records (``"0,10,inf"``); checked by the engine."""
    if isinstance(bins, str):
        parts = bins.split(",")
    else:
        try:
            parts = list(bins)
        except TypeError:
            raise InvalidInputError(f"invalid {field} = {bins!r}: pass the edges, e.g. [0, 10, 20, float('inf')]") from None
    try:
        edges = [float(p) for p in parts]
    except (TypeError, ValueError):
        raise InvalidInputError(f"invalid {field} = {bins!r}: the edges must be numbers, e.g. [0, 10, 20, float('inf')]") from None
    labels(edges)  # the engine's checks: increasing, at least two, infinities at the ends
    return edges


def labels(edges: List[float]) -> List[str]:
    """The bins' labels, as ``pml design --bins`` writes them."""
    return list(_native.bin_labels(edges))


def names(edges: List[float], given: Sequence[Any]) -> bool:
    """Whether ``given`` labels are the bins of ``edges`` (and perhaps the category of
    nulls): the labels a design or counts cut at those edges carry."""
    return [label for label in given if label != NULL_LABEL] == labels(edges)


def text(edges: List[float]) -> str:
    """The edges as a design records them, written by the engine (as ``pml design
    --bins`` writes them)."""
    return str(_native.bin_text(edges))


def recorded(design: Any) -> Optional[List[float]]:
    """The edges a design recorded (``provenance.settings.bins``), checked against
    its labels (a stored design is untrusted), or None."""
    from . import _reading

    return _reading.of_design(design)[1]


def _numbers(values: Any) -> Tuple[np.ndarray, np.ndarray, Callable[[int], str]]:
    """The values as float64 (NaN where not a number), the missing values (nulls and
    blank text, :func:`missing`), and how an error shows value i."""
    k = kind(values)
    if k == "pandas":
        import pandas as pd

        nulls = missing(values)
        nums = pd.to_numeric(values, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        return nums, nulls, lambda i: repr(_plain(values.iloc[i]))
    if k == "polars":
        import polars as pl

        nulls = missing(values)
        nums = values.cast(pl.Float64, strict=False).fill_null(float("nan")).to_numpy()
        return nums.astype(float), nulls, lambda i: repr(values[i])
    items = values.to_pylist() if k == "arrow" else (values.ravel().tolist() if isinstance(values, np.ndarray) else list(values))
    nulls = missing(items)
    nums = np.array([_number(v) for v in items], dtype=float)
    return nums, nulls, lambda i: repr(items[i])


def _plain(value: Any) -> Any:
    """A numpy scalar as the Python value it holds (shown as ``3000``, not
    ``np.int64(3000)``)."""
    return value.item() if isinstance(value, np.generic) else value


def _number(value: Any) -> float:
    """A value as a number, NaN if it is not one (booleans are not numbers)."""
    if value is None or isinstance(value, (bool, np.bool_)):
        return float("nan")
    try:
        return float(value)
    except (TypeError, ValueError):
        return float("nan")


def codes(values: Any, edges: List[float]) -> Tuple[np.ndarray, Callable[[int], str]]:
    """Each value's bin (int64): ``NULL`` for a null, ``UNKNOWN`` for text that is not
    a number or a number outside the edges."""
    nums, nulls, describe = _numbers(values)
    found = np.asarray(_native.bin_codes(edges, nums), dtype=np.int64)
    return np.where(nulls, NULL, np.where(found < 0, UNKNOWN, found)), describe
