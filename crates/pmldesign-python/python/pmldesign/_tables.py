"""Counting a column where it lives: pandas, polars, pyarrow, Dask, Spark, numpy or any
iterable, with the engine's own group-by (no row through Python where the engine
has one). The counts feed :func:`pmldesign.design_from_counts`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Dict, Optional, Tuple

import numpy as np

from ._codes import NULL, NULL_LABEL, UNKNOWN, Nulls, blank_texts, check_nulls_name, missing, refuse_floats
from ._design import _sequence
from ._native import MAX_CATEGORIES, InvalidInputError


def _module(data: Any) -> str:
    return type(data).__module__.split(".")[0]


def _pick(data: Any, column: Optional[str], frame_types: Tuple[str, ...]) -> Any:
    """The column of a frame (``column`` required), or the series itself."""
    if type(data).__name__ in frame_types:
        if column is None:
            raise InvalidInputError("invalid column = None: a DataFrame needs column=NAME; pass the column to count")
        if column not in data.columns:
            raise InvalidInputError(f"invalid column = {column!r}: no such column (it has {list(data.columns)}); pass one of them")
        return data[column]
    return data


def _checked(counts: Dict[str, int], name: str, nulls: int, how: str = "error") -> Dict[str, int]:
    if nulls and how == "error":
        raise InvalidInputError(
            f"invalid column {name!r}: {nulls} null value(s) of {sum(counts.values()) + nulls} rows; "
            "fill them, or pass nulls='drop' (left out) or nulls='category' (counted as <null>)"
        )
    if nulls and how == "category":
        counts = {**counts, NULL_LABEL: counts.get(NULL_LABEL, 0) + nulls}
    if len(counts) > MAX_CATEGORIES:
        raise InvalidInputError(f"invalid column {name!r}: {len(counts)} categories, more than {MAX_CATEGORIES}; group rare ones first (a design takes at most 4096)")
    return counts


def count(data: Any, column: Optional[str] = None, *, nulls: Nulls = "error", bins: Any = None) -> Dict[str, int]:
    """Category counts of a column: ``{label: count}``.

    A categorical column lists its categories in their order (zero counts kept);
    other columns list labels sorted. The engine counts where the data lives (a
    Dask or Spark frame is counted on the cluster).

    Parameters
    ----------
    data : DataFrame, Series, Array, numpy array or iterable
        A pandas or polars DataFrame (with ``column``) or Series, a polars
        LazyFrame, a pyarrow Table (with ``column``), Array or ChunkedArray, a Dask
        DataFrame (with ``column``) or Series, a Spark DataFrame (with ``column``),
        a numpy array or any iterable.
    column : str, optional
        The column of a table.
    nulls : {"error", "drop", "category"}, default "error"
        A null (``None``, ``NaN``, ``pd.NA``) is an error naming the column, left
        out (``drop``), or counted as one more category, ``"<null>"``, listed last
        (``category``). Apply the design with the same ``nulls``.
    bins : sequence of float, optional
        Public edges, increasing (``-inf`` first and ``inf`` last allowed): each bin
        ``[a, b)`` (the last ``[a, b]``) of a numeric column is a category, listed in
        numeric order with zero counts kept, as ``pml design --bins`` counts it.
        Edges must not come from the data (its quantiles or range would leak).
        Not for Spark frames (cut them with Spark first).

    Returns
    -------
    dict of str to int
        The counts, ready for :func:`design_from_counts`.

    Raises
    ------
    PmlError
        On a null with ``nulls="error"``, a missing column, or a column of more
        distinct values than the limit.

    Examples
    --------
    >>> import pmldesign
    >>> pmldesign.count(["b", "a", "b"])
    {'a': 1, 'b': 2}
    """
    nulls = check_nulls_name(nulls)
    if bins is not None:
        return _count_bins(data, column, bins, nulls)
    counted = _count(data, column)
    _note_numeric(counted[0], counted[1])
    return _checked(counted[0], counted[1], counted[2], nulls)


#: Past this many distinct numbers, a column counted as labels gets a warning
#: suggesting ``bins=`` (as ``pml design --data`` notes it).
NUMERIC_NOTE_FROM = 12


def _note_numeric(counts: Dict[str, int], name: str) -> None:
    """Warns when a column of many distinct numbers is taken as unordered labels."""
    if len(counts) <= NUMERIC_NOTE_FROM:
        return
    try:
        [float(k) for k in counts]
    except ValueError:
        return
    import warnings

    warnings.warn(
        f"column {name!r} holds {len(counts)} distinct numbers, taken as {len(counts)} unordered categories; "
        "to release ranges in numeric order, cut it at public edges with bins=[e0, e1, ...]",
        UserWarning,
        stacklevel=3,
    )


def _count_bins(data: Any, column: Optional[str], bins: Any, nulls: str) -> Dict[str, int]:
    """``count(..., bins=)``: the column cut at the edges by the engine's own cut."""
    from . import _bins

    edges = _bins.edges_of(bins)
    kind = _module(data)
    if kind == "pyspark":
        raise InvalidInputError("invalid bins with a Spark DataFrame: not yet; cut the column with Spark (Bucketizer) and count the bins")
    if kind == "polars" and type(data).__name__ == "LazyFrame":
        data = data.select(column).collect() if column is not None else data
    if kind == "pyarrow" and type(data).__name__ == "Table":
        if column is None or column not in data.column_names:
            raise InvalidInputError(f"invalid column = {column!r}: a Table needs column=NAME, one of {data.column_names}")
        data = data.column(column)
    s = _pick(data, column, ("DataFrame",)) if kind in ("pandas", "polars", "dask") else data
    name = str(getattr(s, "name", None) or column or "values")
    widen = "widen the edges (-inf may be the first and inf the last), or fix the value"
    if kind == "dask":  # cut where the partitions live; only the tallies come back
        import pandas as pd

        cut = s.map_partitions(lambda p: pd.Series(_bins.codes(p, edges)[0], index=p.index), meta=(s.name, "i8"))
        by_code = {int(k): int(v) for k, v in cut.value_counts().compute().items()}
        if by_code.get(UNKNOWN):
            raise InvalidInputError(f"invalid column {name!r}: {by_code[UNKNOWN]} values are not numbers within the edges {edges[0]} to {edges[-1]}; {widen}")
        counts = {label: by_code.get(i, 0) for i, label in enumerate(_bins.labels(edges))}
        return _checked(counts, name, by_code.get(NULL, 0), nulls)
    found, describe = _bins.codes(s, edges)
    bad = np.flatnonzero(found == UNKNOWN)
    if bad.size:
        i = int(bad[0])
        raise InvalidInputError(f"invalid column {name!r} at row {i}: {describe(i)} is not a number within the edges {edges[0]} to {edges[-1]}; {widen}")
    tallies = np.bincount(found[found >= 0], minlength=len(edges) - 1)
    counts = dict(zip(_bins.labels(edges), (int(t) for t in tallies)))
    return _checked(counts, name, int((found == NULL).sum()), nulls)


def _count(data: Any, column: Optional[str]) -> Tuple[Dict[str, int], str, int]:
    """The counts of the values that are not missing, the column's name and its
    number of missing values (nulls and blank text, as ``pml`` reads a field)."""
    kind = _module(data)
    if kind in ("pandas", "dask"):
        s = _pick(data, column, ("DataFrame",))
        name = str(s.name if s.name is not None else column)
        refuse_floats(s, name)
        if kind == "dask":
            gone = s.map_partitions(lambda part: type(part)(missing(part), index=part.index), meta=(s.name, bool))
            nulls = int(gone.sum().compute())
            vc = s[~gone].value_counts().compute()
        else:
            gone = missing(s)
            nulls = int(gone.sum())
            vc = s[~gone].value_counts(sort=False, dropna=True)
        ordered = str(s.dtype) == "category" and kind == "pandas"
        items = vc.items() if ordered else sorted((str(k), v) for k, v in vc.items())
        blank = set(blank_texts([str(k) for k in vc.index]))  # a categorical's unused blank category
        return {str(k): int(v) for k, v in items if str(k) not in blank}, name, nulls
    if kind == "polars":
        if type(data).__name__ == "LazyFrame":
            if column is None:
                raise InvalidInputError("invalid column = None: a LazyFrame needs column=NAME; pass the column to count")
            data = data.select(column).collect()
        s = _pick(data, column, ("DataFrame",))
        name = str(s.name)
        refuse_floats(s, name)
        gone = missing(s)
        vc = s.filter(~gone).value_counts()
        keys, tallies = vc[vc.columns[0]].to_list(), vc[vc.columns[1]].to_list()
        pairs = sorted((str(k), int(v)) for k, v in zip(keys, tallies) if k is not None)
        return dict(pairs), name, int(gone.sum())
    if kind == "pyspark":
        if column is None or column not in data.columns:
            raise InvalidInputError(f"invalid column = {column!r}: a Spark DataFrame needs column=NAME, one of {data.columns}")
        rows = data.groupBy(column).count().collect()
        gone = missing([r[column] for r in rows])
        nulls = sum(int(r["count"]) for r, g in zip(rows, gone) if g)
        pairs = sorted((str(r[column]), int(r["count"])) for r, g in zip(rows, gone) if not g)
        return dict(pairs), column, nulls
    if kind == "pyarrow":
        import pyarrow as pa
        import pyarrow.compute as pc

        if type(data).__name__ == "Table":
            if column is None or column not in data.column_names:
                raise InvalidInputError(f"invalid column = {column!r}: a Table needs column=NAME, one of {data.column_names}")
            arr = data.column(column)
        else:
            arr = data
        name = str(column or "values")
        refuse_floats(arr, name)
        gone = missing(arr)
        vc = pc.value_counts(arr.filter(pa.array(~gone)))
        pairs = sorted((str(v["values"]), int(v["counts"])) for v in vc.to_pylist() if v["values"] is not None)
        return dict(pairs), name, int(gone.sum())
    if isinstance(data, np.ndarray):
        flat = data.ravel()
        refuse_floats(flat, str(column or "values"))
        if flat.dtype.kind in "OU":  # None and blank text are missing, as in a list
            data = flat.tolist()
        else:
            keys, counts = np.unique(flat.astype(str), return_counts=True)
            return {str(k): int(c) for k, c in zip(keys.tolist(), counts.tolist())}, str(column or "values"), 0
    tally = Counter(_sequence("data", data))
    keys = list(tally)
    nulls = sum(tally.pop(k) for k, gone in zip(keys, missing(keys)) if gone)
    return {str(k): int(v) for k, v in sorted(tally.items(), key=lambda kv: str(kv[0]))}, str(column or "values"), nulls
