"""Numeric columns cut at public edges (issue 37): ``count(..., bins=)`` counts as
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
