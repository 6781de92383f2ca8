"""Auditing mechanisms: ``assess``, ``compare``, ``envelope``.

References as on the theory page of the user guide: [E] (PML, sets of priors), [D] (PMC, LIP, ALIP,
LDP), [V] (envelopes).
"""

from __future__ import annotations

import json
import warnings
from typing import Any, Dict, Literal, Optional, Sequence, Union

import numpy as np

from . import _native
from ._apply import MechanismLike, mechanism_of
from ._codes import missing
from ._design import ArrayLike, Design, PmlTypeError, _labels, _matrix, _metric, _number, _sequence, _text, _vector
from ._native import InvalidInputError
from ._public import PublicDesign, PublicRecord
from ._records import Estimate, Record


def assess(
    mechanism: MechanismLike,
    prior: Optional[ArrayLike] = None,
    *,
    counts: Optional[ArrayLike] = None,
    beta: Optional[float] = None,
    delta: Optional[float] = None,
    radius: Literal["free", "kappa"] = "free",
    priors: Optional[ArrayLike] = None,
    metric: Union[Literal["discrete", "line"], ArrayLike, None] = None,
    envelope_delta: float = 0.05,
    labels: Optional[Sequence[Any]] = None,
) -> Record:
    """Every leakage figure of a mechanism, as ``pml assess``.

    PML per outcome and eps_min ([E] Thm 1), eps_max, the privacy region ([E]
    Def 4), the (eps, delta) tail curve ([E] Def 3), PMC, LIP and LDP levels ([D]),
    maximal leakage and, over a set of priors (``beta``, ``delta`` or ``priors``),
    the leakage capacity, sensitivity and the Theorem 4 bound ([E] Defs 5-6,
    Thms 3-4).

    Parameters
    ----------
    mechanism : Design or array_like
        The mechanism (rows are inputs).
    prior : array_like of float, optional
        The prior; a Design's own by default.
    counts : array_like of int, optional
        Instead of ``prior``: whole-number counts of the inputs, whose
        proportions are the prior and whose total is the sample size of
        ``delta`` (``pml assess --counts``).
    beta : float, optional
        Also report the figures over the l1 ball of this radius.
    delta : float, optional
        With ``counts``: also report the figures over the l1 ball that holds the
        true prior with probability ``1 - delta`` (``pml assess --delta``).
    radius : {"free", "kappa"}, default "free"
        How ``delta`` gives the radius, as in :func:`design_from_counts`.
    priors : array_like, optional
        Also report the figures over the convex hull of these priors, one per
        row (``pml assess --priors``).
    metric : {"discrete", "line"} or array_like, optional
        Also report the smallest eps of metric privacy under this distance.
    envelope_delta : float, default 0.05
        The delta of the post-processing envelope reported (``envelope``).
    labels : sequence, optional
        The input names; a Design's own by default, else x1..xN.

    Returns
    -------
    Record
        The JSON of ``pml assess --format json`` for the same input (``source`` is
        ``"<array>"`` where the command names its file).
    """
    matrix, own_labels, _, own_prior = mechanism_of(mechanism)
    if prior is not None and counts is not None:
        raise InvalidInputError("assess takes one of prior= and counts=, not both")
    given = [name for name, v in (("beta", beta), ("delta", delta), ("priors", priors)) if v is not None]
    if len(given) > 1:
        raise InvalidInputError(f"invalid {' and '.join(given)}: give at most one set of priors (beta=, delta= or priors=)")
    masses = None if counts is not None else _vector("prior", own_prior if prior is None else prior)
    tally = None if counts is None else _vector("counts", counts)
    hull = None if priors is None else _matrix("priors", priors).tolist()
    return Record(
        _native.assess(
            matrix,
            masses,
            None if beta is None else _number("beta", beta),
            _number("envelope_delta", envelope_delta),
            _labels(own_labels if labels is None else labels),
            counts=tally,
            delta=None if delta is None else _number("delta", delta),
            radius=_text("radius", radius, "free"),
            priors=hull,
            **_metric(metric),
        )
    )


def compare(
    prior: ArrayLike,
    epsilon: float,
    *,
    beta: Optional[float] = None,
    utility: str = "mi",
    epsilon_lower: Optional[float] = None,
    epsilon_upper: Optional[float] = None,
    labels: Optional[Sequence[Any]] = None,
    time_limit: Optional[float] = None,
    metric: Union[Literal["discrete", "line"], ArrayLike, None] = None,
) -> Record:
    """Optimal mechanisms under PML, PMC, ALIP, LIP and LDP at a common level eps.

    One row per notion ([D], §3 of the theory page of the user guide) and two
    randomized-response rows, as ``pml compare --format json``.

    Parameters
    ----------
    prior : array_like of float
        The prior.
    epsilon : float
        The common level.
    beta : float, optional
        Design for every prior within this l1 distance of ``prior``.
    utility : str, default "mi"
        As in :func:`design`.
    epsilon_lower, epsilon_upper : float, optional
        The levels of the ALIP row (both eps by default).
    labels : sequence, optional
        The input names.
    time_limit : float, optional
        Seconds for the whole comparison, shared by the notions' designs: each
        returns the best certified mechanism and bound found in its share (its
        row's ``status`` says whether it is optimal), as ``pml compare
        --time-limit``. Without one, large alphabets may take minutes.
    metric : {"discrete", "line"} or array_like, optional
        Add the row of metric privacy at eps for this distance, as ``pml compare
        --metric`` (``--metric-matrix`` for an N x N matrix).

    Returns
    -------
    Record
        One row per mechanism with ``utility``, ``worst_case_pml``, ``pmc``,
        ``ldp_epsilon``, ``maximal_leakage`` and ``mechanism``.
    """
    eps = _number("epsilon", epsilon)
    alip = None
    if epsilon_lower is not None or epsilon_upper is not None:
        lo = eps if epsilon_lower is None else _number("epsilon_lower", epsilon_lower)
        hi = eps if epsilon_upper is None else _number("epsilon_upper", epsilon_upper)
        alip = (lo, hi)
    b = None if beta is None else _number("beta", beta)
    limit = None if time_limit is None else _number("time_limit", time_limit)
    return Record(
        _native.compare(
            _vector("prior", prior), eps, b, _text("utility", utility, "mi"), alip, _labels(labels), limit, **_metric(metric)
        )
    )


def envelope(
    mechanism: MechanismLike,
    prior: Optional[ArrayLike] = None,
    deltas: Union[float, Sequence[float], None] = None,
    *,
    delta: float = 0.05,
    lp: bool = False,
    time_limit: Optional[float] = None,
    labels: Optional[Sequence[Any]] = None,
) -> Record:
    """Post-processing-safe (eps, delta) guarantees: bounds on the PML envelope.

    For each delta, the raw quantiles, the binary lower bound ([V] Alg. 1), the
    Theorem 3 upper bound ``min(L + ln(1/delta), max_y l(y))``, whether they meet
    and the publishable statement (§8 of the theory page of the user guide), as
    ``pml envelope``.

    Parameters
    ----------
    mechanism : Design or array_like
        The mechanism (rows are inputs).
    prior : array_like of float, optional
        The prior; a Design's own by default.
    deltas : float or sequence of float, optional
        The levels delta of the curve; by default 50 values log-spaced from 0.001
        to 0.5 (``pml envelope``'s grid).
    delta : float, default 0.05
        The delta of the headline statement (``statement``).
    lp : bool, default False
        Add the envelope itself by the [V] Thm 2 linear program; the statement then
        publishes it where it is below the Theorem 3 bound.
    time_limit : float, optional
        With ``lp``: stop the linear programs after about this many seconds; a delta
        whose bisection the limit stopped keeps its certified bracket so far, marked
        ``lp["stopped"]`` (its upper end is what is published there).
    labels : sequence, optional
        The input names; a Design's own by default, else x1..xN.

    Returns
    -------
    Record
        The JSON of ``pml envelope --format json`` for the same input (``source`` is
        ``"<array>"``): ``maximal_leakage``, ``max_pml``, ``leakage_distribution``,
        ``tail_curve``, the headline ``statement`` and ``curve`` (one entry per delta).
    """
    matrix, own_labels, _, own_prior = mechanism_of(mechanism)
    prior = _vector("prior", own_prior if prior is None else prior)
    if isinstance(deltas, (int, float)):
        deltas = [deltas]
    ds = None if deltas is None else [_number("deltas", d) for d in deltas]
    names = _labels(own_labels if labels is None else labels)
    if not isinstance(lp, (bool, np.bool_)):
        raise PmlTypeError(f"invalid lp = {lp!r}: pass True (the exact LP bound) or False")
    limit = None if time_limit is None else _number("time_limit", time_limit)
    return Record(_native.envelope(matrix, prior, ds, _number("delta", delta), bool(lp), limit, names))


def _whole(name: str, value: Any) -> int:
    """A whole number of at least 2 (``bootstrap=``)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 2:
        raise InvalidInputError(f"invalid {name} = {value!r}: a whole number of replicates >= 2, e.g. {name}=200")
    return int(value)


def estimate(
    mechanism: Union[MechanismLike, PublicDesign],
    released: Any = None,
    *,
    counts: Any = None,
    column: Optional[str] = None,
    method: Literal["em", "inversion"] = "em",
    confidence: float = 0.95,
    nulls: Optional[Literal["error", "drop"]] = None,
    bootstrap: Optional[int] = None,
    seed: Any = None,
    time_limit: Optional[float] = None,
) -> Record:
    """The input distribution estimated from released data, with intervals.

    What the receiver of the data runs, as ``pml estimate``. Inputs whose rows of
    the mechanism are equal are released alike: only their total is estimated, as
    one group; so are inputs whose distinct rows are linearly dependent, joined
    into the blocks whose totals the data determine (each named in ``notes``), and
    no input of such a group gets a figure of its own (§13 of the theory page of
    the user guide).

    Parameters
    ----------
    mechanism : Design, PublicDesign, RecordDesign, PublicRecord or array_like
        The design (or matrix) the data went through; a receiver passes the
        :class:`PublicDesign` the data holder handed out (``Design.public()``),
        or for a record the :class:`PublicRecord` (``RecordDesign.public()``).
    released : column or table, optional
        The released column (anything :func:`count` takes, with ``column`` for a
        table; its values are the mechanism's output labels). With a
        :class:`RecordDesign` or :class:`PublicRecord`, the released pandas or
        polars frame (its ``{column}_private`` columns).
    counts : dict or sequence of int, optional
        Instead of ``released``: ``{output label: count}`` or one count per output.
    column : str, optional
        The released column of a table.
    method : {"em", "inversion"}, default "em"
        Maximum likelihood (never negative) or unbiased least squares projected
        onto the simplex.
    confidence : float, default 0.95
        The level of the intervals (delta method).
    nulls : {"error", "drop"}, optional
        A null released value (a row whose input was dropped) is an error, or left
        out; by default the rule the design recorded (``drop`` for a design made
        with ``nulls="drop"``, otherwise ``error``), as ``pml estimate`` does.
    bootstrap : int, optional
        Check the intervals by a parametric bootstrap of this many replicates:
        each group then has ``bootstrap_lower``, ``bootstrap_upper`` and
        ``bootstrap_standard_error``.
    seed : int, optional
        The key of the bootstrap's stream (default 0, reproducible).
    time_limit : float, optional
        With ``bootstrap``: start no replicate after this many seconds from the
        call; the check is then of the replicates drawn (at least 2), and a
        warning says how many (``pml estimate --time-limit``).

    Returns
    -------
    Record
        ``estimates``: one dict per group (``label``, ``inputs``,
        ``dependent``, ``estimate``, ``lower``, ``upper``, ``standard_error``,
        ``unprojected``; with a bootstrap ``bootstrap_lower``,
        ``bootstrap_upper`` and ``bootstrap_standard_error``), ready for
        ``pandas.DataFrame(result.to_dict()["estimates"])``; ``note``, what could
        not be verified about the mechanism (a bare matrix, a public design);
        ``notes``, one sentence per group of linearly dependent rows;
        ``warnings``, what puts the intervals in doubt (also issued as Python
        warnings); ``fit`` (the G test, with its ``note``); and ``method``,
        ``rows``, ``confidence``, ``log_likelihood``, ``iterations``,
        ``converged``, ``likelihood_gap`` (the maximum log-likelihood exceeds the
        estimate's by at most this many nats), ``bootstrap_replicates``: the JSON
        of ``pml estimate --format json`` for the same input (``source`` is
        ``"<array>"``). For a record, ``marginals`` and ``joint`` instead, each mass
        with ``lower``/``upper`` where the released data determine it and
        ``identifiable`` False where they do not.

    Raises
    ------
    PmlError
        On a released value that is not an output of the mechanism, or bad
        arguments.

    Examples
    --------
    >>> import pmldesign
    >>> d = pmldesign.design([0.5, 0.5], 1.0, labels=["no", "yes"])
    >>> est = pmldesign.estimate(d, counts=[600, 400])
    >>> [e["label"] for e in est.to_dict()["estimates"]]
    ['no', 'yes']
    """
    if time_limit is not None and bootstrap is None:
        raise InvalidInputError("invalid time_limit without bootstrap: it bounds the bootstrap's replicates; pass bootstrap=REPS (e.g. 200), or leave time_limit out")
    if type(mechanism).__name__ in ("RecordDesign", "PublicRecord"):
        if counts is not None or bootstrap is not None:
            raise InvalidInputError("invalid counts= or bootstrap= with a record design: pass the released frame (its {column}_private columns)")
        if method != "em":
            raise InvalidInputError(
                f"invalid method = {method!r} with a record design: its cells are estimated unbiasedly where "
                "the released tuples determine them and by EM elsewhere; drop method="
            )
        return _estimate_record(mechanism, released, _number("confidence", confidence))
    matrix, labels, outputs, _ = mechanism_of(mechanism)
    n, m = matrix.shape
    labels = labels if labels is not None else [f"x{i + 1}" for i in range(n)]
    outputs = outputs if outputs is not None else [f"y{j + 1}" for j in range(m)]
    if (released is None) == (counts is None):
        raise InvalidInputError("estimate needs exactly one of released= (the released column) and counts=")
    if released is not None:
        from ._tables import count

        from ._apply import check_nulls

        if isinstance(released, (str, bytes)) or np.isscalar(released):
            raise PmlTypeError(f"invalid released = {released!r}: a single value; pass the released column (or a table with column=)")
        if nulls not in ("error", "drop", None):
            raise InvalidInputError(f"invalid nulls = {nulls!r}: a released column's null is an error ('error') or left out ('drop')")
        rule: Literal["error", "drop"] = "drop" if check_nulls(nulls, mechanism) == "drop" else "error"
        counts = count(released, column, nulls=rule)
    if isinstance(counts, dict):
        unknown = [k for k in counts if str(k) not in outputs]
        if unknown:
            raise InvalidInputError(
                f"invalid counts: {unknown[0]!r} is not an output of the mechanism; "
                f"its outputs are {', '.join(outputs[:5])}{', ...' if m > 5 else ''}"
            )
        by_name = {str(k): v for k, v in counts.items()}
        counts = [by_name.get(o, 0) for o in outputs]
    values = _sequence("counts", counts)
    if len(values) != m:
        raise InvalidInputError(f"invalid counts: {len(values)} counts for {m} outputs; give one count per output")
    reps = None if bootstrap is None else _whole("bootstrap", bootstrap)
    key = None if seed is None else str(seed)
    if isinstance(mechanism, PublicDesign):
        note: Optional[str] = f"a public file: not re-verified here: {mechanism.unverified}"
    elif isinstance(mechanism, Design):
        note = None
    else:
        note = "a bare matrix: nothing in it was verified"
    confidence = _number("confidence", confidence)
    limit = None if time_limit is None else _number("time_limit", time_limit)
    out = _native.estimate(matrix, _vector("counts", values), str(method), confidence, reps, key, labels, note, limit)
    for warning in out["warnings"]:
        warnings.warn(warning, stacklevel=2)
    return Estimate(out)


def _estimate_record(design: Any, frame: Any, confidence: float) -> Record:
    """``estimate`` of a record design: the released tuples of ``frame``'s
    ``{column}_private`` columns counted by the frame's engine, then the joint
    cells and each column's marginal (``pml estimate`` of a record design)."""
    columns = [f"{c}_private" for c in design.columns]
    module = type(frame).__module__.split(".")[0]
    names = list(frame.collect_schema().names() if hasattr(frame, "collect_schema") else getattr(frame, "columns", []))
    absent = [c for c in columns if c not in names]
    if module not in ("pandas", "polars") or absent:
        raise InvalidInputError(
            f"invalid released = {type(frame).__name__}: a record design estimates from a pandas or polars frame "
            f"with the columns {columns}" + (f" (missing {absent})" if absent else "")
        )
    from ._reading import recorded
    from ._record_design import recorded_nulls

    public = isinstance(design, PublicRecord)
    if public:
        parts = design.parts
        rule = recorded("public_record", columns, [p.labels for p in parts], [p.settings for p in parts])[0]
    else:
        rule = recorded_nulls(design)
    dropped = rule == "drop"
    if module == "pandas":
        gone = np.column_stack([missing(frame[c]) for c in columns])
        if dropped:
            # Rows released with every private value missing (nulls='drop'): left out.
            frame, gone = frame[~gone.all(axis=1)], gone[~gone.all(axis=1)]
        if gone.any():
            raise InvalidInputError(f"invalid released: a null in {columns}; every released row has a value in each column")
        grouped = frame.groupby(columns, sort=False, observed=True).size()
        tuples = [([str(v) for v in (k if isinstance(k, tuple) else (k,))], int(n)) for k, n in grouped.items()]
    else:
        data = frame.collect() if hasattr(frame, "collect") else frame
        gone = np.column_stack([missing(data[c]) for c in columns])
        if dropped:
            import polars as pl

            data, gone = data.filter(pl.Series(~gone.all(axis=1))), gone[~gone.all(axis=1)]
        if gone.any():
            raise InvalidInputError(f"invalid released: a null in {columns}; every released row has a value in each column")
        grouped = data.group_by(columns, maintain_order=True).len()
        tuples = [([str(v) for v in row[:-1]], int(row[-1])) for row in grouped.iter_rows()]
    native = _native.estimate_public_record if public else _native.estimate_record
    out = json.loads(native(design.to_json(), tuples, confidence))
    for warning in out["warnings"]:
        warnings.warn(warning, stacklevel=3)
    return Record(out)
