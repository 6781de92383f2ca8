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


@pytest.mark.parametrize(
    "prior",
    [["0.5", "0.5"], np.array([0.5 + 0j, 0.5 + 0j]), [0.5, 0.5j], [True, False], np.array(["0.4", "0.6"])],
)
def test_a_prior_of_strings_or_complex_numbers_is_a_type_error(prior):
    # numpy would parse "0.5" or drop an imaginary part; the package refuses both.
    with pytest.raises(pmldesign.PmlTypeError) as e:
        pmldesign.design(prior, 0.5)
    assert isinstance(e.value, TypeError) and isinstance(e.value, PmlError)
    assert "prior" in str(e.value) and "\n" not in str(e.value)


def test_malformed_design_text_is_a_pml_error():
    for text in ["[" * 100_000 + "]" * 100_000, '{"a": ' * 50_000 + "1" + "}" * 50_000, "[1, 2]", "{}"]:
        with pytest.raises(PmlError):
            pmldesign.Design.from_json(text)
    with pytest.raises(pmldesign.PmlTypeError):
        pmldesign.Design.from_json(42)
