"""Numeric columns cut at public edges: ``count(..., bins=)`` counts as
``pml design --bins`` does, the edges are recorded in the design, and ``apply`` (and
the engines) cut the column as ``pml apply`` does."""

import numpy as np
import pytest

import pmldesign

KEY = "0x" + "510e527fade682d1" * 4
EDGES = [float("-inf"), 3500, 4500, 5000, float("inf")]
LABELS = ["(-inf, 3500)", "[3500, 4500)", "[4500, 5000)", "[5000, inf)"]
MASSES = [3000 + 100 * (i * 7 % 31) for i in range(300)]


def test_count_cuts_every_engine_alike_and_refuses_bad_edges():
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    by_hand = [sum(lo <= m < hi for m in MASSES) for lo, hi in zip(EDGES, EDGES[1:])]
    expected = dict(zip(LABELS, by_hand))
    floats = [m + 0.5 for m in MASSES]
    for data in (MASSES, np.array(MASSES), pd.Series(MASSES), pl.Series(MASSES), pa.array(MASSES), [str(m) for m in MASSES]):
        assert pmldesign.count(data, bins=EDGES) == expected
    # Floats are measurements: refused as categories, welcome with bins.
    with pytest.raises(pmldesign.PmlError, match="bin them"):
        pmldesign.count(pd.Series(floats))
    assert sum(pmldesign.count(pd.Series(floats), bins=EDGES).values()) == 300
    with pytest.raises(pmldesign.PmlError, match="row 0: 3000 is not a number within the edges"):
        pmldesign.count(MASSES, bins=[3100, 6000])
    with pytest.raises(pmldesign.PmlError, match="increasing"):
        pmldesign.count(MASSES, bins=[5000, 4000])
    counted = pmldesign.count([*MASSES, None], bins=EDGES, nulls="category")
    assert list(counted) == [*LABELS, "<null>"]


def test_a_binned_design_applies_as_the_cli_does(tmp_path, run_pml):
    pd = pytest.importorskip("pandas")
    data = tmp_path / "in.csv"
    pd.DataFrame({"mass": MASSES}).to_csv(data, index_label="id")
    design_file = tmp_path / "design.json"
    run_pml("design", "--data", str(data), "--column", "mass", "--exp-epsilon", "2", "--bins",
            "-inf,3500,4500,5000,inf", "--format", "json", "--output", str(design_file))
    out = tmp_path / "out.csv"
    run_pml("apply", "--mechanism", str(design_file), "--data", str(data), "--column", "mass", "--seed", KEY,
            "--output", str(out))
    design = pmldesign.Design.from_json(design_file.read_text())
    assert design.labels == LABELS
    ours = pmldesign.apply(design, pd.Series(MASSES, name="mass"), seed=KEY)
    assert ours.astype(str).tolist() == pd.read_csv(out)["mass_private"].astype(str).tolist()


def test_design_from_counts_records_the_bins_for_apply():
    counts = pmldesign.count(MASSES, bins=EDGES)
    design = pmldesign.design_from_counts(counts, 0.8, delta=1e-3, bins=EDGES)
    assert design.to_dict()["provenance"]["settings"]["bins"] == "-inf,3500,4500,5000,inf"
    again = pmldesign.Design.from_json(design.to_json())
    out = pmldesign.apply(again, MASSES, seed=KEY)
    np.testing.assert_array_equal(out, pmldesign.apply(design, MASSES, seed=KEY, bins=EDGES))
    with pytest.raises(pmldesign.PmlError, match="not its bins"):
        pmldesign.design_from_counts(counts, 0.8, delta=1e-3, bins=[0, 10, 20])
    pl = pytest.importorskip("polars")
    from pmldesign.polars import privatise

    lazy = privatise(pl.LazyFrame({"mass": MASSES}), design, "mass", seed=KEY).collect()
    named = pmldesign.apply(design, MASSES, seed=KEY, column="mass")
    assert lazy["mass_private"].cast(pl.String).to_list() == named.tolist()


def test_a_numeric_column_taken_as_labels_is_warned_about():
    with pytest.warns(UserWarning, match="bins="):
        pmldesign.count(MASSES)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pmldesign.count(MASSES, bins=EDGES)
        pmldesign.count(["a", "b", "c"] * 10)


RECORD_EDGES = [float("-inf"), 3500, 4500, float("inf")]
RECORD_TEXT = "-inf,3500,4500,inf"


def _without_tool(text):
    import json

    d = json.loads(text)
    for design in d["record"]["designs"]:
        design["provenance"].pop("tool", None)
    return d


@pytest.mark.parametrize("mode", ["compose", "joint"])
def test_a_record_with_a_binned_column_is_the_clis_byte_for_byte(tmp_path, run_pml, mode):
    pd = pytest.importorskip("pandas")
    cities = [["Oslo", "Lund", "Bergen"][i % 3] for i in range(len(MASSES))]
    masses = [m + (600 if c == "Oslo" else 0) for m, c in zip(MASSES, cities)]
    frame = pd.DataFrame({"mass": masses, "city": cities})
    frame.loc[[4, 11], "mass"] = None  # counted as <null>, after the bins
    data = tmp_path / "in.csv"
    frame.to_csv(data, index_label="id")
    flags = ["--epsilon", "2", "--delta", "1e-3", "--record", mode, "--nulls", "category"]
    cli = run_pml("design", "--data", str(data), "--column", "mass", "--column", "city", "--bins", f"mass={RECORD_TEXT}",
                  *flags, "--format", "json")
    r = pmldesign.design_record(frame, ["mass", "city"], 2.0, delta=1e-3, mode=mode, nulls="category",
                                bins={"mass": RECORD_EDGES})
    assert r.labels[0] == ["(-inf, 3500)", "[3500, 4500)", "[4500, inf)", "<null>"]
    assert _without_tool(r.to_json()) == _without_tool(cli)
    # The file minus its tool line, byte for byte.
    strip = lambda t: "\n".join(l for l in t.splitlines() if '"tool"' not in l)  # noqa: E731
    assert strip(r.to_json()) == strip(cli.rstrip("\n"))
    design_file = tmp_path / "r.json"
    design_file.write_text(cli)
    out = tmp_path / "out.csv"
    run_pml("apply", "--mechanism", str(design_file), "--data", str(data), "--seed", KEY, "--output", str(out))
    written = pd.read_csv(out, keep_default_na=False)
    ours = pmldesign.apply(pmldesign.RecordDesign.from_json(cli), frame, seed=KEY)
    for c in ("mass_private", "city_private"):
        assert ours[c].astype(str).tolist() == written[c].astype(str).tolist()
    if mode == "joint":
        assert set(written["mass_private"]) <= set(r.labels[0])
    pl = pytest.importorskip("polars")
    from pmldesign.polars import privatise

    lazy = privatise(pl.from_pandas(frame).lazy(), r, seed=KEY).collect()
    assert lazy["mass_private"].cast(pl.String).to_list() == ours["mass_private"].astype(str).tolist()


def test_bad_record_bins_are_refused_naming_the_fix():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"mass": MASSES, "city": ["Oslo", "Lund"] * 150})
    with pytest.raises(pmldesign.PmlError, match="not one of the record's columns"):
        pmldesign.design_record(frame, ["mass", "city"], 1.0, bins={"weight": RECORD_EDGES})
    with pytest.raises(pmldesign.PmlError, match="name each column's edges"):
        pmldesign.design_record(frame, ["mass", "city"], 1.0, bins=RECORD_EDGES)
    with pytest.raises(pmldesign.PmlError, match="row 0: 3000 is not a number within the edges"):
        pmldesign.design_record(frame, ["mass", "city"], 1.0, bins={"mass": [3100, 9000]})
    with pytest.raises(pmldesign.PmlError, match="mapping of counts"):
        pmldesign.design_record({(1, "a"): 2, (2, "b"): 3}, ["mass", "city"], 1.0, bins={"mass": RECORD_EDGES})
    r = pmldesign.design_record(frame, ["mass", "city"], 1.0, mode="compose", bins={"mass": RECORD_EDGES})
    assert r.designs[0].to_dict()["provenance"]["settings"]["bins"] == RECORD_TEXT
    with pytest.raises(pmldesign.PmlError, match="not the labels of column 'mass'"):
        pmldesign.apply(r, frame, seed=KEY, bins={"mass": [0, 4000, 9000]})
    altered = pmldesign.RecordDesign.from_json(r.to_json().replace(RECORD_TEXT, "-inf,3500,4600,inf"))
    with pytest.raises(pmldesign.PmlError, match="altered"):
        pmldesign.apply(altered, frame, seed=KEY)


@pytest.mark.parametrize("alter", ["nulls", "bins"])
def test_an_altered_reading_is_refused_alike_by_the_cli_and_python(tmp_path, pml_bin, alter):
    import json
    import subprocess

    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"mass": MASSES, "city": ["Oslo", "Lund"] * 150})
    r = pmldesign.design_record(frame, ["mass", "city"], 1.0, mode="compose", nulls="drop", bins={"mass": RECORD_EDGES})
    assert [d.to_dict()["provenance"]["settings"].get("nulls") for d in r.designs] == ["drop", "drop"]
    d = json.loads(r.to_json())
    if alter == "nulls":  # the columns' designs disagree on missing values
        d["record"]["designs"][1]["provenance"]["settings"]["nulls"] = "category"
    else:  # edges that do not cut the column's labels
        d["record"]["designs"][0]["provenance"]["settings"]["bins"] = "-inf,3500,4600,inf"
    text = json.dumps(d, indent=2)
    with pytest.raises(pmldesign.VerificationError) as refused:
        pmldesign.apply(pmldesign.RecordDesign.from_json(text), frame, seed=KEY)
    (tmp_path / "r.json").write_text(text)
    frame.to_csv(tmp_path / "in.csv", index=False)
    cli = subprocess.run([str(pml_bin), "apply", "--mechanism", str(tmp_path / "r.json"), "--data", str(tmp_path / "in.csv"),
                          "--seed", KEY, "--output", str(tmp_path / "out.csv")], capture_output=True, text=True)
    assert cli.returncode != 0 and not (tmp_path / "out.csv").exists()
    assert str(refused.value) in cli.stderr, (str(refused.value), cli.stderr)
    assert "altered" in str(refused.value)
