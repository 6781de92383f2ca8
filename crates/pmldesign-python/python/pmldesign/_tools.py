"""Using and auditing mechanisms: ``apply``, ``assess``, ``compare``, ``envelope``.

References as in docs/theory.md: [E] (PML, sets of priors), [D] (PMC, LIP, ALIP,
LDP), [V] (envelopes).
"""

from __future__ import annotations

import warnings
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native
from ._design import ArrayLike, Design, _labels, _matrix, _number, _vector
from ._native import PmlError
from ._records import Record

MechanismLike = Union[Design, ArrayLike]


def _mechanism(value: MechanismLike) -> Tuple[np.ndarray, Optional[list], Optional[list], Optional[list]]:
    """The matrix, labels, outputs and prior of a Design, or a bare matrix's."""
    if isinstance(value, Design):
        d = value.to_dict()
        return value.mechanism, d["labels"], d["outputs"], d.get("prior")
    return _matrix("mechanism", value), None, None, None


#: The stream name of values that carry no name of their own (a list or a numpy
#: array): ``pml apply --column value`` draws the same.
DEFAULT_COLUMN = "value"


def _is_pandas_series(values: Any) -> bool:
    return type(values).__module__.startswith("pandas") and type(values).__name__ == "Series"


def _is_polars_series(values: Any) -> bool:
    return type(values).__module__.startswith("polars") and type(values).__name__ == "Series"


def _is_arrow_array(values: Any) -> bool:
    return type(values).__module__.startswith("pyarrow") and type(values).__name__.endswith(("Array", "ChunkedArray"))


def _arrow_codes(values: Any, labels: list) -> np.ndarray:
    """Row indices of a pyarrow Array or ChunkedArray, looked up by Arrow itself."""
    import pyarrow as pa
    import pyarrow.compute as pc

    nulls = np.flatnonzero(values.is_null().to_numpy(zero_copy_only=False))
    if nulls.size:
        raise PmlError(f"invalid values[{int(nulls[0])}] = null: every value needs a label; fill or drop nulls first")
    text = pc.cast(values, pa.string()) if not pa.types.is_integer(values.type) else None
    if text is None:
        return _codes(values.to_numpy(zero_copy_only=False), labels)
    index = pc.index_in(text, value_set=pa.array(labels, type=pa.string()))
    unknown = np.flatnonzero(index.is_null().to_numpy(zero_copy_only=False))
    if unknown.size:
        i = int(unknown[0])
        raise PmlError(
            f"invalid values[{i}] = {text[i].as_py()!r}: not one of the mechanism's labels; use one of {labels} or an index below {len(labels)}"
        )
    return index.to_numpy(zero_copy_only=False).astype(np.uint32)


def _polars_codes(series: Any, labels: list) -> np.ndarray:
    """Row indices of a polars Series (nulls refused naming the row)."""
    name = series.name or DEFAULT_COLUMN
    nulls = np.flatnonzero(series.is_null().to_numpy())
    if nulls.size:
        raise PmlError(f"invalid column {name!r} at row {int(nulls[0])}: a null; map it to one of {labels} first")
    if series.dtype.is_integer():
        return _codes(series.to_numpy(), labels)
    import polars as pl

    text = series.cast(pl.String)
    unknown = np.flatnonzero((~text.is_in(labels)).to_numpy())
    if unknown.size:
        i = int(unknown[0])
        raise PmlError(f"invalid column {name!r} at row {i}: {text[i]!r}, not one of the mechanism's labels; map it to one of {labels} first")
    # The engine's own Enum: its physical codes are the label indices.
    return text.cast(pl.Enum(labels)).to_physical().to_numpy().astype(np.uint32)


def _seed(seed: Any) -> Optional[str]:
    """The key as ``pml apply --seed`` takes it, warning about a short one."""
    if seed is None:
        return None
    if isinstance(seed, (bytes, bytearray)):
        if len(seed) != 32:
            raise PmlError(f"invalid seed = {len(seed)} bytes: a key given as bytes has 32; pass os.urandom(32)")
        return "0x" + bytes(seed).hex()
    if isinstance(seed, str):
        try:
            number = int(seed.strip(), 0)
        except ValueError:
            raise PmlError(f"invalid seed = {seed!r}: not a whole number; give a decimal or 0x-hex number below 2^256") from None
    elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        number = int(seed)
    else:
        raise PmlError(f"invalid seed = {seed!r}: give a whole number below 2^256, a 0x-hex string or 32 bytes")
    if not 0 <= number < 2**256:
        raise PmlError(f"invalid seed = {seed!r}: a seed is a whole number in [0, 2^256); pass e.g. secrets.randbits(256)")
    if number.bit_length() < 64:
        warnings.warn(
            f"the seed is a {number.bit_length()}-bit number: whoever knows the mechanism can try every "
            "seed that short and undo the noise; keep it secret and use secrets.randbits(256)",
            UserWarning,
            stacklevel=3,
        )
    return str(number)


def _codes(values: Any, labels: list) -> np.ndarray:
    """Row indices of ``values``: integers are indices, anything else a label."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iu":
        codes = values.astype(np.int64, copy=False).ravel()
        bad = np.flatnonzero((codes < 0) | (codes >= len(labels)))
        if bad.size:
            i = int(bad[0])
            raise PmlError(f"invalid values[{i}] = {codes[i]}: an index must lie in [0, {len(labels)}); use a row index or a label")
        return codes.astype(np.uint32)
    items = values.tolist() if isinstance(values, np.ndarray) else list(values)
    if not items:
        return np.zeros(0, dtype=np.uint32)
    keys = np.empty(len(items), dtype=object)
    for i, v in enumerate(items):
        if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
            if not 0 <= v < len(labels):
                raise PmlError(f"invalid values[{i}] = {v}: an index must lie in [0, {len(labels)}); use a row index or a label")
            keys[i] = labels[v]
        else:
            keys[i] = str(v)
    return _label_codes(keys.astype(str), labels)


def _label_codes(keys: np.ndarray, labels: list) -> np.ndarray:
    """The index in ``labels`` of each key, one lookup per distinct key."""
    distinct, inverse = np.unique(keys, return_inverse=True)
    index = {label: i for i, label in enumerate(labels)}
    table = np.array([index.get(k, -1) for k in distinct.tolist()], dtype=np.int64)
    codes = table[inverse.ravel()]
    bad = np.flatnonzero(codes < 0)
    if bad.size:
        i = int(bad[0])
        raise PmlError(
            f"invalid values[{i}] = {keys[i]!r}: not one of the mechanism's labels; use one of {labels} or an index below {len(labels)}"
        )
    return codes.astype(np.uint32)


def _series_codes(series: Any, labels: list) -> np.ndarray:
    """Row indices of a pandas Series; a categorical one maps its categories once."""
    name = series.name if series.name is not None else DEFAULT_COLUMN
    if str(series.dtype) == "category":
        cats = [str(c) for c in series.cat.categories]
        index = {label: i for i, label in enumerate(labels)}
        table = np.array([index.get(c, -1) for c in cats] + [-2], dtype=np.int64)
        raw = series.cat.codes.to_numpy()
        codes = table[np.where(raw < 0, len(cats), raw)]
    else:
        nulls = np.flatnonzero(series.isna().to_numpy())
        if nulls.size:
            raise PmlError(f"invalid column {name!r} at row {int(nulls[0])}: a null; map it to one of {labels} first")
        return _label_codes(series.astype(str).to_numpy(), labels)
    bad = np.flatnonzero(codes < 0)
    if bad.size:
        i = int(bad[0])
        what = "a null" if codes[i] == -2 else f"{series.iloc[i]!r}, not one of the mechanism's labels"
        raise PmlError(f"invalid column {name!r} at row {i}: {what}; map it to one of {labels} first")
    return codes.astype(np.uint32)


def apply(
    design_or_matrix: MechanismLike,
    values: Any,
    *,
    labels: Optional[Sequence[Any]] = None,
    seed: Union[None, int, str, bytes] = None,
    offset: int = 0,
    column: Optional[str] = None,
    key: Any = None,
) -> Any:
    """Privatises ``values``: each input x becomes an output y drawn from row W[x, :].

    ``values`` are input labels (``labels``, else the design's, else x1..xN) or integer
    row indices: a list, a numpy array or a pandas Series. Row ``offset + k`` of the
    column named ``column`` (default: the Series' name, else ``"value"``) draws from
    its own place of one keyed stream (ChaCha20), so privatising any split of a
    column part by part, each with its offset, gives the whole, and the same rows
    give what ``pml apply --column COLUMN --seed SEED`` writes.

    ``seed`` is a secret key: a whole number below 2^256 (or a 0x-hex string, or 32
    bytes); whoever knows it can undo most of the noise, and a short one is found by
    trying them all (a seed under 64 bits warns). With ``key`` (one user key per value:
    a list, array or Series), a row draws from the place its key gives instead of its
    position, so shuffled or repartitioned rows draw the same (``offset`` is then
    unused; rows with the same key and value draw the same output). Without a seed the key comes from
    the operating system. Returns a numpy array of output names (the design's
    ``outputs``, or y1..yM); for a pandas Series, a categorical Series over the
    outputs with the same index; for a polars Series, an Enum Series; for a pyarrow
    Array or ChunkedArray, a DictionaryArray over the outputs.
    """
    matrix, own_labels, outputs, _ = _mechanism(design_or_matrix)
    n, m = matrix.shape
    names = _labels(labels) or own_labels or [f"x{i}" for i in range(1, n + 1)]
    outputs = outputs or [f"y{j}" for j in range(1, m + 1)]
    secret = _seed(seed)
    if not (isinstance(offset, (int, np.integer)) and not isinstance(offset, bool) and 0 <= offset < 2**63):
        raise PmlError(f"invalid offset = {offset!r}: the position of the first value, a whole number >= 0")
    series, polars = _is_pandas_series(values), _is_polars_series(values)
    if column is None:
        named = (series and values.name is not None) or (polars and values.name)
        column = str(values.name) if named else DEFAULT_COLUMN
    arrow = _is_arrow_array(values)
    if polars:
        codes = _polars_codes(values, names)
    elif arrow:
        codes = _arrow_codes(values, names)
    else:
        codes = _series_codes(values, names) if series else _codes(values, names)
    positions = None
    if key is not None:
        keys = key.tolist() if hasattr(key, "tolist") else list(key)
        if len(keys) != len(codes):
            raise PmlError(f"invalid key = {len(keys)} entries: one key per value ({len(codes)}); pass the key column of the same rows")
        if any(k is None or (isinstance(k, float) and k != k) for k in keys):
            raise PmlError("invalid key: a null key; every row needs its user's key")
        positions = _native.key_positions([str(k) for k in keys])
    out = _native.apply_codes(matrix, codes, str(column), int(offset), secret, positions)
    if arrow:
        import pyarrow as pa

        return pa.DictionaryArray.from_arrays(pa.array(out.astype(np.int32)), pa.array(outputs, type=pa.string()))
    if polars:
        import polars as pl

        enum = pl.Enum(outputs)
        codes_out = pl.Series(values.name, out)
        return codes_out.replace_strict(list(range(len(outputs))), outputs, return_dtype=enum)
    if series:
        import pandas as pd

        return pd.Series(pd.Categorical.from_codes(out.astype(np.int64), categories=outputs), index=values.index, name=values.name)
    return np.asarray(outputs, dtype=str)[out] if len(out) else np.zeros(0, dtype=str)


def assess(mechanism: MechanismLike, prior: Optional[ArrayLike] = None, *, beta: Optional[float] = None) -> Record:
    """Every leakage figure of a mechanism under ``prior`` (a Design's prior by default).

    PML per outcome and eps_min ([E] Thm 1), eps_max, the privacy region ([E] Def 4),
    the (eps, delta) tail curve ([E] Def 3), PMC, LIP and LDP levels ([D]), maximal
    leakage and, with ``beta``, the leakage capacity, sensitivity and the Theorem 4
    bound over the l1 ball ([E] Defs 5-6, Thms 3-4). As ``pml assess``.
    """
    matrix, _, _, own_prior = _mechanism(mechanism)
    prior = _vector("prior", own_prior if prior is None else prior)
    return Record(_native.assess(matrix, prior, None if beta is None else _number("beta", beta)))


def compare(
    prior: ArrayLike,
    epsilon: float,
    *,
    beta: Optional[float] = None,
    utility: str = "mi",
    epsilon_lower: Optional[float] = None,
    epsilon_upper: Optional[float] = None,
    labels: Optional[Sequence[Any]] = None,
) -> Record:
    """Optimal mechanisms under PML, PMC, ALIP, LIP and LDP at a common level eps.

    One row per notion ([D], docs/theory.md §3) and two randomized-response rows, each
    with ``utility``, ``worst_case_pml``, ``pmc``, ``ldp_epsilon``, ``maximal_leakage``
    and ``mechanism``; the ALIP row uses (``epsilon_lower``, ``epsilon_upper``), both
    eps by default. The JSON of ``pml compare --format json``.
    """
    eps = _number("epsilon", epsilon)
    alip = None
    if epsilon_lower is not None or epsilon_upper is not None:
        lo = eps if epsilon_lower is None else _number("epsilon_lower", epsilon_lower)
        hi = eps if epsilon_upper is None else _number("epsilon_upper", epsilon_upper)
        alip = (lo, hi)
    b = None if beta is None else _number("beta", beta)
    return Record(_native.compare(_vector("prior", prior), eps, b, utility, alip, _labels(labels)))


def envelope(
    mechanism: MechanismLike,
    prior: Optional[ArrayLike] = None,
    deltas: Union[float, Sequence[float]] = (0.01, 0.05, 0.1),
    *,
    lp: bool = False,
) -> Record:
    """Post-processing-safe (eps, delta) guarantees: bounds on the PML envelope.

    For each delta, the raw quantiles, the binary lower bound ([V] Alg. 1), the
    Theorem 3 upper bound ``min(L + ln(1/delta), max_y l(y))``, whether they meet and the
    publishable statement (docs/theory.md §8); ``lp=True`` adds the envelope itself by
    the [V] Thm 2 linear program, and the statement then publishes it where it is below
    the Theorem 3 bound. Returns ``maximal_leakage``, ``max_pml`` and ``curve``.
    """
    matrix, _, _, own_prior = _mechanism(mechanism)
    prior = _vector("prior", own_prior if prior is None else prior)
    if isinstance(deltas, (int, float)):
        deltas = [deltas]
    ds = [_number("deltas", d) for d in deltas]
    return Record(_native.envelope(matrix, prior, ds, bool(lp)))
