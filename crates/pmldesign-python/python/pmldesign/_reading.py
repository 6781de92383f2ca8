"""How a design's data were read (``nulls=``, ``bins=``), kept in its settings so
that ``apply`` and ``estimate`` read the released rows alike. Where each file keeps
them and how they are read back is the library's one rule, shared with ``pml``: a
stored design is untrusted, so the parts of a record must agree on nulls and
recorded edges must cut exactly their column's labels.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from . import _native
from ._codes import Nulls, check_nulls_name


def settings_of(part: Mapping[str, Any]) -> Dict[str, str]:
    """A design's reading settings (``provenance.settings``)."""
    held = (part.get("provenance") or {}).get("settings")
    return {str(k): str(v) for k, v in (held or {}).items()}


def of_design(design: Any) -> Tuple[Nulls, Optional[List[float]]]:
    """The rule for nulls and the edges (None: not binned) a :class:`Design` recorded."""
    nulls, bins = recorded("design", [], [design.labels], [settings_of(design._full())])
    return nulls, bins[0]


def recorded(
    layout: str,
    columns: Sequence[str],
    labels: Sequence[Sequence[str]],
    parts: Sequence[Mapping[str, str]],
    mode: Optional[str] = None,
) -> Tuple[Nulls, List[Optional[List[float]]]]:
    """The rule for nulls and each column's edges (None: not binned) that a file of
    ``layout`` (``design``, ``public``, ``record``, ``public_record``) recorded."""
    nulls, bins = _native.recorded_reading(
        layout, list(columns), [list(map(str, l)) for l in labels], [dict(p) for p in parts], mode
    )
    return check_nulls_name(nulls), bins


def kept(
    layout: str,
    columns: Sequence[str],
    nulls: Nulls,
    bins: Sequence[Optional[List[float]]],
    part: int,
    mode: Optional[str] = None,
) -> Dict[str, str]:
    """The settings part ``part`` of a file of ``layout`` keeps for a reading, as
    ``pml design --nulls --bins`` writes them."""
    return dict(_native.reading_settings(layout, list(columns), nulls, list(bins), part, mode))


def keep(settings: Dict[str, Any], more: Mapping[str, str]) -> Dict[str, Any]:
    """``settings`` with ``more`` added, in the order ``pml`` writes them (by name)."""
    return dict(sorted({**settings, **more}.items()))
