"""Privatising a polars column (``pip install 'pmldesign[polars]'``).

``privatise(frame, design, column, seed=...)`` puts ``{column}_private`` in place of
``column`` in a DataFrame or a LazyFrame (``keep_raw=True`` keeps both): row i of the column draws from its own place of the keyed
stream of ``column`` (as ``pml apply --column COLUMN --seed SEED`` and
:func:`pmldesign.apply` do), i the row's index in the frame plus ``offset``, or the
place of its user's ``key``. Each batch polars hands over carries its rows' indices,
so the column is the same for any batching, ``collect(engine="streaming")`` included.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Literal, Mapping, Optional, Sequence, Tuple, TypeVar, Union, cast, overload

import numpy as np

from ._apply import (
    OnUnknown, OutputLabels, apply, check_keep_raw, check_nulls, check_on_unknown, check_summary, column_tally, draw, engine_labels,
    field_of, input_codes, key_places, mechanism_of, null_codes, raw_columns, refuse, refuse_repeated_key, shared_secret,
)
from ._design import Design
from ._codes import Nulls, missing
from ._native import InvalidInputError
from ._records import ApplySummary
from ._tally import summarised

if TYPE_CHECKING:
    from ._record_design import RecordDesign

Frame = TypeVar("Frame")

#: The temporary column of row positions (dropped before the frame is returned).
_INDEX = "__pmldesign_row__"


def _batch(design: Design, column: str, by: Optional[str], secret: str, how: Tuple[OnUnknown, Nulls], names: Optional[List[str]] = None) -> Any:
    """The function polars maps over each batch of ``struct(column, index or key)``;
    the outputs written as ``names`` (default: the design's)."""
    import polars as pl

    matrix, labels, outputs, _ = mechanism_of(design)
    assert labels is not None and outputs is not None  # a Design names both
    outputs = names or outputs
    enum = pl.Enum(outputs)
    on_unknown, nulls = how

    def run(batch: Any) -> Any:
        values = batch.struct.field(column)
        place = batch.struct.field(by or _INDEX)
        codes, describe = input_codes(values, labels, (False, None, design), column)
        codes, dropped = null_codes(codes, nulls, labels)
        if by is None:
            places = place.to_numpy().astype(np.uint64)
        else:
            places = key_places(place, len(place))
        if on_unknown == "error" and ((codes < 0) & ~dropped).any():
            row = field_of(column)
            refuse(np.where(dropped, 0, codes), describe, (lambda i: row(int(places[i]))) if by is None else row, labels)
        out = draw(matrix, codes, column, secret, places=places)
        named = pl.Series(values.name, out)
        return named.replace_strict(list(range(len(outputs))), outputs, default=None, return_dtype=enum)

    return run


def _record_batch(design: Any, secret: str, how: str, key: Optional[str] = None, labels: Optional[Mapping[str, Sequence[Any]]] = None) -> Any:
    """The function polars maps over each batch of ``struct(record columns, index
    or key)`` for a record design: a struct of the private columns, named as
    ``labels`` renames them."""
    import polars as pl

    from ._record_design import private_names, record_codes, recorded_nulls

    names = private_names(design, labels)
    rule = (how, recorded_nulls(design))

    def run(batch: Any) -> Any:
        values = {c: batch.struct.field(c) for c in design.columns}
        if key is None:
            places = batch.struct.field(_INDEX).to_numpy().astype(np.uint64)
        else:
            places = np.asarray(key_places(batch.struct.field(key), len(batch)), dtype=np.uint64)
        outs = record_codes(design, values, secret, places, rule).outs
        series = [
            pl.Series(f"{c}_private", o).replace_strict(list(range(len(n))), n, default=None, return_dtype=pl.Enum(n))
            for c, o, n in zip(design.columns, outs, names)
        ]
        return pl.DataFrame(series).to_struct(_PRIVATE)

    dtype = pl.Struct([pl.Field(f"{c}_private", pl.Enum(n)) for c, n in zip(design.columns, names)])
    return run, dtype


#: The temporary struct of a record's private columns (unnested before returning).
_PRIVATE = "__pmldesign_private__"


def _privatise_record(
    frame: Any, design: Any, secret: str, offset: int, how: str, lazy: bool, key: Optional[str] = None,
    labels: Optional[Mapping[str, Sequence[Any]]] = None, keep_raw: bool = False,
) -> Any:
    """A record design over a DataFrame (one call) or a LazyFrame (batch by batch),
    each row at its position or its key's place."""
    import polars as pl

    from ._record_design import apply_record, check_record_frame, released

    check_record_frame(design, frame.collect_schema().names() if lazy else frame.columns, key=key)
    if not lazy:
        return apply_record(design, frame, seed=secret, offset=offset, on_unknown=how, key=key, output_labels=labels, keep_raw=keep_raw)
    if key is not None:
        _refuse_repeated_keys(frame, key)
    run, dtype = _record_batch(design, secret, how, key, labels)
    plan = frame if key is not None else frame.with_row_index(_INDEX, offset=offset)
    private = pl.struct([*design.columns, key or _INDEX]).map_batches(run, return_dtype=dtype, is_elementwise=True)
    plan = plan.with_columns(private.alias(_PRIVATE)).unnest(_PRIVATE)
    plan = plan if key is not None else plan.drop(_INDEX)
    first = f"{design.columns[0]}_private"
    plan = plan.filter(pl.col(first).is_not_null()) if how == "skip" else plan
    return released(plan, design.columns, keep_raw=keep_raw)


def _record_summary(data: Any, design: "RecordDesign", how: str, offset: int, keep_raw: bool) -> ApplySummary:
    """The summary of a record design's release over ``data``, counted from its raw
    columns (a LazyFrame's read once; nothing drawn)."""
    import polars as pl

    from ._record_design import record_tally

    values = data.select(design.columns)
    values = values.collect() if isinstance(values, pl.LazyFrame) else values
    places = np.arange(values.height, dtype=np.uint64) + np.uint64(offset)
    tally = record_tally(design, {c: values.get_column(c) for c in design.columns}, places, how)
    return summarised(tally, how, [(c, f"{c}_private") for c in design.columns], keep_raw)


def _refuse_repeated_keys(frame: Any, key: str) -> None:
    """A pass over a LazyFrame's ``key`` column before any draw: every row's key
    must draw from its own place of the stream (:func:`key_places`)."""
    import polars as pl

    def places(keys: Any) -> Any:
        return pl.Series(key_places(keys, len(keys), once=False))

    place = pl.col(key).map_batches(places, return_dtype=pl.UInt64, is_elementwise=True).alias("place")
    pairs = frame.select(pl.col(key).cast(pl.String).alias("key"), place)
    distinct, rows = pairs.select(pl.col("place").n_unique(), pl.len()).collect().row(0)
    if distinct != rows:
        two = pairs.filter(pl.col("place").is_duplicated()).sort("place", maintain_order=True).head(2).collect()["key"].to_list()
        refuse_repeated_key(two[0], two[1], "on more than one row")


def _privatise_column(
    data: Any, design: Design, names: Tuple[str, str, Optional[str]], secret: str, offset: int, how: Tuple[OnUnknown, Nulls],
    outputs: Optional[List[str]], raw: Sequence[str],
) -> Any:
    """A design's column privatised: ``names`` are the column, its private
    column's name and the key column (or None)."""
    import polars as pl

    column, name, key = names
    kept = pl.col(name).is_not_null()
    if how[1] == "drop":  # a dropped null is written missing, not skipped
        kept = kept | pl.col(column).map_batches(lambda s: pl.Series(missing(s)), return_dtype=pl.Boolean, is_elementwise=True)
    if isinstance(data, pl.DataFrame):  # not lazy
        # Eager: one call over the whole column, so an error names its first bad row.
        by = None if key is None else data.get_column(key)
        keep: OnUnknown = "keep" if how[0] == "skip" else how[0]
        out = apply(
            design, data.get_column(column), seed=secret, offset=offset, column=column, key=by, on_unknown=keep, nulls=how[1], output_labels=outputs
        )
        done = data.with_columns(out.alias(name))
        return (done.filter(kept) if how[0] == "skip" else done).drop(raw)
    if key is not None:
        _refuse_repeated_keys(data, key)
    plan = data if key is not None else data.with_row_index(_INDEX, offset=offset)
    run = _batch(design, column, key, secret, how, outputs)
    private = pl.struct([column, key or _INDEX]).map_batches(run, return_dtype=pl.Enum(outputs or design.outputs), is_elementwise=True)
    plan = plan.with_columns(private.alias(name))
    if how[0] == "skip":
        plan = plan.filter(kept)
    return (plan if key is not None else plan.drop(_INDEX)).drop(raw)


@overload
def privatise(
    frame: Frame, design: Union[Design, "RecordDesign"], column: Optional[str] = ..., *, seed: Any = ..., name: Optional[str] = ...,
    offset: int = ..., key: Optional[str] = ..., on_unknown: OnUnknown = ..., nulls: Optional[Nulls] = ...,
    output_labels: OutputLabels = ..., keep_raw: bool = ..., summary: Literal[False] = ...,
) -> Frame: ...
@overload
def privatise(
    frame: Frame, design: Union[Design, "RecordDesign"], column: Optional[str] = ..., *, seed: Any = ..., name: Optional[str] = ...,
    offset: int = ..., key: Optional[str] = ..., on_unknown: OnUnknown = ..., nulls: Optional[Nulls] = ...,
    output_labels: OutputLabels = ..., keep_raw: bool = ..., summary: Literal[True],
) -> Tuple[Frame, ApplySummary]: ...
def privatise(
    frame: Frame,
    design: Union[Design, "RecordDesign"],
    column: Optional[str] = None,
    *,
    seed: Any = None,
    name: Optional[str] = None,
    offset: int = 0,
    key: Optional[str] = None,
    on_unknown: OnUnknown = "error",
    nulls: Optional[Nulls] = None,
    output_labels: OutputLabels = None,
    keep_raw: bool = False,
    summary: bool = False,
) -> Union[Frame, Tuple[Frame, ApplySummary]]:
    """A polars frame with a privatised column in place of the raw one.

    Draws as one :func:`pmldesign.apply` over the whole column would. A LazyFrame
    runs batch by batch (streaming) and raises when collected, naming a bad row
    (batches run in parallel, so not always the first).

    Parameters
    ----------
    frame : polars.DataFrame or polars.LazyFrame
        The data; the result has the same type.
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
    offset : int, default 0
        The global position of the frame's first row.
    key : str, optional
        A column of user keys: each row draws from the place its key gives, so the
        output does not depend on the rows' order. A repeated key is refused (a
        LazyFrame's keys are read in a first pass), since its rows' draws would
        be coupled.
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
        (as ``pml apply --summary``). A LazyFrame's raw column(s) are read once
        here to count (nothing is drawn): a value ``on_unknown="error"`` refuses
        raises now, not when the frame is collected.

    Returns
    -------
    polars.DataFrame or polars.LazyFrame
        ``frame``'s other columns and the column ``name``, an Enum over the
        design's outputs (or ``output_labels``); the raw column only with
        ``keep_raw``. With ``summary``, a tuple of it and its summary.
    """
    import polars as pl

    lazy = isinstance(frame, pl.LazyFrame)
    data: Union[pl.DataFrame, pl.LazyFrame]
    if isinstance(frame, (pl.DataFrame, pl.LazyFrame)):
        data = frame
    else:
        raise InvalidInputError(f"invalid frame = {type(frame).__name__}: pass a polars DataFrame or LazyFrame")
    # Below, ``data`` is ``frame`` as polars types it; the result is of frame's type.
    wanted = check_summary(summary)
    if type(design).__name__ == "RecordDesign":
        from ._record_design import check_record_frame

        names = data.collect_schema().names() if lazy else data.columns
        check_record_frame(cast("RecordDesign", design), names, column, name, key=key)
        how = check_on_unknown(on_unknown)
        kept_raw = check_keep_raw(keep_raw, cast("RecordDesign", design).columns)
        secret = shared_secret(seed)
        _, mapping = engine_labels(design, output_labels)
        released = cast(Frame, _privatise_record(data, design, secret, offset, how, lazy, key, mapping, kept_raw))
        return (released, _record_summary(data, cast("RecordDesign", design), how, offset, kept_raw)) if wanted else released
    design = cast(Design, design)
    outputs, _ = engine_labels(design, output_labels)
    if column is None:
        raise InvalidInputError("invalid column = None: name the column to privatise (a record design names its own)")
    names = data.collect_schema().names() if lazy else data.columns
    for field, value in (("column", column), ("key", key)):
        if value is not None and value not in names:
            raise InvalidInputError(f"invalid {field} = {value!r}: no such column (it has {names}); pass one of them")
    how = check_on_unknown(on_unknown)
    nulls = check_nulls(nulls, design)
    secret = shared_secret(seed)
    if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
        raise InvalidInputError(f"invalid offset = {offset!r}: the position of the frame's first row, a whole number >= 0")
    name = name or f"{column}_private"
    raw = raw_columns(column, name, keep_raw)
    done = cast(Frame, _privatise_column(data, design, (column, name, key), secret, offset, (how, nulls), outputs, raw))
    if not wanted:
        return done
    values = data.select(column)
    read = values.collect() if isinstance(values, pl.LazyFrame) else values
    tally = column_tally(design, read.get_column(column), column, (how, nulls), field_of(column))
    return done, summarised(tally, how, [(column, name)], bool(keep_raw))
