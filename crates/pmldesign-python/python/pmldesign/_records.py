"""Result objects: read-only attribute views over the JSON the library writes.

Every result of ``pmldesign`` is a JSON object (the same as the ``pml`` command line
tool prints with ``--format json``); these classes give attribute access to it,
matrices as numpy arrays, and ``to_dict()`` / ``to_json()`` to get it back.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple

import numpy as np

from . import _native

#: Keys whose values are matrices (rows are inputs), returned as float64 arrays.
_MATRIX_KEYS = frozenset({"mechanism"})


def _view(key: str, value: Any) -> Any:
    """The attribute form of a JSON value: records for objects, arrays for matrices."""
    if isinstance(value, dict):
        return Record(value)
    if key in _MATRIX_KEYS and isinstance(value, list):
        return np.asarray(value, dtype=np.float64)
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return [Record(v) for v in value]
    return value


class Record:
    """A JSON object with attribute access (``r.beta`` is ``r.to_dict()["beta"]``).

    Nested objects are records, ``mechanism`` entries are numpy float64 arrays of
    shape (N, M) with rows as inputs; ``None`` stands for JSON ``null`` (an infinite
    or undefined value).
    """

    __slots__ = ("_data",)
    _data: Dict[str, Any]

    def __init__(self, data: Mapping[str, Any]) -> None:
        object.__setattr__(self, "_data", dict(data))

    def __getattr__(self, name: str) -> Any:
        data = object.__getattribute__(self, "_data")
        if name in data:
            return _view(name, data[name])
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}; it has {sorted(data)}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def _full(self) -> Dict[str, Any]:
        """The whole JSON object (a subclass may hold part of it unbuilt)."""
        return self._data

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._full()))

    def __contains__(self, key: str) -> bool:
        return key in self._full()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Record) and self._full() == other._full()

    __hash__ = None  # type: ignore[assignment]

    def keys(self) -> Iterator[str]:
        """The JSON keys."""
        return iter(self._full())

    def to_dict(self) -> Dict[str, Any]:
        """A deep copy of the JSON object (plain lists, floats and ``None``)."""
        return copy.deepcopy(self._full())

    def to_json(self, indent: int | None = 2) -> str:
        """The JSON text."""
        return json.dumps(self._full(), indent=indent)

    def __repr__(self) -> str:
        def short(v: Any) -> str:
            if isinstance(v, dict):
                return "{...}"
            if isinstance(v, list):
                return "[...]" if v else "[]"
            text = repr(v)
            return text if len(text) <= 60 else text[:57] + "..."

        data = self._full()
        shown = [f"{k}={short(v)}" for k, v in list(data.items())[:8]]
        more = ", ..." if len(data) > 8 else ""
        return f"{type(self).__name__}({', '.join(shown)}{more})"


def _real(v: Any) -> Optional[float]:
    """A JSON number as a float; ``None`` (JSON null: infinite or undefined) stays None."""
    return None if v is None else float(v)


class Guarantee(Record):
    """The (eps, delta) guarantee of a design from a sample ([E] Sec. III): with
    probability at least ``1 - delta`` over the ``samples`` rows, the true distribution
    lies in the l1 ball of radius ``beta`` that the design protects."""

    __slots__ = ()

    @property
    def samples(self) -> int:
        """The number of rows m behind the estimate."""
        return int(self._data["samples"])

    @property
    def delta(self) -> float:
        """The failure probability of the guarantee."""
        return float(self._data["delta"])

    @property
    def beta(self) -> float:
        """The l1 radius the design protects."""
        return float(self._data["beta"])

    @property
    def radius_method(self) -> str:
        """How beta follows from m and delta (``distribution_free`` or ``kappa``)."""
        return str(self._data["radius_method"])

    @property
    def statement(self) -> str:
        """The guarantee in words, to publish."""
        return str(self._data.get("statement", ""))


class Baseline(Record):
    """A mechanism a design is compared with (randomized response or a structured one).

    Its matrix is built on the first read of ``mechanism`` and kept: a design file
    leaves randomized response's matrix out (k-ary randomized response at
    ``ldp_epsilon`` over the design's inputs determines it).
    """

    __slots__ = ("_inputs", "_matrix")
    _inputs: Optional[int]
    _matrix: Optional[np.ndarray]

    def __init__(self, data: Mapping[str, Any], inputs: Optional[int] = None) -> None:
        super().__init__(data)
        rebuilt = inputs if inputs and "mechanism" not in self._data else None
        object.__setattr__(self, "_inputs", rebuilt)
        object.__setattr__(self, "_matrix", None)

    def _built(self) -> Optional[np.ndarray]:
        """The matrix as a read-only array, built once (None where none is known)."""
        if self._matrix is None:
            stated = self._data.get("mechanism")
            if stated is not None:
                matrix = np.asarray(stated, dtype=np.float64)
            elif self._inputs is not None:
                matrix = _native.randomized_response(self._inputs, self._data.get("ldp_epsilon"))
            else:
                return None
            matrix.flags.writeable = False
            object.__setattr__(self, "_matrix", matrix)
        return self._matrix

    def _full(self) -> Dict[str, Any]:
        if self._inputs is None:
            return self._data
        built = self._built()
        assert built is not None
        out = {k: v for k, v in self._data.items() if k != "ratio"}
        out["mechanism"] = built.tolist()
        if "ratio" in self._data:
            out["ratio"] = self._data["ratio"]
        return out

    @property
    def utility(self) -> float:
        """Its utility under the reference prior (minus the loss or the estimation error)."""
        return float(self._data["utility"])

    @property
    def worst_case_pml(self) -> Optional[float]:
        """Its worst-case PML over the design's set (None: infinite)."""
        return _real(self._data.get("worst_case_pml"))

    @property
    def mechanism(self) -> Optional[np.ndarray]:
        """Its matrix, rows as inputs, read-only (the same array at each read;
        ``.copy()`` to change it). None for a structured baseline of more than
        65,536 entries read from a design file, which leaves it out (``pml``'s
        readers re-derive it)."""
        return self._built()

    @property
    def ratio(self) -> Optional[float]:
        """The design's objective over this baseline's (None where the baseline's is 0)."""
        return _real(self._data.get("ratio"))


class Verification(Record):
    """What re-checking a design proved (``Design.verify``): the verdict of
    ``pml assess --design FILE --format json`` (``to_dict()`` is that JSON, its
    ``source`` ``"<design>"``), what was re-checked under ``verification``."""

    __slots__ = ()

    @property
    def utility_value(self) -> float:
        """The utility re-measured on the matrix."""
        return float(self._data["verification"]["utility_value"])

    @property
    def proven_bound(self) -> Optional[float]:
        """The smallest upper bound on the optimum proven here."""
        return _real(self._data["verification"].get("proven_bound"))

    @property
    def dual_bound(self) -> Optional[float]:
        """The bound the stored dual proves once re-priced (None without one)."""
        return _real(self._data["verification"].get("dual_bound"))

    @property
    def repricing(self) -> str:
        """Over which rays the dual was re-priced (``exact``, ``containing``, ...)."""
        return str(self._data["verification"]["repricing"])


class Answer(Record):
    """The answer to a planning question (:mod:`pmldesign.bounds`): the JSON of
    ``pml bounds --format json`` (``question``, ``formula``, ``inputs``,
    ``answer`` with its ``name`` and ``value``, ``related``, ``statement``,
    ``notes``), and each figure by its name as an attribute: ``r.beta`` is the
    answer's value where the answer is ``beta``, else the related figure or the
    input of that name."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        data = object.__getattribute__(self, "_data")
        if name in data:
            return _view(name, data[name])
        answer = data.get("answer") or {}
        if answer.get("name") == name:
            return answer.get("value")
        for part in ("related", "inputs"):
            if name in (data.get(part) or {}):
                return _view(name, data[part][name])
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}; it has {sorted(self._figures())}")

    def _figures(self) -> List[str]:
        data = self._data
        names = set(data) | set(data.get("related") or {}) | set(data.get("inputs") or {})
        answer = data.get("answer") or {}
        return sorted(names | ({answer["name"]} if "name" in answer else set()))

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._figures()))


class ApplySummary(Record):
    """What a release did (:func:`apply` with ``summary=True``): the JSON of ``pml
    apply --summary``, with ``format`` ``"frame"`` and places as rows (the first
    row of the values given being row 0): ``rows``, ``privatised``, ``skipped``
    (``on_unknown="skip"``), ``kept_empty`` (``"keep"``), ``written_missing``
    (``nulls="drop"``), ``first_unknown`` (``{"row", "value"}`` or None),
    ``columns`` (each ``column`` and the name it is ``written_as``) and
    ``raw_kept``."""

    __slots__ = ()


class Estimate(Record):
    """The input distribution estimated from released data (:func:`estimate`)."""

    __slots__ = ()

    @property
    def estimates(self) -> List[Dict[str, Any]]:
        """One dict per group of inputs released alike: ``label``, ``inputs``,
        ``dependent`` (a block of linearly dependent rows), ``estimate``,
        ``lower``, ``upper``, ``standard_error`` and ``unprojected`` (for
        inversion, the estimate before its projection onto the simplex; None for
        EM), as in ``pml estimate --format json`` (ready for
        ``pandas.DataFrame(result.estimates)``)."""
        return copy.deepcopy(list(self._data.get("estimates", [])))

    @property
    def notes(self) -> List[str]:
        """One sentence per group of inputs whose rows of the mechanism differ
        but are linearly dependent: released as one group, only its total is
        estimable."""
        return list(self._data.get("notes", []))

    @property
    def method(self) -> str:
        """``em`` or ``inversion``."""
        return str(self._data["method"])

    @property
    def rows(self) -> int:
        """Released rows counted."""
        return int(self._data["rows"])

    @property
    def confidence(self) -> float:
        """The confidence of the intervals."""
        return float(self._data["confidence"])

    @property
    def log_likelihood(self) -> Optional[float]:
        """The log-likelihood of the counts at the estimate."""
        return _real(self._data.get("log_likelihood"))

    @property
    def converged(self) -> bool:
        """Whether EM met its stopping rule before its iteration cap."""
        return bool(self._data.get("converged", True))

    @property
    def fit(self) -> Optional[Dict[str, Any]]:
        """The G test of the counts against the fitted output distribution:
        ``statistic``, ``degrees_of_freedom`` and ``p_value`` (None with no
        degree of freedom: the test has no power). A p-value below 1e-6 (also
        a note and a warning) says the data may have been released through
        another design. None for a record."""
        fit = self._data.get("fit")
        return None if fit is None else dict(fit)


#: Passed by the library's own constructors: the data was certified (by the run
#: that made it, or by the native reader). Any other construction is checked.
_CERTIFIED = object()


class Checked(Record):
    """A record that the library certifies: ``Design(data)`` or
    ``RecordDesign(data)`` built from a dict by a user is read back and verified
    by the native reader first (as ``from_dict`` does), so no public constructor
    yields an unverified design that ``apply`` would use."""

    __slots__ = ()

    def __init__(self, data: Mapping[str, Any], _certified: Any = None) -> None:
        super().__init__(data if _certified is _CERTIFIED else self._checked(data))

    @classmethod
    def _checked(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """``data`` as the native reader re-derives it, or a PmlError."""
        raise NotImplementedError


class Certificate(Record):
    """The evidence behind a design ([E] Thm 1, §4 of the theory page of the user guide).

    ``worst_case_pml`` is re-measured from the matrix over the whole uncertainty set
    (exactly, by the greedy mass transfer for an l1 ball); it is at most the target eps
    plus ``tolerance``. ``max_row_sum_error`` is at most ``row_sum_tolerance``.
    ``upper_bound`` is an LP dual bound on the utility of every feasible mechanism and
    ``gap = upper_bound - utility_value``; ``dual`` holds lambda so anyone can check it.
    """

    @property
    def worst_case_pml(self) -> float:
        """The largest PML of any output over the whole set, re-measured from the matrix."""
        return float(self._data["worst_case_pml"])

    @property
    def target_epsilon(self) -> float:
        """The level eps the design was asked for."""
        return float(self._data["target_epsilon"])

    @property
    def utility_value(self) -> float:
        """The utility measured on the matrix (minus the loss or the estimation error)."""
        return float(self._data["utility_value"])

    @property
    def upper_bound(self) -> Optional[float]:
        """The certified bound on every feasible mechanism's utility (``None``: none known)."""
        return _real(self._data.get("upper_bound"))

    @property
    def gap(self) -> Optional[float]:
        """``upper_bound - utility_value``: how far below the optimum the design can be."""
        return _real(self._data.get("gap"))

    @property
    def max_row_sum_error(self) -> float:
        """The largest ``|sum_y W[x, y] - 1|`` of the matrix."""
        return float(self._data["max_row_sum_error"])

    @property
    def min_entry(self) -> float:
        """The smallest entry of the matrix."""
        return float(self._data["min_entry"])

    @property
    def dual(self) -> Optional[Record]:
        """The LP dual behind the bound (``lambda``, ``max_reduced_cost``, ``bound``), or None."""
        d = self._data.get("dual")
        return Record(d) if isinstance(d, dict) else None

    @property
    def floor_priors(self) -> List[List[Tuple[int, float]]]:
        """Under eps-LDP, for estimation: the priors of few levels whose mixture floor
        proves the bound, each as ``(count, relative mass)`` per level in decreasing
        order of the prior's masses (docs/theory.md section 13); empty where none was
        used. Readers recompute the floor from them."""
        return [[(int(n), float(w)) for n, w in q] for q in self._data.get("floor_priors") or []]

    def holds(self) -> bool:
        """Whether the design meets its notion at its level(s) within the certified
        tolerance, with no negative entry and rows summing to 1 within 1e-12: the
        library's verdict (``Certificate::holds``) on the fields as they stand. For
        eps-PML the worst-case PML is at most eps; for PMC, LIP and ALIP the measured
        PMC and PML levels are at most theirs; for LDP and metric privacy their own."""
        return _native.certificate_holds(json.dumps(self._data))

    @property
    def tolerance(self) -> float:
        """Slack allowed on the worst-case PML above eps (rounding), 1e-10."""
        return float(_native.PML_TOLERANCE)

    @property
    def row_sum_tolerance(self) -> float:
        """Largest allowed ``|sum_y W[x, y] - 1|`` of a designed mechanism, 1e-12."""
        return float(_native.ROW_SUM_TOLERANCE)
