"""The package against the `pml` binary: the same JSON and the same apply stream."""

import csv
import json
import math

import numpy as np
import pytest

import pmldesign

CASES = [
    ({"prior": [0.4, 0.2, 0.2, 0.2], "epsilon": math.log(9 / 8)}, []),
    ({"prior": [0.4, 0.3, 0.2, 0.1], "epsilon": 0.7, "beta": 0.1, "utility": "tv"}, ["--beta", "0.1", "--utility", "tv"]),
    ({"prior": [0.5, 0.3, 0.2], "epsilon": 0.4, "notion": "pmc", "labels": ["a", "b", "c"]},
     ["--notion", "pmc", "--labels", "a,b,c"]),
    ({"prior": [0.5, 0.3, 0.2], "epsilon": 0.4, "loss": "hamming"}, ["--utility", "loss", "--loss", "hamming"]),
    ({"prior": [0.4, 0.3, 0.3], "epsilon": 3.0}, []),
]


def same_design(ours, theirs):
    """The same design JSON but for the program named in the provenance."""
    assert ours["provenance"].pop("tool").startswith("pmldesign (Python) ")
    assert theirs["provenance"].pop("tool").startswith("pml ")
    return ours == theirs


@pytest.mark.parametrize("kwargs,flags", CASES)
def test_to_dict_equals_the_cli_json(run_pml, kwargs, flags):
    kwargs = dict(kwargs)
    prior, eps = kwargs.pop("prior"), kwargs.pop("epsilon")
    d = pmldesign.design(prior, eps, **kwargs)
    out = run_pml("design", "--prior", ",".join(map(repr, prior)), "--epsilon", repr(eps), "--format", "json", *flags)
    assert same_design(d.to_dict(), json.loads(out))


def test_design_from_counts_equals_the_cli_json(run_pml):
    d = pmldesign.design_from_counts([400, 300, 200, 100], 0.8, delta=0.05, radius="kappa")
    out = run_pml("design", "--counts", "400,300,200,100", "--epsilon", "0.8", "--delta", "0.05",
                  "--radius", "kappa", "--format", "json")
    assert same_design(d.to_dict(), json.loads(out))


def test_compare_equals_the_cli_json(run_pml):
    c = pmldesign.compare([0.4, 0.3, 0.2, 0.1], 0.3)
    out = run_pml("compare", "--prior", "0.4,0.3,0.2,0.1", "--epsilon", "0.3", "--format", "json")
    assert c.to_dict() == json.loads(out)


def test_apply_gives_the_cli_stream(run_pml, tmp_path):
    d = pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.6, labels=["a", "b", "c", "d"])
    (tmp_path / "design.json").write_text(d.to_json())
    values = list(np.random.default_rng(3).choice(["a", "b", "c", "d"], size=2000))
    with open(tmp_path / "in.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "x"])
        w.writerows([i, v] for i, v in enumerate(values))
    key = "0x" + "9b05688c2b3e6c1f" * 4
    run_pml("apply", "--mechanism", str(tmp_path / "design.json"), "--data", str(tmp_path / "in.csv"),
            "--column", "x", "--output", str(tmp_path / "out.csv"), "--seed", key)
    with open(tmp_path / "out.csv", newline="") as f:
        cli = [row["x_private"] for row in csv.DictReader(f)]
    # The same column name and key give the CLI's stream, and any split of the rows,
    # each part with its offset, gives the whole.
    assert pmldesign.apply(d, values, seed=key, column="x").tolist() == cli
    cuts = [0, 1, 700, 701, 1500, 2000]
    parts = [pmldesign.apply(d, values[a:b], seed=key, column="x", offset=a) for a, b in zip(cuts, cuts[1:])]
    assert np.concatenate(parts).tolist() == cli
    assert pmldesign.apply(d, values, seed=key, column="y").tolist() != cli


@pytest.mark.parametrize("kwargs", [
    {"prior": [0.4, 0.3, 0.2, 0.1], "epsilon": 0.6},
    {"prior": [0.5, 0.3, 0.2], "epsilon": 0.4, "loss": "hamming"},
    {"prior": [0.3, 0.25, 0.2, 0.15, 0.1], "epsilon": 1.0, "notion": "ldp", "utility": "map"},
])
def test_verify_equals_the_cli_verification(run_pml, tmp_path, kwargs):
    kwargs = dict(kwargs)
    d = pmldesign.design(kwargs.pop("prior"), kwargs.pop("epsilon"), **kwargs)
    (tmp_path / "design.json").write_text(d.to_json())
    out = run_pml("assess", "--design", str(tmp_path / "design.json"), "--format", "json")
    v = d.verify()
    assert v.to_dict() == dict(json.loads(out), source="<design>")
    assert v.repricing in ("exact", "no_dual")
    assert v.proven_bound <= d.certificate.upper_bound + 1e-9 * (1 + abs(d.certificate.upper_bound))


def test_verify_refuses_an_altered_dual():
    d = pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.6)
    data = d.to_dict()
    data["certificate"]["dual"]["lambda"] = [0.0] * 4
    with pytest.raises(pmldesign.PmlError, match="lambda"):
        pmldesign.Design.from_dict(data).verify()


def test_pml_apply_on_parquet_gives_the_python_stream(run_pml, tmp_path):
    pl = pytest.importorskip("polars")
    d = pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.6, labels=["a", "b", "c", "d"])
    (tmp_path / "design.json").write_text(d.to_json())
    values = np.random.default_rng(4).choice(["a", "b", "c", "d"], size=3000)
    pl.DataFrame({"id": np.arange(3000), "x": values}).write_parquet(tmp_path / "in.parquet")
    key = "0x" + "1f83d9abfb41bd6b" * 4
    run_pml("apply", "--mechanism", str(tmp_path / "design.json"), "--data", str(tmp_path / "in.parquet"),
            "--column", "x", "--output", str(tmp_path / "out.parquet"), "--seed", key)
    out = pl.read_parquet(tmp_path / "out.parquet")
    assert out.columns == ["id", "x_private"]  # a release: the raw column is left out
    assert out["x_private"].to_list() == pmldesign.apply(d, values, seed=key, column="x").tolist()
    counted = json.loads(run_pml("design", "--data", str(tmp_path / "in.parquet"), "--column", "x",
                                 "--delta", "0.05", "--epsilon", "1", "--format", "json"))
    assert counted["labels"] == sorted(pmldesign.count(values), key=list(values).index)


def test_pml_apply_by_key_gives_the_python_key_stream(run_pml, tmp_path):
    d = pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.6, labels=["a", "b", "c", "d"])
    (tmp_path / "design.json").write_text(d.to_json())
    values = np.random.default_rng(6).choice(["a", "b", "c", "d"], size=1000)
    users = [f"user{i}" for i in range(1000)]
    key = "0x" + "5be0cd19137e2179" * 4
    order = np.random.default_rng(7).permutation(1000)
    outs = []
    for name, rows in (("in.csv", range(1000)), ("shuffled.csv", order)):
        with open(tmp_path / name, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["user", "x"])
            w.writerows([users[i], values[i]] for i in rows)
        run_pml("apply", "--mechanism", str(tmp_path / "design.json"), "--data", str(tmp_path / name),
                "--column", "x", "--key", "user", "--output", str(tmp_path / ("out-" + name)), "--seed", key)
        with open(tmp_path / ("out-" + name), newline="") as f:
            outs.append({row["user"]: row["x_private"] for row in csv.DictReader(f)})
    assert outs[0] == outs[1]
    python = pmldesign.apply(d, values, seed=key, column="x", key=users)
    assert [outs[0][u] for u in users] == python.tolist()
    pl = pytest.importorskip("polars")
    pl.DataFrame({"user": [users[i] for i in order], "x": values[order]}).write_parquet(tmp_path / "in.parquet")
    run_pml("apply", "--mechanism", str(tmp_path / "design.json"), "--data", str(tmp_path / "in.parquet"),
            "--column", "x", "--key", "user", "--output", str(tmp_path / "out.parquet"), "--seed", key)
    out = pl.read_parquet(tmp_path / "out.parquet")
    assert dict(zip(out["user"].to_list(), out["x_private"].to_list())) == outs[0]


def test_on_unknown_keeps_and_skips_the_rows_the_cli_does(run_pml, tmp_path):
    d = pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.6, labels=["a", "b", "c", "d"])
    (tmp_path / "design.json").write_text(d.to_json())
    values = np.random.default_rng(8).choice(["a", "b", "c", "d", "z", None], size=2000).tolist()
    with open(tmp_path / "in.csv", "w", newline="") as f:
        csv.writer(f).writerows([["id", "x"], *([i, "" if v is None else v] for i, v in enumerate(values))])
    key = "0x" + "6a09e667f3bcc908" * 4
    cli = {}
    for how in ("keep", "skip"):
        run_pml("apply", "--mechanism", str(tmp_path / "design.json"), "--data", str(tmp_path / "in.csv"),
                "--column", "x", "--output", str(tmp_path / f"{how}.csv"), "--seed", key, "--on-unknown", how)
        with open(tmp_path / f"{how}.csv", newline="") as f:
            cli[how] = [row["x_private"] for row in csv.DictReader(f)]
    assert pmldesign.apply(d, values, seed=key, column="x", on_unknown="keep").tolist() == cli["keep"]
    assert pmldesign.apply(d, values, seed=key, column="x", on_unknown="skip").tolist() == cli["skip"]
    missing = lambda out: ["" if v is None or v != v else str(v) for v in out]  # noqa: E731
    pd = pytest.importorskip("pandas")
    series = pd.Series(values, name="x", index=np.arange(2000) * 3)
    kept = pmldesign.apply(d, series, seed=key, on_unknown="keep")
    assert missing(kept.tolist()) == cli["keep"] and list(kept.index) == list(series.index)
    skipped = pmldesign.apply(d, series, seed=key, on_unknown="skip")
    assert skipped.astype(str).tolist() == cli["skip"] and list(skipped.index) == list(series.dropna()[series.isin(d.labels)].index)
    pl = pytest.importorskip("polars")
    assert missing(pmldesign.apply(d, pl.Series("x", values), seed=key, on_unknown="keep").to_list()) == cli["keep"]
    assert pmldesign.apply(d, pl.Series("x", values), seed=key, on_unknown="skip").to_list() == cli["skip"]
    pa = pytest.importorskip("pyarrow")
    arrow = pmldesign.apply(d, pa.array(values), seed=key, column="x", on_unknown="keep")
    assert missing(arrow.cast(pa.string()).to_pylist()) == cli["keep"]
    with pytest.raises(pmldesign.PmlError, match="on_unknown"):
        pmldesign.apply(d, values, seed=key, on_unknown="drop")


def test_every_engine_counts_what_the_cli_counts(run_pml, tmp_path):
    pd = pytest.importorskip("pandas")
    values = np.random.default_rng(9).choice(["north", "east", "south", "west", "centre"], size=5000, p=[.3, .25, .2, .15, .1])
    frame = pd.DataFrame({"id": np.arange(5000), "region": values})
    frame.to_csv(tmp_path / "in.csv", index=False)
    cli = {}
    for name in ("in.csv", "in.parquet"):
        if name.endswith(".parquet"):
            pytest.importorskip("pyarrow")
            frame.to_parquet(tmp_path / name)
        out = json.loads(run_pml("design", "--data", str(tmp_path / name), "--column", "region", "--epsilon", "1",
                                 "--format", "json"))
        cli[name] = {label: round(p * 5000) for label, p in zip(out["labels"], out["prior"])}
    assert cli["in.csv"] == cli["in.parquet"] and sum(cli["in.csv"].values()) == 5000
    counted = {"numpy": pmldesign.count(values), "list": pmldesign.count(values.tolist()),
               "pandas": pmldesign.count(frame, "region"),
               "pandas categorical": pmldesign.count(frame["region"].astype("category"))}
    pl = pytest.importorskip("polars")
    counted["polars"] = pmldesign.count(pl.from_pandas(frame), "region")
    counted["polars lazy"] = pmldesign.count(pl.scan_parquet(tmp_path / "in.parquet"), "region")
    pa = pytest.importorskip("pyarrow")
    counted["arrow"] = pmldesign.count(pa.Table.from_pandas(frame), "region")
    dd = pytest.importorskip("dask.dataframe")
    counted["dask"] = pmldesign.count(dd.from_pandas(frame, npartitions=3), "region")
    for engine, counts in counted.items():
        assert counts == cli["in.csv"], engine
