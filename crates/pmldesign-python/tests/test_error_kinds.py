"""Errors by kind: each subclass of PmlError raised by a real call."""

import json
import pickle

import numpy as np
import pytest

import pmldesign
from pmldesign import InfeasibleError, InvalidInputError, LimitReachedError, PmlError, VerificationError

KINDS = (InvalidInputError, InfeasibleError, LimitReachedError, VerificationError)


def test_every_kind_is_a_pml_error_exported_by_the_package():
    for kind in KINDS:
        assert issubclass(kind, PmlError) and issubclass(kind, ValueError)
        assert kind.__module__ == "pmldesign" and getattr(pmldesign, kind.__name__) is kind
        assert kind.__doc__
    assert issubclass(pmldesign.PmlTypeError, InvalidInputError) and issubclass(pmldesign.PmlTypeError, TypeError)
    assert len({k for k in KINDS}) == 4 and not any(issubclass(a, b) for a in KINDS for b in KINDS if a is not b)


def test_an_error_pickles_as_its_kind():
    with pytest.raises(InvalidInputError) as info:
        pmldesign.design([0.5, 0.6], 0.1)
    back = pickle.loads(pickle.dumps(info.value))
    assert type(back) is InvalidInputError and str(back) == str(info.value)


def test_a_bad_prior_is_invalid_input():
    with pytest.raises(InvalidInputError, match="prior"):
        pmldesign.design([0.5, 0.6], 0.1)


def test_an_unknown_name_is_invalid_input_naming_the_names_it_takes():
    """Names parse through the library's one table, as the command line's flags do."""
    for kwargs, message in (
        ({"loss": "hammming"}, "invalid loss = hammming: unknown loss; use one of hamming, absolute, squared, or an N x N matrix"),
        ({"notion": "dp"}, "invalid notion = dp: unknown notion; use one of pml, pmc, alip, lip, ldp, metric"),
        ({"notion": "metric", "metric": "taxicab"}, "invalid metric = taxicab: unknown metric; use one of discrete, line, or an N x N matrix"),
    ):
        with pytest.raises(pmldesign.InvalidInputError) as e:
            pmldesign.design([0.5, 0.3, 0.2], 1.0, **kwargs)
        assert str(e.value).startswith(message), str(e.value)

def test_a_run_stopped_before_it_has_a_mechanism_is_a_limit():
    # ALIP over a ball enumerates the cone's rays after the baselines (N = 12:
    # 214,788 constraints); the time limit passes during the enumeration, before
    # a mechanism exists. On a loaded machine the baselines may use the whole
    # limit instead, and the best of them is the design (the documented fallback).
    p = np.random.default_rng(3).dirichlet(np.ones(12))
    try:
        d = pmldesign.design(p, 0.5, notion="alip", epsilon_lower=0.3, beta=0.3, time_limit=0.01)
    except LimitReachedError as e:
        assert str(e).startswith("stopped by time_limit: ") and str(e).endswith("give a longer time limit"), e
    else:
        assert (d.status, d.solver.pricing) == ("time_limit", "baseline")


def test_an_input_past_double_precision_is_a_verification_failure():
    with pytest.raises(VerificationError, match=r"^numerical limit: prior = 1e-12: .*merge the rarest categories"):
        pmldesign.design([1e-12, 0.999999999998, 1e-12], 700, beta=2)


def test_a_forged_design_fails_verification_and_text_that_is_not_json_is_invalid_input():
    d = pmldesign.design([0.3, 0.25, 0.2, 0.15, 0.1], 0.5)
    forged = d.to_dict()
    forged["certificate"]["dual"]["lambda"] = [0.0] * len(forged["certificate"]["dual"]["lambda"])
    for make in (pmldesign.Design, pmldesign.Design.from_dict, lambda v: pmldesign.Design.from_json(json.dumps(v))):
        with pytest.raises(VerificationError, match="certificate.dual"):
            make(forged)
    leaky = d.to_dict()
    leaky["mechanism"] = np.eye(5).tolist()
    with pytest.raises(VerificationError):
        pmldesign.Design.from_dict(leaky)
    with pytest.raises(VerificationError):
        pmldesign.Design(dict(d.to_dict(), mechanism=None))
    with pytest.raises(VerificationError, match="missing keys"):
        pmldesign.Design.from_dict({"status": "optimal"})
    for text in ("{", d.to_json()[:-1], "not json"):
        with pytest.raises(InvalidInputError, match="design JSON"):
            pmldesign.Design.from_json(text)


def test_an_edited_public_file_fails_verification():
    public = json.loads(pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.6).public().to_json())
    public["notion"]["epsilon"] = 0.1
    with pytest.raises(VerificationError):
        pmldesign.PublicDesign.from_json(json.dumps(public))
    with pytest.raises(InvalidInputError):
        pmldesign.PublicDesign.from_json("[")
