"""The design file's JSON Schema (schemas/design.schema.json) describes every file the
tool writes: the golden corpus, fresh designs over every notion, utility, set, stop and
record mode, and Python's `to_json()`; and it refuses what the readers refuse (an unknown
or missing key), so the schema and the readers do not drift apart."""

import copy
import functools
import json
import re
import subprocess

import pytest

import pmldesign
from conftest import ROOT

jsonschema = pytest.importorskip("jsonschema")

SCHEMA = json.loads((ROOT / "schemas" / "design.schema.json").read_text())
GOLDEN = ROOT / "tests" / "golden"

# Every route to a design file, and every way a run stops (an optimum, a gap, the clock).
FRESH = [
    "--prior 0.4,0.3,0.2,0.1 --epsilon 0.5",
    "--prior 0.4,0.3,0.2,0.1 --epsilon 0.5 --beta 0.05",
    "--counts 400,300,200,100 --epsilon 1.5 --delta 0.01 --envelope-delta 0.1",
    "--counts 40,30,20,10 --epsilon 1.5 --delta 0.01 --radius kappa",
    "--prior 0.4,0.3,0.2,0.1 --epsilon 0.7 --notion pmc",
    "--prior 0.4,0.3,0.2,0.1 --notion alip --epsilon-lower 0.5 --epsilon-upper 0.8",
    "--prior 0.4,0.3,0.2,0.1 --epsilon 0.8 --notion lip --utility tv",
    "--prior 0.4,0.3,0.2,0.1 --epsilon 0.8 --notion ldp --utility map",
    "--prior 0.4,0.3,0.2,0.1 --epsilon 0.8 --notion metric --metric line",
    "--prior 0.4,0.3,0.2,0.1 --epsilon 0.8 --notion metric --metric-matrix inputs/metric4.csv",
    "--prior 0.4,0.3,0.2,0.1 --epsilon 0.6 --utility loss --loss hamming --loss-method direct",
    "--prior 0.4,0.3,0.2,0.1 --epsilon 0.6 --utility loss --loss squared --loss-method column-generation",
    "--prior 0.4,0.3,0.2,0.1 --epsilon 0.6 --utility loss --loss absolute --notion ldp",
    "--prior 0.4,0.3,0.2,0.1 --epsilon 0.6 --utility loss --loss-matrix inputs/loss4.csv --beta 0.05",
    "--prior 0.4,0.3,0.2,0.1 --epsilon 5",
    "--prior 0.4,0.3,0.2,0.1 --epsilon 0.6 --pricing enumerate --gap 0.5",
    "--prior 0.2,0.2,0.2,0.1,0.1,0.05,0.05,0.02,0.02,0.01,0.01,0.01,0.01,0.01,0.01 --epsilon 0.9 --time-limit 0.001",
    "--data inputs/people.csv --column color --epsilon 1.5 --delta 0.01",
    "--data inputs/record.csv --column A --column B --epsilon 1.5 --record joint",
    "--data inputs/record.csv --column A --column B --epsilon 1.5 --record compose --delta 0.01",
    "--data inputs/record.csv --column A --column B --epsilon 1.5 --record ldp",
    "--data inputs/record.csv --column A --column B --epsilon 1.5 --record joint --time-limit 0.000001",
    # Under LDP past enumeration the certificate names the priors of its floor.
    "--prior {} --epsilon 1 --notion ldp --utility estimation --time-limit 3".format(
        ",".join(repr(1 / i / sum(1 / j for j in range(1, 21))) for i in range(1, 21))
    ),
]


@functools.cache
def validator():
    """The schema's validator, the schema checked against its meta-schema once (each
    check costs about 0.4 s: once per document was most of this file's time)."""
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    return jsonschema.Draft202012Validator(SCHEMA)


def assert_valid(document, where):
    errors = list(validator().iter_errors(document))
    if errors:
        best = jsonschema.exceptions.best_match(errors)
        pytest.fail(f"{where}: {best.json_path}: {best.message[:300]}")


def is_design(document):
    """A design file (an `assess` report also carries a certificate, not a mechanism)."""
    if not isinstance(document, dict):
        return False
    return "record" in document or {"mechanism", "certificate", "baselines"} <= document.keys()


def golden_designs():
    """The design files of the golden corpus: its inputs and the JSON its cases print."""
    for path in sorted((GOLDEN / "inputs").glob("*.json")):
        document = json.loads(path.read_text())
        if is_design(document):
            yield path.name, document
    for path in sorted((GOLDEN / "expected").glob("*.out")):
        for section in re.split(r"^== (?:stdout|file [^=]+) ==\n", path.read_text(), flags=re.M)[1:]:
            text = section.split("\n== ", 1)[0]
            try:
                document = json.loads(text)
            except ValueError:
                continue
            if is_design(document):
                yield path.name, document


def test_the_golden_corpus_design_files_match_the_schema():
    seen = 0
    for name, document in golden_designs():
        assert_valid(document, name)
        seen += 1
    assert seen >= 10, seen


@pytest.mark.parametrize("args", FRESH)
def test_every_route_and_stop_writes_a_file_the_schema_describes(pml_bin, args):
    r = subprocess.run(
        [str(pml_bin.resolve()), "design", *args.split(), "--format", "json"],
        cwd=GOLDEN, capture_output=True, text=True,
    )
    assert r.returncode == 0, r.stderr
    assert_valid(json.loads(r.stdout), args)


def test_python_designs_match_the_schema():
    d = pmldesign.design([0.4, 0.2, 0.2, 0.2], pmldesign.exp_epsilon(9 / 8))
    assert_valid(json.loads(d.to_json()), "Design.to_json()")


def test_the_schema_refuses_what_the_readers_refuse(pml_bin, tmp_path):
    d = json.loads(pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.5).to_json())
    unknown = copy.deepcopy(d)
    unknown["certificate"]["verified"] = True
    missing = copy.deepcopy(d)
    del missing["mechanism"]
    misspelt = copy.deepcopy(d)
    misspelt["notion"]["notion"] = "pmll"
    for name, document in [("unknown", unknown), ("missing", missing), ("misspelt", misspelt)]:
        assert not validator().is_valid(document), name
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(document))
        r = subprocess.run([str(pml_bin), "assess", "--design", str(path)], capture_output=True, text=True)
        assert r.returncode != 0, (name, r.stdout)
