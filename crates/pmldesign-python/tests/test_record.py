"""Whole records: design_record and apply against `pml design --column A
--column B` and `pml apply --mechanism RECORD.json` on the same data."""

import csv
import json

import numpy as np
import pytest

import pmldesign

JOINT = [[0.30, 0.02, 0.01, 0.01], [0.01, 0.25, 0.02, 0.01], [0.02, 0.01, 0.03, 0.31]]
COUNTS = {(f"a{a + 1}", f"b{b + 1}"): round(JOINT[a][b] * 1000) for a in range(3) for b in range(4)}
KEY = "0x" + "6a09e667f3bcc908b2fb1366ea957d3e3adec17512775099da2f590f0667322a"


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """The counterexample as 1000 rows in a shuffled order, and its CSV file."""
    pd = pytest.importorskip("pandas")
    rows = [pair for pair, n in COUNTS.items() for _ in range(n)]
    order = np.random.default_rng(2).permutation(len(rows))
    frame = pd.DataFrame({"id": range(len(rows)), "A": [rows[i][0] for i in order], "B": [rows[i][1] for i in order]})
    path = tmp_path_factory.mktemp("record") / "record.csv"
    frame.to_csv(path, index=False)
    return frame, path


def without_tool(text):
    d = json.loads(text)
    for design in d["record"]["designs"]:
        design["provenance"].pop("tool")
    return d


def test_the_counterexample_naive_leaks_more_than_its_sum():
    r = pmldesign.design_record(COUNTS, ["A", "B"], 1.0, mode="compose", split=[0.7, 0.3])
    assert abs(r.naive.leakage_about_record - 1.43) < 0.01
    assert r.leakage_about_record <= 1.0 + 1e-12 and abs(r.leakage_about_record - 0.90) < 0.01
    assert abs(r.utility.value - 0.51) < 0.01 and r.utility.measure == "record_mutual_information"
    ldp = pmldesign.design_record(COUNTS, ["A", "B"], 1.0, mode="ldp")
    joint = pmldesign.design_record(COUNTS, ["A", "B"], 1.0)
    assert joint.mode == "joint" and abs(joint.utility.value - 0.92) < 0.01 and abs(ldp.utility.value - 0.06) < 0.01
    assert "Theorem 5.24" in r.guarantee.statement
    assert [d.labels for d in r.designs] == [["a1", "a2", "a3"], ["b1", "b2", "b3", "b4"]]


@pytest.mark.parametrize("flags,kwargs", [
    (["--record", "compose", "--split", "0.7,0.3"], {"mode": "compose", "split": [0.7, 0.3]}),
    ([], {}),
    (["--record", "ldp", "--delta", "0.001"], {"mode": "ldp", "delta": 1e-3}),
])
def test_the_same_file_as_the_cli(run_pml, table, flags, kwargs):
    frame, path = table
    r = pmldesign.design_record(frame, ["A", "B"], 1.0, **kwargs)
    cli = run_pml("design", "--data", str(path), "--column", "A", "--column", "B", "--epsilon", "1", "--format", "json", *flags)
    assert without_tool(r.to_json()) == without_tool(cli)
    pl = pytest.importorskip("polars")
    assert without_tool(pmldesign.design_record(pl.from_pandas(frame).lazy(), ["A", "B"], 1.0, **kwargs).to_json()) == without_tool(cli)


@pytest.mark.parametrize("mode", ["compose", "joint"])
def test_apply_writes_what_pml_apply_writes(run_pml, table, tmp_path, mode):
    frame, path = table
    frame = frame.copy()
    frame.loc[[3, 17], "B"] = "zz"
    frame.to_csv(tmp_path / "in.csv", index=False)
    r = pmldesign.design_record(table[0], ["A", "B"], 1.0, mode=mode, **({"split": [0.6, 0.4]} if mode == "compose" else {}))
    (tmp_path / "r.json").write_text(r.to_json())
    run_pml("apply", "--mechanism", str(tmp_path / "r.json"), "--data", str(tmp_path / "in.csv"), "--output",
            str(tmp_path / "out.csv"), "--seed", KEY, "--on-unknown", "keep")
    with open(tmp_path / "out.csv", newline="") as f:
        cli = [(row["A_private"], row["B_private"]) for row in csv.DictReader(f)]
    out = pmldesign.apply(r, frame, seed=KEY, on_unknown="keep")
    text = lambda v: v if isinstance(v, str) else ""  # noqa: E731
    mine = [(text(a), text(b)) for a, b in zip(out["A_private"], out["B_private"])]
    assert mine == cli and mine[3] == ("", "")
    pl = pytest.importorskip("polars")
    polars = pmldesign.apply(r, pl.from_pandas(frame), seed=KEY, on_unknown="skip")
    assert polars.height == len(frame) - 2
    assert list(zip(polars["A_private"], polars["B_private"])) == [p for p in mine if p != ("", "")]
    with pytest.raises(pmldesign.PmlError, match="'B' at row 3: 'zz'"):
        pmldesign.apply(r, frame, seed=KEY)


def test_a_changed_record_file_is_refused():
    r = pmldesign.design_record(COUNTS, ["A", "B"], 1.0, mode="compose", split=[0.7, 0.3])
    assert pmldesign.RecordDesign.from_json(r.to_json()).to_json() == r.to_json()
    d = json.loads(r.to_json())
    for path, value in ((("record", "epsilon"), 1.2), (("record", "leakage_about_record"), 0.5),
                        (("record", "naive", "leakage_about_record"), 0.9), (("record", "radii"), [0.0, 0.1])):
        forged = json.loads(r.to_json())
        node = forged
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = value
        with pytest.raises(pmldesign.PmlError):
            pmldesign.RecordDesign.from_json(json.dumps(forged))
    assert d["record"]["mode"] == "compose"


def test_bad_records_are_refused_naming_the_field(table):
    frame, _ = table
    cases = [
        (dict(columns=["A", "C"]), "column = 'C'"),
        (dict(columns=["A", "A"]), "columns"),
        (dict(columns=["A", "B"], split=[0.5, 0.4], mode="compose"), "split"),
        (dict(columns=["A", "B"], mode="both"), "mode"),
        (dict(columns=["A", "B"], utility="tv"), "utility"),
        (dict(columns=["A", "B"], mode="joint", max_cells=4), "max_cells"),
    ]
    for kwargs, field in cases:
        with pytest.raises(pmldesign.PmlError, match=field):
            pmldesign.design_record(frame, epsilon=1.0, **kwargs)
    with_null = frame.copy()
    with_null.loc[5, "A"] = None
    with pytest.raises(pmldesign.PmlError, match="'A': 1 null"):
        pmldesign.design_record(with_null, ["A", "B"], 1.0)
    floats = frame.assign(A=np.linspace(0, 1, len(frame)))
    with pytest.raises(pmldesign.PmlError, match="floating-point"):
        pmldesign.design_record(floats, ["A", "B"], 1.0)


@pytest.mark.parametrize("mode", ["compose", "joint"])
def test_every_engine_privatises_a_record_as_one_call(table, mode):
    frame, _ = table
    r = pmldesign.design_record(frame, ["A", "B"], 1.0, mode=mode, **({"split": [0.6, 0.4]} if mode == "compose" else {}))
    whole = pmldesign.apply(r, frame, seed=KEY)
    expected = list(zip(whole["A_private"].astype(str), whole["B_private"].astype(str)))
    pl = pytest.importorskip("polars")
    lazy = pmldesign.polars.privatise(pl.from_pandas(frame).lazy(), r, seed=KEY)
    for engine in ("streaming", "in-memory"):
        out = lazy.collect(engine=engine)
        assert list(zip(out["A_private"], out["B_private"])) == expected, engine
    eager = pmldesign.polars.privatise(pl.from_pandas(frame), r, seed=KEY)
    assert list(zip(eager["A_private"], eager["B_private"])) == expected
    dd = pytest.importorskip("dask.dataframe")
    import dask

    for parts in (1, 3, 7):
        with dask.config.set(scheduler="threads"):
            out = pmldesign.dask.privatise(dd.from_pandas(frame, npartitions=parts), r, seed=KEY).compute()
        assert list(zip(out["A_private"].astype(str), out["B_private"].astype(str))) == expected, parts
    with pytest.raises(pmldesign.PmlError, match="record design"):
        pmldesign.polars.privatise(pl.from_pandas(frame), r, "A", seed=KEY)


def test_pml_apply_on_parquet_writes_the_record_as_on_csv(run_pml, table, tmp_path):
    pl = pytest.importorskip("polars")
    frame, _ = table
    for mode in ("compose", "joint"):
        r = pmldesign.design_record(frame, ["A", "B"], 1.0, mode=mode)
        (tmp_path / "r.json").write_text(r.to_json())
        pl.from_pandas(frame).write_parquet(tmp_path / "in.parquet")
        run_pml("apply", "--mechanism", str(tmp_path / "r.json"), "--data", str(tmp_path / "in.parquet"),
                "--output", str(tmp_path / "out.parquet"), "--seed", KEY)
        out = pl.read_parquet(tmp_path / "out.parquet")
        assert out.columns == ["id", "A_private", "B_private"]
        mine = pmldesign.apply(r, frame, seed=KEY)
        assert out["A_private"].to_list() == mine["A_private"].astype(str).tolist(), mode
        assert out["B_private"].to_list() == mine["B_private"].astype(str).tolist(), mode


def test_replace_puts_the_private_values_in_place_of_the_raw_columns():
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    frame = pd.DataFrame({"id": range(400), "A": [f"a{i % 3}" for i in range(400)], "B": [f"b{(i // 2) % 2}" for i in range(400)]})
    design = pmldesign.design_record(frame, ["A", "B"], 2.0, mode="compose")
    key = 2**120 + 7
    appended = pmldesign.apply(design, frame, seed=key)
    for data in (frame, pl.from_pandas(frame)):
        replaced = pmldesign.apply(design, data, seed=key, replace=True)
        assert list(replaced.columns) == ["id", "A", "B"]
        for c in ("A", "B"):
            assert [str(v) for v in replaced[c]] == appended[f"{c}_private"].astype(str).tolist()
    with pytest.raises(pmldesign.PmlError, match="replace"):
        pmldesign.apply(design.designs[0], ["a0"], replace=True)


def test_a_record_drawn_by_key_matches_the_cli_in_any_row_order(tmp_path, run_pml):
    """``apply(record, frame, key="user")``: each row draws from its key's place,
    so shuffled rows release the same values, as ``pml apply --key`` does for CSV
    and Parquet."""
    pd = pytest.importorskip("pandas")
    n = 48
    frame = pd.DataFrame({
        "user": [f"u{i}" for i in range(n)],
        "A": [f"a{1 + i % 3}" for i in range(n)],
        "B": [f"b{1 + (i // 3) % 4}" for i in range(n)],
    })
    design = pmldesign.design_record(frame, ["A", "B"], 2.0, mode="compose")
    key = 2**200 + 99
    ours = pmldesign.apply(design, frame, seed=key, key="user")
    shuffled = frame.sample(frac=1.0, random_state=3).reset_index(drop=True)
    again = pmldesign.apply(design, shuffled, seed=key, key=shuffled["user"])
    merged = ours.merge(again, on="user", suffixes=("", "_again"))
    for c in ("A_private", "B_private"):
        assert (merged[c].astype(str) == merged[c + "_again"].astype(str)).all()
    file = tmp_path / "rec.json"
    file.write_text(design.to_json())
    for suffix in ("csv", "parquet"):
        data, out = tmp_path / f"in.{suffix}", tmp_path / f"out.{suffix}"
        getattr(shuffled, f"to_{suffix}")(data, index=False)
        run_pml("apply", "--mechanism", str(file), "--data", str(data), "--key", "user", "--seed", str(key),
                "--output", str(out))
        cli = pd.read_csv(out) if suffix == "csv" else pd.read_parquet(out)
        both = ours.merge(cli, on="user", suffixes=("", "_cli"))
        for c in ("A_private", "B_private"):
            assert (both[c].astype(str) == both[c + "_cli"].astype(str)).all(), suffix


def test_engines_draw_a_record_by_key_as_apply_does():
    """polars (eager and lazy) and Dask with ``key=`` release a record as
    ``apply(record, frame, key=)`` does, whatever the rows' order and partitions."""
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    dd = pytest.importorskip("dask.dataframe")
    frame = pd.DataFrame({
        "user": [f"u{i}" for i in range(300)],
        "A": [f"a{1 + i % 3}" for i in range(300)],
        "B": [f"b{1 + (i // 3) % 4}" for i in range(300)],
    })
    r = pmldesign.design_record(frame, ["A", "B"], 2.0, mode="joint", delta=1e-3)
    key = 2**200 + 5
    want = pmldesign.apply(r, frame, seed=key, key="user").set_index("user")
    shuffled = frame.sample(frac=1.0, random_state=9).reset_index(drop=True)
    eager = pmldesign.polars.privatise(pl.from_pandas(shuffled), r, seed=key, key="user").to_pandas()
    lazy = pmldesign.polars.privatise(pl.from_pandas(shuffled).lazy(), r, seed=key, key="user").collect().to_pandas()
    dask = pmldesign.dask.privatise(dd.from_pandas(shuffled, npartitions=3), r, seed=key, key="user").compute()
    for got in (eager, lazy, dask):
        got = got.set_index("user").loc[want.index]
        for c in ("A_private", "B_private"):
            assert got[c].astype(str).tolist() == want[c].astype(str).tolist()
    with pytest.raises(pmldesign.PmlError, match="invalid key"):
        pmldesign.polars.privatise(pl.from_pandas(frame), r, seed=key, key="nope")


@pytest.mark.parametrize("mode", ["compose", "joint"])
def test_output_labels_rename_a_record_column_as_the_cli_does(run_pml, table, tmp_path, mode):
    frame, path = table
    r = pmldesign.design_record(frame, ["A", "B"], 1.0, mode=mode, **({"split": [0.6, 0.4]} if mode == "compose" else {}))
    values = r.labels[0] if mode == "joint" else r.designs[0].outputs
    names = [f"n{i}" for i in range(len(values))]
    (tmp_path / "r.json").write_text(r.to_json())
    run_pml("apply", "--mechanism", str(tmp_path / "r.json"), "--data", str(path), "--output",
            str(tmp_path / "out.csv"), "--seed", KEY, "--output-labels", "A=" + ",".join(names))
    with open(tmp_path / "out.csv", newline="") as f:
        cli = [(row["A_private"], row["B_private"]) for row in csv.DictReader(f)]
    plain = pmldesign.apply(r, frame, seed=KEY)
    out = pmldesign.apply(r, frame, seed=KEY, output_labels={"A": names})
    assert list(out["A_private"].cat.categories) == names
    assert [names[values.index(v)] for v in plain["A_private"]] == list(out["A_private"])
    assert list(zip(out["A_private"], out["B_private"])) == cli
    with pytest.raises(pmldesign.PmlError, match=r"output_labels\['A'\].*one per value column 'A' takes"):
        pmldesign.apply(r, frame, seed=KEY, output_labels={"A": names[:-1]})
    with pytest.raises(pmldesign.PmlError, match=r"output_labels\['C'\]: not a column"):
        pmldesign.apply(r, frame, seed=KEY, output_labels={"C": names})
    with pytest.raises(pmldesign.PmlError, match="mapping of column to names"):
        pmldesign.apply(r, frame, seed=KEY, output_labels=names)
    with pytest.raises(pmldesign.PmlError, match="a mapping names a record design's columns"):
        pmldesign.apply(r.designs[0], ["a1"], seed=KEY, output_labels={"A": names})
    pl = pytest.importorskip("polars")
    dd = pytest.importorskip("dask.dataframe")
    eager = pmldesign.polars.privatise(pl.from_pandas(frame), r, seed=KEY, output_labels={"A": names})
    lazy = pmldesign.polars.privatise(pl.from_pandas(frame).lazy(), r, seed=KEY, output_labels={"A": names}).collect()
    dask = pmldesign.dask.privatise(dd.from_pandas(frame, npartitions=3), r, seed=KEY, output_labels={"A": names})
    for got in (eager.to_pandas(), lazy.to_pandas(), dask.compute()):
        assert list(got["A_private"].cat.categories) == names
        assert list(zip(got["A_private"].astype(str), got["B_private"].astype(str))) == cli
    with pytest.raises(pmldesign.PmlError, match=r"output_labels\['C'\]: not a column"):
        pmldesign.dask.privatise(dd.from_pandas(frame, npartitions=3), r, seed=KEY, output_labels={"C": names})


def test_a_released_record_holds_no_raw_column_unless_kept():
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    dd = pytest.importorskip("dask.dataframe")
    frame = pd.DataFrame({"id": range(90), "A": [f"a{i % 3}" for i in range(90)], "B": [f"b{(i // 3) % 2}" for i in range(90)]})
    r = pmldesign.design_record(frame, ["A", "B"], 2.0, mode="compose")
    key = 2**120 + 11
    whole = pmldesign.apply(r, frame, seed=key)
    assert list(whole.columns) == ["id", "A_private", "B_private"]
    outs = {
        "polars": pmldesign.apply(r, pl.from_pandas(frame), seed=key).to_pandas(),
        "polars eager": pmldesign.polars.privatise(pl.from_pandas(frame), r, seed=key).to_pandas(),
        "polars lazy": pmldesign.polars.privatise(pl.from_pandas(frame).lazy(), r, seed=key).collect().to_pandas(),
        "dask": pmldesign.dask.privatise(dd.from_pandas(frame, npartitions=3), r, seed=key).compute(),
    }
    for engine, out in outs.items():
        assert list(out.columns) == ["id", "A_private", "B_private"], engine
        assert out["A_private"].astype(str).tolist() == whole["A_private"].astype(str).tolist(), engine
    calls = {
        "pandas": lambda: pmldesign.apply(r, frame, seed=key, keep_raw=True),
        "polars eager": lambda: pmldesign.polars.privatise(pl.from_pandas(frame), r, seed=key, keep_raw=True).to_pandas(),
        "polars lazy": lambda: pmldesign.polars.privatise(pl.from_pandas(frame).lazy(), r, seed=key, keep_raw=True).collect().to_pandas(),
        "dask": lambda: pmldesign.dask.privatise(dd.from_pandas(frame, npartitions=3), r, seed=key, keep_raw=True).compute(),
    }
    for engine, call in calls.items():
        with pytest.warns(UserWarning, match=r"still holds the raw private column\(s\) \['A', 'B'\]; it must not be released"):
            kept = call()
        assert list(kept.columns) == ["id", "A", "B", "A_private", "B_private"], engine
        assert kept["B_private"].astype(str).tolist() == whole["B_private"].astype(str).tolist(), engine
    with pytest.raises(pmldesign.PmlError, match="invalid keep_raw=True with replace=True") as e:
        pmldesign.apply(r, frame, seed=key, keep_raw=True, replace=True)
    assert "\n" not in str(e.value)


def test_a_record_with_a_repeated_key_is_refused():
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    dd = pytest.importorskip("dask.dataframe")
    users = [f"u{i}" for i in range(40)]
    users[25] = "u3"
    frame = pd.DataFrame({"user": users, "A": [f"a{i % 3}" for i in range(40)], "B": [f"b{i % 2}" for i in range(40)]})
    r = pmldesign.design_record(frame, ["A", "B"], 2.0, mode="compose")
    with pytest.raises(pmldesign.PmlError, match="the key 'u3' is on rows 3 and 25; each key draws once, so one key per row"):
        pmldesign.apply(r, frame, seed=KEY, key="user")
    with pytest.raises(pmldesign.PmlError, match="the key 'u3' is on rows 3 and 25"):
        pmldesign.polars.privatise(pl.from_pandas(frame), r, seed=KEY, key="user")
    with pytest.raises(pmldesign.PmlError, match="the key 'u3' is on more than one row"):
        pmldesign.polars.privatise(pl.from_pandas(frame).lazy(), r, seed=KEY, key="user")
    with pytest.raises(pmldesign.PmlError, match="the key 'u3' is on more than one row"):
        pmldesign.dask.privatise(dd.from_pandas(frame, npartitions=3), r, seed=KEY, key="user")
