"""What the receivers of a release get: ``Design.public()``, as ``pml publish`` writes it."""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

import numpy as np

from . import _native
from ._native import InvalidInputError
from ._records import _CERTIFIED, Checked


class PublicDesign(Checked):
    """The public part of a design: the mechanism, its labels and outputs, how values
    were read (missing values, bins), the notion and level with the guarantee in words,
    and the checks a receiver can redo without the sample (every row a distribution,
    the LDP level). It holds no prior, count, sample size, input path or digest: the
    data holder's :class:`Design` keeps those.

    Made by :meth:`Design.public`, written with ``to_json()`` (the file of ``pml
    publish``), read back with ``PublicDesign.from_json`` (its checks and sentence
    re-derived). :func:`estimate` takes it in place of the design.

    Examples
    --------
    >>> import pmldesign
    >>> d = pmldesign.design([0.5, 0.3, 0.2], 1.0, labels=["a", "b", "c"])
    >>> p = d.public()
    >>> p.labels, "prior" in p
    (['a', 'b', 'c'], False)
    """

    @classmethod
    def _checked(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        import json

        return cls.from_json(json.dumps(dict(data)))._data

    @classmethod
    def from_json(cls, text: str) -> "PublicDesign":
        """A public file read back: its checks and its guarantee re-derived from the
        matrix and the notion; a file whose statements differ is refused (VerificationError)."""
        if not isinstance(text, (str, bytes, bytearray)):
            raise InvalidInputError(f"invalid text of type {type(text).__name__}: pass the str of PublicDesign.to_json()")
        if isinstance(text, (bytes, bytearray)):
            text = bytes(text).decode("utf-8", errors="replace")
        data = dict(_native.check_public(text))
        data.pop("unverified", None)
        return cls(data, _CERTIFIED)

    @property
    def mechanism(self) -> np.ndarray:
        """P(Y|X) as a float64 array of shape (N, M): rows are inputs, columns outputs."""
        return np.asarray(self._data["mechanism"], dtype=np.float64)

    @property
    def labels(self) -> List[str]:
        """The input names (rows)."""
        return list(self._data["labels"])

    @property
    def outputs(self) -> List[str]:
        """The output names (columns): the values a released column holds."""
        return list(self._data["outputs"])

    @property
    def guarantee(self) -> str:
        """The guarantee in words."""
        return str(self._data["guarantee"])

    @property
    def ldp_epsilon(self) -> Optional[float]:
        """The LDP level re-measured on the matrix, the same for every prior (``None``:
        infinite, some output excludes some input)."""
        v = self._data["checks"]["ldp_epsilon"]
        return None if v is None else float(v)

    @property
    def settings(self) -> Dict[str, str]:
        """How the design read its data: ``nulls`` and ``bins``, where recorded."""
        return dict(self._data["settings"])

    @property
    def unverified(self) -> str:
        """What a receiver cannot re-verify from this file (the data holder's design
        file certifies it)."""
        notion = self._data["notion"]
        if notion.get("notion") in ("ldp", "metric"):
            return "the mechanism's optimality"
        return (
            "the guarantee under the distribution of X, which the file leaves out, "
            "and the mechanism's optimality"
        )


def public_of(design_json: str) -> PublicDesign:
    """The public part of a design's JSON (read back and verified first)."""
    return PublicDesign.from_json(_native.public_design(design_json))


class PublicRecord(Checked):
    """What the receivers of a ``compose`` or ``ldp`` record release get, as ``pml
    publish`` writes it for a record design: one :class:`PublicDesign` per column
    (``parts``), the record's ``columns``, ``mode`` and total level, and the
    record's guarantee in words, re-derived on reading from the parts' levels. No
    prior, count, sample size or radius.

    Made by :meth:`RecordDesign.public`, written with ``to_json()``, read back
    with ``PublicRecord.from_json``. :func:`estimate` takes it in place of the
    record design, with the released frame; :func:`apply` refuses it.
    """

    @classmethod
    def _checked(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        import json

        return cls.from_json(json.dumps(dict(data)))._data

    @classmethod
    def from_json(cls, text: str) -> "PublicRecord":
        """A public record file read back: every part re-checked and the record's
        sentence re-derived; a file whose statements differ is refused (VerificationError)."""
        import json

        if not isinstance(text, (str, bytes, bytearray)):
            raise InvalidInputError(f"invalid text of type {type(text).__name__}: pass the str of PublicRecord.to_json()")
        if isinstance(text, (bytes, bytearray)):
            text = bytes(text).decode("utf-8", errors="replace")
        return cls(json.loads(_native.check_public_record(text)), _CERTIFIED)

    @property
    def columns(self) -> List[str]:
        """The record's columns, released as ``{column}_private``."""
        return list(self._data["columns"])

    @property
    def mode(self) -> str:
        """``compose`` or ``ldp``."""
        return str(self._data["mode"])

    @property
    def parts(self) -> List[PublicDesign]:
        """The public part of each column, in the columns' order."""
        return [PublicDesign(part, _CERTIFIED) for part in self._data["parts"]]

    @property
    def guarantee(self) -> str:
        """The record's guarantee in words."""
        return str(self._data["guarantee"])

    @property
    def unverified(self) -> str:
        """What a receiver cannot re-verify from this file."""
        if self.mode == "ldp":
            return "the designs' optimality"
        return (
            "the record's PML guarantee, which depends on the distribution of the record that the file "
            "leaves out, and the designs' optimality"
        )


def public_record_of(record_json: str) -> PublicRecord:
    """The public file of a record design's JSON (read back and re-certified first)."""
    import json

    return PublicRecord(json.loads(_native.public_record(record_json)), _CERTIFIED)
