"""Missing values: ``nulls="error"|"drop"|"category"`` counts and
privatises a null alike in every engine, and as ``pml design/apply --nulls`` do."""

import json

import numpy as np
import pytest

import pmldesign

KEY = "0x" + "6a09e667f3bcc908" * 4
VALUES = ["a", "b", None, "c", "a", None, "b", "a", "c", "a"] * 30


def test_count_refuses_drops_or_counts_a_null_in_every_engine():
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    plain = {"a": 120, "b": 60, "c": 60}
    for data in (VALUES, np.array(VALUES, dtype=object), pd.Series(VALUES), pl.Series(VALUES), pa.array(VALUES)):
        with pytest.raises(pmldesign.PmlError, match="nulls='drop'"):
            pmldesign.count(data)
        assert pmldesign.count(data, nulls="drop") == plain
        counted = pmldesign.count(data, nulls="category")
        assert counted == {**plain, "<null>": 60} and list(counted)[-1] == "<null>"
    with pytest.raises(pmldesign.PmlError, match="'error', 'drop' or 'category'"):
        pmldesign.count(VALUES, nulls="skip")


def test_category_privatises_a_null_as_the_cli_does(tmp_path, run_pml):
    pd = pytest.importorskip("pandas")
    data = tmp_path / "in.csv"
    pd.DataFrame({"v": VALUES}).to_csv(data, index=False)
    design_file = tmp_path / "design.json"
    run_pml("design", "--data", str(data), "--column", "v", "--exp-epsilon", "2", "--nulls", "category",
            "--format", "json", "--output", str(design_file))
    out = tmp_path / "out.csv"
    run_pml("apply", "--mechanism", str(design_file), "--data", str(data), "--column", "v", "--seed", KEY,
            "--output", str(out))
    design = pmldesign.Design.from_json(design_file.read_text())
    assert "<null>" in design.labels
    # The design recorded nulls="category": applied without saying so, as the CLI did.
    ours = pmldesign.apply(design, pd.Series(VALUES, name="v"), seed=KEY)
    assert ours.astype(str).tolist() == pd.read_csv(out)["v_private"].astype(str).tolist()
    with pytest.raises(pmldesign.PmlError, match="a null"):
        pmldesign.apply(design, pd.Series(VALUES, name="v"), seed=KEY, nulls="error")
    counts = pmldesign.count(VALUES, nulls="category")
    bare = pmldesign.design_from_counts(counts, 0.8, delta=1e-3, time_limit=5)
    with pytest.raises(pmldesign.PmlError, match="not one of"):
        pmldesign.apply(pmldesign.design_from_counts(pmldesign.count(VALUES, nulls="drop"), 0.8, delta=1e-3), VALUES, nulls="category")
    assert all(v != "" for v in pmldesign.apply(bare, VALUES, seed=KEY, nulls="category"))


def test_drop_writes_a_null_missing_and_keeps_the_others_draws():
    design = pmldesign.design_from_counts(pmldesign.count(VALUES, nulls="drop"), 0.8, delta=1e-3)
    dropped = pmldesign.apply(design, VALUES, seed=KEY, nulls="drop")
    kept = pmldesign.apply(design, VALUES, seed=KEY, on_unknown="keep")
    np.testing.assert_array_equal(dropped, kept)
    assert [i for i, v in enumerate(dropped) if v == ""] == [i for i, v in enumerate(VALUES) if v is None]
    # on_unknown='skip' leaves out unknown values, never a dropped null.
    pl = pytest.importorskip("polars")
    frame = pl.DataFrame({"v": VALUES + ["zz"]})
    from pmldesign.polars import privatise

    for f in (frame, frame.lazy()):
        out = privatise(f, design, "v", seed=KEY, on_unknown="skip", nulls="drop")
        out = out.collect() if isinstance(out, pl.LazyFrame) else out
        assert out.height == len(VALUES) and out["v_private"].null_count() == 60


def test_estimate_leaves_out_dropped_rows_when_asked():
    design = pmldesign.design_from_counts(pmldesign.count(VALUES, nulls="drop"), 0.8, delta=1e-3)
    released = pmldesign.apply(design, VALUES, seed=KEY, nulls="drop").tolist()
    released = [None if v == "" else v for v in released]
    with pytest.raises(pmldesign.PmlError, match="null"):
        pmldesign.estimate(design, released)
    result = pmldesign.estimate(design, released, nulls="drop")
    assert result.rows == 240
    assert json.dumps(result.to_dict())  # plain data
    # A design that recorded nulls="drop" leaves them out by default, as `pml estimate`.
    recorded = pmldesign.design_from_counts(pmldesign.count(VALUES, nulls="drop"), 0.8, delta=1e-3, nulls="drop")
    released = [None if v == "" else v for v in pmldesign.apply(recorded, VALUES, seed=KEY).tolist()]
    assert pmldesign.estimate(recorded, released).rows == 240
    with pytest.raises(pmldesign.PmlError, match="null"):
        pmldesign.estimate(recorded, released, nulls="error")


@pytest.mark.parametrize("mode", ["compose", "joint"])
def test_records_handle_nulls_as_the_cli_does(tmp_path, run_pml, mode):
    """A record with nulls: ``category`` counts and privatises ``<null>`` per column,
    ``drop`` leaves the row out and writes it missing; the design and the release
    are the CLI's, byte for byte, and the estimate leaves dropped rows out."""
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    a = [None if i % 7 == 6 else ["a1", "a2"][i % 2] for i in range(60)]
    b = [None if i % 11 == 10 else ["b1", "b2", "b3"][i % 3] for i in range(60)]
    frame = pd.DataFrame({"A": a, "B": b})
    data = tmp_path / "rec.csv"
    frame.to_csv(data, index=False)
    with pytest.raises(pmldesign.PmlError, match="nulls='drop'"):
        pmldesign.design_record(frame, ["A", "B"], 2.0, mode=mode)
    for nulls in ("category", "drop"):
        file = tmp_path / f"{nulls}.json"
        run_pml("design", "--data", str(data), "--column", "A", "--column", "B", "--epsilon", "2",
                "--record", mode, "--nulls", nulls, "--delta", "1e-3", "--format", "json", "--output", str(file))
        ours = pmldesign.design_record(frame, ["A", "B"], 2.0, mode=mode, nulls=nulls, delta=1e-3)
        theirs = json.loads(file.read_text())["record"]
        assert ours.to_dict()["sample"] == theirs["sample"]
        # Parquet nulls are read alike.
        parquet = tmp_path / "rec.parquet"
        frame.to_parquet(parquet)
        pq = json.loads(run_pml("design", "--data", str(parquet), "--column", "A", "--column", "B", "--epsilon", "2",
                                "--record", mode, "--nulls", nulls, "--delta", "1e-3", "--format", "json"))["record"]
        assert pq["sample"] == theirs["sample"]
        assert [d["mechanism"] for d in ours.to_dict()["designs"]] == [d["mechanism"] for d in theirs["designs"]]
        assert ours.to_dict()["designs"][0]["provenance"]["settings"]["nulls"] == nulls
        out = tmp_path / f"out-{nulls}.csv"
        run_pml("apply", "--mechanism", str(file), "--data", str(data), "--seed", KEY, "--output", str(out))
        cli = pd.read_csv(out, keep_default_na=False)
        for engine_frame in (frame, pl.from_pandas(frame)):
            released = pmldesign.apply(ours, engine_frame, seed=KEY)
            got = released.to_pandas() if hasattr(released, "to_pandas") else released
            for c in ("A_private", "B_private"):
                mine = ["" if v is None or v != v else str(v) for v in got[c].tolist()]
                assert mine == cli[c].astype(str).tolist(), (nulls, c)
        est = pmldesign.estimate(ours, pmldesign.apply(ours, frame, seed=KEY))
        dropped = sum(1 for x, y in zip(a, b) if x is None or y is None)
        assert est.rows == (60 - dropped if nulls == "drop" else 60)


BLANKS = [v if v is not None else ["", "  ", "\t"][i % 3] for i, v in enumerate(VALUES)]


def test_blank_text_is_missing_in_every_engine_as_the_cli_reads_a_field(tmp_path, run_pml):
    """Empty or white-space text is a missing value, as ``pml`` reads a CSV field
    (the engine's rule): counted, designed for and privatised as a null."""
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    plain = {"a": 120, "b": 60, "c": 60}
    engines = (BLANKS, np.array(BLANKS, dtype=object), np.array(BLANKS), pd.Series(BLANKS), pd.Series(BLANKS, dtype="category"),
               pl.Series(BLANKS), pa.array(BLANKS))
    for data in engines:
        with pytest.raises(pmldesign.PmlError, match="nulls='drop'"):
            pmldesign.count(data)
        assert pmldesign.count(data, nulls="drop") == plain, type(data)
        assert pmldesign.count(data, nulls="category") == {**plain, "<null>": 60}, type(data)
    design = pmldesign.design_from_counts(pmldesign.count(VALUES, nulls="drop"), 0.8, delta=1e-3)
    nulls = pmldesign.apply(design, VALUES, seed=KEY, nulls="drop")
    for data in engines:
        out = pmldesign.apply(design, data, seed=KEY, nulls="drop")
        out = out.to_pylist() if hasattr(out, "to_pylist") else list(out)
        assert ["" if v is None or v != v else str(v) for v in out] == nulls.tolist(), type(data)
    from pmldesign.polars import privatise

    frame = pl.DataFrame({"v": BLANKS + ["zz"]})
    for f in (frame, frame.lazy()):
        out = privatise(f, design, "v", seed=KEY, on_unknown="skip", nulls="drop")
        out = out.collect() if isinstance(out, pl.LazyFrame) else out
        assert out.height == len(VALUES) and out["v_private"].null_count() == 60
    # A record design from a frame with blank text is the CLI's from the same CSV.
    a = ["" if i % 7 == 6 else ["a1", "a2"][i % 2] for i in range(60)]
    b = [" " if i % 11 == 10 else ["b1", "b2", "b3"][i % 3] for i in range(60)]
    data = tmp_path / "rec.csv"
    pd.DataFrame({"A": a, "B": b}).to_csv(data, index=False)
    theirs = json.loads(run_pml("design", "--data", str(data), "--column", "A", "--column", "B", "--epsilon", "2",
                                "--record", "compose", "--nulls", "category", "--delta", "1e-3", "--format", "json"))["record"]
    for frame in (pd.DataFrame({"A": a, "B": b}), pl.DataFrame({"A": a, "B": b})):
        ours = pmldesign.design_record(frame, ["A", "B"], 2.0, nulls="category", delta=1e-3)
        assert ours.to_dict()["sample"] == theirs["sample"]
