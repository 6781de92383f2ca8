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
    ("time_limit", lambda: pmldesign.envelope(np.eye(2), [0.5, 0.5], [0.1], lp=True, time_limit=0)),
]


@pytest.mark.parametrize("field,call", BAD, ids=[f"{i}-{f}" for i, (f, _) in enumerate(BAD)])
def test_bad_input_raises_pml_error_naming_the_field(field, call):
    with pytest.raises(pmldesign.InvalidInputError) as info:
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


def _wrong_types():
    """(argument, call) for each public function: a value of the wrong type for
    one argument, the others right."""
    import pandas as pd

    d = pmldesign.design(P, 0.5, labels=["a", "b", "c", "d"])
    frame = pd.DataFrame({"A": ["a", "b", "a"], "B": ["x", "y", "y"]})
    W = np.eye(2)
    cases = {
        "design": [("prior", lambda: pmldesign.design(5, 0.5)), ("prior", lambda: pmldesign.design(None, 0.5)),
                   ("epsilon", lambda: pmldesign.design(P, None)), ("epsilon", lambda: pmldesign.design(P, [0.5])),
                   ("beta", lambda: pmldesign.design(P, 0.5, beta="x")), ("notion", lambda: pmldesign.design(P, 0.5, notion=5)),
                   ("utility", lambda: pmldesign.design(P, 0.5, utility=5)), ("labels", lambda: pmldesign.design(P, 0.5, labels=5)),
                   ("time_limit", lambda: pmldesign.design(P, 0.5, time_limit="x")), ("gap", lambda: pmldesign.design(P, 0.5, gap="x")),
                   ("epsilon_lower", lambda: pmldesign.design(P, 0.5, notion="alip", epsilon_lower="x")),
                   ("pricing", lambda: pmldesign.design(P, 0.5, pricing=5)), ("metric", lambda: pmldesign.design(P, 0.5, notion="metric", metric=5)),
                   ("progress", lambda: pmldesign.design(P, 0.5, progress=5)), ("loss", lambda: pmldesign.design(P, 0.5, utility="map", loss=5))],
        "design_from_counts": [("counts", lambda: pmldesign.design_from_counts(5, 0.5, delta=0.05)),
                               ("counts", lambda: pmldesign.design_from_counts("abc", 0.5, delta=0.05)),
                               ("counts", lambda: pmldesign.design_from_counts([1e300, 2], 0.5, delta=0.05)),
                               ("counts", lambda: pmldesign.design_from_counts(None, 0.5, delta=0.05)),
                               ("epsilon", lambda: pmldesign.design_from_counts([10, 20], "x", delta=0.05)),
                               ("delta", lambda: pmldesign.design_from_counts([10, 20], 0.5, delta="x")),
                               ("labels", lambda: pmldesign.design_from_counts([10, 20], 0.5, delta=0.05, labels=5)),
                               ("radius", lambda: pmldesign.design_from_counts([10, 20], 0.5, delta=0.05, radius=5))],
        "exp_epsilon": [("e", lambda: pmldesign.exp_epsilon("x")), ("e", lambda: pmldesign.exp_epsilon(None))],
        "design_record": [("data", lambda: pmldesign.design_record(5, ["A"], 1.0)), ("columns", lambda: pmldesign.design_record(frame, 5, 1.0)),
                          ("epsilon", lambda: pmldesign.design_record(frame, ["A", "B"], "x")),
                          ("delta", lambda: pmldesign.design_record(frame, ["A", "B"], 1.0, delta="x")),
                          ("mode", lambda: pmldesign.design_record(frame, ["A", "B"], 1.0, mode=5)),
                          ("split", lambda: pmldesign.design_record(frame, ["A", "B"], 1.0, mode="compose", split=5)),
                          ("split", lambda: pmldesign.design_record(frame, ["A", "B"], 1.0, mode="compose", split=["x", "y"])),
                          ("max_cells", lambda: pmldesign.design_record(frame, ["A", "B"], 1.0, max_cells="x")),
                          ("max_cells", lambda: pmldesign.design_record(frame, ["A", "B"], 1.0, max_cells=1.5)),
                          ("time_limit", lambda: pmldesign.design_record(frame, ["A", "B"], 1.0, time_limit="x")),
                          ("gap", lambda: pmldesign.design_record(frame, ["A", "B"], 1.0, gap="x")),
                          ("nulls", lambda: pmldesign.design_record(frame, ["A", "B"], 1.0, nulls=5)),
                          ("bins", lambda: pmldesign.design_record(frame, ["A", "B"], 1.0, bins=5))],
        "count": [("data", lambda: pmldesign.count(5)), ("column", lambda: pmldesign.count(frame, 5)),
                  ("nulls", lambda: pmldesign.count(["a"], nulls=5)), ("bins", lambda: pmldesign.count([1.0], bins="x"))],
        "apply": [("values", lambda: pmldesign.apply(d, 5, seed=KEY)), ("labels", lambda: pmldesign.apply(W, ["x1"], labels=5, seed=KEY)),
                  ("seed", lambda: pmldesign.apply(d, ["a"], seed=1.5)), ("offset", lambda: pmldesign.apply(d, ["a"], seed=KEY, offset=-1)),
                  ("offset", lambda: pmldesign.apply(d, ["a"], seed=KEY, offset="x")), ("offset", lambda: pmldesign.apply(d, ["a"], seed=KEY, offset=1.5)),
                  ("key", lambda: pmldesign.apply(d, ["a"], seed=KEY, key=5)), ("on_unknown", lambda: pmldesign.apply(d, ["a"], seed=KEY, on_unknown=5)),
                  ("codes", lambda: pmldesign.apply(d, ["a"], seed=KEY, codes="x")), ("nulls", lambda: pmldesign.apply(d, ["a"], seed=KEY, nulls=5)),
                  ("bins", lambda: pmldesign.apply(d, ["a"], seed=KEY, bins="x")),
                  ("output_labels", lambda: pmldesign.apply(d, ["a"], seed=KEY, output_labels=5)),
                  ("column", lambda: pmldesign.apply(d, ["a"], seed=KEY, column=["x"])),
                  ("keep_raw", lambda: pmldesign.apply(d, ["a"], seed=KEY, keep_raw="x"))],
        "assess": [("mechanism", lambda: pmldesign.assess("x")), ("mechanism", lambda: pmldesign.assess(5)),
                   ("prior", lambda: pmldesign.assess(W, "x")), ("beta", lambda: pmldesign.assess(W, [0.5, 0.5], beta="x"))],
        "compare": [("prior", lambda: pmldesign.compare(5, 0.5)), ("epsilon", lambda: pmldesign.compare(P, "x")),
                    ("beta", lambda: pmldesign.compare(P, 0.5, beta="x")), ("utility", lambda: pmldesign.compare(P, 0.5, utility=5)),
                    ("epsilon_lower", lambda: pmldesign.compare(P, 0.5, epsilon_lower="x")),
                    ("epsilon_upper", lambda: pmldesign.compare(P, 0.5, epsilon_upper="x"))],
        "envelope": [("mechanism", lambda: pmldesign.envelope("x", [0.5, 0.5])), ("prior", lambda: pmldesign.envelope(W, "x")),
                     ("deltas", lambda: pmldesign.envelope(W, [0.5, 0.5], "x")), ("deltas", lambda: pmldesign.envelope(W, [0.5, 0.5], 5)),
                     ("lp", lambda: pmldesign.envelope(W, [0.5, 0.5], lp="x"))],
        "estimate": [("counts", lambda: pmldesign.estimate(d, counts=5)), ("counts", lambda: pmldesign.estimate(d, counts="abc")),
                     ("counts", lambda: pmldesign.estimate(d, counts=[1e300, 1, 1, 1])),
                     ("counts", lambda: pmldesign.estimate(d, counts={"y1": "x"})),
                     ("mechanism", lambda: pmldesign.estimate("x", counts=[1, 2])),
                     ("released", lambda: pmldesign.estimate(d, 5)),
                     ("method", lambda: pmldesign.estimate(d, counts=[1, 2, 3, 4], method=5)),
                     ("confidence", lambda: pmldesign.estimate(d, counts=[1, 2, 3, 4], confidence="x")),
                     ("nulls", lambda: pmldesign.estimate(d, ["y1"], nulls=5)),
                     ("bootstrap", lambda: pmldesign.estimate(d, counts=[1, 2, 3, 4], bootstrap="x")),
                     ("bootstrap", lambda: pmldesign.estimate(d, counts=[1, 2, 3, 4], bootstrap=1.5)),
                     ("seed", lambda: pmldesign.estimate(d, counts=[1, 2, 3, 4], bootstrap=10, seed=1.5))],
        "bounds": [("samples", lambda: pmldesign.bounds.radius("x", 0.05, 4)), ("samples", lambda: pmldesign.bounds.radius(1.5, 0.05, 4)),
                   ("delta", lambda: pmldesign.bounds.radius(100, "x")), ("alphabet", lambda: pmldesign.bounds.radius(100, 0.05, "x")),
                   ("estimate", lambda: pmldesign.bounds.radius(100, 0.05, estimate="x")),
                   ("samples", lambda: pmldesign.bounds.failure_probability("x", 0.1, 4)),
                   ("beta", lambda: pmldesign.bounds.failure_probability(100, "x")),
                   ("epsilon", lambda: pmldesign.bounds.epsilon_prime("x", 0.1)), ("beta", lambda: pmldesign.bounds.epsilon_prime(1.0, "x")),
                   ("epsilon", lambda: pmldesign.bounds.delta_min("x", 1.5, 100, 4)),
                   ("epsilon_prime", lambda: pmldesign.bounds.delta_min(1.0, "x", 100, 4)),
                   ("samples", lambda: pmldesign.bounds.delta_min(1.0, 1.5, "x", 4)),
                   ("alphabet", lambda: pmldesign.bounds.delta_min(1.0, 1.5, 100, "x")),
                   ("epsilon", lambda: pmldesign.bounds.samples("x", 1.5, 0.05, 4)),
                   ("delta", lambda: pmldesign.bounds.samples(1.0, 1.5, "x", 4)),
                   ("alphabet", lambda: pmldesign.bounds.samples(1.0, 1.5, 0.05, 1.5)),
                   ("epsilon_prime", lambda: pmldesign.bounds.max_epsilon("x", 100, 0.05, 4)),
                   ("samples", lambda: pmldesign.bounds.max_epsilon(1.5, None, 0.05, 4))],
    }
    return [(f"{name}-{field}-{i}", field, call) for name, calls in cases.items() for i, (field, call) in enumerate(calls)]


KEY = 2**200 + 3
WRONG_TYPES = _wrong_types()


@pytest.mark.parametrize("field,call", [c[1:] for c in WRONG_TYPES], ids=[c[0] for c in WRONG_TYPES])
def test_a_wrong_type_is_a_pml_error_naming_the_argument(field, call):
    with pytest.raises(pmldesign.InvalidInputError) as info:
        call()
    message = str(info.value)
    assert "\n" not in message and "invalid" in message and field in message, message
