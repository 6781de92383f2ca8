"""Whole records (§12 of the theory page of the user guide): several correlated columns of a table
released under one guarantee about the whole record, as
``pml design --data F --column A --column B ...`` does.

Releasing each column with its own design at eps/k is not eps-PML about the record
when the columns are correlated (after seeing one output, the adversary's prior on
the next column is a conditional, not the marginal). ``design_record`` releases a
record three ways, each with a true guarantee: ``joint`` (one design over every
combination of the columns' labels), ``compose`` (one design per column over the
l1 ball that holds its conditional priors; the levels add up, thesis Theorem 5.24
(i)) and ``ldp`` (eps/k-LDP per column).
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Literal, Mapping, NamedTuple, Optional, Sequence, Tuple

import numpy as np

from . import _bins, _native, _reading, _report
from ._apply import check_on_unknown, draw, first_unknown, key_places, refuse, shared_secret
from ._public import PublicRecord, public_record_of
from ._codes import NULL, NULL_LABEL, UNKNOWN, Nulls, check_nulls_name, codes_of, kind, missing, refuse_floats
from ._design import Design, PmlTypeError, _number, _sequence, _vector
from ._native import InvalidInputError
from ._records import _CERTIFIED, Checked, Record
from ._tally import Tally, summarised
from .bounds import _whole

MODES = ("auto", "joint", "compose", "ldp")


class RecordDesign(Checked):
    """The release of a whole record and its guarantee.

    Returned by :func:`design_record`. Its attributes: ``mode`` (``joint``,
    ``compose`` or ``ldp``), ``columns``, ``epsilon`` (the total about the
    record), ``epsilons`` (one per column, or the one of joint), ``radii``
    (compose: each column's ball), ``cells`` and ``decoded`` (joint),
    ``leakage_about_record`` (re-measured on the record's channel at the joint
    estimate), ``utility`` (``measure`` and ``value``), ``naive`` (what per-column
    designs at eps/k leak about the record: not a guarantee), ``guarantee``
    (``statement``, ``check``, ``delta``) and ``designs``.
    ``RecordDesign(dict)`` reads the dict back and verifies it, as ``from_json``
    does.
    """

    @classmethod
    def _checked(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        try:
            text = json.dumps({"record": dict(data)})
        except (TypeError, ValueError, RecursionError) as e:
            raise InvalidInputError(f"invalid record design: not JSON data ({e}); pass the dict of RecordDesign.to_dict()") from None
        record: Dict[str, Any] = json.loads(_native.check_record(text))["record"]
        return record

    @property
    def labels(self) -> List[List[str]]:
        """Each column's labels, in the order of the joint cells (a copy of the
        labels alone, not of the whole design)."""
        return [list(l) for l in self._data["sample"]["labels"]]

    @property
    def designs(self) -> List[Design]:
        """One design per column, or the one of joint (read back by the library)."""
        return [Design(d, _CERTIFIED) for d in self._data["designs"]]

    # Takes no indent (unlike Record.to_json): the file is always written indented.
    def to_json(self) -> str:  # type: ignore[override]
        """The record design file, ``{"record": ...}``, as ``pml design`` writes it."""
        return json.dumps({"record": self._data}, indent=2)

    @classmethod
    def from_json(cls, text: str) -> "RecordDesign":
        """A record design from its file: every design re-certified and every figure
        of the record re-derived; an altered file raises VerificationError."""
        if not isinstance(text, (str, bytes, bytearray)):
            raise PmlTypeError(f"invalid text of type {type(text).__name__}: pass the str of RecordDesign.to_json()")
        text = text.decode() if isinstance(text, (bytes, bytearray)) else text
        return cls(json.loads(_native.check_record(text))["record"], _CERTIFIED)

    def public(self) -> "PublicRecord":
        """What the receivers of the release get, as ``pml publish`` writes it: for
        a ``compose`` or ``ldp`` record, one public part per column with the
        record's columns, mode, level and guarantee (:class:`PublicRecord`). A
        ``joint`` record raises PmlError: its alphabet is the sample's
        combinations, which the file would publish."""
        return public_record_of(self.to_json())

    def to_html(self, *, design_file: Optional[str] = None) -> str:
        """The self-contained HTML report of the record design, as ``pml design
        --column A --column B --report`` writes it: the guarantee about the whole
        record, each column's split of eps, the record's measured leakage, then each
        design. The library reads the design back and re-certifies it first."""
        return _native.record_report(self.to_json(), design_file)

    def report(self, path: Any, *, design_file: Optional[str] = None) -> str:
        """Writes ``to_html()`` to ``path`` (replaced atomically); returns the path."""
        return _report.write(path, self.to_html(design_file=design_file))

    def _repr_html_(self) -> str:
        """The report for Jupyter, in an iframe so that its stylesheet stays inside."""
        return _report.notebook(self.to_html())


def _frame_tuples(
    data: Any, columns: Sequence[str], nulls: Nulls = "error", bins: Optional[Mapping[str, List[float]]] = None
) -> Tuple[List[List[str]], np.ndarray]:
    """Each column's labels (first-seen order; a binned column's: its bins in numeric
    order) and the rows as label indices; a null is refused, leaves its row out
    (``drop``) or is the label ``<null>`` (``category``, after a column's bins), as
    ``pml design --nulls`` does."""
    bins = bins or {}
    if type(data).__name__ == "LazyFrame":
        data = data.select(list(columns)).collect()
    names = list(data.columns)
    values, masks = [], []
    for c in columns:
        if c not in names:
            raise InvalidInputError(f"invalid column = {c!r}: no such column (it has {names}); pass one of them")
        value, null = _column_values(data[c], c, bins.get(c))
        if null.any() and nulls == "error":
            raise InvalidInputError(
                f"invalid column {c!r}: {int(null.sum())} null value(s) of {len(null)} rows; "
                "pass nulls='drop' or nulls='category', or fill them first"
            )
        values.append(value)
        masks.append(null)
    keep = ~np.logical_or.reduce(masks) if (masks and nulls == "drop") else np.ones(len(data), dtype=bool)
    labels, codes = [], []
    for c, value in zip(columns, values):
        value = value[keep]
        if c in bins:
            cut, null = _bins.labels(bins[c]), value == NULL
            labels.append(cut + ([NULL_LABEL] if null.any() else []))
            codes.append(np.where(null, len(cut), value).astype(np.int64))
            continue
        first, index, inverse = np.unique(value, return_index=True, return_inverse=True)
        order = np.argsort(index)
        labels.append([str(v) for v in first[order]])
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        codes.append(rank[inverse.ravel()])
    return labels, np.stack(codes, axis=1) if codes else np.zeros((0, 0), dtype=np.int64)


def _column_values(s: Any, c: str, edges: Optional[List[float]]) -> Tuple[np.ndarray, np.ndarray]:
    """A column's values and its missing ones (nulls and blank text, as ``pml``
    reads a field): the text of each value (``<null>`` for a missing one), or with
    ``edges`` each value's bin (``NULL`` for a missing one; a value that is not a
    number within the edges is refused, naming its row)."""
    if edges is not None:
        found, describe = _bins.codes(s, edges)
        bad = np.flatnonzero(found == UNKNOWN)
        if bad.size:
            i = int(bad[0])
            raise InvalidInputError(
                f"invalid column {c!r} at row {i}: {describe(i)} is not a number within the edges {edges[0]} to {edges[-1]}; "
                "widen the edges (-inf may be the first and inf the last), or fix the value"
            )
        return found, found == NULL
    refuse_floats(s, c)
    null = missing(s)
    text = s.astype(str).to_numpy() if kind(s) == "pandas" else np.asarray(s.cast(str).to_list(), dtype=object)
    return np.where(null, NULL_LABEL, text).astype(object), null


def _mapping_tuples(data: Mapping[Any, Any], columns: Sequence[str]) -> Tuple[List[List[str]], np.ndarray, np.ndarray]:
    """Each column's labels (first-seen order over the keys) and the counted tuples."""
    labels: List[Dict[str, int]] = [{} for _ in columns]
    rows, counts = [], []
    for key, count in data.items():
        values = tuple(key) if isinstance(key, (tuple, list)) else (key,)
        if len(values) != len(columns):
            raise InvalidInputError(f"invalid key = {key!r}: one value per column ({len(columns)} columns)")
        if not (isinstance(count, (int, np.integer)) and not isinstance(count, bool) and count >= 0):
            raise InvalidInputError(f"invalid count = {count!r} for {key!r}: counts are whole numbers >= 0")
        if count:
            rows.append([labels[j].setdefault(str(v), len(labels[j])) for j, v in enumerate(values)])
            counts.append(int(count))
    return [list(l) for l in labels], np.array(rows, dtype=np.int64), np.array(counts, dtype=np.int64)


def design_record(
    data: Any,
    columns: Sequence[str],
    epsilon: float,
    *,
    delta: Optional[float] = None,
    mode: Literal["auto", "joint", "compose", "ldp"] = "auto",
    utility: Literal["mi"] = "mi",
    split: Optional[Sequence[float]] = None,
    max_cells: int = 1024,
    time_limit: Optional[float] = None,
    gap: float = 1e-9,
    nulls: Nulls = "error",
    bins: Optional[Mapping[str, Any]] = None,
) -> RecordDesign:
    """The release of the records of ``columns`` under one guarantee about the whole record.

    As ``pml design --data F --column A --column B ...`` (§12 of the theory page of
    the user guide). Records maximise mutual information.

    Parameters
    ----------
    data : DataFrame, LazyFrame or mapping
        A pandas or polars DataFrame (or LazyFrame), or a mapping from value
        tuples (one value per column) to counts.
    columns : sequence of str
        The record's columns.
    epsilon : float
        The level about the whole record.
    delta : float, optional
        The guarantee is then for the true distribution, except with probability
        delta over the sample.
    mode : {"auto", "joint", "compose", "ldp"}, default "auto"
        ``joint`` (one design over every combination), ``compose`` (one design per
        column, the levels add up), ``ldp`` (eps/k-LDP per column), or ``auto``:
        the better of joint and compose when the labels have at most 32
        combinations, every one observed or ``delta`` given, else compose.
    utility : {"mi"}, default "mi"
        Mutual information (the only one for records).
    split : sequence of float, optional
        Each column's level under ``compose`` (summing to eps); searched otherwise.
    max_cells : int, default 1024
        The most combinations ``joint`` designs over.
    time_limit : float, optional
        Seconds for each of its designs.
    gap : float, default 1e-9
        As in :func:`design`.
    nulls : {"error", "drop", "category"}, default "error"
        What a null in a DataFrame does: refused, its row left out (and
        :func:`apply_record` writes such rows with every private value null), or
        counted and privatised as the label ``<null>`` of its column. Recorded in
        the design, so that :func:`apply_record` reads rows alike.
    bins : mapping of str to sequence of float, optional
        Public edges of numeric columns, ``{"mass": [0, 10, 20, float("inf")]}``, as
        ``pml design --bins mass=0,10,20,inf``: each such column's values are cut
        into bins, its labels the intervals in numeric order. Recorded in the
        design, so that :func:`apply_record` cuts the columns alike.

    Returns
    -------
    RecordDesign
        The release and its guarantee.

    Raises
    ------
    PmlError
        On bad input, naming the field and the fix.
    """
    if mode not in MODES:
        raise InvalidInputError(f"invalid mode = {mode!r}: use one of {', '.join(MODES)}")
    if utility != "mi":
        raise InvalidInputError(f"invalid utility = {utility!r}: a record design maximises mutual information; pass utility='mi'")
    nulls = check_nulls_name(nulls)
    columns = [str(c) for c in _sequence("columns", columns)] if not isinstance(columns, str) else [columns]
    edges = record_edges(bins, columns)
    if isinstance(data, Mapping):
        if edges:
            raise InvalidInputError("invalid bins with a mapping of counts: its values are counted already; pass the DataFrame, or count the bins' labels")
        labels, rows, counts = _mapping_tuples(data, columns)
    elif kind(data) == "plain" and type(data).__name__ in ("DataFrame", "LazyFrame"):
        labels, codes = _frame_tuples(data, columns, nulls, edges)
        rows, counts = np.unique(codes, axis=0, return_counts=True) if len(codes) else (codes, np.zeros(0, np.int64))
    else:
        raise InvalidInputError(f"invalid data of type {type(data).__name__}: pass a pandas or polars DataFrame, or a mapping from value tuples to counts")
    tuples = [(r.tolist(), int(c)) for r, c in zip(rows, counts)]
    text = _native.design_record(
        columns, labels, tuples, _number("epsilon", epsilon), delta=None if delta is None else _number("delta", delta), mode=mode,
        split=None if split is None else _vector("split", split).tolist(), max_cells=_whole("max_cells", max_cells, 1),
        time_limit=None if time_limit is None else _number("time_limit", time_limit), gap=_number("gap", gap),
    )
    record = json.loads(text)["record"]
    reading = [edges.get(c) for c in columns]
    for i, d in enumerate(record["designs"]):
        more = _reading.kept("record", columns, nulls, reading, i, record["mode"])
        d["provenance"]["settings"] = _reading.keep(d["provenance"]["settings"], more)
    return RecordDesign(record, _CERTIFIED)


def record_edges(bins: Optional[Mapping[str, Any]], columns: Sequence[str]) -> Dict[str, List[float]]:
    """The edges of ``bins={column: edges}``, checked: each names a column of the record."""
    if bins is None:
        return {}
    if not isinstance(bins, Mapping):
        raise InvalidInputError(f"invalid bins = {bins!r}: with a record, name each column's edges, e.g. bins={{'mass': [0, 10, float('inf')]}}")
    for c in bins:
        if c not in columns:
            raise InvalidInputError(f"invalid bins = {{{c!r}: ...}}: {c!r} is not one of the record's columns {list(columns)}; name one of them")
    return {str(c): _bins.edges_of(e, f"bins[{c!r}]") for c, e in bins.items()}


def _recorded(design: RecordDesign) -> Tuple[Nulls, List[Optional[List[float]]]]:
    """How the record's data were read, as its designs recorded it (checked)."""
    parts = [_reading.settings_of(d) for d in design._full()["designs"]]
    return _reading.recorded("record", design.columns, design.labels, parts, design.mode)


def recorded_bins(design: RecordDesign) -> Dict[str, List[float]]:
    """The edges the record design recorded for each binned column, checked against
    the column's labels (a stored design is untrusted)."""
    return {c: e for c, e in zip(design.columns, _recorded(design)[1]) if e is not None}


def recorded_nulls(design: RecordDesign) -> Nulls:
    """What the record design recorded for nulls (``pml design --nulls``), else
    ``error``; its designs must agree."""
    return _recorded(design)[0]


def check_record_frame(design: RecordDesign, names: Sequence[str], *given: Any, key: Optional[str] = None) -> None:
    """A record design names its columns: none of ``given`` (column, name) is
    passed, and the frame (column ``names``) has every column of the record, and
    the ``key`` column if one is named."""
    if any(g is not None for g in given):
        raise InvalidInputError("invalid column/name with a record design: it names its columns and writes {column}_private for each")
    if key is not None and key not in names:
        raise InvalidInputError(f"invalid key = {key!r}: no such column (it has {list(names)}); pass one of them")
    for c in design.columns:
        if c not in names:
            raise InvalidInputError(f"invalid column = {c!r}: the record design names it but the frame has no such column (it has {list(names)})")


def apply_record(
    design: RecordDesign,
    frame: Any,
    *,
    seed: Any = None,
    offset: int = 0,
    on_unknown: str = "error",
    replace: bool = False,
    nulls: Optional[Nulls] = None,
    key: Any = None,
    bins: Optional[Mapping[str, Any]] = None,
    output_labels: Optional[Mapping[str, Sequence[Any]]] = None,
    keep_raw: bool = False,
    summary: bool = False,
) -> Any:
    """``frame`` (a pandas or polars DataFrame) with ``{column}_private`` for each
    column of the record design in place of the raw columns (which ``keep_raw``
    keeps beside them), as ``pml apply --mechanism RECORD.json`` writes:
    compose and ldp draw each column from its own stream, joint one draw a row over
    the combinations, written back as the decoded values. Row ``offset + k`` draws
    from its own place of the streams. A row with a value outside its column's
    labels follows ``on_unknown`` (kept with every private value missing). With
    ``replace``, the private values take the raw columns' places and names (as
    ``pml apply --replace``): the result holds no raw value of the record. A null
    follows ``nulls`` (default: what the design recorded): ``category`` privatises
    it as its column's ``<null>``, ``drop`` writes the row with every private value
    null. With ``key`` (a column name of ``frame``, or one key per row), each row
    draws from the place of the streams its user's key gives (as ``pml apply
    --key``): reordered or split rows release the same values; a repeated key is
    refused (the rows' draws would be coupled). A binned column
    (``design_record(..., bins=)``) is cut at ``bins={column: edges}``, by default
    the edges the design recorded, as ``pml apply`` cuts it. ``output_labels``
    (a mapping of column to names) renames the values a private column takes,
    as ``pml apply --output-labels COLUMN=NAMES``: one name per output of the
    column's design (compose, ldp) or per label of the column (joint). With
    ``summary``, the frame and its :class:`ApplySummary`."""
    how = check_on_unknown(on_unknown)
    names = private_names(design, output_labels)
    rule = recorded_nulls(design) if nulls is None else check_nulls_name(nulls)
    edges = recorded_bins(design) if bins is None else given_bins(design, bins)
    secret = shared_secret(seed)
    if not hasattr(frame, "columns"):
        raise InvalidInputError(f"invalid values of type {type(frame).__name__}: a record design privatises a pandas or polars DataFrame")
    check_record_frame(design, list(frame.columns))
    if key is None:
        places = np.arange(len(frame), dtype=np.uint64) + np.uint64(offset)
    else:
        keys = frame[key] if isinstance(key, str) else key
        places = np.asarray(key_places(keys, len(frame)), dtype=np.uint64)
    coded = record_codes(design, {c: frame[c] for c in design.columns}, secret, places, (how, rule), edges)
    done = attached(frame, design, coded.outs, coded.missing, how, names)
    out = released(done, design.columns, replace=replace, keep_raw=keep_raw)
    if not summary:
        return out
    written = [(c, c if replace else f"{c}_private") for c in design.columns]
    return out, summarised(Tally.of(coded.missing, coded.dropped, coded.first), how, written, keep_raw)


def released(done: Any, raw: Sequence[str], *, replace: bool = False, keep_raw: bool = False) -> Any:
    """A pandas or polars frame with ``{column}_private`` beside each raw column of
    ``raw``, as released: the raw columns dropped (the default), the private
    values in their places and names (``replace``), or both kept (``keep_raw``)."""
    if keep_raw:
        return done
    private = [f"{c}_private" for c in raw]
    if type(done).__module__.startswith("polars"):
        import polars as pl

        if replace:
            return done.with_columns([pl.col(p).alias(c) for p, c in zip(private, raw)]).drop(private)
        return done.drop(list(raw))
    if replace:
        for p, c in zip(private, raw):
            done[c] = done.pop(p)
        return done
    return done.drop(columns=list(raw))


def given_bins(design: RecordDesign, bins: Mapping[str, Any]) -> Dict[str, List[float]]:
    """``apply_record(..., bins=)``: each column's edges, whose bins must be its labels."""
    edges = record_edges(bins, design.columns)
    for c, e in edges.items():
        labels = design.labels[design.columns.index(c)]
        if not _bins.names(e, labels):
            raise InvalidInputError(f"invalid bins[{c!r}] = {e}: its bins are not the labels of column {c!r} {labels}; pass the edges the design was counted with")
    return edges


def record_codes(
    design: RecordDesign,
    values: Dict[str, Any],
    secret: str,
    places: np.ndarray,
    how: Tuple[str, Nulls],
    bins: Optional[Dict[str, List[float]]] = None,
) -> "RecordCodes":
    """Each column's private values as codes into :func:`private_names` (-1 where
    missing), row k drawn at ``places[k]``, with the rows :func:`record_classes`
    finds unknown and dropped, and the first unknown value."""
    classes = record_classes(design, values, places, how, bins)
    coded, missing, labels = classes.coded, classes.missing, design.labels
    if design.mode == "joint":
        cell = np.zeros(len(places), dtype=np.int64)
        for codes, l in zip(coded, labels):
            cell = cell * len(l) + np.maximum(codes, 0)
        cell[missing] = -1
        out = draw(design.designs[0].mechanism, cell, "|".join(design.columns), secret, places=places)
        tables = [np.array([l.index(t[j]) for t in design.decoded] + [-1], dtype=np.int64) for j, l in enumerate(labels)]
        outs = [table[out] for table in tables]
    else:
        outs = []
        for d, c, codes in zip(design.designs, design.columns, coded):
            outs.append(draw(d.mechanism, np.where(missing, -1, codes), c, secret, places=places))
    for o in outs:
        o[missing] = -1
    # Dropped rows are written, not skipped: only unknown values follow on_unknown.
    return RecordCodes(outs, missing & ~classes.dropped, classes.dropped, classes.tally.first)


def record_classes(
    design: RecordDesign,
    values: Dict[str, Any],
    places: np.ndarray,
    how: Tuple[str, Nulls],
    bins: Optional[Dict[str, List[float]]] = None,
) -> "RecordClasses":
    """Each column's input codes (negative outside its labels), the rows written
    missing for a null, the rows missing a private value, and their tally (nothing
    drawn). ``how`` is ``(on_unknown, nulls)``: under ``category`` a null is its
    column's ``<null>``, under ``drop`` its row is written missing (and kept,
    whatever ``on_unknown`` says), under ``error`` an unknown value is refused,
    row k named by ``places[k]``. A column of ``bins`` (by default the edges the
    design recorded) is cut into its bins first."""
    on_unknown, nulls = how
    edges = recorded_bins(design) if bins is None else bins
    coded, described = [], []
    dropped = np.zeros(len(places), dtype=bool)
    for c, l in zip(design.columns, design.labels):
        # A bin's index is its label's: a binned column's labels are its bins, then <null>.
        codes, describe = _bins.codes(values[c], edges[c]) if c in edges else codes_of(values[c], l)
        if nulls == "category" and NULL_LABEL in l:
            codes = np.where(codes == NULL, l.index(NULL_LABEL), codes)
        elif nulls == "drop":
            dropped |= codes == NULL
        coded.append(codes)
        described.append(describe)
    for c, l, codes, describe in zip(design.columns, design.labels, coded, described):
        if on_unknown == "error" and ((codes < 0) & ~dropped).any():
            at = lambda i: f"column {c!r} at row {int(places[i])}"  # noqa: E731
            refuse(np.where(dropped, 0, codes), describe, at, l)
    missing = dropped.copy()
    for codes in coded:
        missing |= codes < 0
    unknown = missing & ~dropped
    first = first_unknown(unknown, list(zip(coded, [values[c] for c in design.columns])))
    return RecordClasses(coded, dropped, missing, Tally.of(unknown, dropped, first))


def record_tally(design: RecordDesign, values: Dict[str, Any], places: np.ndarray, on_unknown: str) -> Tally:
    """The summary's counts over a part of a record (nothing drawn), under the
    nulls the design recorded, as the engines release it (:func:`record_classes`)."""
    return record_classes(design, values, places, (on_unknown, recorded_nulls(design))).tally


class RecordClasses(NamedTuple):
    """What :func:`record_classes` gives."""

    coded: List[np.ndarray]
    dropped: np.ndarray
    missing: np.ndarray
    tally: Tally


class RecordCodes(NamedTuple):
    """What :func:`record_codes` gives: the private codes of each column, the rows
    with a value outside its column's labels, the rows written missing for a null
    (``nulls="drop"``), and the first unknown value with its row (the first
    column's where several are)."""

    outs: List[np.ndarray]
    missing: np.ndarray
    dropped: np.ndarray
    first: Optional[Tuple[int, str]]


def private_names(design: RecordDesign, output_labels: Optional[Mapping[str, Sequence[Any]]] = None) -> List[List[str]]:
    """The values each private column takes: the design's outputs, or for joint the
    column's labels (the decoded combinations); renamed where ``output_labels``
    (column to names) says, one distinct name per value."""
    from ._apply import named_outputs

    names = [list(n) for n in design.labels] if design.mode == "joint" else [list(d.outputs) for d in design.designs]
    if output_labels is None:
        return names
    if not isinstance(output_labels, Mapping):
        raise InvalidInputError(
            f"invalid output_labels of type {type(output_labels).__name__}: a record design takes a mapping "
            "of column to names, e.g. {column: [name, ...]}"
        )
    for c, given in output_labels.items():
        if c not in design.columns:
            raise InvalidInputError(f"invalid output_labels[{c!r}]: not a column of the record design; name one of {design.columns}")
        j = design.columns.index(c)
        what = f"one per value column {c!r} takes ({names[j][:5]}{'...' if len(names[j]) > 5 else ''})"
        names[j] = named_outputs(given, len(names[j]), f"output_labels[{c!r}]", what) or names[j]
    return names


def attached(frame: Any, design: RecordDesign, outs: List[np.ndarray], missing: np.ndarray, how: str, names: List[List[str]]) -> Any:
    """The frame with the private columns, categorical over their values ``names``
    (every one missing on a row with an unknown value; such rows dropped with
    ``skip``)."""
    columns = [f"{c}_private" for c in design.columns]
    if type(frame).__module__.startswith("polars"):
        import polars as pl

        series = [
            pl.Series(c, o).replace_strict(list(range(len(n))), n, default=None, return_dtype=pl.Enum(n))
            for c, o, n in zip(columns, outs, names)
        ]
        done = frame.with_columns(series)
        return done.filter(pl.Series(~missing)) if how == "skip" else done
    import pandas as pd

    out = frame.copy()
    for c, o, n in zip(columns, outs, names):
        out[c] = pd.Categorical.from_codes(o, categories=n)
    return out[~missing] if how == "skip" else out
