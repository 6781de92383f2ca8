"""Privatising a polars column (``pip install 'pmldesign[polars]'``).

``privatise(frame, design, column, seed=...)`` adds ``{column}_private``: row i of the
column draws from its own place of the keyed stream of ``column`` (as
``pml apply --column COLUMN --seed SEED`` and :func:`pmldesign.apply` do), so any
split of the rows, each part with its offset, gives the same column.
"""

from __future__ import annotations

from typing import Any, Optional

from ._design import Design
from ._tools import apply


def privatise(
    frame: Any,
    design: Design,
    column: str,
    *,
    seed: Any = None,
    name: Optional[str] = None,
    offset: int = 0,
) -> Any:
    """``frame`` (a polars DataFrame) with the column ``name`` (default
    ``{column}_private``) of privatised values, an Enum over the design's outputs.
    ``offset`` is the global position of the frame's first row."""
    import polars as pl

    from ._native import PmlError

    if isinstance(frame, pl.LazyFrame):
        raise PmlError("invalid frame = LazyFrame: collect it first (privatise needs each row's global position)")
    if column not in frame.columns:
        raise PmlError(f"invalid column = {column!r}: no such column (it has {frame.columns}); pass one of them")
    private = apply(design, frame.get_column(column), seed=seed, offset=offset, column=column)
    return frame.with_columns(private.alias(name or f"{column}_private"))
