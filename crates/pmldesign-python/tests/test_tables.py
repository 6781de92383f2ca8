"""Tables where they live: counting columns, privatising pandas Series,
one keyed stream for any split of a column."""

import numpy as np
import pytest

import pmldesign

KEY = "0x" + "3c6ef372fe94f82b" * 4


@pytest.fixture(scope="module")
def design():
    return pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.6, labels=["a", "b", "c", "d"])


def values(n, seed=5):
    return np.random.default_rng(seed).choice(["a", "b", "c", "d"], size=n)


def test_any_split_at_random_cut_points_gives_the_whole(design):
    x = values(5000)
    whole = pmldesign.apply(design, x, seed=KEY)
    rng = np.random.default_rng(9)
    for parts in (2, 3, 7):
        cuts = np.sort(rng.integers(0, len(x), parts - 1))
        bounds = [0, *cuts.tolist(), len(x)]
        pieces = [pmldesign.apply(design, x[a:b], seed=KEY, offset=a) for a, b in zip(bounds, bounds[1:])]
        np.testing.assert_array_equal(np.concatenate(pieces), whole)


def test_columns_under_one_key_draw_independently(design):
    x = np.array(["a"] * 200_000)
    a = pmldesign.apply(design, x, seed=KEY, column="first")
    b = pmldesign.apply(design, x, seed=KEY, column="second")
    w = design.mechanism[0]
    expected = float((w * w).sum())
    assert abs((a == b).mean() - expected) < 0.01, ((a == b).mean(), expected)


def test_codes_and_labels_give_the_same_draws(design):
    x = values(1000)
    codes = np.searchsorted(np.array(design.labels), x)
    np.testing.assert_array_equal(pmldesign.apply(design, x, seed=KEY), pmldesign.apply(design, codes, seed=KEY, codes=True))


def test_seeds_are_checked_and_short_ones_warn(design):
    with pytest.warns(UserWarning, match="bit number"):
        pmldesign.apply(design, ["a"], seed=7)
    for bad in (-1, 2**256, "12x", b"short", 1.5):
        with pytest.raises(pmldesign.PmlError, match="seed"):
            pmldesign.apply(design, ["a"], seed=bad)
    long_int = int(KEY, 16)
    np.testing.assert_array_equal(
        pmldesign.apply(design, values(50), seed=long_int), pmldesign.apply(design, values(50), seed=KEY)
    )
    raw = bytes.fromhex(KEY[2:])
    np.testing.assert_array_equal(
        pmldesign.apply(design, values(50), seed=raw), pmldesign.apply(design, values(50), seed=KEY)
    )


def test_count_of_numpy_and_iterables():
    x = values(1000)
    c = pmldesign.count(x)
    assert sum(c.values()) == 1000 and list(c) == sorted(c)
    assert pmldesign.count(x.tolist()) == c
    with pytest.raises(pmldesign.PmlError, match="null"):
        pmldesign.count(["a", None, "b"])


def test_design_from_a_mapping_of_counts():
    by_list = pmldesign.design_from_counts([400, 300, 200, 100], 0.8, delta=0.05, labels=["a", "b", "c", "d"])
    by_map = pmldesign.design_from_counts({"a": 400, "b": 300, "c": 200, "d": 100}, 0.8, delta=0.05)
    assert by_map.labels == ["a", "b", "c", "d"]
    np.testing.assert_array_equal(by_map.mechanism, by_list.mechanism)
    reordered = pmldesign.design_from_counts({"d": 100, "a": 400, "b": 300, "c": 200}, 0.8, delta=0.05,
                                             labels=["a", "b", "c", "d"])
    np.testing.assert_array_equal(reordered.mechanism, by_list.mechanism)
    with pytest.raises(pmldesign.PmlError, match="order"):
        pmldesign.design_from_counts({"a": 4, "b": 3}, 0.8, delta=0.05, loss="absolute")


def test_pandas_series_keep_their_index_and_become_categorical(design):
    pd = pytest.importorskip("pandas")
    x = values(3000)
    s = pd.Series(pd.Categorical(x, categories=["d", "c", "b", "a"]), index=np.arange(3000) * 3, name="x")
    out = pmldesign.apply(design, s, seed=KEY)
    assert isinstance(out, pd.Series) and str(out.dtype) == "category"
    assert out.index.equals(s.index) and out.name == "x"
    assert list(out.cat.categories) == design.outputs
    # The Series' name is the stream's name: as a list with column="x".
    assert out.astype(str).tolist() == pmldesign.apply(design, x, seed=KEY, column="x").tolist()
    plain = pd.Series(x, name="x")
    assert pmldesign.apply(design, plain, seed=KEY).astype(str).tolist() == out.astype(str).tolist()


def test_pandas_categories_draw_as_the_labels_do_whatever_their_codes_width():
    """A categorical Series goes by its category codes (int8, or int16 past 127
    categories), over several parallel chunks, with an offset: the same outputs as
    the same values as strings; with a null or a category outside the labels too."""
    pd = pytest.importorskip("pandas")
    for k, eps in ((4, 0.5), (200, 5.0)):
        labels = [f"v{i}" for i in range(k)]
        # At 200 labels a high level keeps the design quick; it still has 200
        # outputs, so its codes are int16 (asserted below).
        d = pmldesign.design(np.full(k, 1 / k), eps, labels=labels)
        x = np.array(labels)[np.random.default_rng(k).integers(0, k, 150_000)]
        s = pd.Series(pd.Categorical(x, categories=labels[::-1]), name="x")
        out = pmldesign.apply(d, s, seed=KEY, offset=7)
        assert str(out.dtype) == "category" and out.cat.codes.dtype == (np.int8 if k < 127 else np.int16)
        assert out.astype(str).tolist() == pmldesign.apply(d, x, seed=KEY, column="x", offset=7).tolist()
    gaps = pd.Series(pd.Categorical(["v1", None, "v2", "zz"], categories=["v1", "v2", "zz"]), name="x")
    kept = pmldesign.apply(d, gaps, seed=KEY, on_unknown="keep")
    expected = pmldesign.apply(d, ["v1", None, "v2", "zz"], seed=KEY, column="x", on_unknown="keep")
    assert kept.astype(object).where(kept.notna(), "").tolist() == expected.tolist()


def test_pandas_counts_and_nulls(design):
    pd = pytest.importorskip("pandas")
    x = values(1000)
    frame = pd.DataFrame({"city": pd.Categorical(x, categories=["a", "b", "c", "d", "e"])})
    c = pmldesign.count(frame, "city")
    assert list(c) == ["a", "b", "c", "d", "e"] and c["e"] == 0 and sum(c.values()) == 1000
    assert pmldesign.count(pd.Series(x)) == pmldesign.count(x)
    with pytest.raises(pmldesign.PmlError, match="column"):
        pmldesign.count(frame)
    with_null = pd.Series(["a", None, "b"], name="city")
    with pytest.raises(pmldesign.PmlError, match="city.*null"):
        pmldesign.count(with_null)
    with pytest.raises(pmldesign.PmlError, match="'city' at row 1: a null"):
        pmldesign.apply(design, with_null, seed=KEY)
    # A category that never occurs has mass 0 at the centre of the sample's ball,
    # which still protects it.
    zero = pmldesign.design_from_counts(c, 1.0, delta=0.05)
    assert zero.labels == ["a", "b", "c", "d", "e"] and zero.prior[4] == 0.0
    assert zero.certificate.worst_case_pml <= 1.0 + 1e-12
    assert pmldesign.Design.from_json(zero.to_json()).labels == zero.labels
    with pytest.raises(pmldesign.PmlError, match="prior\\[4\\]"):
        pmldesign.design([0.5, 0.2, 0.2, 0.1, 0.0], 1.0)
    seen = {k: v for k, v in c.items() if v}
    assert pmldesign.design_from_counts(seen, 1.0, delta=0.05).labels == ["a", "b", "c", "d"]


def test_polars_series_and_frames(design):
    pl = pytest.importorskip("polars")
    x = values(4000)
    s = pl.Series("city", x.tolist())
    out = pmldesign.apply(design, s, seed=KEY)
    assert isinstance(out, pl.Series) and out.name == "city"
    assert out.to_list() == pmldesign.apply(design, x, seed=KEY, column="city").tolist()
    frame = pl.DataFrame({"id": np.arange(4000), "city": x.tolist()})
    done = pmldesign.polars.privatise(frame, design, "city", seed=KEY)
    assert done.columns == ["id", "city_private"]
    assert done["city_private"].to_list() == out.to_list()
    with pytest.warns(UserWarning, match="must not be released"):
        kept = pmldesign.polars.privatise(frame, design, "city", seed=KEY, keep_raw=True)
    assert kept.columns == ["id", "city", "city_private"] and kept["city_private"].to_list() == out.to_list()
    assert pmldesign.polars.privatise(frame, design, "city", seed=KEY, name="city").columns == ["id", "city"]
    # Two slices with their offsets give the whole column.
    top = pmldesign.polars.privatise(frame[:1234], design, "city", seed=KEY)
    rest = pmldesign.polars.privatise(frame[1234:], design, "city", seed=KEY, offset=1234)
    assert pl.concat([top, rest])["city_private"].to_list() == out.to_list()
    c = pmldesign.count(frame, "city")
    assert c == pmldesign.count(x)
    assert pmldesign.count(frame.lazy(), "city") == c
    with pytest.raises(pmldesign.PmlError, match="null"):
        pmldesign.apply(design, pl.Series("city", ["a", None]), seed=KEY)


def test_polars_lazy_frames_stream_in_batches(design, tmp_path):
    pl = pytest.importorskip("polars")
    x = values(120_000)
    whole = pmldesign.apply(design, x, seed=KEY, column="city").tolist()
    pl.DataFrame({"id": np.arange(len(x)), "city": x.tolist()}).write_parquet(tmp_path / "t.parquet", row_group_size=7_000)
    lazy = pmldesign.polars.privatise(pl.scan_parquet(tmp_path / "t.parquet"), design, "city", seed=KEY)
    assert isinstance(lazy, pl.LazyFrame)
    for engine in ("streaming", "in-memory"):
        out = lazy.collect(engine=engine)
        assert out.columns == ["id", "city_private"] and out["city_private"].to_list() == whole, engine
    # Offsets: the second half of a column, lazily, is the second half of the whole.
    half = pl.scan_parquet(tmp_path / "t.parquet").slice(60_000)
    rest = pmldesign.polars.privatise(half, design, "city", seed=KEY, offset=60_000).collect(engine="streaming")
    assert rest["city_private"].to_list() == whole[60_000:]
    bad = pl.LazyFrame({"city": ["a", "z", None, "b"], "user": ["u1", "u2", "u3", "u4"]})
    with pytest.warns(UserWarning, match="raw private column"):
        skipped = pmldesign.polars.privatise(bad, design, "city", seed=KEY, on_unknown="skip", keep_raw=True).collect()
    assert skipped["city"].to_list() == ["a", "b"] and skipped.columns == ["city", "user", "city_private"]
    by_key = pmldesign.polars.privatise(bad, design, "city", seed=KEY, key="user", on_unknown="keep").collect()
    keyed = pmldesign.apply(design, ["a", "z", None, "b"], seed=KEY, column="city", key=["u1", "u2", "u3", "u4"], on_unknown="keep")
    assert [v or "" for v in by_key["city_private"].to_list()] == keyed.tolist()
    with pytest.raises(Exception, match="not one of the mechanism's labels|a null"):
        pmldesign.polars.privatise(bad, design, "city", seed=KEY).collect()
    with pytest.raises(pmldesign.PmlError, match="column = 'town'"):
        pmldesign.polars.privatise(bad, design, "town", seed=KEY)


def test_key_rows_draw_the_same_when_shuffled(design):
    x = values(2000)
    users = np.array([f"user{i}" for i in range(2000)])
    out = pmldesign.apply(design, x, seed=KEY, key=users)
    order = np.random.default_rng(3).permutation(2000)
    shuffled = pmldesign.apply(design, x[order], seed=KEY, key=users[order])
    np.testing.assert_array_equal(shuffled, out[order])
    # Keys, not positions: the positional stream differs, and so do other keys.
    assert not np.array_equal(out, pmldesign.apply(design, x, seed=KEY))
    with pytest.raises(pmldesign.PmlError, match="key"):
        pmldesign.apply(design, x, seed=KEY, key=users[:10])


def test_pyarrow_arrays_become_dictionary_arrays(design):
    pa = pytest.importorskip("pyarrow")
    x = values(2000)
    arr = pa.array(x.tolist())
    out = pmldesign.apply(design, arr, seed=KEY)
    assert isinstance(out, pa.DictionaryArray)
    assert out.dictionary.to_pylist() == design.outputs
    assert out.cast(pa.string()).to_pylist() == pmldesign.apply(design, x, seed=KEY).tolist()
    chunked = pa.chunked_array([x[:700].tolist(), x[700:].tolist()])
    assert pmldesign.apply(design, chunked, seed=KEY).cast(pa.string()).to_pylist() == out.cast(pa.string()).to_pylist()
    assert pmldesign.count(arr) == pmldesign.count(x)
    assert pmldesign.count(pa.table({"city": arr}), "city") == pmldesign.count(x)
    with pytest.raises(pmldesign.PmlError, match="values\\[1\\]: a null"):
        pmldesign.apply(design, pa.array(["a", None]), seed=KEY)


def test_floats_are_not_categories(design):
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    floats = [1.5, 2.5, 1.5]
    for data in (np.array(floats), pd.Series(floats, name="income"), pl.Series("income", floats), pa.array(floats)):
        with pytest.raises(pmldesign.PmlError, match="floating-point numbers .* not categories; bin them"):
            pmldesign.count(data)
        with pytest.raises(pmldesign.PmlError, match="floating-point"):
            pmldesign.apply(design, data, seed=KEY)
    with pytest.raises(pmldesign.PmlError, match="'income'"):
        pmldesign.count(pd.DataFrame({"income": floats}), "income")


def test_output_labels_name_the_outputs_as_the_cli_does(design, tmp_path, run_pml):
    x = values(300)
    key = "0x" + "1f83d9abfb41bd6b" * 4
    names = [f"out{j}" for j in range(len(design.outputs))]
    ours = pmldesign.apply(design, x, seed=key, column="v", output_labels=names)
    path, data, out = tmp_path / "d.json", tmp_path / "in.csv", tmp_path / "out.csv"
    path.write_text(design.to_json())
    data.write_text("v\n" + "\n".join(x.tolist()) + "\n")
    run_pml("apply", "--mechanism", str(path), "--data", str(data), "--column", "v", "--seed", key,
            "--output", str(out), "--output-labels", ",".join(names))
    assert ours.tolist() == [line.split(",")[-1] for line in out.read_text().splitlines()[1:]]
    with pytest.raises(pmldesign.PmlError, match="output_labels"):
        pmldesign.apply(design, x, output_labels=names[:-1] + [names[0]])


def test_engines_take_output_labels_as_apply_does(design):
    """polars (eager and lazy) and Dask release the names ``output_labels`` gives,
    the same draws as :func:`pmldesign.apply`; a wrong count or a mapping is refused
    before any pass over the data."""
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    dd = pytest.importorskip("dask.dataframe")
    x = values(400)
    names = [f"out{j}" for j in range(len(design.outputs))]
    want = pmldesign.apply(design, x, seed=KEY, column="v", output_labels=names).astype(str).tolist()
    frame = pl.DataFrame({"v": x})
    eager = pmldesign.polars.privatise(frame, design, "v", seed=KEY, output_labels=names)
    lazy = pmldesign.polars.privatise(frame.lazy(), design, "v", seed=KEY, output_labels=names).collect()
    for got in (eager, lazy):
        assert got["v_private"].dtype == pl.Enum(names)
        assert got["v_private"].cast(pl.String).to_list() == want
    parts = dd.from_pandas(pd.DataFrame({"v": x}), npartitions=3)
    out = pmldesign.dask.privatise(parts, design, "v", seed=KEY, output_labels=names).compute()
    assert list(out["v_private"].cat.categories) == names
    assert out["v_private"].astype(str).tolist() == want
    for engine, data in ((pmldesign.polars, frame), (pmldesign.dask, parts)):
        with pytest.raises(pmldesign.PmlError, match="output_labels"):
            engine.privatise(data, design, "v", seed=KEY, output_labels=names[:-1])
        with pytest.raises(pmldesign.PmlError, match="a mapping names a record design's columns"):
            engine.privatise(data, design, "v", seed=KEY, output_labels={"v": names})


def test_a_repeated_key_is_refused_naming_it_and_its_rows(design):
    x = ["a", "b", "c", "d", "a"]
    with pytest.raises(pmldesign.PmlError, match=r"the key 'u7' is on rows 1 and 4; each key draws once") as e:
        pmldesign.apply(design, x, seed=KEY, key=["u1", "u7", "u2", "u3", "u7"])
    assert "\n" not in str(e.value)
    pd = pytest.importorskip("pandas")
    with pytest.raises(pmldesign.PmlError, match="the key '3' is on rows 0 and 2"):
        pmldesign.apply(design, pd.Series(x[:3], name="city"), seed=KEY, key=pd.Series([3, 4, 3]))
    pl = pytest.importorskip("polars")
    frame = pl.DataFrame({"user": ["u1", "u7", "u2", "u3", "u7"], "city": x})
    with pytest.raises(pmldesign.PmlError, match="the key 'u7' is on rows 1 and 4"):
        pmldesign.polars.privatise(frame, design, "city", seed=KEY, key="user")
    with pytest.raises(pmldesign.PmlError, match="the key 'u7' is on more than one row"):
        pmldesign.polars.privatise(frame.lazy(), design, "city", seed=KEY, key="user")


def test_two_keys_at_one_place_of_the_stream_are_refused(design, monkeypatch):
    """Two different keys whose places coincide would couple their rows as one
    key would: the places are compared, not the keys' text."""
    places = {"u1": 10, "u2": 11, "u3": 10}
    monkeypatch.setattr(pmldesign._native, "key_positions", lambda keys: np.array([places[k] for k in keys], dtype=np.uint64))
    with pytest.raises(pmldesign.PmlError, match=r"the keys 'u1' and 'u3' \(on rows 0 and 2\) draw from the same place"):
        pmldesign.apply(design, ["a", "b", "c"], seed=KEY, key=["u1", "u2", "u3"])
    pl = pytest.importorskip("polars")
    frame = pl.LazyFrame({"user": ["u1", "u2", "u3"], "city": ["a", "b", "c"]})
    with pytest.raises(pmldesign.PmlError, match="the keys '(u1|u3)' and '(u1|u3)' .* draw from the same place"):
        pmldesign.polars.privatise(frame, design, "city", seed=KEY, key="user")


def test_a_privatised_polars_frame_holds_no_raw_column_unless_kept(design):
    pl = pytest.importorskip("polars")
    frame = pl.DataFrame({"id": [1, 2, 3], "city": ["a", "b", "c"]})
    for data in (frame, frame.lazy()):
        out = pmldesign.polars.privatise(data, design, "city", seed=KEY)
        out = out.collect() if isinstance(out, pl.LazyFrame) else out
        assert out.columns == ["id", "city_private"]
        with pytest.warns(UserWarning, match=r"still holds the raw private column\(s\) \['city'\]; it must not be released"):
            kept = pmldesign.polars.privatise(data, design, "city", seed=KEY, keep_raw=True)
        kept = kept.collect() if isinstance(kept, pl.LazyFrame) else kept
        assert kept.columns == ["id", "city", "city_private"] and kept["city_private"].to_list() == out["city_private"].to_list()
    with pytest.raises(pmldesign.PmlError, match="invalid keep_raw = 'yes'"):
        pmldesign.polars.privatise(frame, design, "city", seed=KEY, keep_raw="yes")
    with pytest.raises(pmldesign.PmlError, match="invalid keep_raw=True with name = 'city'"):
        pmldesign.polars.privatise(frame, design, "city", seed=KEY, keep_raw=True, name="city")
    with pytest.raises(pmldesign.PmlError, match="invalid keep_raw = True: only a record design"):
        pmldesign.apply(design, ["a"], seed=KEY, keep_raw=True)
