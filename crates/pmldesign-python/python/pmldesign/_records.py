"""Result objects: read-only attribute views over the JSON the library writes.

Every result of ``pmldesign`` is a JSON object (the same as the ``pml`` command line
tool prints with ``--format json``); these classes give attribute access to it,
matrices as numpy arrays, and ``to_dict()`` / ``to_json()`` to get it back.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Dict, Iterator, List, Mapping

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

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._data))

    def __contains__(self, key: str) -> bool:
        return key in self._data

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Record) and self._data == other._data

    __hash__ = None  # type: ignore[assignment]

    def keys(self) -> Iterator[str]:
        """The JSON keys."""
        return iter(self._data)

    def to_dict(self) -> Dict[str, Any]:
        """A deep copy of the JSON object (plain lists, floats and ``None``)."""
        return copy.deepcopy(self._data)

    def to_json(self, indent: int | None = 2) -> str:
        """The JSON text."""
        return json.dumps(self._data, indent=indent)

    def __repr__(self) -> str:
        keys = ", ".join(list(self._data)[:8])
        more = ", ..." if len(self._data) > 8 else ""
        return f"{type(self).__name__}({keys}{more})"


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
    def tolerance(self) -> float:
        """Slack allowed on the worst-case PML above eps (rounding), 1e-10."""
        return float(_native.PML_TOLERANCE)

    @property
    def row_sum_tolerance(self) -> float:
        """Largest allowed ``|sum_y W[x, y] - 1|`` of a designed mechanism, 1e-12."""
        return float(_native.ROW_SUM_TOLERANCE)
