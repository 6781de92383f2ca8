"""``design_from_counts(..., private_prior=, seed=)``: the design of ``pml design
--private-prior`` (counts given discrete Laplace noise from the secret key, the
ball widened for it), the same design for the same counts, level and key."""

import json
import warnings

import pytest

import pmldesign

KEY = "0x5eed5eed5eed5eed5eed5eed5eed5eed"
COUNTS = [173, 402, 0, 91]


def private(**kwargs):
    return pmldesign.design_from_counts(COUNTS, 1.0, delta=0.05, private_prior=1.0, seed=KEY, **kwargs)


def test_the_same_counts_level_and_key_give_the_clis_design(run_pml):
    ours = private().to_dict()
    theirs = json.loads(run_pml("design", "--counts", ",".join(map(str, COUNTS)), "--epsilon", "1", "--delta", "0.05",
                                "--private-prior", "1", "--seed", KEY, "--format", "json"))
    assert ours["provenance"].pop("tool").startswith("pmldesign (Python) ")
    assert theirs["provenance"].pop("tool").startswith("pml ")
    assert ours == theirs
    assert private().to_json() == private().to_json()
    assert pmldesign.design_from_counts(COUNTS, 1.0, delta=0.05, private_prior=1.0, seed=KEY + "1").to_json() != (
        private().to_json()
    )


def test_the_centre_is_noisy_and_the_design_reads_back():
    d = private()
    data = d.to_dict()
    truth = [c / sum(COUNTS) for c in COUNTS]
    assert data["uncertainty"]["center"] != truth
    g = data["guarantee"]
    assert g["samples"] != sum(COUNTS) and isinstance(g["private_prior"], dict)
    assert "1-DP about the dataset" in g["statement"]
    again = pmldesign.Design.from_json(d.to_json())
    assert again.to_json() == d.to_json()
    check = d.verify().to_dict()["verification"]
    assert check["utility_value"] == pytest.approx(d.utility, rel=1e-9)
    assert check["utility_value"] <= check["proven_bound"] + 1e-12


def test_a_missing_or_short_seed_and_an_open_alphabet_are_refused_or_warned():
    with pytest.raises(pmldesign.PmlError, match="seed"):
        pmldesign.design_from_counts(COUNTS, 1.0, delta=0.05, private_prior=1.0)
    with pytest.raises(pmldesign.PmlError, match="seed"):
        pmldesign.design_from_counts(COUNTS, 1.0, delta=0.05, seed=KEY)
    with pytest.raises(pmldesign.PmlError, match="private_prior"):
        pmldesign.design_from_counts(COUNTS, 1.0, delta=0.05, private_prior=0.0, seed=KEY)
    with pytest.warns(UserWarning, match="5-bit number"):
        pmldesign.design_from_counts(COUNTS, 1.0, delta=0.05, private_prior=1.0, seed=17)
    counted = {"a": 173, "b": 402, "d": 91}
    with pytest.raises(pmldesign.PmlError, match="labels"):
        pmldesign.design_from_counts(counted, 1.0, delta=0.05, private_prior=1.0, seed=KEY)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = pmldesign.design_from_counts(counted, 1.0, delta=0.05, private_prior=1.0, seed=KEY,
                                         labels=["a", "b", "c", "d"])
    assert d.to_dict()["labels"] == ["a", "b", "c", "d"]
