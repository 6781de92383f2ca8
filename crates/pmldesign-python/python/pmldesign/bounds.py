"""Planning calculators for designs from samples ([E] Sec. II-B, III; §6 of the theory page of the user guide).

Each function answers one question of ``pml bounds`` and returns its answer, the
JSON of ``pml bounds --format json`` (``to_dict()``), whose figures read as
attributes by name: the answer (``.beta``, ``.delta``, ``.epsilon_prime``,
``.delta_min``, ``.samples``, ``.epsilon``), the related figures, and ``formula``,
the equation of [E] it comes from. Invalid regions (for example ``beta* e^eps >= 2``) raise
:class:`pmldesign.PmlError` with the reason.
"""

from __future__ import annotations

from typing import Any, Dict, Optional

from . import _native
from ._design import ArrayLike, _number, _vector
from ._native import InvalidInputError
from ._records import Answer

__all__ = ["radius", "failure_probability", "epsilon_prime", "delta_min", "samples", "max_epsilon"]


def _whole(name: str, value: Any, least: int) -> int:
    """A whole-number argument of at least ``least``, or a PmlError naming it."""
    if isinstance(value, bool) or not isinstance(value, int) and not (isinstance(value, float) and value.is_integer()):
        raise InvalidInputError(f"invalid {name} = {value!r}: not a whole number; pass e.g. {name}=1000")
    if int(value) < least:
        raise InvalidInputError(f"invalid {name} = {value!r}: must be at least {least}")
    return int(value)


def _ask(question: str, **kwargs: Any) -> Answer:
    """Asks the library one planning question."""
    return Answer(_native.bound(question, **kwargs))


def _sample_args(samples: Any, alphabet: Any, estimate: Any) -> Dict[str, Any]:
    """``samples``, ``alphabet`` (an estimate's length by default) and ``estimate``."""
    est = None if estimate is None else _vector("estimate", estimate).tolist()
    n = len(est) if est is not None and alphabet is None else alphabet
    if n is None:
        raise InvalidInputError("invalid alphabet = None: give the alphabet size N or an estimate")
    return {"samples": _whole("samples", samples, 1), "alphabet": _whole("alphabet", n, 2), "estimate": est}


def radius(samples: int, delta: float, alphabet: Optional[int] = None, *, estimate: Optional[ArrayLike] = None) -> Answer:
    """The l1 radius ``beta*(delta)`` around an estimate from m samples ([E] eq. (7)).

    Parameters
    ----------
    samples : int
        The sample size m.
    delta : float
        The failure probability.
    alphabet : int, optional
        The alphabet size N (the estimate's length by default).
    estimate : array_like of float, optional
        Use the sharper Theorem 2 radius with phi(kappa) of this estimate (a
        plug-in for the unknown prior's kappa).

    Returns
    -------
    Answer
        ``beta``, with ``formula`` and the related figures.

    Examples
    --------
    >>> from pmldesign import bounds
    >>> round(bounds.radius(1000, 1e-6, 4).beta, 6)
    0.181409
    """
    return _ask("radius", delta=_number("delta", delta), **_sample_args(samples, alphabet, estimate))


def failure_probability(samples: int, beta: float, alphabet: Optional[int] = None, *, estimate: Optional[ArrayLike] = None) -> Answer:
    """``P(||p - p^||_1 >= beta)`` for an estimate from m samples ([E] Theorem 2).

    Parameters
    ----------
    samples : int
        The sample size m.
    beta : float
        The l1 radius.
    alphabet : int, optional
        The alphabet size N (the estimate's length by default).
    estimate : array_like of float, optional
        Use phi(kappa) of this estimate.

    Returns
    -------
    Answer
        ``delta``, with ``formula``.
    """
    return _ask("failure_probability", beta=_number("beta", beta), **_sample_args(samples, alphabet, estimate))


def epsilon_prime(epsilon: float, beta: float) -> Answer:
    """eps' of [E] eq. (8): a design eps-PML for the estimate is eps'-PML within beta.

    Parameters
    ----------
    epsilon : float
        The design's level for the estimate.
    beta : float
        The l1 distance of the true prior from the estimate.

    Returns
    -------
    Answer
        ``epsilon_prime``, with ``formula``.
    """
    return _ask("epsilon_prime", epsilon=_number("epsilon", epsilon), beta=_number("beta", beta))


def delta_min(epsilon: float, epsilon_prime: float, samples: int, alphabet: int) -> Answer:
    """delta_min of [E] Corollary 3: the failure probability of an eps'-PML guarantee.

    Parameters
    ----------
    epsilon : float
        The design's level for the estimate.
    epsilon_prime : float
        The target level for the true prior.
    samples : int
        The sample size m.
    alphabet : int
        The alphabet size N.

    Returns
    -------
    Answer
        ``delta_min``, with ``formula``.
    """
    return _ask("delta_min", epsilon=_number("epsilon", epsilon), epsilon_prime=_number("epsilon_prime", epsilon_prime),
                samples=_whole("samples", samples, 1), alphabet=_whole("alphabet", alphabet, 2))


def samples(epsilon: float, epsilon_prime: float, delta: float, alphabet: int) -> Answer:
    """The smallest m for an (eps', delta) guarantee of a design at eps ([E] Cor. 3).

    Parameters
    ----------
    epsilon : float
        The design's level for the estimate.
    epsilon_prime : float
        The target level for the true prior.
    delta : float
        The failure probability.
    alphabet : int
        The alphabet size N.

    Returns
    -------
    Answer
        ``samples``, with ``formula``.

    Examples
    --------
    >>> from pmldesign import bounds
    >>> bounds.samples(1.0, 1.5, 1e-6, 4).samples
    393
    """
    return _ask("samples", epsilon=_number("epsilon", epsilon), epsilon_prime=_number("epsilon_prime", epsilon_prime),
                delta=_number("delta", delta), alphabet=_whole("alphabet", alphabet, 2))


def max_epsilon(epsilon_prime: float, samples: int, delta: float, alphabet: int) -> Answer:
    """The largest design eps whose eps'(delta) is at most the target ([E] (7)-(8)).

    Parameters
    ----------
    epsilon_prime : float
        The target level for the true prior.
    samples : int
        The sample size m.
    delta : float
        The failure probability.
    alphabet : int
        The alphabet size N.

    Returns
    -------
    Answer
        ``epsilon``, with ``formula``.
    """
    return _ask("max_epsilon", epsilon_prime=_number("epsilon_prime", epsilon_prime),
                samples=_whole("samples", samples, 1), delta=_number("delta", delta),
                alphabet=_whole("alphabet", alphabet, 2))
