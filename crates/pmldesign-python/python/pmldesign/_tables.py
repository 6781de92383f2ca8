"""Counting a column where it lives: pandas, polars, pyarrow, Dask, Spark, numpy or any
iterable, with the engine's own group-by (no row through Python where the engine
has one). The counts feed :func:`pmldesign.design_from_counts`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Dict, Optional

import numpy as np

from ._codes import refuse_floats
from ._native import PmlError

#: The most categories a column may have (the CLI's cap, ``pml design --data``).
MAX_CATEGORIES = 2048


def _module(data: Any) -> str:
    return type(data).__module__.split(".")[0]


def _pick(data: Any, column: Optional[str], frame_types: tuple) -> Any:
    """The column of a frame (``column`` required), or the series itself."""
    if type(data).__name__ in frame_types:
        if column is None:
            raise PmlError("invalid column = None: a DataFrame needs column=NAME; pass the column to count")
        if column not in data.columns:
            raise PmlError(f"invalid column = {column!r}: no such column (it has {list(data.columns)}); pass one of them")
        return data[column]
    return data


def _checked(counts: Dict[str, int], name: str, nulls: int) -> Dict[str, int]:
    if nulls:
        raise PmlError(f"invalid column {name!r}: {nulls} null value(s) of {sum(counts.values()) + nulls} rows; drop or fill them first")
    if len(counts) > MAX_CATEGORIES:
        raise PmlError(f"invalid column {name!r}: {len(counts)} categories, more than {MAX_CATEGORIES}; group rare ones first")
    return counts


def count(data: Any, column: Optional[str] = None) -> Dict[str, int]:
    """Category counts of a column: ``{label: count}``.

    ``data`` is a pandas or polars DataFrame (with ``column``) or Series, a polars
    LazyFrame, a pyarrow Table (with ``column``), Array or ChunkedArray, a Dask
    DataFrame (with ``column``) or Series, a Spark DataFrame (with ``column``), a
    numpy array or any iterable. A
    categorical column lists its categories in their order (zero counts kept);
    other columns list labels sorted. A null is an error naming the column.
    """
    kind = _module(data)
    if kind in ("pandas", "dask"):
        s = _pick(data, column, ("DataFrame",))
        name = str(s.name if s.name is not None else column)
        refuse_floats(s, name)
        if kind == "dask":
            nulls = int(s.isna().sum().compute())
            vc = s.value_counts().compute()
        else:
            nulls = int(s.isna().sum())
            vc = s.value_counts(sort=False, dropna=True)
        ordered = str(s.dtype) == "category" and kind == "pandas"
        items = vc.items() if ordered else sorted((str(k), v) for k, v in vc.items())
        return _checked({str(k): int(v) for k, v in items}, name, nulls)
    if kind == "polars":
        if type(data).__name__ == "LazyFrame":
            if column is None:
                raise PmlError("invalid column = None: a LazyFrame needs column=NAME; pass the column to count")
            data = data.select(column).collect()
        s = _pick(data, column, ("DataFrame",))
        name = str(s.name)
        refuse_floats(s, name)
        vc = s.value_counts()
        keys, tallies = vc[vc.columns[0]].to_list(), vc[vc.columns[1]].to_list()
        pairs = sorted((str(k), int(v)) for k, v in zip(keys, tallies) if k is not None)
        return _checked(dict(pairs), name, int(s.null_count()))
    if kind == "pyspark":
        if column is None or column not in data.columns:
            raise PmlError(f"invalid column = {column!r}: a Spark DataFrame needs column=NAME, one of {data.columns}")
        rows = data.groupBy(column).count().collect()
        nulls = sum(int(r["count"]) for r in rows if r[column] is None)
        pairs = sorted((str(r[column]), int(r["count"])) for r in rows if r[column] is not None)
        return _checked(dict(pairs), column, nulls)
    if kind == "pyarrow":
        import pyarrow.compute as pc

        if type(data).__name__ == "Table":
            if column is None or column not in data.column_names:
                raise PmlError(f"invalid column = {column!r}: a Table needs column=NAME, one of {data.column_names}")
            arr = data.column(column)
        else:
            arr = data
        name = str(column or "values")
        refuse_floats(arr, name)
        vc = pc.value_counts(arr)
        pairs = sorted((str(v["values"]), int(v["counts"])) for v in vc.to_pylist() if v["values"] is not None)
        return _checked(dict(pairs), name, int(arr.null_count))
    if isinstance(data, np.ndarray):
        flat = data.ravel()
        refuse_floats(flat, str(column or "values"))
        keys, counts = np.unique(flat.astype(str), return_counts=True)
        return _checked({str(k): int(c) for k, c in zip(keys.tolist(), counts.tolist())}, str(column or "values"), 0)
    tally = Counter(data)
    nulls = tally.pop(None, 0)
    return _checked({str(k): int(v) for k, v in sorted(tally.items(), key=lambda kv: str(kv[0]))}, str(column or "values"), nulls)
