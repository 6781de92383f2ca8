"""Privatising a polars column (``pip install 'pmldesign[polars]'``).

``privatise(frame, design, column, seed=...)`` adds ``{column}_private`` to a
DataFrame or a LazyFrame: row i of the column draws from its own place of the keyed
stream of ``column`` (as ``pml apply --column COLUMN --seed SEED`` and
:func:`pmldesign.apply` do), i the row's index in the frame plus ``offset``, or the
place of its user's ``key``. Each batch polars hands over carries its rows' indices,
so the column is the same for any batching, ``collect(engine="streaming")`` included.
"""

from __future__ import annotations

import secrets
from typing import Any, Optional, TypeVar

import numpy as np

from ._apply import apply, check_on_unknown, draw, field_of, key_places, mechanism_of, refuse, secret_of
from ._codes import codes_of
from ._design import Design
from ._native import PmlError

Frame = TypeVar("Frame")

#: The temporary column of row positions (dropped before the frame is returned).
_INDEX = "__pmldesign_row__"


def _batch(design: Design, column: str, by: Optional[str], secret: str, how: str) -> Any:
    """The function polars maps over each batch of ``struct(column, index or key)``."""
    import polars as pl

    matrix, labels, outputs, _ = mechanism_of(design)
    enum = pl.Enum(outputs)

    def run(batch: Any) -> Any:
        values = batch.struct.field(column)
        place = batch.struct.field(by or _INDEX)
        codes, describe = codes_of(values, labels)
        if by is None:
            places = place.to_numpy().astype(np.uint64)
        else:
            places = key_places(place, len(place))
        if how == "error" and (codes < 0).any():
            row = field_of(column)
            refuse(codes, describe, (lambda i: row(int(places[i]))) if by is None else row, labels)
        out = draw(matrix, codes, column, secret, places=places)
        named = pl.Series(values.name, out)
        return named.replace_strict(list(range(len(outputs))), outputs, default=None, return_dtype=enum)

    return run


def privatise(
    frame: Frame,
    design: Design,
    column: str,
    *,
    seed: Any = None,
    name: Optional[str] = None,
    offset: int = 0,
    key: Optional[str] = None,
    on_unknown: str = "error",
) -> Frame:
    """``frame`` (a polars DataFrame or LazyFrame, returned as the same) with the
    column ``name`` (default ``{column}_private``) of privatised values, an Enum over
    the design's outputs. ``offset`` is the global position of the frame's first row;
    with ``key`` (a column of user keys) rows draw by key and order does not matter.
    ``on_unknown`` as in :func:`pmldesign.apply` (``skip`` drops the row); a
    LazyFrame raises when collected, naming a bad row (batches run in parallel, so
    not always the first). Without ``seed`` a fresh key is drawn once for the frame."""
    import polars as pl

    lazy = isinstance(frame, pl.LazyFrame)
    if not lazy and not isinstance(frame, pl.DataFrame):
        raise PmlError(f"invalid frame = {type(frame).__name__}: pass a polars DataFrame or LazyFrame")
    names = frame.collect_schema().names() if lazy else frame.columns
    for field, value in (("column", column), ("key", key)):
        if value is not None and value not in names:
            raise PmlError(f"invalid {field} = {value!r}: no such column (it has {names}); pass one of them")
    how = check_on_unknown(on_unknown)
    secret = secret_of(seed) or str(secrets.randbits(256))
    if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
        raise PmlError(f"invalid offset = {offset!r}: the position of the frame's first row, a whole number >= 0")
    name = name or f"{column}_private"
    if not lazy:
        # Eager: one call over the whole column, so an error names its first bad row.
        by = None if key is None else frame.get_column(key)
        keep = "keep" if how == "skip" else how
        out = apply(design, frame.get_column(column), seed=secret, offset=offset, column=column, key=by, on_unknown=keep)
        done = frame.with_columns(out.alias(name))
        return done.filter(pl.col(name).is_not_null()) if how == "skip" else done
    plan = frame if key is not None else frame.with_row_index(_INDEX, offset=offset)
    run = _batch(design, column, key, secret, how)
    private = pl.struct([column, key or _INDEX]).map_batches(run, return_dtype=pl.Enum(design.outputs), is_elementwise=True)
    plan = plan.with_columns(private.alias(name))
    if how == "skip":
        plan = plan.filter(pl.col(name).is_not_null())
    return plan if key is not None else plan.drop(_INDEX)
