"""Spark: one keyed stream for any partitioning, on local[2].

Needs a JVM and pyspark (scripts/install-spark.sh installs both where it can); the
tests are skipped, with the reason, where either is missing."""

import os
import shutil
import sys

import numpy as np
import pytest

import pmldesign

pytest.importorskip("pyspark", reason="pyspark is not installed (scripts/install-spark.sh)")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("no Java runtime (scripts/install-spark.sh installs openjdk-17-jre-headless)", allow_module_level=True)

# pyspark warns about pandas 3 at every conversion; the conversions tested here work.
# One xdist worker runs all of Spark (`--dist loadgroup`, scripts/test-all.sh): one JVM,
# started once, instead of one per worker (test_guide.py explains the group's order).
pytestmark = [
    pytest.mark.filterwarnings("ignore::FutureWarning", "ignore::DeprecationWarning"),
    pytest.mark.xdist_group("spark"),
]

KEY = "0x" + "3c6ef372fe94f82b" * 4
N = 20_000


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("pmldesign-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "1000")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("FATAL")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def design():
    return pmldesign.design([0.4, 0.3, 0.2, 0.1], 0.6, labels=["a", "b", "c", "d"])


@pytest.fixture(scope="module")
def x():
    return np.random.default_rng(5).choice(["a", "b", "c", "d"], size=N)


def split(spark, rows, cuts):
    """A frame whose partition k holds rows[cuts[k]:cuts[k + 1]] (no shuffle)."""
    rdd = spark.sparkContext.parallelize(range(len(cuts) - 1), len(cuts) - 1)
    return spark.createDataFrame(rdd.flatMap(lambda k: rows[cuts[k]:cuts[k + 1]]), "id long, user string, city string")


def test_any_partitioning_gives_the_single_process_column(spark, design, x):
    whole = pmldesign.apply(design, x, seed=KEY, column="city").tolist()
    rows = [(i, f"u{i}", str(v)) for i, v in enumerate(x)]
    rng = np.random.default_rng(1)
    for parts in (1, 2, 3, 7):
        cuts = [0, *np.sort(rng.integers(0, N, parts - 1)).tolist(), N]
        out = pmldesign.spark.privatise(split(spark, rows, cuts), design, "city", seed=KEY).toPandas()
        assert out["id"].tolist() == list(range(N))
        assert out["city_private"].tolist() == whole, parts
    names = [f"out{j}" for j in range(len(design.outputs))]
    renamed = pmldesign.spark.privatise(split(spark, rows, [0, 7000, N]), design, "city", seed=KEY, output_labels=names)
    assert renamed.toPandas()["city_private"].tolist() == [names[design.outputs.index(v)] for v in whole]
    with pytest.raises(pmldesign.PmlError, match="output_labels"):
        pmldesign.spark.privatise(split(spark, rows, [0, N]), design, "city", seed=KEY, output_labels=names[:-1])


def test_key_rows_draw_the_same_in_any_order(spark, design, x):
    users = [f"u{i}" for i in range(N)]
    single = pmldesign.apply(design, x, seed=KEY, column="city", key=users).tolist()
    rows = [(i, users[i], str(v)) for i, v in enumerate(x)]
    shuffled = split(spark, rows, [0, 5000, N]).repartition(5, "city")
    out = pmldesign.spark.privatise(shuffled, design, "city", seed=KEY, key="user").toPandas().sort_values("id")
    assert out["city_private"].tolist() == single


def test_a_shuffle_that_reruns_differently_fails_instead_of_sharing_draws(spark, design, x):
    import pandas as pd

    from pmldesign.spark import _check_span

    with pytest.raises(pmldesign.PmlError, match="partition 1 holds 7 rows but was counted with 6"):
        _check_span(1, 7, [(0, 5), (5, 6)])
    _check_span(1, 6, [(0, 5), (5, 6)])
    frame = spark.createDataFrame(pd.DataFrame({"id": np.arange(N), "city": x})).repartitionByRange(3, "id")
    # Range partitioning may place rows anew in each job (seen here: 6638 rows counted
    # in a partition that then held 6732): the task then fails, and never shares draws.
    try:
        pmldesign.spark.privatise(frame, design, "city", seed=KEY).collect()
    except Exception as e:  # pyspark's PythonException, carrying ours
        assert "counted with" in str(e)
    fixed = frame.localCheckpoint()
    order = [r["city"] for r in fixed.select("city").collect()]
    out = pmldesign.spark.privatise(fixed, design, "city", seed=KEY).toPandas()
    assert out["city_private"].tolist() == pmldesign.apply(design, np.array(order), seed=KEY, column="city").tolist()


def test_unknown_values_and_counts(spark, design):
    frame = spark.createDataFrame([(0, "a"), (1, "z"), (2, None), (3, "b")], "id long, city string").coalesce(1)
    kept = pmldesign.spark.privatise(frame, design, "city", seed=KEY, on_unknown="keep").collect()
    expected = pmldesign.apply(design, ["a", "z", None, "b"], seed=KEY, column="city", on_unknown="keep").tolist()
    assert [r["city_private"] or "" for r in kept] == expected
    skipped = pmldesign.spark.privatise(frame, design, "city", seed=KEY, on_unknown="skip").toPandas()
    assert skipped["id"].tolist() == [0, 3] and skipped["city_private"].tolist() == [expected[0], expected[3]]
    dropped = pmldesign.spark.privatise(frame, design, "city", seed=KEY, on_unknown="skip", nulls="drop").toPandas()
    assert dropped["id"].tolist() == [0, 2, 3] and dropped["city_private"].isna().tolist() == [False, True, False]
    with pytest.raises(Exception, match="'z', not one of the mechanism's labels"):
        pmldesign.spark.privatise(frame, design, "city", seed=KEY).collect()
    with pytest.raises(pmldesign.PmlError, match="column = 'town'"):
        pmldesign.spark.privatise(frame, design, "town", seed=KEY)
    with pytest.raises(pmldesign.PmlError, match="'city'.*null"):
        pmldesign.count(frame, "city")
    full = frame.where("city is not null")
    assert pmldesign.count(full, "city") == {"a": 1, "b": 1, "z": 1}
    assert pmldesign.count(frame, "city", nulls="category") == {"a": 1, "b": 1, "z": 1, "<null>": 1}


def test_summaries_are_applys_for_any_partitioning(spark, design):
    cities = ["a", "b", None, "b", "z", "d", "q", "a"]
    rows = [(i, f"u{i}", c) for i, c in enumerate(cities)]
    for on_unknown, nulls in (("skip", "drop"), ("keep", "error")):
        _, want = pmldesign.apply(design, cities, seed=KEY, column="city", on_unknown=on_unknown, nulls=nulls, summary=True)
        want = dict(want.to_dict(), columns=[{"column": "city", "written_as": "city_private"}])
        for cuts in ([0, 8], [0, 3, 5, 8]):
            for key in (None, "user"):
                released, told = pmldesign.spark.privatise(split(spark, rows, cuts), design, "city", seed=KEY, key=key,
                                                           on_unknown=on_unknown, nulls=nulls, summary=True)
                assert told.to_dict() == want, (on_unknown, cuts, key)
                assert released.count() == told.rows - told.skipped
    with pytest.raises(pmldesign.PmlError, match="'city' at row 4: 'z'"):
        pmldesign.spark.privatise(split(spark, rows, [0, 3, 8]), design, "city", seed=KEY, nulls="drop", summary=True)
    record = pmldesign.design_record({(f"a{a}", f"b{b}"): 10 + 7 * a + 3 * b for a in (1, 2, 3) for b in (1, 2)}, ["A", "B"], 1.0)
    pairs = [(i, "", a, b) for i, (a, b) in enumerate([("a1", "b1"), ("a2", "b7"), ("a9", "b2"), ("a3", "b1")])]
    frame = spark.sparkContext.parallelize(range(2), 2).flatMap(lambda k: pairs[2 * k:2 * k + 2])
    sdf = spark.createDataFrame(frame, "id long, user string, A string, B string").drop("user")
    pdf = sdf.toPandas()
    _, want = pmldesign.apply(record, pdf, seed=KEY, on_unknown="keep", summary=True)
    assert pmldesign.spark.privatise(sdf, record, seed=KEY, on_unknown="keep", summary=True)[1].to_dict() == want.to_dict()


def test_a_record_design_draws_as_one_call(spark):
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(11)
    a = rng.choice(["a1", "a2", "a3"], N)
    b = np.where(rng.random(N) < 0.7, np.char.replace(a, "a", "b"), rng.choice(["b1", "b2", "b3"], N))
    frame = pd.DataFrame({"id": np.arange(N), "A": a, "B": b})
    for mode in ("compose", "joint"):
        r = pmldesign.design_record(frame, ["A", "B"], 1.0, mode=mode)
        whole = pmldesign.apply(r, frame, seed=KEY)
        rows = [(int(i), "", str(x), str(y)) for i, x, y in zip(frame["id"], a, b)]
        rdd = spark.sparkContext.parallelize(range(3), 3).flatMap(lambda k: rows[[0, 5000, 12000, N][k]:[0, 5000, 12000, N][k + 1]])
        sdf = spark.createDataFrame(rdd, "id long, user string, A string, B string").drop("user")
        out = pmldesign.spark.privatise(sdf, r, seed=KEY).toPandas()
        assert out["id"].tolist() == list(range(N))
        assert out["A_private"].tolist() == whole["A_private"].astype(str).tolist(), mode
        assert out["B_private"].tolist() == whole["B_private"].astype(str).tolist(), mode
        values = r.labels[0] if mode == "joint" else r.designs[0].outputs
        names = [f"n{i}" for i in range(len(values))]
        renamed = pmldesign.spark.privatise(sdf, r, seed=KEY, output_labels={"A": names}).toPandas()
        assert renamed["A_private"].tolist() == [names[values.index(v)] for v in out["A_private"]], mode
        assert renamed["B_private"].tolist() == out["B_private"].tolist(), mode


def test_estimate_counts_where_the_data_live(spark, design, x):
    """pmldesign.estimate on a Spark column equals the estimate from its counts."""
    released = pmldesign.apply(design, x, seed=KEY, column="city")
    frame = spark.createDataFrame([(str(v),) for v in released], "city_private string")
    got = pmldesign.estimate(design, frame, column="city_private").to_dict()
    ref = pmldesign.estimate(design, counts=pmldesign.count(released.tolist())).to_dict()
    assert got["estimates"] == ref["estimates"] and got["rows"] == N


def test_a_record_design_by_key_draws_as_apply_in_any_order(spark):
    """``key=`` with a record design: each row draws from its key's place, so a
    shuffled Spark frame releases what ``apply(record, frame, key=)`` does."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({
        "user": [f"u{i}" for i in range(600)],
        "A": [f"a{1 + i % 3}" for i in range(600)],
        "B": [f"b{1 + (i // 3) % 4}" for i in range(600)],
    })
    r = pmldesign.design_record(frame, ["A", "B"], 2.0, mode="compose")
    whole = pmldesign.apply(r, frame, seed=KEY, key="user").set_index("user")
    sdf = spark.createDataFrame(frame.sample(frac=1.0, random_state=5)).repartition(4)
    out = pmldesign.spark.privatise(sdf, r, seed=KEY, key="user").toPandas().set_index("user").loc[whole.index]
    for c in ("A_private", "B_private"):
        assert out[c].tolist() == whole[c].astype(str).tolist()


def test_a_privatised_spark_frame_holds_no_raw_column_unless_kept(spark, design):
    pd = pytest.importorskip("pandas")
    frame = spark.createDataFrame([(0, "u0", "a"), (1, "u1", "b"), (2, "u2", "c")], "id long, user string, city string").coalesce(1)
    out = pmldesign.spark.privatise(frame, design, "city", seed=KEY)
    assert out.columns == ["id", "user", "city_private"]
    want = pmldesign.apply(design, ["a", "b", "c"], seed=KEY, column="city").tolist()
    assert out.toPandas()["city_private"].tolist() == want
    with pytest.warns(UserWarning, match="must not be released"):
        kept = pmldesign.spark.privatise(frame, design, "city", seed=KEY, keep_raw=True)
    assert kept.columns == ["id", "user", "city", "city_private"] and kept.toPandas()["city_private"].tolist() == want
    assert pmldesign.spark.privatise(frame, design, "city", seed=KEY, name="city").toPandas()["city"].tolist() == want
    records = pd.DataFrame({"id": range(60), "A": [f"a{i % 3}" for i in range(60)], "B": [f"b{i % 2}" for i in range(60)]})
    r = pmldesign.design_record(records, ["A", "B"], 2.0, mode="compose")
    sdf = spark.createDataFrame(records).coalesce(1)
    whole = pmldesign.apply(r, records, seed=KEY)
    released = pmldesign.spark.privatise(sdf, r, seed=KEY)
    assert released.columns == ["id", "A_private", "B_private"]
    assert released.toPandas()["A_private"].tolist() == whole["A_private"].astype(str).tolist()
    with pytest.warns(UserWarning, match=r"\['A', 'B'\]; it must not be released"):
        both = pmldesign.spark.privatise(sdf, r, seed=KEY, keep_raw=True)
    assert both.columns == ["id", "A", "B", "A_private", "B_private"]


def test_spark_refuses_a_repeated_key_before_drawing(spark, design):
    pd = pytest.importorskip("pandas")
    users = [f"u{i}" for i in range(50)] + ["u17"]
    frame = pd.DataFrame({"user": users, "A": [f"a{i % 3}" for i in range(51)], "B": [f"b{i % 2}" for i in range(51)]})
    sdf = spark.createDataFrame(frame.assign(city=["a", "b", "c"] * 17)).repartition(3)
    with pytest.raises(pmldesign.PmlError, match="the key 'u17' is on more than one row; each key draws once"):
        pmldesign.spark.privatise(sdf, design, "city", seed=KEY, key="user")
    r = pmldesign.design_record(frame, ["A", "B"], 2.0, mode="compose")
    with pytest.raises(pmldesign.PmlError, match="the key 'u17' is on more than one row"):
        pmldesign.spark.privatise(sdf, r, seed=KEY, key="user")
