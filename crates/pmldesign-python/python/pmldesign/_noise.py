"""Additive noise on a column of -1 and 1, released exactly on a public grid:
``apply_noise`` (``pml apply --laplace-scale | --laplace-epsilon | --gaussian-sigma``;
§7b of the theory page of the user guide)."""

from __future__ import annotations

import warnings
from typing import Any, Optional, Tuple

import numpy as np

from . import _native
from ._codes import secret_of
from ._design import ArrayLike, _number, _text, _vector
from ._native import InvalidInputError
from ._records import Record


def apply_noise(
    values: Any,
    *,
    laplace_scale: Optional[float] = None,
    gaussian_sigma: Optional[float] = None,
    laplace_epsilon: Optional[float] = None,
    prior: Optional[ArrayLike] = None,
    grid: Optional[float] = None,
    range: Optional[float] = None,
    tail_delta: Optional[float] = None,
    seed: Any = None,
    column: str = "value",
    offset: int = 0,
) -> Tuple[np.ndarray, Record]:
    """Releases values -1 and 1 with additive noise, drawn exactly on a grid.

    The noise is an integer number of grid steps (discrete Laplace or discrete
    Gaussian, drawn in integer arithmetic), the value clamped to a public range;
    the guarantee is measured on the released 2 x M matrix, as ``pml apply``
    states it. Row ``offset + i`` of stream ``column`` under ``seed`` draws the
    same value as ``pml apply --seed SEED --column COLUMN`` does for that row.

    Parameters
    ----------
    values : array_like of -1 and 1
        The secrets, one per row.
    laplace_scale, gaussian_sigma, laplace_epsilon : float
        Exactly one: discrete Laplace noise of scale b, discrete Gaussian noise of
        standard deviation sigma, or the Laplace scale whose release, as measured,
        is eps-LDP (eps-PML for ``prior``).
    prior : array_like of float, optional
        P(-1), P(1): measure PML for it (and calibrate ``laplace_epsilon`` to it).
    grid : float, optional
        The grid step 1/n (by default the largest at most the scale / 8).
    range : float, optional
        Release values in [-R, R] (by default the smallest R whose tails hold at
        most ``tail_delta``, 1e-9).
    tail_delta : float, optional
        The tail mass that picks the default range.
    seed : int, str or bytes, optional
        The secret key of the draws; without one it comes from the operating system.
    column : str, default "value"
        The stream's column name.
    offset : int, default 0
        The row of the first value.

    Returns
    -------
    (numpy.ndarray, Record)
        The released values (float64, each a grid point in the range), and the
        measured guarantee: ``noise``, ``scale``, ``grid_step``, ``range``,
        ``values``, ``ldp_epsilon``, ``pml_epsilon``, ``continuous_epsilon`` ([E]'s
        figure for continuous noise) and ``bounded`` (False, with a warning, when a
        released probability underflowed and no level is finite).

    Examples
    --------
    >>> import pmldesign
    >>> out, said = pmldesign.apply_noise([1, -1, 1], laplace_epsilon=1.0, seed=2**100)
    >>> said.ldp_epsilon <= 1.0 and out.shape == (3,)
    True
    """
    given = [(n, v) for n, v in (("laplace_scale", laplace_scale), ("gaussian_sigma", gaussian_sigma),
                                  ("laplace_epsilon", laplace_epsilon)) if v is not None]
    if len(given) != 1:
        raise InvalidInputError(
            "apply_noise needs exactly one of laplace_scale=, gaussian_sigma= and laplace_epsilon= "
            f"(got {', '.join(n for n, _ in given) or 'none'})"
        )
    name, level = given[0]
    if isinstance(values, (str, bytes)) or np.isscalar(values):
        raise InvalidInputError(f"invalid values = {values!r}: a single value; pass the column of -1 and 1")
    array = _vector("values", values)
    if isinstance(offset, bool) or not isinstance(offset, (int, np.integer)) or offset < 0:
        raise InvalidInputError(f"invalid offset = {offset!r}: a whole number >= 0")
    option = {k: None if v is None else _number(k, v) for k, v in (("grid", grid), ("range", range), ("tail_delta", tail_delta))}
    masses = None if prior is None else _vector("prior", prior).tolist()
    out, statement = _native.apply_noise(
        array, name, _number(name, level), _text("column", column, "sign"), int(offset), secret_of(seed), masses,
        option["grid"], option["range"], option["tail_delta"],
    )
    said = Record(statement)
    if not statement["bounded"]:
        warnings.warn(
            "a released probability underflowed: the release has no finite level and guarantees nothing; "
            "give a coarser grid or a smaller range",
            UserWarning,
            stacklevel=2,
        )
    return out, said
