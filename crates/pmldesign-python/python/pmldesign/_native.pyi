"""Type stubs of the native module ``pmldesign._native`` (use ``pmldesign`` instead)."""

from typing import Any, Callable, Dict, List, Optional, Tuple, TypedDict, type_check_only

import numpy as np
import numpy.typing as npt

__all__ = [
    "PmlError", "InvalidInputError", "InfeasibleError", "LimitReachedError", "VerificationError", "PML_TOLERANCE", "ROW_SUM_TOLERANCE", "OUTPUT_FORMAT_VERSION", "MAX_CATEGORIES", "design", "design_from_counts", "check_design", "estimate",
    "verify_design", "certificate_holds", "public_design", "check_public", "randomized_response", "apply_codes", "apply_categories", "apply_summary", "key_positions", "bin_labels", "bin_text", "bin_codes", "missing_text", "recorded_reading", "reading_settings", "assess", "compare",
    "envelope", "bound", "apply_noise", "names_fit", "design_record", "check_record", "estimate_record",
    "public_record", "check_public_record", "estimate_public_record", "design_report", "record_report",
]

PML_TOLERANCE: float
ROW_SUM_TOLERANCE: float
OUTPUT_FORMAT_VERSION: int
MAX_CATEGORIES: int

class PmlError(ValueError):
    """Bad input or a failed computation; the library's one-line message."""

class InvalidInputError(PmlError):
    """Bad input: the message names the field, the value and the fix."""

class InfeasibleError(PmlError):
    """No mechanism meets the request on valid input."""

class LimitReachedError(PmlError):
    """A time limit or a work budget stopped the run before it had a mechanism."""

class VerificationError(PmlError):
    """A certificate, a numerical limit or a file read back failed its check."""

@type_check_only
class DesignOptions(TypedDict):
    """The options of both design functions (every key is required; a plain dict at
    run time: the module defines no such class)."""

    utility: str
    loss: Optional[str]
    loss_matrix: Optional[List[List[float]]]
    labels: Optional[List[str]]
    time_limit: Optional[float]
    gap: float
    pricing: str
    loss_method: str
    envelope_delta: float

def design(
    prior: npt.ArrayLike,
    epsilon: float,
    options: DesignOptions,
    *,
    beta: Optional[float] = ...,
    notion: str = ...,
    epsilon_lower: Optional[float] = ...,
    metric: Optional[str] = ...,
    metric_matrix: Optional[List[List[float]]] = ...,
    progress: Optional[Callable[[Dict[str, float]], Any]] = ...,
) -> Dict[str, Any]: ...
def design_from_counts(
    counts: npt.ArrayLike,
    epsilon: float,
    options: DesignOptions,
    *,
    delta: float,
    radius: str = ...,
    private_prior: Optional[Tuple[float, str]] = ...,
    progress: Optional[Callable[[Dict[str, float]], Any]] = ...,
) -> Dict[str, Any]: ...
def check_design(text: str) -> Dict[str, Any]: ...
def verify_design(text: str) -> Dict[str, Any]: ...
def certificate_holds(text: str) -> bool: ...
def public_design(text: str) -> str: ...
def check_public(text: str) -> Dict[str, Any]: ...
def apply_codes(
    mechanism: npt.ArrayLike,
    codes: npt.ArrayLike,
    column: str,
    offset: int = ...,
    seed: Optional[str] = ...,
    positions: Optional[npt.ArrayLike] = ...,
) -> npt.NDArray[np.uint32]: ...
def apply_categories(
    mechanism: npt.ArrayLike,
    codes: npt.NDArray[np.integer[Any]],
    table: List[int],
    column: str,
    offset: int = ...,
    seed: Optional[str] = ...,
) -> npt.NDArray[np.signedinteger[Any]]: ...
def apply_summary(
    counts: Tuple[int, int, int, int, int],
    first_unknown: Optional[Tuple[int, str]],
    columns: List[Tuple[str, str]],
    raw_kept: bool,
) -> Dict[str, Any]: ...
def key_positions(keys: List[str]) -> npt.NDArray[np.uint64]: ...
def randomized_response(n: int, ldp_epsilon: Optional[float] = ...) -> npt.NDArray[np.float64]: ...
def bin_labels(edges: List[float]) -> List[str]: ...
def bin_text(edges: List[float]) -> str: ...
def bin_codes(edges: List[float], values: npt.ArrayLike) -> npt.NDArray[np.int64]: ...
def missing_text(values: List[str]) -> List[bool]: ...
def recorded_reading(
    layout_name: str,
    columns: List[str],
    labels: List[List[str]],
    parts: List[Dict[str, str]],
    mode: Optional[str] = ...,
) -> Tuple[str, List[Optional[List[float]]]]: ...
def reading_settings(
    layout_name: str,
    columns: List[str],
    nulls: str,
    bins: List[Optional[List[float]]],
    part: int,
    mode: Optional[str] = ...,
) -> List[Tuple[str, str]]: ...
def names_fit(names: List[str], m: int) -> bool: ...
def apply_noise(
    values: npt.ArrayLike,
    noise: str,
    level: float,
    column: str,
    offset: int = ...,
    seed: Optional[str] = ...,
    prior: Optional[List[float]] = ...,
    grid: Optional[float] = ...,
    range: Optional[float] = ...,
    tail_delta: Optional[float] = ...,
) -> Tuple[npt.NDArray[np.float64], Dict[str, Any]]: ...
def assess(
    mechanism: npt.ArrayLike,
    prior: Optional[npt.ArrayLike],
    beta: Optional[float] = ...,
    envelope_delta: float = ...,
    labels: Optional[List[str]] = ...,
    counts: Optional[npt.ArrayLike] = ...,
    delta: Optional[float] = ...,
    radius: str = ...,
    priors: Optional[List[List[float]]] = ...,
    metric: Optional[str] = ...,
    metric_matrix: Optional[List[List[float]]] = ...,
) -> Dict[str, Any]: ...
def compare(
    prior: npt.ArrayLike,
    epsilon: float,
    beta: Optional[float] = ...,
    utility: str = ...,
    alip: Optional[Tuple[float, float]] = ...,
    labels: Optional[List[str]] = ...,
    time_limit: Optional[float] = ...,
    metric: Optional[str] = ...,
    metric_matrix: Optional[List[List[float]]] = ...,
) -> Dict[str, Any]: ...
def estimate(
    mechanism: npt.ArrayLike,
    counts: npt.ArrayLike,
    method: str = ...,
    confidence: float = ...,
    bootstrap: Optional[int] = ...,
    seed: Optional[str] = ...,
    labels: Optional[List[str]] = ...,
    note: Optional[str] = ...,
    time_limit: Optional[float] = ...,
) -> Dict[str, Any]: ...
def envelope(
    mechanism: npt.ArrayLike,
    prior: npt.ArrayLike,
    deltas: Optional[List[float]] = ...,
    delta: float = ...,
    lp: bool = ...,
    time_limit: Optional[float] = ...,
    labels: Optional[List[str]] = ...,
) -> Dict[str, Any]: ...
def bound(
    question: str,
    *,
    samples: int = ...,
    delta: float = ...,
    alphabet: int = ...,
    beta: float = ...,
    epsilon: float = ...,
    epsilon_prime: float = ...,
    estimate: Optional[List[float]] = ...,
) -> Dict[str, Any]: ...
def design_record(
    columns: List[str],
    labels: List[List[str]],
    tuples: List[Tuple[List[int], int]],
    epsilon: float,
    *,
    delta: Optional[float] = ...,
    mode: str = ...,
    split: Optional[List[float]] = ...,
    max_cells: int = ...,
    time_limit: Optional[float] = ...,
    gap: float = ...,
) -> str: ...
def check_record(text: str) -> str: ...
def estimate_record(text: str, released: List[Tuple[List[str], int]], confidence: float) -> str: ...
def public_record(text: str) -> str: ...
def check_public_record(text: str) -> str: ...
def estimate_public_record(text: str, released: List[Tuple[List[str], int]], confidence: float) -> str: ...
def design_report(text: str, tradeoff: Optional[float] = ..., design_file: Optional[str] = ...) -> str: ...
def record_report(text: str, design_file: Optional[str] = ...) -> str: ...
