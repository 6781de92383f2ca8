"""HTML reports and plots of designs: the page itself is rendered by the library
(``pmldesign-report``) from the design's JSON, which it reads back and re-certifies
first; this module writes files atomically, wraps the page for notebooks and draws
matplotlib figures (imported only when a plot is asked for)."""

from __future__ import annotations

import html
import os
import tempfile
from typing import Any, Optional, Union

from ._native import InvalidInputError

#: The trade-off curve's default budget, in seconds (``Design.report``).
DEFAULT_BUDGET = 20.0


def budget(tradeoff: Union[bool, float, None], seconds: Any) -> Optional[float]:
    """The seconds of the trade-off curve: ``None`` when it is left out."""
    if not tradeoff:
        return None
    try:
        return float(seconds)
    except (TypeError, ValueError):
        raise InvalidInputError(f"invalid budget = {seconds!r}: not a number; pass e.g. budget=20") from None


def write(path: Union[str, "os.PathLike[str]"], text: str) -> str:
    """Writes ``text`` to ``path`` through a temporary file in the same directory,
    renamed into place: nothing partial is ever left at ``path``. Returns the path."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".pml-report-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def notebook(page: str, height: int = 900) -> str:
    """The page in an ``<iframe srcdoc>`` for a notebook: its stylesheet stays
    inside the frame and does not restyle the notebook."""
    return (
        f'<iframe srcdoc="{html.escape(page, quote=True)}" '
        f'style="width: 100%; height: {height}px; border: 1px solid #ccc" '
        f'title="pmldesign report" sandbox=""></iframe>'
    )


class Page:
    """A report a notebook displays (``Design.show``): ``_repr_html_`` gives the
    page in a sandboxed frame, ``html`` the page itself."""

    def __init__(self, html_text: str) -> None:
        self.html = html_text

    def _repr_html_(self) -> str:
        return notebook(self.html)

    def __repr__(self) -> str:
        return f"<pmldesign report, {len(self.html)} characters of HTML>"


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError(
            "Design.plot needs matplotlib, which is not installed: pip install 'pmldesign[plot]' (or pip install matplotlib)"
        ) from None
    return plt


def plot(design: Any, ax: Any = None) -> Any:
    """The mechanism as a viridis heatmap (rows: inputs, columns: outputs) beside
    each output's certified worst-case PML against eps. Returns the figure."""
    plt = _pyplot()
    w = design.mechanism
    worst = design.certificate.worst_case_pml_per_output
    if ax is None:
        fig, (ax, bars) = plt.subplots(1, 2, figsize=(11, 4.5), gridspec_kw={"width_ratios": [1.1, 1]})
    else:
        fig, bars = ax.figure, None
    image = ax.imshow(w, cmap="viridis", vmin=0.0, aspect="auto", interpolation="nearest")
    fig.colorbar(image, ax=ax, label="P(y | x)")
    n, m = w.shape
    if n <= 32 and m <= 32:
        ax.set_xticks(range(m), design.outputs, rotation=60)
        ax.set_yticks(range(n), design.labels)
    ax.set_xlabel("output y")
    ax.set_ylabel("input x")
    ax.set_title(f"mechanism ({design.status}, utility {design.utility:.6g})")
    if bars is not None:
        bars.bar(range(len(worst)), worst, color="#21918c")
        eps = design.certificate.target_epsilon
        if design.to_dict().get("notion", {}).get("notion", "pml") == "pml":
            bars.axhline(eps, color="#b5367a", linestyle=":", label=f"eps = {eps:.6g}")
            bars.legend()
        bars.set_xlabel("output y")
        bars.set_ylabel("worst-case PML (nats)")
        bars.set_title("leakage of each output (certified)")
    fig.tight_layout()
    return fig
