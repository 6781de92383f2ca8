"""Dask: one keyed stream for any partitioning, on the threaded scheduler
and on a LocalCluster of two worker processes on 127.0.0.1."""

import numpy as np
import pytest

import pmldesign

pd = pytest.importorskip("pandas")
dd = pytest.importorskip("dask.dataframe")

KEY = "0x" + "3c6ef372fe94f82b" * 4


@pytest.fixture(scope="module")
def design():
    return pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.6, labels=["a", "b", "c", "d"])


def values(n, seed=5):
    return np.random.default_rng(seed).choice(["a", "b", "c", "d"], size=n)


def test_dask_gives_the_single_process_column_for_any_partitioning(design):
    import dask

    x = values(6000)
    frame = pd.DataFrame({"id": np.arange(6000), "city": x})
    whole = pmldesign.apply(design, pd.Series(x, name="city"), seed=KEY).astype(str).tolist()
    for parts in (1, 3, 7):
        ddf = dd.from_pandas(frame, npartitions=parts)
        with dask.config.set(scheduler="threads"):
            out = pmldesign.dask.privatise(ddf, design, "city", seed=KEY).compute()
        assert out["city_private"].astype(str).tolist() == whole, parts
    assert pmldesign.count(dd.from_pandas(frame, npartitions=3), "city") == pmldesign.count(x)


def test_dask_with_a_key_column_needs_no_order(design):
    import dask

    x = values(3000)
    frame = pd.DataFrame({"user": [f"u{i}" for i in range(3000)], "city": x})
    single = pmldesign.apply(design, frame["city"], seed=KEY, key=frame["user"]).astype(str).tolist()
    shuffled = frame.sample(frac=1.0, random_state=1)
    with dask.config.set(scheduler="threads"):
        out = pmldesign.dask.privatise(dd.from_pandas(shuffled, npartitions=4), design, "city", seed=KEY,
                                       key="user").compute()
    assert out.sort_index()["city_private"].astype(str).tolist() == single


def test_two_worker_processes_give_the_single_process_column(design):
    distributed = pytest.importorskip("distributed")
    x = values(50_000)
    frame = pd.DataFrame({"id": np.arange(len(x)), "city": x})
    whole = pmldesign.apply(design, pd.Series(x, name="city"), seed=KEY).astype(str).tolist()
    rng = np.random.default_rng(4)
    cuts = [0, *np.sort(rng.integers(0, len(x), 4)).tolist(), len(x)]
    ddf = dd.from_pandas(frame, npartitions=1).repartition(divisions=[*cuts[:-1], len(x) - 1])
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster, distributed.Client(cluster):
        out = pmldesign.dask.privatise(ddf, design, "city", seed=KEY).compute()
        assert out["city_private"].astype(str).tolist() == whole
        assert pmldesign.count(ddf, "city") == pmldesign.count(x)


def test_unknown_values_follow_on_unknown(design):
    import dask

    frame = pd.DataFrame({"id": range(6), "city": ["a", "b", None, "b", "z", "d"]})
    ddf = dd.from_pandas(frame, npartitions=2)
    single = pmldesign.apply(design, frame["city"], seed=KEY, on_unknown="keep")
    with dask.config.set(scheduler="threads"):
        kept = pmldesign.dask.privatise(ddf, design, "city", seed=KEY, on_unknown="keep").compute()
        skipped = pmldesign.dask.privatise(ddf, design, "city", seed=KEY, on_unknown="skip").compute()
        with pytest.raises(pmldesign.PmlError, match="'city' at row (2: a null|4: 'z')"):
            pmldesign.dask.privatise(ddf, design, "city", seed=KEY).compute()
    assert kept["city_private"].astype(object).where(kept["city_private"].notna(), None).tolist() == \
        single.astype(object).where(single.notna(), None).tolist()
    assert skipped["id"].tolist() == [0, 1, 3, 5]
    assert skipped["city_private"].astype(str).tolist() == single.dropna().astype(str).tolist()
    # nulls='drop': the null is written missing, never skipped, and the error names only 'z'.
    with dask.config.set(scheduler="threads"):
        dropped = pmldesign.dask.privatise(ddf, design, "city", seed=KEY, on_unknown="skip", nulls="drop").compute()
        with pytest.raises(pmldesign.PmlError, match="'city' at row 4: 'z'"):
            pmldesign.dask.privatise(ddf, design, "city", seed=KEY, nulls="drop").compute()
    assert dropped["id"].tolist() == [0, 1, 2, 3, 5] and dropped["city_private"].isna().tolist() == [False, False, True, False, False]


def test_estimate_counts_where_the_data_live(design):
    """pmldesign.estimate on a Dask column equals the estimate from its counts."""
    x = np.random.default_rng(3).choice(["a", "b", "c", "d"], size=5_000)
    released = pmldesign.apply(design, x, seed=2**200 + 3)
    frame = dd.from_pandas(pd.DataFrame({"v_private": released}), npartitions=3)
    got = pmldesign.estimate(design, frame, column="v_private").to_dict()
    ref = pmldesign.estimate(design, counts=pmldesign.count(list(released))).to_dict()
    assert got["estimates"] == ref["estimates"] and got["rows"] == 5_000


def test_bins_are_counted_where_the_partitions_live():
    import dask

    masses = pd.Series([3000 + 100 * (i * 7 % 31) for i in range(300)] + [None] * 4, name="mass")
    ddf = dd.from_pandas(masses.to_frame(), npartitions=3)
    edges = [0, 3500, 4500, float("inf")]
    with dask.config.set(scheduler="threads"):
        assert pmldesign.count(ddf, "mass", bins=edges, nulls="drop") == pmldesign.count(masses, bins=edges, nulls="drop")
        with pytest.raises(pmldesign.PmlError, match="300 values are not numbers within"):
            pmldesign.count(ddf, "mass", bins=[0, 10], nulls="drop")


def test_a_privatised_dask_frame_holds_no_raw_column_unless_kept(design):
    frame = dd.from_pandas(pd.DataFrame({"id": range(40), "city": values(40)}), npartitions=3)
    out = pmldesign.dask.privatise(frame, design, "city", seed=KEY)
    assert list(out.columns) == ["id", "city_private"] and list(out.compute().columns) == ["id", "city_private"]
    with pytest.warns(UserWarning, match="must not be released"):
        kept = pmldesign.dask.privatise(frame, design, "city", seed=KEY, keep_raw=True)
    kept = kept.compute()
    assert list(kept.columns) == ["id", "city", "city_private"]
    assert kept["city_private"].astype(str).tolist() == out.compute()["city_private"].astype(str).tolist()
    with pytest.raises(pmldesign.PmlError, match="keep_raw"):
        pmldesign.dask.privatise(frame, design, "city", seed=KEY, keep_raw=1)


def test_dask_refuses_a_repeated_key_before_drawing(design):
    users = [f"u{i}" for i in range(30)] + ["u4"]
    frame = dd.from_pandas(pd.DataFrame({"user": users, "city": values(31)}), npartitions=4)
    with pytest.raises(pmldesign.PmlError, match="the key 'u4' is on more than one row; each key draws once"):
        pmldesign.dask.privatise(frame, design, "city", seed=KEY, key="user")
    unique = dd.from_pandas(pd.DataFrame({"user": users[:30], "city": values(30)}), npartitions=4)
    assert len(pmldesign.dask.privatise(unique, design, "city", seed=KEY, key="user").compute()) == 30
