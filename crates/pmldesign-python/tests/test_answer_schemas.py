"""The JSON Schemas of the commands' answers (schemas/audit, envelope, estimate, bounds,
compare and verdict .schema.json) describe what ``pml <command> --format json`` prints and what
the Python function's ``to_dict()`` returns, for every command and its variants (and
schemas/apply.schema.json what ``pml apply --summary`` writes); and
they refuse a document with a key they do not know or without one they require, so the
schemas and the producers do not drift apart."""

from __future__ import annotations

import copy
import functools
import json
import pathlib
import subprocess
from typing import Any, Callable, Dict, Iterator, List, Tuple

import pytest

import pmldesign
from conftest import ROOT

jsonschema = pytest.importorskip("jsonschema")

SCHEMAS = ROOT / "schemas"
GOLDEN = ROOT / "tests" / "golden" / "inputs"
ANSWERS = ["audit", "envelope", "estimate", "bounds", "compare", "apply", "verdict"]
SEED = "0x" + "5eed" * 16

W = [[0.6, 0.2, 0.2], [0.2, 0.6, 0.2], [0.2, 0.2, 0.6]]
PRIOR = [0.5, 0.3, 0.2]
# Two equal rows (one group of inputs), zeros and an output never released: the figures
# that are infinite or undefined, written as null.
ZEROS = [[0.5, 0.5, 0.0, 0.0], [0.5, 0.5, 0.0, 0.0], [0.0, 0.5, 0.5, 0.0]]
# A mechanism whose LP envelope at delta 0.3 is certified by a witness, and is stopped
# by a time limit of a microsecond.
W4 = [[0.88, 0.0, 0.09, 0.03], [0.1, 0.44, 0.39, 0.07], [0.03, 0.02, 0.79, 0.16], [0.16, 0.23, 0.59, 0.02]]
P4 = [0.36, 0.18, 0.17, 0.29]
# The third row is the mean of the first two: the three inputs are estimable only together.
DEPENDENT = [[0.8, 0.2, 0.0], [0.2, 0.8, 0.0], [0.5, 0.5, 0.0], [0.0, 0.0, 1.0]]

# Every command and its variants, run in a folder holding the files they name.
CLI = [
    ("audit", "assess --mechanism w.csv --prior 0.5,0.3,0.2"),
    ("audit", "assess --mechanism w.csv --prior 0.5,0.3,0.2 --beta 0.05 --envelope-delta 0.1 --labels a,b,c"),
    ("audit", "assess --mechanism w.csv --counts 50,30,20 --delta 0.05 --metric line"),
    ("audit", "assess --mechanism w.csv --counts 50,30,20 --delta 0.05 --radius kappa"),
    ("audit", "assess --mechanism w.csv --prior 0.5,0.3,0.2 --metric-matrix metric3.csv"),
    ("audit", "assess --mechanism zeros.csv --prior 0.5,0.3,0.2 --priors priors3.csv --metric discrete"),
    ("audit", "assess --mechanism design.json --data people.csv --column color"),
    ("envelope", "envelope --mechanism w.csv --prior 0.5,0.3,0.2"),
    ("envelope", "envelope --mechanism w.csv --prior 0.5,0.3,0.2 --deltas 0.01,0.2 --delta 0.1 --lp"),
    ("envelope", "envelope --mechanism w4.csv --prior 0.36,0.18,0.17,0.29 --deltas 0.1,0.3 --delta 0.3 --lp"),
    ("envelope", "envelope --mechanism w4.csv --prior 0.36,0.18,0.17,0.29 --deltas 0.3 --delta 0.3 --lp "
                 "--time-limit 0.000001"),
    ("envelope", "envelope --mechanism zeros.csv --prior 0.5,0.3,0.2 --labels a,b,c"),
    ("envelope", "envelope --mechanism design.json --data people.csv --column color"),
    ("estimate", "estimate --mechanism w.csv --counts y1=50,y2=30,y3=20 --bootstrap 20"),
    ("estimate", "estimate --mechanism w.csv --counts y1=50,y2=30,y3=20 --method inversion --confidence 0.9"),
    ("estimate", "estimate --mechanism zeros.csv --counts 40,40,20,0"),
    ("estimate", "estimate --mechanism zeros.csv --counts 10,0,90,0 --method inversion"),
    ("estimate", "estimate --mechanism dependent.csv --counts 40,40,20"),
    ("estimate", "estimate --mechanism design.json --data released.csv --column color_private"),
    ("estimate", "estimate --mechanism public.json --data released.csv --column color_private"),
    ("estimate", "estimate --mechanism record.json --data record_released.csv"),
    ("estimate", "estimate --mechanism record_public.json --data record_released.csv --confidence 0.9"),
    ("bounds", "bounds radius --samples 1000 --delta 0.05 --alphabet 4"),
    ("bounds", "bounds radius --delta 0.05 --counts 400,300,200,100"),
    ("bounds", "bounds radius --delta 0.05 --counts 400,300,200,100 --radius kappa"),
    ("bounds", "bounds radius --samples 1000 --delta 0.05 --prior 0.4,0.3,0.2,0.1 --radius kappa"),
    ("bounds", "bounds failure-probability --samples 1000 --beta 0.2 --alphabet 4"),
    ("bounds", "bounds failure-probability --samples 10 --beta 0.01 --alphabet 4"),
    ("bounds", "bounds failure-probability --samples 1000 --beta 0.2 --prior 0.4,0.3,0.2,0.1 --radius kappa"),
    ("bounds", "bounds epsilon-prime --epsilon 1 --beta 0.1"),
    ("bounds", "bounds epsilon-prime --epsilon 1 --samples 1000 --delta 0.05 --alphabet 4"),
    ("bounds", "bounds delta-min --epsilon 1 --epsilon-prime 1.5 --samples 1000 --alphabet 4"),
    ("bounds", "bounds delta-min --epsilon 1 --epsilon-prime 1.01 --samples 10 --alphabet 4"),
    ("bounds", "bounds samples --epsilon 1 --epsilon-prime 1.5 --delta 0.05 --alphabet 4"),
    ("bounds", "bounds max-epsilon --epsilon-prime 1.5 --samples 1000 --delta 0.05 --alphabet 4"),
    ("compare", "compare --prior 0.4,0.2,0.2,0.2 --epsilon 0.5 --beta 0.05"),
    ("compare", "compare --prior 0.4,0.3,0.2,0.1 --epsilon 0.5 --utility map --epsilon-lower 0.3 --epsilon-upper 0.6 "
                "--labels a,b,c,d"),
    ("compare", "compare --prior 0.4,0.3,0.2,0.1 --epsilon 0.5 --utility tv --metric line"),
    ("compare", "compare --prior 0.4,0.3,0.2,0.1 --epsilon 0.5 --utility chi2 --metric-matrix metric4.csv"),
    ("compare", "compare --prior 0.4,0.3,0.2,0.1 --epsilon 0.5 --utility hellinger"),
    ("compare", "compare --counts 40,30,20,10 --epsilon 5"),
    ("verdict", "assess --design design.json"),
    ("verdict", "assess --design record.json"),
]

# The Python call answering each command, with the variants Python's signature offers.
PYTHON: List[Tuple[str, str, Callable[[Dict[str, Any]], Any]]] = [
    ("audit", "plain", lambda made: pmldesign.assess(W, PRIOR)),
    ("audit", "ball", lambda made: pmldesign.assess(W, PRIOR, beta=0.05, envelope_delta=0.1, labels=["a", "b", "c"])),
    ("audit", "zeros", lambda made: pmldesign.assess(ZEROS, PRIOR, beta=0.1)),
    ("audit", "design", lambda made: pmldesign.assess(made["design"])),
    ("envelope", "grid", lambda made: pmldesign.envelope(W, PRIOR)),
    ("envelope", "lp", lambda made: pmldesign.envelope(W, PRIOR, [0.01, 0.2], delta=0.1, lp=True)),
    ("envelope", "witness", lambda made: pmldesign.envelope(W4, P4, [0.1, 0.3], delta=0.3, lp=True)),
    ("envelope", "stopped", lambda made: pmldesign.envelope(W4, P4, [0.3], delta=0.3, lp=True, time_limit=1e-6)),
    ("envelope", "zeros", lambda made: pmldesign.envelope(ZEROS, PRIOR, labels=["a", "b", "c"])),
    ("estimate", "bootstrap", lambda made: pmldesign.estimate(W, counts=[50, 30, 20], bootstrap=20)),
    ("estimate", "inversion",
     lambda made: pmldesign.estimate(W, counts=[50, 30, 20], method="inversion", confidence=0.9)),
    ("estimate", "groups", lambda made: pmldesign.estimate(ZEROS, counts=[40, 40, 20, 0])),
    ("estimate", "unlikely", lambda made: pmldesign.estimate(ZEROS, counts=[10, 0, 90, 0], method="inversion")),
    ("estimate", "dependent", lambda made: pmldesign.estimate(DEPENDENT, counts=[40, 40, 20])),
    ("estimate", "design", lambda made: pmldesign.estimate(made["design"], made["released"], column="v_private")),
    ("estimate", "public",
     lambda made: pmldesign.estimate(made["design"].public(), made["released"], column="v_private")),
    ("estimate", "record", lambda made: pmldesign.estimate(made["record"], made["record_released"])),
    ("estimate", "public record", lambda made: pmldesign.estimate(made["record"].public(), made["record_released"])),
    ("bounds", "radius", lambda made: pmldesign.bounds.radius(1000, 0.05, 4)),
    ("bounds", "radius kappa", lambda made: pmldesign.bounds.radius(1000, 0.05, estimate=[0.4, 0.3, 0.2, 0.1])),
    ("bounds", "failure", lambda made: pmldesign.bounds.failure_probability(1000, 0.2, 4)),
    ("bounds", "failure kappa",
     lambda made: pmldesign.bounds.failure_probability(1000, 0.2, estimate=[0.4, 0.3, 0.2, 0.1])),
    ("bounds", "epsilon-prime", lambda made: pmldesign.bounds.epsilon_prime(1.0, 0.1)),
    ("bounds", "delta-min", lambda made: pmldesign.bounds.delta_min(1.0, 1.5, 1000, 4)),
    ("bounds", "samples", lambda made: pmldesign.bounds.samples(1.0, 1.5, 0.05, 4)),
    ("bounds", "max-epsilon", lambda made: pmldesign.bounds.max_epsilon(1.5, 1000, 0.05, 4)),
    ("compare", "ball", lambda made: pmldesign.compare([0.4, 0.2, 0.2, 0.2], 0.5, beta=0.05)),
    ("compare", "alip",
     lambda made: pmldesign.compare([0.4, 0.3, 0.2, 0.1], 0.5, utility="map", epsilon_lower=0.3, epsilon_upper=0.6,
                                    labels=["a", "b", "c", "d"])),
    ("compare", "no privacy needed", lambda made: pmldesign.compare([0.4, 0.3, 0.2, 0.1], 5.0)),
    ("verdict", "design", lambda made: made["design"].verify()),
    ("apply", "column",
     lambda made: pmldesign.apply(made["design"], ["a", "q", "b"], seed=2**200, on_unknown="skip", summary=True)[1]),
    ("apply", "record",
     lambda made: pmldesign.apply(made["record"], made["record_frame"], seed=2**200, keep_raw=True, summary=True)[1]),
]

# Keys an answer writes only in some cases; every other key is required where it occurs.
OPTIONAL = {"radius", "metric", "lp", "stopped", "samples_from", "bootstrap_lower", "bootstrap_upper",
            "bootstrap_standard_error"}


@functools.cache
def schema(name: str) -> Dict[str, Any]:
    document: Dict[str, Any] = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    return document


@functools.cache
def registry() -> Any:
    """Every schema of schemas/ by its $id, so that one may refer to another's parts
    (the verdict to design.schema.json's) without fetching anything."""
    from referencing import Registry, Resource

    found = [json.loads(p.read_text()) for p in sorted(SCHEMAS.glob("*.schema.json"))]
    return Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in found)


@functools.cache
def validator(name: str) -> Any:
    """The schema's validator, the schema checked against its meta-schema once."""
    jsonschema.Draft202012Validator.check_schema(schema(name))
    return jsonschema.Draft202012Validator(schema(name), registry=registry())


def assert_valid(name: str, document: Any, where: str) -> None:
    errors = list(validator(name).iter_errors(document))
    if errors:
        best = jsonschema.exceptions.best_match(errors)
        pytest.fail(f"{name}: {where}: {best.json_path}: {best.message[:300]}")


def write_rows(path: pathlib.Path, rows: List[List[float]]) -> None:
    path.write_text("".join(",".join(map(str, row)) + "\n" for row in rows))


def run_in(folder: pathlib.Path, pml_bin: pathlib.Path, args: List[str]) -> str:
    """Runs `pml ARGS...` in `folder` and returns its standard output."""
    r = subprocess.run([str(pml_bin.resolve()), *args, "-q"], cwd=folder, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory, pml_bin: pathlib.Path) -> pathlib.Path:
    """The files the command lines name: mechanisms, a set of priors, metrics, and a
    column's and a record's design files, released data and public files."""
    path = tmp_path_factory.mktemp("answers")
    write_rows(path / "w.csv", W)
    write_rows(path / "zeros.csv", ZEROS)
    write_rows(path / "w4.csv", W4)
    write_rows(path / "dependent.csv", DEPENDENT)
    write_rows(path / "priors3.csv", [[0.5, 0.3, 0.2], [0.3, 0.3, 0.4]])
    write_rows(path / "metric3.csv", [[0, 1, 2], [1, 0, 1], [2, 1, 0]])
    for name in ["people.csv", "record.csv", "metric4.csv"]:
        (path / name).write_bytes((GOLDEN / name).read_bytes())
    # people.csv with a colour no design knows on its last line (line 26).
    (path / "mixed.csv").write_text((GOLDEN / "people.csv").read_text() + "25,mauve,1,40\n")
    for args in [
        "design --data people.csv --column color --epsilon 1.5 --delta 0.01 --output design.json",
        f"apply --mechanism design.json --data people.csv --column color --seed {SEED} --output released.csv",
        "publish --mechanism design.json --output public.json",
        "design --data record.csv --column A --column B --epsilon 1.5 --record compose --output record.json",
        f"apply --mechanism record.json --data record.csv --seed {SEED} --output record_released.csv",
        "publish --mechanism record.json --output record_public.json",
    ]:
        run_in(path, pml_bin, args.split())
    return path


@pytest.fixture(scope="module")
def made() -> Dict[str, Any]:
    """A column's design and a record's, made in Python, and the rows each released."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"v": ["a", "b", "c", "a"] * 100})
    design = pmldesign.design_from_counts(pmldesign.count(frame, "v"), 1.0, delta=1e-3)
    released = pd.DataFrame({"v_private": pmldesign.apply(design, frame["v"], seed=int(SEED, 16))})
    record_frame = pd.DataFrame({"A": ["a1", "a2", "a1", "a2"] * 200, "B": ["b1", "b2", "b2", "b2"] * 200})
    record = pmldesign.design_record(record_frame, ["A", "B"], 2.0, mode="compose")
    record_released = pmldesign.apply(record, record_frame, seed=int(SEED, 16))
    return {"design": design, "released": released, "record": record, "record_released": record_released,
            "record_frame": record_frame}


def cli(pml_bin: pathlib.Path, folder: pathlib.Path, args: str) -> Dict[str, Any]:
    answer: Dict[str, Any] = json.loads(run_in(folder, pml_bin, [*args.split(), "--format", "json"]))
    return answer


@pytest.mark.parametrize("name", ANSWERS)
def test_each_schema_is_valid_and_states_the_format_version(name):
    validator(name)
    found = schema(name)
    assert found["$id"].endswith(f"/{name}.schema.json")
    version = found["properties"] if "properties" in found else found["$defs"]
    assert version["format_version"]["const"] == pmldesign._native.OUTPUT_FORMAT_VERSION


@pytest.mark.parametrize("name,args", CLI, ids=[args for _, args in CLI])
def test_every_command_prints_an_answer_its_schema_describes(pml_bin, folder, name, args):
    assert_valid(name, cli(pml_bin, folder, args), args)


@pytest.mark.parametrize("name,variant,ask", PYTHON, ids=[f"{name}-{variant}" for name, variant, _ in PYTHON])
def test_every_python_answer_matches_its_schema(made, name, variant, ask):
    assert_valid(name, ask(made).to_dict(), variant)


def objects(document: Any, path: Tuple[Any, ...] = ()) -> Iterator[Tuple[Tuple[Any, ...], Dict[str, Any]]]:
    """Each object of the document with its path (the first item of each array only:
    the items of an array share one schema)."""
    if isinstance(document, dict):
        yield path, document
        for key, value in document.items():
            yield from objects(value, path + (key,))
    elif isinstance(document, list) and document:
        yield from objects(document[0], path + (0,))


def at(document: Any, path: Tuple[Any, ...]) -> Any:
    for step in path:
        document = document[step]
    return document


# One answer of each kind with most of its optional parts present.
REFUSALS = [
    ("audit", "assess --mechanism w.csv --counts 50,30,20 --delta 0.05 --metric line"),
    ("envelope", "envelope --mechanism w4.csv --prior 0.36,0.18,0.17,0.29 --deltas 0.3 --delta 0.3 --lp"),
    ("estimate", "estimate --mechanism w.csv --counts y1=50,y2=30,y3=20 --bootstrap 20"),
    ("estimate", "estimate --mechanism record.json --data record_released.csv"),
    ("bounds", "bounds radius --delta 0.05 --counts 400,300,200,100 --radius kappa"),
    ("bounds", "bounds samples --epsilon 1 --epsilon-prime 1.5 --delta 0.05 --alphabet 4"),
    ("compare", "compare --prior 0.4,0.3,0.2,0.1 --epsilon 0.5 --metric line"),
]


@pytest.mark.parametrize("design", ["design.json", "record.json"])
def test_the_verdict_schema_refuses_an_unknown_or_a_missing_key_of_its_own(pml_bin, folder, design):
    """The verdict's own keys and its verifications'; the parts it repeats of the
    design (the certificate, ...) are design.schema.json's, which reads older files."""
    answer = cli(pml_bin, folder, f"assess --design {design}")
    assert_valid("verdict", answer, design)
    verification = ("verification",) if "verification" in answer else ("verifications", 0)
    for path in [(), verification]:
        unknown = copy.deepcopy(answer)
        at(unknown, path)["unexpected"] = 1
        assert not validator("verdict").is_valid(unknown), f"{design}: an unknown key at {path} is accepted"
        for key in at(answer, path):
            missing = copy.deepcopy(answer)
            del at(missing, path)[key]
            assert not validator("verdict").is_valid(missing), f"{design}: {path + (key,)} may be left out"


@pytest.mark.parametrize("name,args", REFUSALS, ids=[args for _, args in REFUSALS])
def test_the_schemas_refuse_an_unknown_or_a_missing_key_anywhere(pml_bin, folder, name, args):
    answer = cli(pml_bin, folder, args)
    assert_valid(name, answer, args)
    for path, found in objects(answer):
        unknown = copy.deepcopy(answer)
        at(unknown, path)["unexpected"] = 1
        assert not validator(name).is_valid(unknown), f"{args}: an unknown key at {path} is accepted"
        for key in found:
            if key in OPTIONAL:
                continue
            missing = copy.deepcopy(answer)
            del at(missing, path)[key]
            assert not validator(name).is_valid(missing), f"{args}: {path + (key,)} may be left out"
    wrong = dict(answer, format_version=answer["format_version"] + 1)
    assert not validator(name).is_valid(wrong), f"{args}: another format_version is accepted"


# `pml apply --summary -` (the release to a file): the counts each case gives.
APPLY = [
    ("apply --mechanism design.json --data people.csv --column color --output a.csv",
     {"rows": 24, "privatised": 24, "skipped": 0, "kept_empty": 0, "first_unknown": None,
      "columns": [{"column": "color", "written_as": "color_private"}]}),
    ("apply --mechanism design.json --data mixed.csv --column color --on-unknown skip --output a.csv",
     {"rows": 25, "privatised": 24, "skipped": 1, "first_unknown": {"line": 26, "value": "mauve"}}),
    ("apply --mechanism design.json --data mixed.csv --column color --on-unknown keep --replace --output a.csv",
     {"kept_empty": 1, "columns": [{"column": "color", "written_as": "color"}]}),
    ("apply --mechanism record.json --data record.csv --keep-raw --output a.csv",
     {"rows": 1000, "privatised": 1000, "raw_kept": True,
      "columns": [{"column": "A", "written_as": "A_private"}, {"column": "B", "written_as": "B_private"}]}),
]


@pytest.mark.parametrize("args,expected", APPLY, ids=[args for args, _ in APPLY])
def test_apply_writes_the_summary_its_schema_describes(pml_bin, folder, args, expected):
    summary = json.loads(run_in(folder, pml_bin, [*args.split(), "--seed", SEED, "--summary", "-"]))
    assert_valid("apply", summary, args)
    assert {k: summary[k] for k in expected} == expected
    (folder / "a.csv").unlink()
