"""Privatising a Spark DataFrame column (``pip install 'pmldesign[spark]'``).

Row i of the column draws from its own place of one keyed stream, i its position
in the DataFrame's order (partition by partition, in partition order): a first
pass counts each partition's rows (``mapInArrow``, by partition index), and
partition k starts at the sum of the counts before it. The output is the same for
any partitioning, and equal to :func:`pmldesign.apply` on the collected column and
to ``pml apply --column COLUMN --seed SEED`` on the same rows. Positions never come
from ``monotonically_increasing_id``, whose values depend on the partitioning.

Both passes read the same plan, so its partitions must be deterministic (a file
scan, ``createDataFrame``; not a shuffle, which Spark may re-run into other
partitions): a task whose partition holds other than its counted rows fails the job,
since two rows could otherwise share a place of the stream. After a shuffle, call
``frame.localCheckpoint()`` first, or pass ``key=`` (a column of user keys): each row
then draws from the place its key gives, and neither counting nor order is needed.
The private column takes the raw one's place (``keep_raw=True`` keeps both). The
design travels to the workers as its JSON and is re-verified there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union, cast

import numpy as np

from ._apply import (
    OnUnknown, OutputLabels, apply, check_keep_raw, check_nulls, check_on_unknown, check_summary, column_tally, engine_labels,
    key_places, raw_columns, refuse_repeated_key, shared_secret,
)
from ._codes import Nulls, missing
from ._tally import Tally, added, summarised
from ._design import Design
from ._native import InvalidInputError

if TYPE_CHECKING:
    from ._record_design import RecordDesign


def _partition_counts(frame: Any, column: str) -> Dict[int, int]:
    """Rows in each partition of ``frame``, by partition index."""

    def count(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa
        from pyspark import TaskContext

        rows = sum(b.num_rows for b in batches)
        context = TaskContext.get()
        assert context is not None  # set in every Spark task
        part = pa.array([context.partitionId()], pa.int32())
        yield pa.RecordBatch.from_arrays([part, pa.array([rows], pa.int64())], names=["part", "rows"])

    found = frame.select(column).mapInArrow(count, "part int, rows long").collect()
    return {int(r["part"]): int(r["rows"]) for r in found}


def _spans(counts: Dict[int, int]) -> List[Tuple[int, int]]:
    """(first position, rows) of each partition, in partition order."""
    parts = max(counts, default=-1) + 1
    lengths = [counts.get(k, 0) for k in range(parts)]
    starts = np.concatenate([[0], np.cumsum(np.array(lengths, dtype=np.int64))])[:-1].tolist()
    return list(zip(starts, lengths))


def _check_span(part: int, rows: int, spans: List[Tuple[int, int]], *, done: bool = True) -> None:
    """A partition must hold the rows it was counted with: otherwise two rows could
    share a place of the stream (the same draws), so the task fails instead. Before
    its last batch (``done=False``), only more rows than counted fail: checked before
    each batch is written, so no shared place is."""
    counted = spans[part][1] if part < len(spans) else None
    if (counted != rows) if done else (rows > (counted or 0)):
        raise InvalidInputError(
            f"invalid frame: partition {part} holds {rows} rows but was counted with {counted}; its plan is not "
            "deterministic (a shuffle re-ran differently): call frame.localCheckpoint() first, or pass key=COLUMN"
        )


def _without(batch: Any, raw: Sequence[str], private: Sequence[Any], names: Sequence[str]) -> Any:
    """An Arrow batch with the ``private`` arrays (named ``names``) appended and
    the ``raw`` columns left out."""
    import pyarrow as pa

    kept = [i for i, c in enumerate(batch.schema.names) if c not in raw]
    columns = [batch.column(i) for i in kept]
    return pa.RecordBatch.from_arrays([*columns, *private], names=[*(batch.schema.names[i] for i in kept), *names])


def _refuse_repeated_keys(frame: Any, key: str) -> None:
    """A pass over the ``key`` column before any draw: every row's key must draw
    from its own place of the stream (:func:`pmldesign.apply`'s ``key``)."""
    from pyspark.sql import functions as F

    def places(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        for batch in batches:
            keys = batch.column(0)
            place = key_places(keys, batch.num_rows, once=False).view(np.int64)
            yield pa.RecordBatch.from_arrays([pa.array([str(k) for k in keys.to_pylist()]), pa.array(place)], names=["key", "place"])

    pairs = frame.select(key).mapInArrow(places, "key string, place long")
    found = pairs.agg(F.countDistinct("place").alias("distinct"), F.count("*").alias("rows")).collect()[0]
    if found["distinct"] != found["rows"]:
        place = pairs.groupBy("place").count().filter(F.col("count") > 1).first()["place"]
        two = [r["key"] for r in pairs.filter(F.col("place") == place).limit(2).collect()]
        refuse_repeated_key(two[0], two[1], "on more than one row")


def _privatiser(
    text: str,
    column: str,
    name: str,
    secret: str,
    spans: Optional[List[Tuple[int, int]]],
    by: Optional[str],
    how: Tuple[OnUnknown, Nulls],
    outputs: Optional[List[str]] = None,
    raw: Sequence[str] = (),
) -> Any:
    """The function each Spark task maps over its Arrow batches."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa
        from pyspark import TaskContext

        design = Design.from_json(text)  # re-verified on the worker
        context = TaskContext.get()
        assert context is not None  # set in every Spark task
        part = context.partitionId()
        first = 0 if spans is None or part >= len(spans) else spans[part][0]
        at = first
        how_unknown, nulls = how
        keep: OnUnknown = "keep" if how_unknown == "skip" else how_unknown
        for batch in batches:
            values = batch.column(batch.schema.get_field_index(column))
            key = None if by is None else batch.column(batch.schema.get_field_index(by)).to_pylist()
            out = apply(design, values, seed=secret, offset=at, column=column, key=key, on_unknown=keep, nulls=nulls, output_labels=outputs)
            at += batch.num_rows
            done = _without(batch, raw, [out.cast(pa.string())], [name])
            if spans is not None:
                _check_span(part, at - first, spans, done=False)
            kept = done.column(done.schema.get_field_index(name)).is_valid()
            if nulls == "drop":  # a dropped null is written missing, not skipped
                import pyarrow.compute as pc

                kept = pc.or_(kept, pa.array(missing(values)))
            yield done.filter(kept) if how_unknown == "skip" else done
        if spans is not None:
            _check_span(part, at - first, spans)

    return run


def _record_privatiser(
    text: str, secret: str, spans: List[Tuple[int, int]], how: str, key: Optional[str] = None,
    labels: Optional[Mapping[str, Sequence[Any]]] = None, keep_raw: bool = False,
) -> Any:
    """The function each Spark task maps over its Arrow batches for a record design."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa
        from pyspark import TaskContext

        from ._record_design import RecordDesign, private_names, record_codes, recorded_nulls

        design = RecordDesign.from_json(text)  # re-verified on the worker
        names = private_names(design, labels)
        rule = (how, recorded_nulls(design))
        context = TaskContext.get()
        assert context is not None  # set in every Spark task
        part = context.partitionId()
        first = spans[part][0] if part < len(spans) else 0
        at = first
        for batch in batches:
            values = {c: batch.column(batch.schema.get_field_index(c)) for c in design.columns}
            if key is None:
                places = np.arange(batch.num_rows, dtype=np.uint64) + np.uint64(at)
            else:
                keys = batch.column(batch.schema.get_field_index(key))
                places = np.asarray(key_places(keys, batch.num_rows), dtype=np.uint64)
            coded = record_codes(design, values, secret, places, rule)
            outs, missing = coded.outs, coded.missing
            at += batch.num_rows
            if key is None:
                _check_span(part, at - first, spans, done=False)
            private = [pa.array(np.asarray([*n, ""], dtype=object)[o], mask=o < 0, type=pa.string()) for o, n in zip(outs, names)]
            raw = [] if keep_raw else design.columns
            done = _without(batch, raw, private, [f"{c}_private" for c in design.columns])
            yield done.filter(pa.array(~missing)) if how == "skip" else done
        if key is None:
            _check_span(part, at - first, spans)

    return run


def _summed(frame: Any, columns: List[str], part_tally: Callable[[Any, Any, int], Tally], text: str, record: bool) -> Tally:
    """The tallies of ``frame``'s partitions, counted in one pass over
    ``columns`` (nothing drawn) and added in partition order (the order of the
    positions): ``part_tally(design, batch, at)`` counts a batch whose first row
    is at ``at`` within its partition's span. A value it refuses is raised here,
    the first in partition order, as the error it is (not Spark's wrapper)."""

    def count(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa
        from pyspark import TaskContext

        from ._record_design import RecordDesign

        design = RecordDesign.from_json(text) if record else Design.from_json(text)  # re-verified on the worker
        context = TaskContext.get()
        assert context is not None  # set in every Spark task
        parts, at, error = [], 0, ""
        for batch in batches:
            try:
                parts.append(part_tally(design, batch, at))
            except InvalidInputError as refused:  # raised on the driver, in partition order
                error = str(refused)
                break
            at += batch.num_rows
        t = added(parts)
        row, value = t.first if t.first is not None else (-1, "")
        names = ["part", "rows", "unknown", "dropped", "row", "value", "error"]
        found = [[context.partitionId()], [t.rows], [t.unknown], [t.dropped], [row], [value], [error]]
        types = [pa.int32(), pa.int64(), pa.int64(), pa.int64(), pa.int64(), pa.string(), pa.string()]
        yield pa.RecordBatch.from_arrays([pa.array(v, k) for v, k in zip(found, types)], names=names)

    schema = "part int, rows long, unknown long, dropped long, row long, value string, error string"
    found = sorted(frame.select(*columns).mapInArrow(count, schema).collect(), key=lambda r: r["part"])
    for r in found:
        if r["error"]:
            raise InvalidInputError(r["error"])
    return added(Tally(r["rows"], r["unknown"], r["dropped"], None if r["row"] < 0 else (r["row"], r["value"])) for r in found)


def _column_tallier(column: str, how: Tuple[OnUnknown, Nulls], spans: Optional[List[Tuple[int, int]]], by: Optional[str]) -> Any:
    """How a batch of ``column`` is counted (:func:`_summed`); an error names a
    row by its position, or by its key (``by``)."""

    def tally(design: Any, batch: Any, at: int) -> Tally:
        from pyspark import TaskContext

        values = batch.column(batch.schema.get_field_index(column))
        if by is not None:
            keys = batch.column(batch.schema.get_field_index(by)).to_pylist()
            return column_tally(design, values, column, how, lambda i: f"column {column!r} at key {keys[i]!r}")
        context = TaskContext.get()
        part = 0 if context is None else context.partitionId()
        start = at + (spans[part][0] if spans is not None and part < len(spans) else 0)
        return column_tally(design, values, column, how, lambda i: f"column {column!r} at row {start + i}")

    return tally


def _record_tallier(how: str, spans: List[Tuple[int, int]], key: Optional[str]) -> Any:
    """How a batch of a record design's columns is counted (:func:`_summed`)."""

    def tally(design: Any, batch: Any, at: int) -> Tally:
        from pyspark import TaskContext

        from ._record_design import record_tally

        values = {c: batch.column(batch.schema.get_field_index(c)) for c in design.columns}
        if key is None:
            context = TaskContext.get()
            part = 0 if context is None else context.partitionId()
            start = at + (spans[part][0] if part < len(spans) else 0)
            places = np.arange(batch.num_rows, dtype=np.uint64) + np.uint64(start)
        else:
            places = np.asarray(key_places(batch.column(batch.schema.get_field_index(key)), batch.num_rows), dtype=np.uint64)
        return record_tally(design, values, places, how)

    return tally


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
    """A Spark DataFrame with a privatised column in place of the raw one.

    Each row draws from the keyed stream of ``column`` at its position in partition
    order (a first pass counts each partition's rows), or at its user's ``key``.
    After a shuffle, call ``localCheckpoint()`` first or use ``key``.

    Parameters
    ----------
    frame : pyspark.sql.DataFrame
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
        raises now, not when the frame is collected.

    Returns
    -------
    pyspark.sql.DataFrame
        ``frame``'s other columns and the string column ``name``
        (``mapInArrow``); the raw column only with ``keep_raw``. With
        ``summary``, a tuple of it and its summary.
    """
    from pyspark.sql.types import StringType, StructField, StructType

    wanted = check_summary(summary)
    if type(design).__name__ == "RecordDesign":
        from ._record_design import check_record_frame

        check_record_frame(cast("RecordDesign", design), frame.columns, column, name, key=key)
        _, mapping = engine_labels(design, output_labels)
        how = check_on_unknown(on_unknown)
        kept_raw = check_keep_raw(keep_raw, design.columns)
        secret = shared_secret(seed)
        if key is not None:
            _refuse_repeated_keys(frame, key)
        # By key, the rows need not be counted per partition.
        record_spans = [] if key is not None else _spans(_partition_counts(frame, design.columns[0]))
        fields = [StructField(f"{c}_private", StringType(), nullable=True) for c in design.columns]
        run = _record_privatiser(design.to_json(), secret, record_spans, how, key, mapping, kept_raw)
        others = [f for f in frame.schema.fields if kept_raw or f.name not in design.columns]
        released = frame.mapInArrow(run, StructType([*others, *fields]))
        if not wanted:
            return released
        read = list(dict.fromkeys([*design.columns, *([key] if key is not None else [])]))
        tally = _summed(frame, read, _record_tallier(how, record_spans, key), design.to_json(), True)
        return released, summarised(tally, how, [(c, f"{c}_private") for c in design.columns], kept_raw)
    if column is None:
        raise InvalidInputError("invalid column = None: name the column to privatise (a record design names its own)")
    for field, value in (("column", column), ("key", key)):
        if value is not None and value not in frame.columns:
            raise InvalidInputError(f"invalid {field} = {value!r}: no such column (it has {frame.columns}); pass one of them")
    how = check_on_unknown(on_unknown)
    nulls = check_nulls(nulls, design)
    outputs, _ = engine_labels(design, output_labels)
    secret = shared_secret(seed)
    name = name or f"{column}_private"
    raw = raw_columns(column, name, keep_raw) or ([column] if name == column else [])  # name may take column's place
    if name in frame.columns and name not in raw:
        raise InvalidInputError(f"invalid name = {name!r}: the frame has that column already; pass another name")
    if key is not None:
        _refuse_repeated_keys(frame, key)
    spans = None if key is not None else _spans(_partition_counts(frame, column))
    others = [f for f in frame.schema.fields if f.name not in raw]
    schema = StructType([*others, StructField(name, StringType(), nullable=how != "error" or nulls == "drop")])
    released = frame.mapInArrow(_privatiser(design.to_json(), column, name, secret, spans, key, (how, nulls), outputs, raw), schema)
    if not wanted:
        return released
    read = list(dict.fromkeys([column, *([key] if key is not None else [])]))
    tally = _summed(frame, read, _column_tallier(column, (how, nulls), spans, key), design.to_json(), False)
    return released, summarised(tally, how, [(column, name)], bool(keep_raw))
