"""`summary=True` of the polars and Dask `privatise`: the summary `pmldesign.apply`
gives over the whole column or record (the counts of `pml apply --summary`), for
any partitioning, counted before anything is drawn (Spark: test_spark.py)."""

import numpy as np
import pytest

import pmldesign

pd = pytest.importorskip("pandas")

KEY = "0x" + "3c6ef372fe94f82b" * 4
CITIES = ["a", "b", None, "b", "z", "d", "q", "a"]


@pytest.fixture(scope="module")
def design():
    return pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.6, labels=["a", "b", "c", "d"])


@pytest.fixture(scope="module")
def record():
    rows = {(f"a{a}", f"b{b}"): 10 + 7 * a + 3 * b for a in range(1, 4) for b in range(1, 3)}
    return pmldesign.design_record(rows, ["A", "B"], 1.0, mode="compose", split=[0.6, 0.4])


def expected(design, on_unknown, nulls, name="city_private", keep_raw=False):
    """The summary of one `apply` over the whole column, as an engine writes it."""
    _, told = pmldesign.apply(design, pd.Series(CITIES, name="city"), seed=KEY, on_unknown=on_unknown, nulls=nulls, summary=True)
    return dict(told.to_dict(), columns=[{"column": "city", "written_as": name}], raw_kept=keep_raw)


@pytest.mark.parametrize("on_unknown, nulls", [("skip", "drop"), ("keep", "drop"), ("skip", "error"), ("keep", "error")])
def test_polars_summaries_are_applys(design, on_unknown, nulls):
    pl = pytest.importorskip("polars")
    frame = pl.DataFrame({"id": list(range(len(CITIES))), "city": CITIES})
    want = expected(design, on_unknown, nulls)
    for data in (frame, frame.lazy()):
        released, told = pmldesign.polars.privatise(data, design, "city", seed=KEY, on_unknown=on_unknown, nulls=nulls, summary=True)
        assert told.to_dict() == want, type(data).__name__
        rows = len(released.collect() if isinstance(released, pl.LazyFrame) else released)
        assert rows == told.rows - told.skipped
    assert want["first_unknown"] == ({"row": 2, "value": ""} if nulls == "error" else {"row": 4, "value": "z"})
    with pytest.warns(UserWarning, match="keep_raw=True"):
        _, told = pmldesign.polars.privatise(frame, design, "city", seed=KEY, on_unknown="keep", nulls="drop", name="p", keep_raw=True, summary=True)
    assert told.to_dict() == expected(design, "keep", "drop", "p", True)


def test_a_lazy_summary_refuses_an_unknown_value_before_collecting(design):
    pl = pytest.importorskip("polars")
    lazy = pl.DataFrame({"city": CITIES}).lazy()
    with pytest.raises(pmldesign.PmlError, match="'city' at row 4: 'z'"):
        pmldesign.polars.privatise(lazy, design, "city", seed=KEY, nulls="drop", summary=True)
    with pytest.raises(pmldesign.PmlError, match="invalid summary = 'yes'"):
        pmldesign.polars.privatise(lazy, design, "city", seed=KEY, summary="yes")


def record_frame():
    return pd.DataFrame({"id": range(6), "A": ["a1", "a2", "a9", "a3", "a1", "a2"], "B": ["b1", "b7", "b2", "b1", "b2", "b1"]})


def test_record_summaries_are_applys(record):
    pl = pytest.importorskip("polars")
    frame = record_frame()
    _, want = pmldesign.apply(record, frame, seed=KEY, on_unknown="keep", summary=True)
    assert want.first_unknown.to_dict() == {"row": 1, "value": "b7"} and want.kept_empty == 2
    for data in (pl.from_pandas(frame), pl.from_pandas(frame).lazy()):
        _, told = pmldesign.polars.privatise(data, record, seed=KEY, on_unknown="keep", summary=True)
        assert told.to_dict() == want.to_dict(), type(data).__name__
    dd = pytest.importorskip("dask.dataframe")
    import dask

    for parts in (1, 2, 3):
        with dask.config.set(scheduler="threads"):
            _, told = pmldesign.dask.privatise(dd.from_pandas(frame, npartitions=parts), record, seed=KEY, on_unknown="keep", summary=True)
        assert told.to_dict() == want.to_dict(), parts


@pytest.mark.parametrize("on_unknown, nulls", [("skip", "drop"), ("keep", "error")])
def test_dask_summaries_are_applys_for_any_partitioning(design, on_unknown, nulls):
    dd = pytest.importorskip("dask.dataframe")
    import dask

    frame = pd.DataFrame({"id": range(len(CITIES)), "user": [f"u{i}" for i in range(len(CITIES))], "city": CITIES})
    want = expected(design, on_unknown, nulls)
    for parts in (1, 3, 5):
        for key in (None, "user"):
            ddf = dd.from_pandas(frame, npartitions=parts)
            with dask.config.set(scheduler="threads"):
                released, told = pmldesign.dask.privatise(ddf, design, "city", seed=KEY, key=key, on_unknown=on_unknown, nulls=nulls, summary=True)
                assert len(released.compute()) == told.rows - told.skipped
            assert told.to_dict() == want, (parts, key)
    with dask.config.set(scheduler="threads"), pytest.raises(pmldesign.PmlError, match="'city' at row 4: 'z'"):
        pmldesign.dask.privatise(dd.from_pandas(frame, npartitions=3), design, "city", seed=KEY, nulls="drop", summary=True)
