"""One answer per question: for the same input, ``pml <command> --format json`` and
the Python function's ``to_dict()`` are equal key for key and number for number
(both are built once, by the application layer). Only the description of the input
differs: the file the command read (``source``) against an array in memory, and the
tool named in a design's provenance."""

from __future__ import annotations

import json
import pathlib
from typing import Any, Dict

import numpy as np
import pytest

import pmldesign

W = [[0.6, 0.2, 0.2], [0.2, 0.6, 0.2], [0.2, 0.2, 0.6]]
PRIOR = [0.5, 0.3, 0.2]
PRIOR_TEXT = "0.5,0.3,0.2"


def without_input(answer: Dict[str, Any]) -> Dict[str, Any]:
    """The answer without what describes its input."""
    out = dict(answer)
    out.pop("source", None)
    if "provenance" in out:
        out["provenance"] = {k: v for k, v in out["provenance"].items() if k != "tool"}
    return out


@pytest.fixture()
def mechanism_file(tmp_path: pathlib.Path) -> str:
    path = tmp_path / "w.csv"
    path.write_text("".join(",".join(map(str, row)) + "\n" for row in W))
    return str(path)


def cli(run_pml: Any, *args: str) -> Dict[str, Any]:
    return json.loads(run_pml(*args, "--format", "json"))


def test_assess_answers_alike(run_pml, mechanism_file):
    plain = cli(run_pml, "assess", "--mechanism", mechanism_file, "--prior", PRIOR_TEXT)
    assert without_input(plain) == without_input(pmldesign.assess(W, PRIOR).to_dict())
    assert plain["source"] == mechanism_file
    assert pmldesign.assess(W, PRIOR).source == "<array>"
    ball = cli(run_pml, "assess", "--mechanism", mechanism_file, "--prior", PRIOR_TEXT, "--beta", "0.05",
               "--envelope-delta", "0.1", "--labels", "a,b,c")
    python = pmldesign.assess(W, PRIOR, beta=0.05, envelope_delta=0.1, labels=["a", "b", "c"])
    assert without_input(ball) == without_input(python.to_dict())
    assert ball["labels"] == ["a", "b", "c"] and ball["envelope"]["delta"] == 0.1


def test_assess_over_sets_of_priors_answers_alike(run_pml, mechanism_file, tmp_path):
    args = ("assess", "--mechanism", mechanism_file)
    for method in ("free", "kappa"):
        sample = cli(run_pml, *args, "--counts", "500,300,200", "--delta", "0.05", "--radius", method)
        ours = pmldesign.assess(W, counts=[500, 300, 200], delta=0.05, radius=method).to_dict()
        assert without_input(sample) == without_input(ours)
    hull = [[0.5, 0.3, 0.2], [0.3, 0.4, 0.3], [0.2, 0.2, 0.6]]
    path = tmp_path / "priors.json"
    path.write_text(json.dumps(hull))
    polytope = cli(run_pml, *args, "--prior", PRIOR_TEXT, "--priors", str(path))
    assert without_input(polytope) == without_input(pmldesign.assess(W, PRIOR, priors=hull).to_dict())
    line = cli(run_pml, *args, "--prior", PRIOR_TEXT, "--metric", "line")
    assert without_input(line) == without_input(pmldesign.assess(W, PRIOR, metric="line").to_dict())
    with pytest.raises(pmldesign.InvalidInputError, match="counts"):
        pmldesign.assess(W, PRIOR, delta=0.05)
    with pytest.raises(pmldesign.InvalidInputError, match="at most one"):
        pmldesign.assess(W, PRIOR, beta=0.1, priors=hull)


def test_envelope_answers_alike(run_pml, mechanism_file):
    grid = cli(run_pml, "envelope", "--mechanism", mechanism_file, "--prior", PRIOR_TEXT)
    python = pmldesign.envelope(W, PRIOR).to_dict()
    assert without_input(grid) == without_input(python)
    assert len(python["curve"]) == 50 and "leakage_distribution" in python
    lp = cli(run_pml, "envelope", "--mechanism", mechanism_file, "--prior", PRIOR_TEXT, "--deltas", "0.01,0.2",
             "--delta", "0.1", "--lp")
    python = pmldesign.envelope(W, PRIOR, [0.01, 0.2], delta=0.1, lp=True).to_dict()
    assert without_input(lp) == without_input(python)
    assert python["statement"]["lp"] is not None


def test_design_and_compare_answer_alike(run_pml):
    prior = [0.4, 0.2, 0.2, 0.2]
    text = ",".join(map(str, prior))
    design = cli(run_pml, "design", "--prior", text, "--epsilon", "0.5")
    assert without_input(design) == without_input(pmldesign.design(prior, 0.5).to_dict())
    compare = cli(run_pml, "compare", "--prior", text, "--epsilon", "0.5", "--beta", "0.05")
    assert compare == pmldesign.compare(prior, 0.5, beta=0.05).to_dict()
    assert np.isfinite(compare["rows"][0]["utility"])
    # The row of metric privacy, and a loss by the route asked for.
    line = cli(run_pml, "compare", "--prior", text, "--epsilon", "0.5", "--metric", "line")
    assert line == pmldesign.compare(prior, 0.5, metric="line").to_dict()
    assert any(r["label"].startswith("metric") or "metric" in str(r.get("notion")) for r in line["rows"])
    for method in ("direct", "column-generation"):
        args = ("design", "--prior", text, "--epsilon", "0.5", "--utility", "loss", "--loss", "hamming")
        loss = cli(run_pml, *args, "--loss-method", method)
        ours = pmldesign.design(prior, 0.5, loss="hamming", loss_method=method).to_dict()
        assert without_input(loss) == without_input(ours)
        assert ours["loss"]["method"] == method.replace("-", "_")
    with pytest.raises(pmldesign.InvalidInputError, match="loss_method"):
        pmldesign.design(prior, 0.5, loss="hamming", loss_method="simplex")


def test_the_verdict_on_a_design_answers_alike(run_pml, tmp_path):
    """``pml assess --design FILE`` and ``Design.verify()``: one verdict."""
    for d in (pmldesign.design([0.4, 0.2, 0.2, 0.2], 0.5),
              pmldesign.design([0.5, 0.3, 0.2], 1.0, loss="hamming")):
        path = tmp_path / "design.json"
        path.write_text(d.to_json())
        command = cli(run_pml, "assess", "--design", str(path))
        python = d.verify().to_dict()
        assert without_input(command) == without_input(python)
        assert command["source"] == str(path) and python["source"] == "<design>"
        assert python["verdict"] == "verified" and python["verification"]["utility_value"] == d.verify().utility_value

def test_estimate_answers_alike(run_pml, mechanism_file):
    args = ["estimate", "--mechanism", mechanism_file, "--counts", "y1=50,y2=30,y3=20", "--bootstrap", "20"]
    command = cli(run_pml, *args)
    python = pmldesign.estimate(W, counts=[50, 30, 20], bootstrap=20).to_dict()
    assert without_input(command) == without_input(python)
    assert python["note"] == "a bare matrix: nothing in it was verified"
    assert "bootstrap_lower" in python["estimates"][0]


@pytest.mark.parametrize(
    "args,ask",
    [
        (["radius", "--samples", "1000", "--delta", "0.05", "--alphabet", "4"],
         lambda: pmldesign.bounds.radius(1000, 0.05, 4)),
        (["radius", "--samples", "1000", "--delta", "0.05", "--prior", "0.4,0.3,0.2,0.1", "--radius", "kappa"],
         lambda: pmldesign.bounds.radius(1000, 0.05, estimate=[0.4, 0.3, 0.2, 0.1])),
        (["failure-probability", "--samples", "1000", "--beta", "0.2", "--alphabet", "4"],
         lambda: pmldesign.bounds.failure_probability(1000, 0.2, 4)),
        (["epsilon-prime", "--epsilon", "1", "--beta", "0.1"], lambda: pmldesign.bounds.epsilon_prime(1.0, 0.1)),
        (["delta-min", "--epsilon", "1", "--epsilon-prime", "1.5", "--samples", "1000", "--alphabet", "4"],
         lambda: pmldesign.bounds.delta_min(1.0, 1.5, 1000, 4)),
        (["samples", "--epsilon", "1", "--epsilon-prime", "1.5", "--delta", "0.05", "--alphabet", "4"],
         lambda: pmldesign.bounds.samples(1.0, 1.5, 0.05, 4)),
        (["max-epsilon", "--epsilon-prime", "1.5", "--samples", "1000", "--delta", "0.05", "--alphabet", "4"],
         lambda: pmldesign.bounds.max_epsilon(1.5, 1000, 0.05, 4)),
    ],
)
def test_bounds_answer_alike(run_pml, args, ask):
    command = cli(run_pml, "bounds", *args)
    answer = ask()
    assert command == answer.to_dict()
    name = command["answer"]["name"]
    assert getattr(answer, name) == command["answer"]["value"]
    assert answer.formula == command["formula"]


def test_a_record_designs_and_estimates_alike(run_pml, tmp_path):
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"A": ["a1", "a2", "a1", "a2"] * 200, "B": ["b1", "b2", "b2", "b2"] * 200})
    data = tmp_path / "record.csv"
    frame.to_csv(data, index=False)
    command = cli(run_pml, "design", "--data", str(data), "--column", "A", "--column", "B", "--epsilon", "2",
                  "--record", "compose")
    record = pmldesign.design_record(frame, ["A", "B"], 2.0, mode="compose")
    assert without_input(command) == without_input(json.loads(record.to_json()))
    released = pmldesign.apply(record, frame, seed=2**100 + 3)
    design, out = tmp_path / "design.json", tmp_path / "released.csv"
    design.write_text(record.to_json())
    released.to_csv(out, index=False)
    estimate = cli(run_pml, "estimate", "--mechanism", str(design), "--data", str(out))
    assert without_input(estimate) == without_input(pmldesign.estimate(record, released).to_dict())


SEED = 2**200 + 7


def summary_of(run_pml: Any, *args: str) -> Dict[str, Any]:
    """`pml apply ARGS --summary -`: the summary, the release going to its file."""
    return json.loads(run_pml("apply", *args, "--seed", str(SEED), "--summary", "-", "-q"))


@pytest.mark.parametrize("how", ["skip", "keep"])
def test_apply_summarises_alike(run_pml, tmp_path, how):
    """A column with one value outside the labels and one null written missing, from
    a Parquet file (whose places are rows, as a frame's): the same summary but for
    the format and the name written (the command adds a column ``v_private``; Python
    returns the Series, named as its input)."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    frame = pd.DataFrame({"v": ["a", "b", "c", "a"] * 50 + ["zz", None, "b"]})
    data = tmp_path / "v.parquet"
    frame.to_parquet(data, index=False)
    design = pmldesign.design_from_counts([100, 75, 50], 1.0, delta=1e-3, labels=["a", "b", "c"])
    design_file = tmp_path / "design.json"
    design_file.write_text(design.to_json())
    command = summary_of(run_pml, "--mechanism", str(design_file), "--data", str(data), "--column", "v",
                         "--on-unknown", how, "--nulls", "drop", "--output", str(tmp_path / "out.parquet"))
    released, summary = pmldesign.apply(design, frame["v"], seed=SEED, on_unknown=how, nulls="drop", summary=True)
    assert command["format"] == "parquet" and summary.format == "frame"
    assert command["columns"] == [{"column": "v", "written_as": "v_private"}]
    assert summary.to_dict()["columns"] == [{"column": "v", "written_as": released.name}]
    assert dict(summary.to_dict(), format="parquet", columns=command["columns"]) == command
    assert summary.first_unknown.to_dict() == {"row": 200, "value": "zz"}
    assert summary.written_missing == 1 and len(released) == (202 if how == "skip" else 203)


def test_a_record_apply_summarises_alike(run_pml, tmp_path):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    frame = pd.DataFrame({"A": ["a1", "a2", "a1", "a2"] * 50 + ["a9"], "B": ["b1", "b2", "b2", "b2"] * 50 + ["b1"]})
    data = tmp_path / "record.parquet"
    frame.to_parquet(data, index=False)
    record = pmldesign.design_record(frame.iloc[:200], ["A", "B"], 2.0, mode="compose")
    design = tmp_path / "record.json"
    design.write_text(record.to_json())
    command = summary_of(run_pml, "--mechanism", str(design), "--data", str(data), "--on-unknown", "keep",
                         "--replace", "--output", str(tmp_path / "out.parquet"))
    _, summary = pmldesign.apply(record, frame, seed=SEED, on_unknown="keep", replace=True, summary=True)
    assert dict(summary.to_dict(), format="parquet") == command
    assert summary.kept_empty == 1 and summary.first_unknown.to_dict() == {"row": 200, "value": "a9"}
