"""What a release did, counted (``summary=True``): the rows, those with a value
outside the labels, those written missing for a null, and the first unknown value.
:func:`pmldesign.apply` counts one call; the polars, Dask and Spark ``privatise``
count part by part in one pass over the raw values (nothing is drawn there) and add
the parts in their order, so every route gives the summary of ``pml apply
--summary``."""

from __future__ import annotations

from typing import Iterable, List, NamedTuple, Optional, Tuple

import numpy as np

from . import _native
from ._records import ApplySummary


class Tally(NamedTuple):
    """The counts of a run of rows: ``unknown`` rows hold a value outside the
    labels (a null under ``nulls="error"`` included), ``dropped`` rows a null
    written missing (``nulls="drop"``); ``first`` is the first unknown row,
    counted from the run's first row, and its value as text."""

    rows: int
    unknown: int
    dropped: int
    first: Optional[Tuple[int, str]]

    @staticmethod
    def of(unknown: np.ndarray, dropped: np.ndarray, first: Optional[Tuple[int, str]]) -> "Tally":
        """The tally of the rows flagged in ``unknown`` and ``dropped``."""
        return Tally(len(unknown), int(unknown.sum()), int(dropped.sum()), first)


def added(parts: Iterable[Tally]) -> Tally:
    """The tally of consecutive runs, given in their order: the first unknown row
    is counted from the first run's first row."""
    rows = unknown = dropped = 0
    first: Optional[Tuple[int, str]] = None
    for part in parts:
        if first is None and part.first is not None:
            first = (rows + part.first[0], part.first[1])
        rows, unknown, dropped = rows + part.rows, unknown + part.unknown, dropped + part.dropped
    return Tally(rows, unknown, dropped, first)


def summarised(tally: Tally, on_unknown: str, written: List[Tuple[str, str]], raw_kept: bool) -> ApplySummary:
    """The :class:`ApplySummary` of a release whose rows ``tally`` counts, under
    ``on_unknown``; ``written`` names each column and what it is written as. The
    layout is the library's (``pml apply --summary``)."""
    skipped, kept = (tally.unknown, 0) if on_unknown == "skip" else (0, tally.unknown)
    counts = (tally.rows, tally.rows - skipped - kept - tally.dropped, skipped, kept, tally.dropped)
    return ApplySummary(_native.apply_summary(counts, tally.first, written, raw_kept))
