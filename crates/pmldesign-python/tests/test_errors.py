"""Bad input raises PmlError (a ValueError) with a one-line message naming the field."""

import numpy as np
import pytest

import pmldesign
from pmldesign import PmlError

P = [0.4, 0.3, 0.2, 0.1]

BAD = [
    ("prior", lambda: pmldesign.design([0.5, 0.6], 0.1)),
    ("prior", lambda: pmldesign.design([1.2, -0.2], 0.1)),
    ("prior", lambda: pmldesign.design([], 0.1)),
    ("prior", lambda: pmldesign.design([[0.5, 0.5]], 0.1)),
    ("prior", lambda: pmldesign.design(["a", "b"], 0.1)),
    ("prior", lambda: pmldesign.design([0.5, float("nan")], 0.1)),
    ("epsilon", lambda: pmldesign.design(P, -0.1)),
    ("epsilon", lambda: pmldesign.design(P, "x")),
    ("beta", lambda: pmldesign.design(P, 0.5, beta=-0.1)),
    ("notion", lambda: pmldesign.design(P, 0.5, notion="dp")),
    ("utility", lambda: pmldesign.design(P, 0.5, utility="entropy")),
    ("loss", lambda: pmldesign.design(P, 0.5, loss="cosine")),
    ("loss", lambda: pmldesign.design(P, 0.5, loss=np.ones((3, 2)))),
    ("utility", lambda: pmldesign.design(P, 0.5, utility="tv", loss="hamming")),
    ("labels", lambda: pmldesign.design(P, 0.5, labels=["a", "b"])),
    ("labels", lambda: pmldesign.design(P, 0.5, labels=["a", "b", "a", "c"])),
    ("labels", lambda: pmldesign.design(P, 0.5, labels="abcd")),
    ("time_limit", lambda: pmldesign.design(P, 0.5, time_limit=0)),
    ("gap", lambda: pmldesign.design(P, 0.5, gap=2)),
    ("pricing", lambda: pmldesign.design(P, 0.5, pricing="fast")),
    ("epsilon_lower", lambda: pmldesign.design(P, 0.5, epsilon_lower=0.1)),
    ("counts", lambda: pmldesign.design_from_counts([1.5, 2], 0.5, delta=0.05)),
    ("counts", lambda: pmldesign.design_from_counts([-1, 2], 0.5, delta=0.05)),
    ("delta", lambda: pmldesign.design_from_counts([100, 200], 0.5, delta=1.5)),
    ("radius", lambda: pmldesign.design_from_counts([100, 200], 0.5, delta=0.05, radius="x")),
    ("mechanism", lambda: pmldesign.apply([[0.5, 0.6], [0.5, 0.5]], ["x1"], seed=1)),
    ("values", lambda: pmldesign.apply(np.eye(2), ["x3"], seed=1)),
    ("values", lambda: pmldesign.apply(np.eye(2), [5], seed=1)),
    ("seed", lambda: pmldesign.apply(np.eye(2), ["x1"], seed=-1)),
    ("prior", lambda: pmldesign.assess(np.eye(2), [0.2, 0.3])),
    ("samples", lambda: pmldesign.bounds.radius(0, 0.05, 4)),
    ("delta", lambda: pmldesign.bounds.radius(100, 0, 4)),
    ("beta", lambda: pmldesign.bounds.epsilon_prime(2.0, 1.9)),
    ("question", lambda: pmldesign._native.bound("nothing")),
    ("deltas", lambda: pmldesign.envelope(np.eye(2), [0.5, 0.5], [2.0])),
]


@pytest.mark.parametrize("field,call", BAD, ids=[f"{i}-{f}" for i, (f, _) in enumerate(BAD)])
def test_bad_input_raises_pml_error_naming_the_field(field, call):
    with pytest.raises(PmlError) as info:
        call()
    message = str(info.value)
    assert "\n" not in message
    assert field in message, message


def test_pml_error_is_a_value_error():
    assert issubclass(PmlError, ValueError)
    assert PmlError.__module__ == "pmldesign"
