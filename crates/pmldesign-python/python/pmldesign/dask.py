"""Privatising a Dask DataFrame column (``pip install 'pmldesign[dask]'``).

Row i of the column draws from its own place of one keyed stream, i its global
position: the partitions' lengths are counted first (one pass), and partition k
starts at the sum of the lengths before it. The output is then the same for any
partitioning, and equal to :func:`pmldesign.apply` on the whole column and to
``pml apply --column COLUMN --seed SEED`` on the same rows. The private column takes
the raw one's place (``keep_raw=True`` keeps both). The design travels to
the workers as its JSON and is re-verified there when read back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, List, Mapping, Optional, Sequence, Tuple, Union, cast

import numpy as np

from ._design import Design
from ._native import InvalidInputError
from ._apply import (
    OnUnknown, OutputLabels, apply, check_keep_raw, check_nulls, check_on_unknown, check_summary, column_tally, engine_labels,
    key_places, raw_columns, refuse_repeated_key, shared_secret,
)
from ._codes import Nulls, missing
from ._tally import Tally, added, summarised

if TYPE_CHECKING:
    from ._record_design import RecordDesign


def _first_row(part: Any, offsets: Any, partition_info: Any, fix: str) -> int:
    """The global position of a partition's first row; a partition that holds other
    than its counted rows fails (its rows could otherwise share draws)."""
    k = 0 if partition_info is None else partition_info["number"]
    counted = int(offsets[k + 1]) - int(offsets[k])
    if len(part) != counted:
        raise InvalidInputError(f"invalid frame: partition {k} holds {len(part)} rows but was counted with {counted}; {fix}")
    return int(offsets[k])


def _field(part: Any, column: str, offsets: Any, by: Optional[str], partition_info: Any) -> Callable[[int], str]:
    """How an error names row i of a partition: by its global position, or by
    its key (``by``)."""
    if by is not None:
        keys = part[by].tolist()
        return lambda i: f"column {column!r} at key {keys[i]!r}"
    start = 0 if offsets is None or partition_info is None else int(offsets[partition_info["number"]])
    return lambda i: f"column {column!r} at row {start + i}"


def _tally_frame(tally: Tally, error: str = "") -> Any:
    """A partition's tally as a one-row pandas frame, with the refusal it met
    (``error``, empty where none)."""
    import pandas as pd

    row, value = tally.first if tally.first is not None else (-1, "")
    return pd.DataFrame(
        {"rows": [tally.rows], "unknown": [tally.unknown], "dropped": [tally.dropped], "row": [row], "value": [value], "error": [error]}
    )


def _guarded(part: Any, tally: Callable[..., Tally], *args: Any, partition_info: Any = None) -> Any:
    """``tally(part, *args)`` as a frame (:func:`_tally_frame`); a value it
    refuses is returned, not raised, so that the first in partition order is."""
    try:
        return _tally_frame(tally(part, *args, partition_info=partition_info))
    except InvalidInputError as refused:
        return _tally_frame(Tally(0, 0, 0, None), str(refused))


def _summed(frame: Any, tally: Callable[..., Any], *args: Any) -> Tally:
    """The tallies of ``frame``'s partitions (``tally(part, *args,
    partition_info=...)``), computed in one pass and added in partition order;
    a refused value is raised here, the first in that order (partitions run
    in parallel, so the first raised would depend on the scheduler)."""
    import pandas as pd

    meta = _tally_frame(Tally(0, 0, 0, None)).iloc[:0]
    found = frame.map_partitions(_guarded, tally, *args, meta=meta, align_dataframes=False).compute()
    rows = list(found.itertuples(index=False)) if isinstance(found, pd.DataFrame) else []
    for r in rows:
        if r.error:
            raise InvalidInputError(r.error)
    return added(Tally(int(r.rows), int(r.unknown), int(r.dropped), None if r.row < 0 else (int(r.row), str(r.value))) for r in rows)


def _column_tally(part: Any, text: str, column: str, how: Tuple[OnUnknown, Nulls], offsets: Any, by: Optional[str], partition_info: Any = None) -> Tally:
    """A partition's tally of ``column`` (nothing drawn)."""
    design = Design.from_json(text)
    return column_tally(design, part[column], column, how, _field(part, column, offsets, by, partition_info))


def _record_tally(part: Any, text: str, how: str, offsets: Any, key: Optional[str], partition_info: Any = None) -> Tally:
    """A partition's tally of a record design's columns (nothing drawn)."""
    from ._record_design import RecordDesign, record_tally

    design = RecordDesign.from_json(text)
    if key is None:
        first = 0 if offsets is None or partition_info is None else int(offsets[partition_info["number"]])
        places = np.arange(len(part), dtype=np.uint64) + np.uint64(first)
    else:
        places = np.asarray(key_places(part[key], len(part)), dtype=np.uint64)
    return record_tally(design, {c: part[c] for c in design.columns}, places, how)


def _partition(
    part: Any,
    text: str,
    column: str,
    name: str,
    secret: Any,
    offsets: Any,
    by: Any,
    how: Tuple[OnUnknown, Nulls],
    outputs: Optional[List[str]] = None,
    raw: Sequence[str] = (),
    partition_info: Any = None,
) -> Any:
    design = Design.from_json(text)  # re-verified on the worker
    out = part.copy()
    on_unknown, nulls = how
    keep: OnUnknown = "keep" if on_unknown == "skip" else on_unknown
    if on_unknown == "error":  # named by the row's global position (or its key)
        column_tally(design, part[column], column, how, _field(part, column, offsets, by, partition_info))
    if by is not None:
        out[name] = apply(design, part[column], seed=secret, column=column, key=part[by], on_unknown=keep, nulls=nulls, output_labels=outputs)
    else:
        first = _first_row(part, offsets, partition_info, "persist the frame first, or pass key=COLUMN")
        out[name] = apply(
            design, part[column], seed=secret, offset=first, column=column, on_unknown=keep, nulls=nulls, output_labels=outputs
        )
    kept = out[name].notna() | (missing(part[column]) if nulls == "drop" else False)
    return (out[kept] if on_unknown == "skip" else out).drop(columns=list(raw))


def _record_partition(
    part: Any,
    text: str,
    secret: Any,
    offsets: Any,
    how: str,
    key: Optional[str],
    labels: Optional[Mapping[str, Sequence[Any]]] = None,
    keep_raw: bool = False,
    partition_info: Any = None,
) -> Any:
    from ._record_design import RecordDesign, apply_record

    design = RecordDesign.from_json(text)  # re-verified on the worker
    if key is not None:
        return apply_record(design, part, seed=secret, on_unknown=how, key=key, output_labels=labels, keep_raw=keep_raw)
    first = _first_row(part, offsets, partition_info, "persist the frame first, or pass key=COLUMN")
    return apply_record(design, part, seed=secret, offset=first, on_unknown=how, output_labels=labels, keep_raw=keep_raw)


def _privatise_record(
    frame: Any, design: Any, secret: str, how: str, placed: Tuple[Optional[str], Any], labels: Optional[Mapping[str, Sequence[Any]]],
    keep_raw: bool,
) -> Any:
    """A record design: every column it names, at each row's global position
    (``placed``: no key, and the partitions' offsets) or its key's place (the key
    column, and no offsets)."""
    import pandas as pd

    from ._record_design import private_names, released

    key, offsets = placed
    meta = frame._meta.copy()
    for c, n in zip(design.columns, private_names(design, labels)):
        meta[f"{c}_private"] = pd.Categorical([], categories=n)
    meta = released(meta, design.columns, keep_raw=keep_raw)
    return frame.map_partitions(
        _record_partition, design.to_json(), secret, offsets, how, key, labels, keep_raw, meta=meta, align_dataframes=False
    )


def _offsets(frame: Any) -> List[int]:
    """The global position of each partition's first row, and the row count last
    (a first pass counts the partitions' lengths)."""
    lengths = frame.map_partitions(len).compute()
    return cast(List[int], np.concatenate([[0], np.cumsum(np.asarray(lengths, dtype=np.int64))]).tolist())


def _keyed(part: Any, key: str) -> Any:
    """A partition's keys (as text) and the place of the stream each gives."""
    import pandas as pd

    keys = part[key]
    texts = [str(k) for k in keys.tolist()]
    return pd.DataFrame({"key": texts, "place": key_places(keys, len(part), once=False)}, index=part.index)


def _refuse_repeated_keys(frame: Any, key: str) -> None:
    """A pass over the ``key`` column before any draw: every row's key must draw
    from its own place of the stream (:func:`pmldesign.apply`'s ``key``)."""
    import pandas as pd

    meta = pd.DataFrame({"key": pd.Series([], dtype=object), "place": pd.Series([], dtype=np.uint64)})
    import dask

    places = frame.map_partitions(_keyed, key, meta=meta)["place"]
    distinct, rows = cast(Any, dask).compute(places.nunique(), places.size)  # one pass
    if distinct != rows:
        counts = places.value_counts().compute()
        place = counts[counts > 1].index[0]
        pairs = frame.map_partitions(_keyed, key, meta=meta)
        two = pairs[pairs["place"] == place]["key"].compute().tolist()
        refuse_repeated_key(two[0], two[1], "on more than one row")


def privatise(
    frame: Any,
    design: Union[Design, "RecordDesign"],
    column: Optional[str] = None,
    *,
    seed: Any = None,
    name: Optional[str] = None,
    key: Optional[str] = None,
    on_unknown: OnUnknown = "error",
    nulls: Optional[Nulls] = None,
    output_labels: OutputLabels = None,
    keep_raw: bool = False,
    summary: bool = False,
) -> Any:
    """A Dask DataFrame with a privatised column in place of the raw one.

    Each row draws from the keyed stream of ``column`` at its global position: a
    first pass counts the partitions' lengths. A partition that then holds other
    than its counted rows fails, since rows could otherwise share draws.

    Parameters
    ----------
    frame : dask.dataframe.DataFrame
        The data.
    design : Design or RecordDesign
        The certified design; with a :class:`pmldesign.RecordDesign` (no
        ``column``), one ``{column}_private`` per column of the record takes the
        place of the record's columns, as ``pml apply`` writes them.
    column : str, optional
        The column to privatise (its name is also the stream's).
    seed : int, str or bytes, optional
        The secret key, as in :func:`pmldesign.apply`; without one a fresh key is
        drawn here, once, and shared by every part.
    name : str, optional
        The new column's name (default ``{column}_private``).
    key : str, optional
        A column of user keys: each row draws from the place its key gives, so the
        output does not depend on the rows' order. A first pass refuses a repeated
        key (its rows' draws would be coupled), naming it.
    on_unknown : {"error", "skip", "keep"}, default "error"
        As in :func:`pmldesign.apply` (``skip`` drops the row).
    nulls : {"error", "drop", "category"}, optional
        As in :func:`pmldesign.apply`.
    output_labels : sequence or mapping, optional
        The released values' names, as in :func:`pmldesign.apply`: one per output
        of a design, or for a record design a mapping from its columns to theirs.
    keep_raw : bool, default False
        Keep the raw column(s) beside the private one(s); a warning says the
        result must not be released.
    summary : bool, default False
        Return the frame and an :class:`pmldesign.ApplySummary` of the release
        (as ``pml apply --summary``), counted here in one pass over the raw
        column(s) (nothing is drawn): a value ``on_unknown="error"`` refuses
        raises now, not when the frame is computed.

    Returns
    -------
    dask.dataframe.DataFrame
        ``frame``'s other columns and the column ``name``, categorical over the
        design's outputs (or ``output_labels``); the raw column only with
        ``keep_raw``. With ``summary``, a tuple of it and its summary.
    """
    import pandas as pd

    wanted = check_summary(summary)
    if type(design).__name__ == "RecordDesign":
        from ._record_design import check_record_frame

        record = cast("RecordDesign", design)
        check_record_frame(record, list(frame.columns), column, name, key=key)
        _, mapping = engine_labels(design, output_labels)
        kept_raw = check_keep_raw(keep_raw, record.columns)
        how_record = check_on_unknown(on_unknown)
        if key is not None:
            _refuse_repeated_keys(frame, key)
        # By key, the partitions need not be counted; by position, once for both passes.
        record_offsets = None if key is not None else _offsets(frame)
        released = _privatise_record(frame, design, shared_secret(seed), how_record, (key, record_offsets), mapping, kept_raw)
        if not wanted:
            return released
        tally = _summed(frame, _record_tally, record.to_json(), how_record, record_offsets, key)
        return released, summarised(tally, how_record, [(c, f"{c}_private") for c in record.columns], kept_raw)
    if column is None or column not in frame.columns:
        raise InvalidInputError(f"invalid column = {column!r}: no such column (it has {list(frame.columns)}); pass one of them")
    how = (check_on_unknown(on_unknown), check_nulls(nulls, design))
    outputs, _ = engine_labels(design, output_labels)
    secret = shared_secret(seed)
    name = name or f"{column}_private"
    raw = raw_columns(column, name, keep_raw)
    if key is not None and key not in frame.columns:
        raise InvalidInputError(f"invalid key = {key!r}: no such column (it has {list(frame.columns)}); pass one of them")
    if key is not None:
        _refuse_repeated_keys(frame, key)
    offsets = None if key is not None else _offsets(frame)
    meta = frame._meta.copy()
    meta[name] = pd.Categorical([], categories=outputs or design.outputs)
    released = frame.map_partitions(
        _partition, design.to_json(), column, name, secret, offsets, key, how, outputs, raw, meta=meta.drop(columns=raw), align_dataframes=False
    )
    if not wanted:
        return released
    tally = _summed(frame, _column_tally, design.to_json(), column, how, offsets, key)
    return released, summarised(tally, how[0], [(column, name)], bool(keep_raw))
