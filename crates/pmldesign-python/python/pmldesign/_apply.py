"""Privatising a column: ``apply``. Row ``offset + k`` of the column named
``column`` draws from its own place of one keyed stream (ChaCha20, §11 of the theory page
of the user guide), so any split of a column gives the whole, and ``pml apply`` the same rows.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, Callable, List, Literal, Mapping, NoReturn, Optional, Sequence, Tuple, Union, cast, overload

import numpy as np

from . import _native, _reading
from ._codes import NULL, NULL_LABEL, UNKNOWN, Coded, Nulls, check_nulls_name, codes_of, kind, refuse_floats, secret_of
from ._design import ArrayLike, Design, PmlTypeError, _labels, _matrix, _sequence
from ._native import InvalidInputError
from ._public import PublicDesign
from ._records import ApplySummary
from ._tally import Tally, summarised

if TYPE_CHECKING:  # the engines are optional: only their types are named here
    import pandas
    import polars
    import pyarrow

    from ._record_design import RecordDesign

MechanismLike = Union[Design, ArrayLike]
Seed = Union[None, int, str, bytes]

#: The stream name of values that carry no name of their own (a list, a numpy
#: array, a pyarrow array): ``pml apply --column value`` draws the same.
DEFAULT_COLUMN = "value"

#: What a value outside the labels (or a null) does, as ``pml apply --on-unknown``:
#: ``error`` (the default) refuses the column naming the row, ``skip`` leaves the
#: row out, ``keep`` keeps it with a missing output (null; ``""`` in a numpy array).
ON_UNKNOWN = ("error", "skip", "keep")
OnUnknown = Literal["error", "skip", "keep"]


def row_labels(labels: Optional[Sequence[Any]], own: Optional[List[str]], n: int) -> List[str]:
    """The labels of the mechanism's rows: a design's own (``labels`` may only
    repeat them: a certified design is never re-keyed), else ``labels``, else
    x1..xN."""
    given = _labels(labels)
    if own is not None:
        if given is not None and given != own:
            raise InvalidInputError(
                f"invalid labels = {given}: the design's rows are certified for its labels {own}; "
                "a design's rows cannot be re-keyed: leave labels out and map the values to the design's labels"
            )
        return own
    if given is not None and len(given) != n:
        raise InvalidInputError(f"invalid labels = {len(given)} names: the mechanism has {n} rows; give one label per row")
    return given or [f"x{i}" for i in range(1, n + 1)]


def named_outputs(
    names: Optional[Sequence[Any]], m: int, field: str = "output_labels", what: str = "one per output of the mechanism"
) -> Optional[List[str]]:
    """``output_labels`` checked: one distinct, non-empty name per output."""
    if names is None:
        return None
    given = [str(n) for n in _sequence(field, names)]
    if not _native.names_fit(given, m):
        raise InvalidInputError(
            f"invalid {field} = {given[:5]}{'...' if len(given) > 5 else ''}: give {m} distinct, "
            f"non-empty names, {what}"
        )
    return given


#: ``output_labels`` as the engines take it: one name per output of a design, or
#: for a record design a mapping from its columns to their names.
OutputLabels = Union[Sequence[Any], Mapping[str, Sequence[Any]], None]


def engine_labels(
    design: Union[Design, "RecordDesign"], output_labels: OutputLabels
) -> Tuple[Optional[List[str]], Optional[Mapping[str, Sequence[Any]]]]:
    """``output_labels`` checked on the driver, as :func:`apply` checks them: the
    names of a design's outputs, or a record design's mapping (either None)."""
    if output_labels is None:
        return None, None
    if type(design).__name__ == "RecordDesign":
        from ._record_design import private_names

        record = cast("RecordDesign", design)
        mapping = cast("Mapping[str, Sequence[Any]]", output_labels)
        private_names(record, mapping)  # refuses a bad mapping, naming it
        return None, {str(c): [str(n) for n in names] for c, names in mapping.items()}
    return design_outputs(output_labels, len(cast(Design, design).outputs)), None


def design_outputs(output_labels: OutputLabels, m: int) -> Optional[List[str]]:
    """``output_labels`` for a design (not a record) of ``m`` outputs, checked."""
    if isinstance(output_labels, Mapping):
        raise InvalidInputError("invalid output_labels: a mapping names a record design's columns; give one name per output of this design")
    return named_outputs(output_labels, m)


def check_codes(codes: Any) -> bool:
    """``codes`` is True or False."""
    if not isinstance(codes, (bool, np.bool_)):
        raise InvalidInputError(f"invalid codes = {codes!r}: pass True (integers are row indices) or False (values are labels)")
    return bool(codes)


def mechanism_of(
    value: Union[MechanismLike, PublicDesign],
) -> Tuple[np.ndarray, Optional[List[str]], Optional[List[str]], Optional[List[float]]]:
    """The matrix, labels, outputs and prior of a Design (a PublicDesign has no
    prior), or a bare matrix's."""
    if isinstance(value, PublicDesign):
        return value.mechanism, value.labels, value.outputs, None
    if isinstance(value, Design):
        d = value.to_dict()
        return value.mechanism, d["labels"], d["outputs"], d.get("prior")
    return _matrix("mechanism", value), None, None, None


def shared_secret(seed: Any) -> str:
    """The key of a whole frame whose parts draw separately (engines, records): the
    seed's, or a fresh 256-bit key from the operating system, drawn once here."""
    import secrets

    return secret_of(seed) or str(secrets.randbits(256))


def check_nulls(nulls: Any, design: Any = None) -> Nulls:
    """``nulls`` checked, or (``None``) what ``design`` recorded at design time
    (``provenance.settings.nulls``, as ``pml design --nulls`` writes it), else ``error``."""
    if nulls is not None:
        return check_nulls_name(nulls)
    if isinstance(design, Design):
        return _reading.of_design(design)[0]
    if isinstance(design, PublicDesign):
        return _reading.recorded("public", [], [design.labels], [design.settings])[0]
    return "error"


def check_on_unknown(on_unknown: Any) -> OnUnknown:
    if on_unknown not in ON_UNKNOWN:
        raise InvalidInputError(f"invalid on_unknown = {on_unknown!r}: use 'error', 'skip' or 'keep'")
    return cast(OnUnknown, str(on_unknown))


def key_places(key: Any, rows: int, *, once: bool = True) -> np.ndarray:
    """The stream place of each row's user key (``pml apply --key``). Two rows at
    one place would draw the same uniform, which couples their outputs: with
    ``once``, a repeated key (or two keys at one place) is refused, naming them."""
    keys = key.tolist() if hasattr(key, "tolist") else _sequence("key", key)
    if len(keys) != rows:
        raise InvalidInputError(f"invalid key = {len(keys)} entries: one key per value ({rows}); pass the key column of the same rows")
    if any(k is None or (isinstance(k, float) and k != k) or k == "" for k in keys):
        raise InvalidInputError("invalid key: a null or empty key; every row needs its user's key")
    texts = [str(k) for k in keys]
    places = _native.key_positions(texts)
    if once:
        order = np.argsort(places, kind="stable")
        same = np.flatnonzero(places[order][1:] == places[order][:-1])
        if same.size:
            i, j = int(order[same[0]]), int(order[same[0] + 1])
            refuse_repeated_key(texts[i], texts[j], f"on rows {i} and {j}")
    return places


def refuse_repeated_key(first: Any, second: Any, where: str) -> NoReturn:
    """The error of two rows at one place of the keyed stream (their draws would
    be coupled): one key on two rows, or two keys at one place; ``where`` names
    the rows."""
    first, second = str(first), str(second)
    if first == second:
        raise InvalidInputError(
            f"invalid key: the key {first!r} is {where}; each key draws once, so one key per row: "
            "release one record per user (a record design), or draw by position (no key)"
        )
    raise InvalidInputError(
        f"invalid key: the keys {first!r} and {second!r} ({where}) draw from the same place of the stream, "
        "which would couple their rows; give one of them another key, or draw by position (no key)"
    )


def check_keep_raw(keep_raw: Any, raw: Sequence[str], *, replace: bool = False, stacklevel: int = 3) -> bool:
    """``keep_raw`` checked: a bool, never with ``replace``; True warns that the
    output still holds the raw private columns ``raw`` (at the caller's caller)."""
    if not isinstance(keep_raw, (bool, np.bool_)):
        raise InvalidInputError(f"invalid keep_raw = {keep_raw!r}: pass True (the output also holds the raw column) or False")
    if keep_raw and replace:
        raise InvalidInputError("invalid keep_raw=True with replace=True: replace puts the private values in the raw columns' places; pass one of them")
    if keep_raw:
        warnings.warn(
            f"keep_raw=True: the output still holds the raw private column(s) {list(raw)}; it must not be "
            "released: drop them first, or leave keep_raw out",
            UserWarning,
            stacklevel=stacklevel,
        )
    return bool(keep_raw)


def raw_columns(column: str, name: str, keep_raw: Any) -> List[str]:
    """``keep_raw`` checked for an engine's privatise, and the raw column it drops
    beside the private column ``name`` (none with ``keep_raw``, or when ``name``
    takes its place)."""
    if keep_raw is True and name == column:
        raise InvalidInputError(f"invalid keep_raw=True with name = {name!r}: the private column takes the raw column's name; pass another name, or leave keep_raw out")
    return [] if check_keep_raw(keep_raw, [column], stacklevel=4) or name == column else [column]


def draw(
    matrix: np.ndarray,
    codes: np.ndarray,
    column: str,
    secret: Optional[str],
    *,
    offset: int = 0,
    places: Optional[np.ndarray] = None,
) -> np.ndarray:
    """Output codes (int64, -1 where ``codes`` is negative) of rows ``offset + k``,
    or of the stream places ``places``: the one call into the native stream."""
    ok = codes >= 0
    if ok.all():
        return _native.apply_codes(matrix, codes.astype(np.uint32), column, offset, secret, places).astype(np.int64)
    out = np.full(len(codes), -1, dtype=np.int64)
    if ok.any():
        where = (np.flatnonzero(ok).astype(np.uint64) + np.uint64(offset)) if places is None else places[ok]
        out[ok] = _native.apply_codes(matrix, codes[ok].astype(np.uint32), column, 0, secret, where)
    return out


def refuse(codes: np.ndarray, describe: Callable[[int], str], field: Callable[[int], str], labels: List[str]) -> None:
    """The error of ``on_unknown='error'`` for the first row that has no label;
    ``field(i)`` names row i (``values[i]``, ``column 'city' at row i``)."""
    i = int(np.flatnonzero(codes < 0)[0])
    what = "a null" if codes[i] == NULL else f"{describe(i)}, not one of the mechanism's labels"
    raise InvalidInputError(f"invalid {field(i)}: {what}; map it to one of {labels} first, or pass on_unknown='skip' or 'keep'")


def field_of(column: Optional[str]) -> Callable[[int], str]:
    """How an error names row i of a column (``None``: values without a name)."""
    return (lambda i: f"values[{i}]") if column is None else (lambda i: f"column {column!r} at row {i}")


def _offset(offset: Any) -> int:
    if not (isinstance(offset, (int, np.integer)) and not isinstance(offset, bool) and 0 <= offset < 2**63):
        raise InvalidInputError(f"invalid offset = {offset!r}: the position of the first value, a whole number >= 0")
    return int(offset)


def _column(column: Any) -> Optional[str]:
    """``column`` checked: the stream's name, a string (or None)."""
    if column is not None and not isinstance(column, str):
        raise PmlTypeError(f"invalid column = {column!r}: not a string; pass the stream's name, e.g. column='city'")
    return column


def _own_name(values: Any) -> Optional[str]:
    """The name of a pandas or polars Series, if it has one."""
    name = getattr(values, "name", None) if kind(values) in ("pandas", "polars") else None
    return None if name is None or name == "" else str(name)


# The summary's tuple first, then a record design (its own type), then the typed
# engines: pandas and pyarrow are Any to a checker without their stubs (they ship
# none), and an overload taking Any hides every one after it.
@overload
def apply(
    design_or_matrix: Union[MechanismLike, "RecordDesign"], values: Any, *,
    labels: Optional[Sequence[Any]] = ..., seed: Seed = ..., offset: int = ..., column: Optional[str] = ...,
    key: Any = ..., on_unknown: OnUnknown = ..., codes: bool = ..., nulls: Optional[Nulls] = ..., bins: Any = ...,
    output_labels: Union[Sequence[Any], Mapping[str, Sequence[Any]], None] = ..., replace: bool = ...,
    keep_raw: bool = ..., summary: Literal[True],
) -> Tuple[Any, ApplySummary]: ...
@overload
def apply(
    design_or_matrix: "RecordDesign", values: Any, *,
    seed: Seed = ..., offset: int = ..., on_unknown: OnUnknown = ..., replace: bool = ...,
    output_labels: Optional[Mapping[str, Sequence[Any]]] = ..., key: Any = ..., keep_raw: bool = ...,
    summary: Literal[False] = ...,
) -> Any: ...
@overload
def apply(
    design_or_matrix: MechanismLike, values: "polars.Series", *,
    labels: Optional[Sequence[Any]] = ..., seed: Seed = ..., offset: int = ..., column: Optional[str] = ...,
    key: Any = ..., on_unknown: OnUnknown = ..., codes: bool = ..., nulls: Optional[Nulls] = ..., bins: Any = ...,
    output_labels: Optional[Sequence[Any]] = ..., replace: bool = ..., summary: Literal[False] = ...,
) -> "polars.Series": ...
@overload
def apply(
    design_or_matrix: MechanismLike, values: Union[np.ndarray, Sequence[Any]], *,
    labels: Optional[Sequence[Any]] = ..., seed: Seed = ..., offset: int = ..., column: Optional[str] = ...,
    key: Any = ..., on_unknown: OnUnknown = ..., codes: bool = ..., nulls: Optional[Nulls] = ..., bins: Any = ...,
    output_labels: Optional[Sequence[Any]] = ..., replace: bool = ..., summary: Literal[False] = ...,
) -> np.ndarray: ...
@overload
def apply(
    design_or_matrix: MechanismLike, values: "pandas.Series", *,
    labels: Optional[Sequence[Any]] = ..., seed: Seed = ..., offset: int = ..., column: Optional[str] = ...,
    key: Any = ..., on_unknown: OnUnknown = ..., codes: bool = ..., nulls: Optional[Nulls] = ..., bins: Any = ...,
    output_labels: Optional[Sequence[Any]] = ..., replace: bool = ..., summary: Literal[False] = ...,
) -> "pandas.Series": ...
# Without stubs for either, pandas.Series is Any and hides this one (checkers with
# the stubs do match it, hence unused-ignore).
@overload
def apply(  # type: ignore[overload-cannot-match, unused-ignore]
    design_or_matrix: MechanismLike, values: "Union[pyarrow.Array, pyarrow.ChunkedArray]", *,
    labels: Optional[Sequence[Any]] = ..., seed: Seed = ..., offset: int = ..., column: Optional[str] = ...,
    key: Any = ..., on_unknown: OnUnknown = ..., codes: bool = ..., nulls: Optional[Nulls] = ..., bins: Any = ...,
    output_labels: Optional[Sequence[Any]] = ..., replace: bool = ..., summary: Literal[False] = ...,
) -> "pyarrow.DictionaryArray": ...
def apply(
    design_or_matrix: Union[MechanismLike, "RecordDesign"],
    values: Any,
    *,
    labels: Optional[Sequence[Any]] = None,
    seed: Seed = None,
    offset: int = 0,
    column: Optional[str] = None,
    key: Any = None,
    on_unknown: OnUnknown = "error",
    codes: bool = False,
    nulls: Optional[Nulls] = None,
    bins: Any = None,
    output_labels: Union[Sequence[Any], Mapping[str, Sequence[Any]], None] = None,
    replace: bool = False,
    keep_raw: bool = False,
    summary: bool = False,
) -> Any:
    """Privatises ``values``: each input x becomes an output y drawn from row ``W[x, :]``.

    Each value is matched to a label by value (the integer 3 is the label ``"3"``,
    as ``pml apply`` reads it from a CSV file). Row ``offset + k`` of the column
    named ``column`` draws from its own place of one keyed stream (ChaCha20), so
    privatising any split of a column part by part, each with its offset, gives
    the whole, and the same rows give what ``pml apply --column COLUMN --seed SEED``
    writes. A bare matrix carries no guarantee: a warning says so.

    Parameters
    ----------
    design_or_matrix : Design, RecordDesign or array_like
        The certified design (or a bare N x M matrix, rows are inputs).
    values : list, numpy array, pandas or polars Series, pyarrow Array
        The input labels, one per row; with a :class:`RecordDesign`, a pandas or
        polars DataFrame holding the record's columns.
    labels : sequence, optional
        Names of a bare matrix's rows (default ``x1..xN``); with a :class:`Design`,
        must equal ``design.labels``.
    seed : int, str or bytes, optional
        The secret key: a whole number below 2^256 (or a 0x-hex string, or 32
        bytes). Whoever knows it can undo most of the noise; a seed under 64 bits
        warns. Without one the key comes from the operating system.
    offset : int, default 0
        The position of the first value in the whole column.
    column : str, optional
        The stream's name (default the Series' name, else ``"value"``).
    key : sequence or str, optional
        One user key per value: a row draws from the place its key gives instead
        of its position, so shuffled rows draw the same (``offset`` is unused).
        With a :class:`RecordDesign`, also the name of the frame's key column.
        Each key draws once: a repeated key (or two keys at one place of the
        stream) is refused, naming them, since the rows' draws would be coupled.
    on_unknown : {"error", "skip", "keep"}, default "error"
        A null or a value outside the labels: an error naming the row, left out
        (``skip``; it keeps its place in the stream), or a missing output
        (``keep``), as ``pml apply --on-unknown``.
    codes : bool, default False
        Read integers as row indices 0..N-1 instead of labels.
    nulls : {"error", "drop", "category"}, optional
        What a null (``None``, ``NaN``, ``pd.NA``) does: an error, a missing output
        (``drop``: whether a value is missing is released as is) or the design's
        ``<null>`` input (``category``). By default what the design recorded.
    bins : sequence of float, optional
        Public edges cutting a numeric column into the bins the labels name, as
        ``count(..., bins=)`` counted it; by default the edges the design recorded.
        With a :class:`RecordDesign`, a mapping of column to edges, as
        ``design_record(..., bins=)`` took it.
    output_labels : sequence or mapping, optional
        Names of the outputs, as ``pml apply --output-labels``; by default the
        design's, else ``y1..yM``. With a :class:`RecordDesign`, a mapping of
        column to names, one per value its private column takes (compose and
        ldp: that column's outputs; joint: that column's labels, which the
        decoded outputs are written as).
    replace : bool, default False
        With a record design only: the private values take the raw columns'
        places and names.
    keep_raw : bool, default False
        With a record design only: the result also holds the record's raw
        columns (a warning says it must not be released). By default it holds
        the frame's other columns and the private ones alone.

    Returns
    -------
    pandas.Series, polars.Series, pyarrow.DictionaryArray or numpy.ndarray
        The input's type: a categorical pandas Series over the outputs with the same
        index, an Enum polars Series, a pyarrow DictionaryArray, else a numpy array of
        output names. With a :class:`RecordDesign`, the frame's other columns and
        ``{column}_private`` for each column of the record, whose raw columns it
        leaves out. With ``summary=True``, a tuple of that and an
        :class:`ApplySummary`: what the release did, as ``pml apply --summary``
        writes it (its ``format`` is ``"frame"``, its places rows from 0).

    Raises
    ------
    PmlError
        On a value outside the labels (with ``on_unknown="error"``), naming the row,
        or on bad arguments.

    Examples
    --------
    >>> import pmldesign
    >>> d = pmldesign.design([0.5, 0.5], 1.0, labels=["no", "yes"])
    >>> out = pmldesign.apply(d, ["no", "yes", "yes"], seed=2**200 + 12345)
    >>> len(out), set(out) <= set(d.outputs)
    (3, True)
    """
    if type(design_or_matrix).__name__ == "RecordDesign":
        from ._record_design import apply_record

        record = cast("RecordDesign", design_or_matrix)
        return apply_record(
            record,
            values,
            seed=seed,
            offset=offset,
            on_unknown=on_unknown,
            replace=replace,
            nulls=nulls,
            key=key,
            bins=bins,
            output_labels=cast("Optional[Mapping[str, Sequence[Any]]]", output_labels),
            keep_raw=check_keep_raw(keep_raw, record.columns, replace=replace),
            summary=check_summary(summary),
        )
    if replace:
        raise InvalidInputError("invalid replace=True: only a record design replaces its columns; assign the result to the column instead")
    if keep_raw is not False:
        raise InvalidInputError(f"invalid keep_raw = {keep_raw!r}: only a record design's frame keeps raw columns; the result holds the private values alone")
    if type(design_or_matrix).__name__ in ("PublicDesign", "PublicRecord"):
        raise InvalidInputError(
            f"invalid design_or_matrix: a {type(design_or_matrix).__name__} carries no certificate to verify; "
            "apply the design it was published from (.public() is for the receivers)"
        )
    design_or_matrix = cast(MechanismLike, design_or_matrix)
    matrix, own_labels, outputs, _ = mechanism_of(design_or_matrix)
    if not isinstance(design_or_matrix, Design):
        warnings.warn(
            "the mechanism is a bare matrix: no privacy guarantee was checked (as `pml apply` warns); "
            "apply a certified Design to release under one",
            UserWarning,
            stacklevel=2,
        )
    n, m = matrix.shape
    names = row_labels(labels, own_labels, n)
    outputs = design_outputs(output_labels, m) or outputs or [f"y{j}" for j in range(1, m + 1)]
    secret, start, how = secret_of(seed), _offset(offset), check_on_unknown(on_unknown)
    own = _own_name(values)
    column = _column(column) or own or DEFAULT_COLUMN
    if kind(values) == "plain" and not isinstance(values, np.ndarray):
        values = _sequence("values", values)
    as_codes = check_codes(codes)
    if not as_codes and bins is None and key is None and _is_categorical(values):
        # Edges the design recorded cut the values instead (input_codes refuses them).
        if not (isinstance(design_or_matrix, Design) and _bins_recorded(design_or_matrix)):
            check_nulls(nulls, design_or_matrix)
            fast = _categorical(matrix, values, names, outputs, (column, start, secret))
            if fast is not None:
                none = np.zeros(len(fast), dtype=bool)
                return _with_summary(fast, summary, (how, none, none), [(none, values)], [(column, own or column)])
    found, describe = input_codes(values, names, (as_codes, bins, design_or_matrix), own or column)
    found, dropped = null_codes(found, check_nulls(nulls, design_or_matrix), names)
    if how == "error" and ((found < 0) & ~dropped).any():
        refuse(np.where(dropped, 0, found), describe, field_of(own), names)
    places = None if key is None else key_places(key, len(found))
    out = draw(matrix, found, column, secret, offset=start, places=places)
    keep = None if how != "skip" else (found >= 0) | dropped
    released = _shaped(values, out, outputs, keep)
    unknown = (found < 0) & ~dropped
    return _with_summary(released, summary, (how, unknown, dropped), [(found, values)], [(column, own or column)])


def check_summary(summary: Any) -> bool:
    """``summary`` as a bool, refusing anything else."""
    if not isinstance(summary, bool):
        raise InvalidInputError(f"invalid summary = {summary!r}: pass True for the release and its ApplySummary, or False")
    return summary


def _with_summary(
    released: Any, summary: Any, rows: Tuple[str, np.ndarray, np.ndarray], coded: List[Tuple[np.ndarray, Any]], written: List[Tuple[str, str]],
) -> Any:
    """``released``, or with ``summary`` the tuple of it and its summary: ``rows``
    is ``(on_unknown, unknown, dropped)``, the rows with a value outside the labels
    and those written missing for a null (``coded``: each column's codes and
    values, for :func:`first_unknown`)."""
    if not check_summary(summary):
        return released
    how, unknown, dropped = rows
    return released, summarised(Tally.of(unknown, dropped, first_unknown(unknown, coded)), how, written, False)


def column_tally(design: Design, values: Any, column: str, how: Tuple[OnUnknown, Nulls], field: Callable[[int], str]) -> Tally:
    """The summary's counts over a part of ``column`` (nothing drawn); under
    ``on_unknown="error"`` its first value outside the labels is refused, row i
    of the part named by ``field(i)``."""
    labels = design.labels
    codes, describe = input_codes(values, labels, (False, None, design), column)
    codes, dropped = null_codes(codes, how[1], labels)
    unknown = (codes < 0) & ~dropped
    if how[0] == "error" and unknown.any():
        refuse(np.where(dropped, 0, codes), describe, field, labels)
    return Tally.of(unknown, dropped, first_unknown(unknown, [(codes, values)]))


def first_unknown(unknown: np.ndarray, coded: Sequence[Tuple[np.ndarray, Any]]) -> Optional[Tuple[int, str]]:
    """The first row of ``unknown`` and its value outside the labels, as text:
    that of the first column (of ``coded``, each its codes and values) whose
    code is negative there; None where no row is unknown."""
    if not unknown.any():
        return None
    row = int(np.argmax(unknown))
    values = next(v for codes, v in coded if codes[row] < 0)
    return row, value_text(values, row)


def value_text(values: Any, row: int) -> str:
    """The value at position ``row`` as text, as a summary shows it (a null is empty)."""
    k = kind(values)
    value = values.iloc[row] if k == "pandas" else values[row]
    if k == "arrow":
        value = value.as_py()
    try:
        missing = value is None or bool(value != value)
    except (TypeError, ValueError):
        missing = True
    return "" if missing else str(value)


def _is_categorical(values: Any) -> bool:
    return kind(values) == "pandas" and str(values.dtype) == "category"


def _bins_recorded(design: Design) -> bool:
    from . import _bins

    return _bins.recorded(design) is not None


def _categorical(matrix: np.ndarray, series: Any, names: List[str], outputs: List[str], stream: Tuple[str, int, Optional[str]]) -> Any:
    """A pandas categorical Series whose categories are all labels and which holds
    no null, privatised from its category codes in one native pass (the rows
    :func:`draw` draws), as a categorical Series over the outputs built on the
    output codes without a copy; None for any other, which the general path takes."""
    import pandas as pd

    index = {label: i for i, label in enumerate(names)}
    table = [index.get(str(c), UNKNOWN) for c in series.cat.categories]
    raw = series.cat.codes.to_numpy()
    if not len(raw) or min(table, default=UNKNOWN) < 0 or raw.min() < 0:
        return None
    column, offset, secret = stream
    out = _native.apply_categories(matrix, raw, table, column, offset, secret)
    return pd.Series(pd.Categorical.from_codes(out, categories=outputs), index=series.index, name=series.name)


def input_codes(values: Any, names: List[str], how: Tuple[bool, Any, Any], name: str) -> Coded:
    """The row of each value: its label's, or with bins (given, or recorded in the
    design) the label of its bin."""
    from . import _bins

    as_codes, bins, design = how
    edges = _bins.edges_of(bins) if bins is not None else (_bins.recorded(design) if isinstance(design, Design) else None)
    if edges is None:
        refuse_floats(values, name)
        return codes_of(values, names, codes=as_codes)
    if as_codes:
        raise InvalidInputError("invalid codes=True with bins: the bins give each number its row; leave codes=False")
    cut = _bins.labels(edges)
    absent = [label for label in cut if label not in names]
    if absent:
        raise InvalidInputError(f"invalid bins = {edges}: the bin {absent[0]!r} is not one of the mechanism's labels {names}; pass the edges the design was counted with")
    table = np.array([names.index(label) for label in cut], dtype=np.int64)
    found, describe = _bins.codes(values, edges)
    return np.where(found >= 0, table[np.maximum(found, 0)], found), describe


def null_codes(found: np.ndarray, nulls: str, names: List[str]) -> Tuple[np.ndarray, np.ndarray]:
    """The codes with nulls made the ``<null>`` input (``category``), and which rows
    are nulls written missing (``drop``)."""
    is_null = found == NULL
    if nulls == "category" and is_null.any():
        if NULL_LABEL not in names:
            raise InvalidInputError(
                f"invalid nulls = 'category': a null is privatised as {NULL_LABEL!r}, which is not one of the "
                f"mechanism's {len(names)} labels; design with nulls counted as a category (count(..., nulls='category')), "
                "or drop or fill the nulls"
            )
        found = np.where(is_null, names.index(NULL_LABEL), found)
    dropped = is_null if nulls == "drop" else np.zeros(len(found), dtype=bool)
    return found, dropped


def _shaped(values: Any, out: np.ndarray, outputs: List[str], keep: Optional[np.ndarray]) -> Any:
    """``out`` (output codes, -1 missing) in the type of ``values``; rows where
    ``keep`` is False are left out."""
    k = kind(values)
    if keep is not None and not keep.all():
        values = values[keep] if k == "pandas" else values
        out = out[keep]
    if k == "arrow":
        import pyarrow as pa

        return pa.DictionaryArray.from_arrays(pa.array(out.astype(np.int32), mask=out < 0), pa.array(outputs, type=pa.string()))
    if k == "polars":
        import polars as pl

        codes = pl.Series(values.name, out)
        return codes.replace_strict(list(range(len(outputs))), outputs, default=None, return_dtype=pl.Enum(outputs))
    if k == "pandas":
        import pandas as pd

        return pd.Series(pd.Categorical.from_codes(out, categories=outputs), index=values.index, name=values.name)
    return np.asarray([*outputs, ""], dtype=str)[out] if len(out) else np.zeros(0, dtype=str)
