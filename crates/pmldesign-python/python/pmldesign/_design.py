"""Designs: ``design``, ``design_from_counts`` and the ``Design`` they return.

References (the theory page of the user guide states every formula with the papers'
numbering):

- [E] *Mechanism design from empirical distributions*: PML over sets of priors,
  Proposition 2's l1 ball, guarantees from samples (Sec. III, eqs. (7)-(8), Thm 2).
- [D] *Information density bounds*: PMC, ALIP, LIP, and LDP on the same density.
- [V] *Information leakage envelopes*: post-processing-safe (eps, delta) guarantees.
"""

from __future__ import annotations

import json
import sys
import numbers
import math
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native
from ._codes import Nulls, check_nulls_name, secret_of
from ._native import InvalidInputError, VerificationError
from . import _report
from ._records import _CERTIFIED, Baseline, Certificate, Checked, Guarantee, Record, Verification

if TYPE_CHECKING:
    from ._public import PublicDesign

ArrayLike = Union[Sequence[float], np.ndarray]
Progress = Callable[[Any], Any]


class ProgressInfo(dict[str, Any]):
    """What ``progress`` receives after each pricing pass: ``iterations``,
    ``lower_bound`` (the best certified mechanism), ``upper_bound`` (the certified
    bound), ``rays_priced``, ``elapsed``, read as attributes or as keys."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"progress info has no {name!r}; it has {sorted(self)}") from None


#: Seconds after which a design run without ``progress`` reports on stderr, and
#: between two reports.
REPORT_AFTER, REPORT_EVERY = 10.0, 30.0


def _progress(progress: Optional[Progress]) -> Callable[[Dict[str, float]], Any]:
    """The native callback: ``progress`` given a :class:`ProgressInfo`, or, without
    one, a line on stderr once a design runs past 10 s and every 30 s after, saying
    how far it is and how to stop it (in a notebook as off a terminal)."""
    if progress is not None:
        if not callable(progress):
            raise PmlTypeError(f"invalid progress = {progress!r}: not callable; pass a function of one ProgressInfo, or leave it out")
        return lambda info: progress(ProgressInfo(info))
    last = [0.0]

    def report(info: Dict[str, float]) -> None:
        elapsed = float(info.get("elapsed", 0.0))
        if elapsed < REPORT_AFTER or elapsed - last[0] < REPORT_EVERY:
            return
        last[0] = elapsed
        gap = (info["upper_bound"] - info["lower_bound"]) / max(abs(info["upper_bound"]), 1e-300)
        print(
            f"pmldesign: {elapsed:.0f} s, pass {int(info['iterations'])}, best {info['lower_bound']:.6f}, "
            f"bound {info['upper_bound']:.6f}, gap {gap:.1e}; time_limit=SECONDS returns the best certified "
            "design at that time (Ctrl-C raises KeyboardInterrupt)",
            file=sys.stderr,
        )

    return report

#: The string options the design functions accept (a loss and a distance may also
#: be matrices; ``utility="loss"`` goes with a ``loss``).
Loss = Literal["hamming", "absolute", "squared"]
LossMethod = Literal["auto", "direct", "column-generation"]
UtilityName = Literal["mi", "tv", "chi2", "hellinger", "map", "loss", "estimation"]


class PmlTypeError(InvalidInputError, TypeError):
    """Bad input of the wrong type (strings or complex numbers where real numbers
    belong): an InvalidInputError (a PmlError) and a TypeError."""


def _real_array(name: str, value: Any, hint: str) -> np.ndarray:
    """``value`` as float64, refusing strings, booleans and complex numbers (numpy
    would parse "0.4" or drop an imaginary part) with a one-line PmlTypeError."""
    if isinstance(value, (list, tuple)):
        # numpy turns [True, 2] into integers: look at the entries themselves.
        flagged = next((x for x in value if isinstance(x, (bool, np.bool_))), None)
        if flagged is not None:
            raise PmlTypeError(f"invalid {name}: {flagged!r} is not a real number; pass {hint}")
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError) as e:
        raise InvalidInputError(f"invalid {name}: not {hint} ({e})") from None
    kind = raw.dtype.kind
    if kind == "O":
        bad = next((x for x in raw.ravel() if isinstance(x, bool) or not isinstance(x, numbers.Real)), None)
        if bad is not None:
            raise PmlTypeError(f"invalid {name}: {bad!r} is not a real number; pass {hint}")
    elif kind not in "iuf":
        raise PmlTypeError(f"invalid {name}: entries of type {raw.dtype} are not real numbers; pass {hint}")
    try:
        return np.asarray(raw, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise InvalidInputError(f"invalid {name}: not {hint} ({e})") from None


def _vector(name: str, value: Any) -> np.ndarray:
    """A 1-D float64 array from a sequence, or a one-line PmlError naming ``name``."""
    a = _real_array(name, value, "a sequence of numbers, e.g. [0.4, 0.2, 0.2, 0.2]")
    if a.ndim != 1 or a.size == 0:
        raise InvalidInputError(f"invalid {name}: shape {a.shape}; pass a non-empty 1-D sequence of numbers")
    return a


def _matrix(name: str, value: Any) -> np.ndarray:
    """A 2-D float64 array (rows are inputs), or a one-line PmlError naming ``name``."""
    a = _real_array(name, value, "a matrix of numbers, N rows of M numbers")
    if a.ndim != 2 or a.size == 0:
        raise InvalidInputError(f"invalid {name}: shape {a.shape}; pass a non-empty 2-D array, one row per input")
    return a


def _metric(metric: Any) -> Dict[str, Any]:
    """The native keywords of a distance: ``metric`` (``"discrete"``, ``"line"``)
    or ``metric_matrix`` (an N x N matrix, checked), both None without one."""
    if metric is None or isinstance(metric, str):
        return {"metric": metric, "metric_matrix": None}
    return {"metric": None, "metric_matrix": _matrix("metric", metric).tolist()}


def _number(name: str, value: Any) -> float:
    """A float argument, or a one-line PmlError naming ``name`` (a boolean is
    refused: ``epsilon=True`` is a mistake, not 1.0)."""
    if isinstance(value, (bool, np.bool_)):
        raise PmlTypeError(f"invalid {name} = {value!r}: a boolean, not a number; pass e.g. {name}=0.5")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise InvalidInputError(f"invalid {name} = {value!r}: not a number; pass e.g. {name}=0.5") from None


def _sequence(name: str, value: Any) -> List[Any]:
    """``value`` as a list, or a one-line PmlTypeError naming ``name`` (a single
    string or a number is not a sequence)."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise PmlTypeError(f"invalid {name} = {value!r}: not a sequence; pass a list such as ['a', 'b']")
    return list(value)


def _text(name: str, value: Any, example: str) -> str:
    """A string argument (a name among the documented ones), or a one-line
    PmlTypeError naming ``name``."""
    if not isinstance(value, str):
        raise PmlTypeError(f"invalid {name} = {value!r}: not a string; pass a name such as {name}={example!r}")
    return value


def _labels(labels: Optional[Sequence[Any]]) -> Optional[List[str]]:
    """Labels as strings (``None`` stays ``None``: the library names them x1..xN)."""
    if labels is None:
        return None
    if isinstance(labels, str):
        raise InvalidInputError(f"invalid labels = {labels!r}: a single string; pass a list such as ['a', 'b']")
    return [str(label) for label in _sequence("labels", labels)]


def _options(
    utility: str, loss: Any, labels: Any, time_limit: Any, gap: Any, methods: Tuple[str, str], envelope_delta: Any
) -> _native.DesignOptions:
    """The options dict of the native design functions (checked and converted)."""
    if loss is not None and utility not in ("mi", "loss"):
        raise InvalidInputError(f"invalid utility = {utility!r} with loss = {loss!r}: give either a utility or a loss; leave utility out")
    named = loss if isinstance(loss, str) else None
    return {
        "utility": _text("utility", utility, "mi"),
        "loss": named,
        "loss_matrix": None if loss is None or named else _matrix("loss", loss).tolist(),
        "labels": _labels(labels),
        "time_limit": None if time_limit is None else _number("time_limit", time_limit),
        "gap": _number("gap", gap),
        "pricing": _text("pricing", methods[0], "auto"),
        "loss_method": _text("loss_method", methods[1], "auto"),
        "envelope_delta": _number("envelope_delta", envelope_delta),
    }


class Design(Checked):
    """A certified optimal mechanism (§4 of the theory page of the user guide).

    Returned by :func:`design` and :func:`design_from_counts`, or read back with
    ``Design.from_json``. Besides the properties below, every key of
    ``to_dict()`` (the JSON of ``pml design --format json``) is an attribute.
    ``Design(dict)`` reads the dict back and verifies it, as ``from_dict`` does.

    Examples
    --------
    >>> import pmldesign
    >>> d = pmldesign.design([0.4, 0.2, 0.2, 0.2], 0.5)
    >>> d.mechanism.shape, d.labels
    ((4, 4), ['x1', 'x2', 'x3', 'x4'])
    >>> pmldesign.Design.from_json(d.to_json()).status
    'optimal'
    """

    def __init__(self, data: Mapping[str, Any], _certified: Any = None) -> None:
        super().__init__(data, _certified)
        # Built once, so that reading ``mechanism`` costs nothing.
        matrix = np.asarray(self._data["mechanism"], dtype=np.float64)
        matrix.flags.writeable = False
        self.__dict__["_matrix"] = matrix

    @classmethod
    def _checked(cls, data: Mapping[str, Any]) -> Mapping[str, Any]:
        return cls.from_dict(data)._data

    @property
    def mechanism(self) -> np.ndarray:
        """P(Y|X) as a read-only float64 array of shape (N, M): rows are inputs,
        columns outputs (the same array at each read; ``.copy()`` to change it)."""
        matrix: np.ndarray = self.__dict__["_matrix"]
        return matrix

    @property
    def utility(self) -> float:
        """The utility under the reference prior (minus the expected loss for a loss;
        minus the estimation error per row for ``utility="estimation"``)."""
        return float(self._data["certificate"]["utility_value"])

    @property
    def status(self) -> str:
        """How it was obtained: optimal, time_limit, gap_limit or no_privacy_needed."""
        return str(self._data["status"])

    @property
    def labels(self) -> List[str]:
        """The input names (rows)."""
        return list(self._data["labels"])

    @property
    def outputs(self) -> List[str]:
        """The output names (columns): y1..yM, or for a loss the labels (output y is
        the guess "X = y")."""
        return list(self._data["outputs"])

    @property
    def certificate(self) -> Certificate:
        """The certificate: worst-case PML, row sums, the dual bound and the gap."""
        return Certificate(self._data["certificate"])

    @property
    def baselines(self) -> Dict[str, Baseline]:
        """Every mechanism the design is compared with, by name: randomized response
        (``"same_ldp"``, ``"pml_calibrated"``, each with ``ldp_epsilon``), then the best
        structured mechanism of each family calibrated to the same guarantee
        (``"balanced_partition"``, ``"contiguous_partition"``, ``"mass_cover"``,
        ``"subset_cover"``, ``"high_privacy"``, each with ``groups``, ``arc``, ``mix``
        and ``level``). Each has ``utility`` (for a loss, minus the expected loss),
        ``worst_case_pml``, ``mechanism`` and ``ratio``, the design's objective over
        the baseline's (None where the baseline's is 0). The design is never below
        any of them."""
        if "_baselines" not in self.__dict__:
            self.__dict__["_baselines"] = self._baselines()
        return dict(self.__dict__["_baselines"])

    def _baselines(self) -> Dict[str, Baseline]:
        """The baselines by name; randomized response's matrices are built when
        read (``Baseline.mechanism``)."""
        b = self._data.get("baselines", {})
        n = len(self._data.get("prior", []))
        found: Dict[str, Tuple[Dict[str, Any], Optional[int]]] = {
            k: (v, n) for k, v in b.get("randomized_response", {}).items()
        }
        for s in b.get("structured", []):
            found[s["family"]] = (s, None)
        design = self.utility
        out = {}
        for name, (value, inputs) in found.items():
            u = value["utility"]
            out[name] = Baseline(dict(value, ratio=design / u if u != 0 else None), inputs)
        return out

    @property
    def guarantee(self) -> Optional[Guarantee]:
        """The (eps, delta) guarantee of a design from counts ([E] Sec. III), else None."""
        g = self._data.get("guarantee")
        if g is None:
            return None
        return Guarantee(g) if isinstance(g, dict) else Guarantee({"statement": g})

    def verify(self) -> Verification:
        """Re-checks the design without trusting the run that made it.

        As ``pml assess --design FILE`` does: privacy re-measured over the whole set,
        the utility (or expected loss) re-measured on the matrix, and the stored dual
        re-priced over every ray of the cone (or checked against the loss LP).

        Returns
        -------
        Verification
            The verdict of ``pml assess --design FILE --format json`` (``to_dict()``
            is that JSON, its ``source`` ``"<design>"``), and what was re-checked:
            ``utility_value``, ``proven_bound`` (the smallest upper bound proven here;
            for a loss, minus the largest lower bound on the loss), ``dual_bound`` and
            ``repricing`` (``exact``, ``containing``, ``skipped`` or ``no_dual``).

        Raises
        ------
        VerificationError
            Naming the field that does not hold (a PmlError).

        The design is read-only, so the verdict is worked out at the first call and
        the same one is returned after.
        """
        found = self.__dict__.get("_verdict")
        if found is None:
            found = self.__dict__["_verdict"] = Verification(_native.verify_design(self.to_json()))
        verdict: Verification = found
        return verdict

    def public(self) -> "PublicDesign":
        """What the receivers of a release get, as ``pml publish`` writes it.

        The mechanism, its labels and outputs, how values were read (missing values,
        bins), the notion and level with the guarantee in words, and the checks a
        receiver can redo (rows, LDP level); no prior, count, sample size, input path
        or digest. Hand out ``public().to_json()`` with the released column and keep
        this design: it holds the sample's distribution. The mechanism itself can
        still reveal the distribution it was designed for (its tight constraints), as
        the guide's page on applying a mechanism explains.

        Returns
        -------
        PublicDesign
            Read back with ``PublicDesign.from_json``; :func:`estimate` takes it.
        """
        from ._public import public_of

        return public_of(self.to_json())

    @classmethod
    def from_json(cls, text: str) -> "Design":
        """A design from the JSON of ``to_json()`` or ``pml design --format json``.

        The library reads it back as it would a stored design, with the reader of
        ``pml assess --design``: the text as it is (a key given twice is refused), the
        set rebuilt through its checked constructors, the mechanism re-measured over
        the whole set under the stated notion, the utility re-measured and the stored
        dual re-priced.

        Parameters
        ----------
        text : str
            The JSON text (UTF-8 bytes are accepted).

        Returns
        -------
        Design
            The design, with the figures the library re-derived.

        Raises
        ------
        InvalidInputError
            If the text is not JSON (a PmlError).
        VerificationError
            If the JSON is not a design, or a stated figure differs from the
            re-derived one (an edited design; a PmlError).
        """
        if not isinstance(text, (str, bytes, bytearray)):
            raise PmlTypeError(f"invalid text of type {type(text).__name__}: pass the str of Design.to_json()")
        if isinstance(text, (bytes, bytearray)):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError as e:
                raise InvalidInputError(f"invalid JSON for Design.from_json: not UTF-8 ({e}); pass the text of Design.to_json()") from None
        return cls(_native.check_design(text), _CERTIFIED)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Design":
        """A design from the dict of ``to_dict()``, read back as in ``from_json``.

        Parameters
        ----------
        data : mapping
            The dict of ``to_dict()`` (the parsed JSON of ``pml design --format json``).

        Returns
        -------
        Design
            The design, with the figures the library re-derived.

        Raises
        ------
        PmlError
            As ``from_json``.
        """
        if not isinstance(data, Mapping):
            raise InvalidInputError(f"invalid design of type {type(data).__name__}: pass the dict of Design.to_dict()")
        missing = [k for k in ("mechanism", "labels", "outputs", "status", "certificate") if k not in data]
        if missing:
            raise VerificationError(f"invalid design: missing keys {missing}; pass the JSON of Design.to_json() or `pml design --format json`")
        try:
            text = json.dumps(data)
        except (TypeError, ValueError, RecursionError) as e:
            raise InvalidInputError(f"invalid design: not JSON data ({e}); pass the dict of Design.to_dict()") from None
        # The figures the library re-derived replace the stated ones.
        return cls(_native.check_design(text), _CERTIFIED)

    def __repr__(self) -> str:
        n, m = self.mechanism.shape
        return f"Design({n}x{m}, utility={self.utility:.6g}, status={self.status!r})"

    def to_html(self, tradeoff: bool = False, *, budget: float = _report.DEFAULT_BUDGET, design_file: Optional[str] = None) -> str:
        """The self-contained HTML report of the design, as ``pml design --report`` writes it.

        Inline SVG and CSS, nothing loaded from outside: the guarantee, the mechanism,
        each output's leakage against eps and the prior, the design against randomized
        response, the certificate and the envelope. The library reads the design back
        and re-certifies it first.

        Parameters
        ----------
        tradeoff : bool, default False
            Add the trade-off curve: the design solved again at 12 levels of eps,
            each certified.
        budget : float, default 20
            Seconds for the whole trade-off curve.
        design_file : str, optional
            The file named in the page's re-check command ``pml assess --design``.

        Returns
        -------
        str
            The page.

        Raises
        ------
        VerificationError
            If the design was altered (a PmlError).

        Without the trade-off curve (whose designs have a time budget) the page
        depends on the design alone: it is built at the first call for each
        ``design_file`` and the same text is returned after (the notebook shows it
        at each display).
        """
        if tradeoff:
            return _native.design_report(self.to_json(), _report.budget(tradeoff, budget), design_file)
        pages: Dict[Optional[str], str] = self.__dict__.setdefault("_pages", {})
        if design_file not in pages:
            pages[design_file] = _native.design_report(self.to_json(), _report.budget(False, budget), design_file)
        return pages[design_file]

    def report(self, path: Any, tradeoff: bool = True, *, budget: float = _report.DEFAULT_BUDGET, design_file: Optional[str] = None) -> str:
        """Writes the HTML report to ``path``.

        The file is replaced atomically: nothing partial is left on error.

        Parameters
        ----------
        path : str or os.PathLike
            Where to write the page.
        tradeoff : bool, default True
            Include the trade-off curve (see ``to_html``).
        budget : float, default 20
            Seconds for the trade-off curve.
        design_file : str, optional
            As in ``to_html``.

        Returns
        -------
        str
            The path written.
        """
        return _report.write(path, self.to_html(tradeoff, budget=budget, design_file=design_file))

    def _repr_html_(self) -> str:
        """The compact report (no trade-off curve) for Jupyter, in an iframe so that
        its stylesheet stays inside."""
        return _report.notebook(self.to_html(False))

    def show(self, tradeoff: bool = True, *, budget: float = _report.DEFAULT_BUDGET) -> "_report.Page":
        """The report for a notebook cell.

        Displaying the design itself shows the compact page (no trade-off curve).

        Parameters
        ----------
        tradeoff : bool, default True
            Include the trade-off curve.
        budget : float, default 20
            Seconds for the trade-off curve.

        Returns
        -------
        Page
            An object Jupyter displays (``.html`` is the page itself).
        """
        return _report.Page(self.to_html(tradeoff, budget=budget))

    def plot(self, ax: Any = None) -> Any:
        """A matplotlib figure of the design.

        The mechanism as a viridis heatmap and each output's certified worst-case PML
        against eps. Needs matplotlib (``pip install 'pmldesign[plot]'``).

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            Draw the heatmap alone on these axes.

        Returns
        -------
        matplotlib.figure.Figure
            The figure.
        """
        return _report.plot(self, ax)


def design(
    prior: ArrayLike,
    epsilon: float,
    *,
    beta: Optional[float] = None,
    notion: Literal["pml", "pmc", "alip", "lip", "ldp", "metric"] = "pml",
    utility: UtilityName = "mi",
    loss: Union[Loss, ArrayLike, None] = None,
    labels: Optional[Sequence[Any]] = None,
    time_limit: Optional[float] = None,
    epsilon_lower: Optional[float] = None,
    gap: float = 1e-9,
    pricing: Literal["auto", "enumerate"] = "auto",
    envelope_delta: float = 0.05,
    progress: Optional[Progress] = None,
    metric: Union[Literal["discrete", "line"], ArrayLike, None] = None,
    loss_method: LossMethod = "auto",
) -> Design:
    """The mechanism maximising ``utility`` under eps-``notion`` for ``prior``.

    The optimum is exact (an LP over the extreme rays of the feasible cone, §4 of
    the theory page of the user guide) and certified before it is returned. The GIL
    is released while solving; Ctrl-C stops the run within about a pricing pass
    (``KeyboardInterrupt``).

    Parameters
    ----------
    prior : array_like of float
        The distribution of the secret over its N values (sums to 1).
    epsilon : float
        The privacy level eps (``exp_epsilon(e)`` converts e^eps).
    beta : float, optional
        Design for every prior within l1 distance ``beta`` of ``prior`` ([E]
        Proposition 2 when ``beta < 2 min p``, the exact ball beyond).
    notion : {"pml", "pmc", "alip", "lip", "ldp", "metric"}, default "pml"
        ``pml`` (``i(x;y) <= eps``), ``pmc`` (``i >= -eps``), ``alip``
        (``-epsilon_lower <= i <= epsilon``), ``lip`` (``|i| <= eps``), ``ldp``, or
        ``metric`` (``W[x][y] <= e^(eps d(x, x')) W[x'][y]``) with ``metric``.
    utility : {"mi", "tv", "chi2", "hellinger", "map", "estimation"}, default "mi"
        The utility maximised: mutual information, total variation, chi-square,
        squared Hellinger information, MAP accuracy, or ``"estimation"``: minus
        the error per released row of the estimated input distribution (the
        best design for :func:`estimate`; its ``utility`` is minus
        ``m E|p^ - p|^2``).
    loss : {"hamming", "absolute", "squared"} or array_like, optional
        Minimise this expected loss instead (an N x N matrix for your own), under
        any notion.
    labels : sequence, optional
        The input names (default ``x1..xN``).
    time_limit : float, optional
        Seconds; the best certified mechanism so far is returned (status
        ``"time_limit"``).
    epsilon_lower : float, optional
        The lower level of ``alip``.
    gap : float, default 1e-9
        Stop at this relative certified gap (status ``"gap_limit"``).
    pricing : {"auto", "enumerate"}, default "auto"
        ``enumerate`` forces exhaustive enumeration of the rays.
    envelope_delta : float, default 0.05
        The delta of the post-processing-safe statement reported with the design.
    progress : callable, optional
        Called after each pricing pass with ``iterations``, ``lower_bound``,
        ``upper_bound``, ``rays_priced`` and ``elapsed`` (as attributes or keys);
        an exception it raises stops the run and propagates.
    metric : {"discrete", "line"} or array_like, optional
        The distance of ``notion="metric"``: ``"discrete"``, ``"line"``
        (``|i - j|`` over the label order) or an N x N distance matrix.
    loss_method : {"auto", "direct", "column-generation"}, default "auto"
        How a loss is minimised, as ``pml design --loss-method``: ``direct`` (the
        LP over every label's columns), ``column-generation`` (exact pricing), or
        ``auto`` (the library's choice for the set and size).

    Returns
    -------
    Design
        The certified mechanism with its certificate and baselines.

    Raises
    ------
    InvalidInputError
        On bad input, with a one-line message naming the field and the fix.
    LimitReachedError
        If ``time_limit`` passed before any mechanism was certified.
    VerificationError
        If the input is past double precision (``numerical limit: ...``, naming
        the field to change).
    PmlError
        The base of the above; a bare one is an internal failure.

    Examples
    --------
    >>> import pmldesign
    >>> d = pmldesign.design([0.4, 0.2, 0.2, 0.2], pmldesign.exp_epsilon(9 / 8))
    >>> d.status, round(d.utility, 6)
    ('optimal', 0.026822)
    """
    data = _native.design(
        _vector("prior", prior),
        _number("epsilon", epsilon),
        _options(utility, loss, labels, time_limit, gap, (pricing, loss_method), envelope_delta),
        beta=None if beta is None else _number("beta", beta),
        notion=_text("notion", notion, "pml"),
        epsilon_lower=None if epsilon_lower is None else _number("epsilon_lower", epsilon_lower),
        **_metric(metric),
        progress=_progress(progress),
    )
    return Design(data, _CERTIFIED)


def _counts_and_labels(counts: Any, labels: Optional[Sequence[Any]], loss: Any) -> Tuple[Any, Optional[Sequence[Any]]]:
    """Counts as a vector and their labels: a mapping (a dict, ``pmldesign.count``'s
    result, a pandas ``value_counts()``) names its own, in its order, unless
    ``labels`` fixes the order (missing labels count 0)."""
    is_series = type(counts).__module__.startswith("pandas") and type(counts).__name__ == "Series"
    if not (isinstance(counts, Mapping) or is_series):
        return counts, labels
    table = {str(k): v for k, v in counts.items()}
    if labels is None:
        if loss in ("absolute", "squared"):
            raise InvalidInputError(
                f"invalid labels = None: the {loss} loss depends on the order of the labels, and counts given "
                "as a mapping (value_counts() sorts by frequency) fix none; pass labels=[...] in their order"
            )
        return [table[k] for k in table], list(table)
    names = [str(label) for label in labels]
    extra = sorted(set(table) - set(names))
    if extra:
        raise InvalidInputError(f"invalid counts: labels {extra} are not in labels=; add them or drop them")
    return [table.get(k, 0) for k in names], labels


def design_from_counts(
    counts: Union[ArrayLike, Mapping[Any, int]],
    epsilon: float,
    *,
    delta: float,
    labels: Optional[Sequence[Any]] = None,
    utility: UtilityName = "mi",
    radius: Literal["free", "kappa"] = "free",
    loss: Union[Loss, ArrayLike, None] = None,
    time_limit: Optional[float] = None,
    gap: float = 1e-9,
    pricing: Literal["auto", "enumerate"] = "auto",
    envelope_delta: float = 0.05,
    progress: Optional[Progress] = None,
    loss_method: LossMethod = "auto",
    nulls: Nulls = "error",
    bins: Any = None,
    private_prior: Optional[float] = None,
    seed: Any = None,
) -> Design:
    """The design from category counts of m samples, with failure probability ``delta``.

    The estimate is ``counts / m``; ``delta`` gives an l1 radius around it, and the
    design is eps-PML over that ball: with probability at least ``1 - delta`` over
    the sample it is eps-PML for the true distribution (§6 of the theory page of
    the user guide). ``Design.guarantee`` states it, with the simpler route of
    designing for the estimate alone ([E] eqs. (8), (13)).

    Parameters
    ----------
    counts : array_like of int or mapping
        One count per label, or a mapping ``{label: count}`` (``count``'s result,
        a dict, a pandas ``value_counts()``): its keys are the labels, in their
        order, unless ``labels`` gives the order.
    epsilon : float
        The privacy level eps.
    delta : float
        The failure probability over the sample (``1e-6`` is a common choice).
    labels : sequence, optional
        The label order (required by the absolute and squared losses when
        ``counts`` is a mapping); labels missing from a mapping count 0.
    utility : {"mi", "tv", "chi2", "hellinger", "map", "estimation"}, default "mi"
        As in :func:`design`.
    radius : {"free", "kappa"}, default "free"
        ``free``: the distribution-free radius ``beta*(delta)`` of [E] eq. (7);
        ``kappa``: the sharper Theorem 2 radius at the estimate (a plug-in).
    loss, time_limit, gap, pricing, envelope_delta, progress, loss_method
        As in :func:`design`.
    nulls : {"error", "drop", "category"}, default "error"
        As given to :func:`count`; recorded in the design
        (``provenance.settings``) so that :func:`apply`, ``pml apply`` and the
        engines read the data the same way.
    bins : sequence of float, optional
        The public edges given to :func:`count`; recorded in the same way.
    private_prior : float, optional
        eps_D: a design that does not reveal the counts' distribution, as ``pml
        design --private-prior``. The counts get exact discrete Laplace noise of
        scale ``1/eps_D`` drawn from ``seed``, the ball is centred at the noisy
        estimate and its radius widened for the noise (half of ``delta`` for the
        sample, half for the noise: §6 of the theory page of the user guide).
        The design holds the noisy estimate and noisy total only, and the
        published mechanism is eps_D-DP about the dataset. Counts given as a
        mapping need ``labels`` (or ``bins``): the categories seen would
        otherwise be published as the alphabet.
    seed : int, str or bytes
        With ``private_prior``, required: the secret key of the noise (a whole
        number below 2^256, a 0x-hex string or 32 bytes; keep it secret, e.g.
        ``secrets.randbits(256)``). A key under 64 bits warns, as ``pml``
        does. The same counts, level and key give the same design as ``pml
        design --counts ... --private-prior EPS_D --seed KEY``.

    Returns
    -------
    Design
        The certified design, with ``.guarantee``.

    Raises
    ------
    InvalidInputError
        On bad input, with a one-line message naming the field and the fix.
    LimitReachedError
        If ``time_limit`` passed before any mechanism was certified.
    VerificationError
        If the input is past double precision (``numerical limit: ...``, naming
        the field to change).
    PmlError
        The base of the above; a bare one is an internal failure.

    Examples
    --------
    >>> import pmldesign
    >>> d = pmldesign.design_from_counts({"a": 412, "b": 301, "c": 187, "d": 100}, 1.0, delta=1e-6)
    >>> d.guarantee.statement
    'with probability at least 1 - 0.000001 over the sample of 1000, the mechanism is 1-PML for the true distribution'
    """
    noise = _private_prior(private_prior, seed, counts, labels, bins)
    counts, labels = _counts_and_labels(counts, labels, loss)
    recorded = _recorded_reading(nulls, bins, labels)
    data = _native.design_from_counts(
        _vector("counts", counts),
        _number("epsilon", epsilon),
        _options(utility, loss, labels, time_limit, gap, (pricing, loss_method), envelope_delta),
        delta=_number("delta", delta),
        radius=_text("radius", radius, "free"),
        private_prior=noise,
        progress=_progress(progress),
    )
    if recorded and data.get("provenance") is not None:
        from ._reading import keep

        data["provenance"]["settings"] = keep(data["provenance"]["settings"], recorded)
    return Design(data, _CERTIFIED)


def _private_prior(level: Any, seed: Any, counts: Any, labels: Any, bins: Any) -> Optional[Tuple[float, str]]:
    """``private_prior=`` and its ``seed=`` checked as ``pml design
    --private-prior`` checks its flags: the level, and the secret key (required)."""
    if level is None:
        if seed is not None:
            raise InvalidInputError("invalid seed without private_prior=: a seed keys the noise on the counts; pass private_prior=EPS_D or drop seed=")
        return None
    if seed is None:
        raise InvalidInputError(
            "invalid seed = None: private_prior= needs the secret key of the noise on the counts; "
            "pass seed=secrets.randbits(256) and keep it secret"
        )
    is_series = type(counts).__module__.startswith("pandas") and type(counts).__name__ == "Series"
    if (isinstance(counts, Mapping) or is_series) and labels is None and bins is None:
        raise InvalidInputError(
            "invalid private_prior without labels= or bins=: the categories seen in the counts would be published "
            "as the alphabet; fix the alphabet with labels=[...] (or count with public bins=)"
        )
    return _number("private_prior", level), str(secret_of(seed, stacklevel=4))


def _recorded_reading(nulls: Any, bins: Any, labels: Optional[Sequence[Any]]) -> Dict[str, str]:
    """What ``count(..., nulls=, bins=)`` did, as the design records it; the bins
    must name the labels counted."""
    from . import _bins, _reading

    edges = None if bins is None else _bins.edges_of(bins)
    if edges is not None and not _bins.names(edges, labels or []):
        raise InvalidInputError(f"invalid bins = {edges}: the counts' labels are not its bins {_bins.labels(edges)}; pass the counts of count(..., bins=) with the same edges")
    return _reading.kept("design", [], check_nulls_name(nulls), [edges], 0)


def exp_epsilon(e: float) -> float:
    """eps from e^eps, for levels given as in [E].

    Parameters
    ----------
    e : float
        The factor e^eps, at least 1.

    Returns
    -------
    float
        ``ln(e)``.

    Raises
    ------
    PmlError
        If ``e`` is not a finite number at least 1.

    Examples
    --------
    >>> import pmldesign
    >>> round(pmldesign.exp_epsilon(9 / 8), 6)
    0.117783
    """
    e = _number("e^eps", e)
    if not (math.isfinite(e) and e >= 1.0):
        raise InvalidInputError(f"invalid e^eps = {e}: must be a finite number >= 1; pass e.g. 1.125")
    return math.log(e)
