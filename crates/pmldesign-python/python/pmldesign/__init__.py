"""pmldesign: optimal, certified privacy mechanisms under pointwise maximal leakage.

Python bindings of the Rust library ``pml`` (the same engine as the ``pml`` command
line tool). A mechanism is a row-stochastic matrix W = P(Y|X), rows are inputs.

    >>> import pmldesign
    >>> d = pmldesign.design([0.4, 0.2, 0.2, 0.2], pmldesign.exp_epsilon(9 / 8))
    >>> round(d.utility, 6), d.status
    (0.026822, 'optimal')

References (the theory page of the user guide states every formula with the papers'
numbering): [E] *Mechanism design from empirical distributions*; [D] *Information
density bounds* (PMC, LIP, ALIP); [V] *Information leakage envelopes*.
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

from . import bounds, dask, polars, spark  # the engines themselves are imported only when used
from ._design import Design, PmlTypeError, design, design_from_counts, exp_epsilon
from ._native import InfeasibleError, InvalidInputError, LimitReachedError, PmlError, VerificationError
from ._public import PublicDesign, PublicRecord
from ._record_design import RecordDesign, design_record
from ._records import Answer, ApplySummary, Baseline, Certificate, Estimate, Guarantee, Record, Verification
from ._tables import count
from ._apply import apply
from ._noise import apply_noise
from ._tools import assess, compare, envelope, estimate

try:
    __version__: str = _version("pmldesign")
except PackageNotFoundError:  # imported from a source tree, not an installed wheel
    __version__ = "0+unknown"

__all__ = [
    "Answer",
    "ApplySummary",
    "Baseline",
    "Certificate",
    "Design",
    "Estimate",
    "Guarantee",
    "InfeasibleError",
    "InvalidInputError",
    "LimitReachedError",
    "PmlError",
    "PmlTypeError",
    "PublicDesign",
    "PublicRecord",
    "Record",
    "RecordDesign",
    "Verification",
    "VerificationError",
    "apply",
    "apply_noise",
    "assess",
    "bounds",
    "compare",
    "count",
    "dask",
    "design",
    "design_from_counts",
    "design_record",
    "envelope",
    "estimate",
    "exp_epsilon",
    "polars",
    "spark",
]
