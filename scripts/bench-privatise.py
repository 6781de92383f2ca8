"""Throughput of privatising (docs/benchmarks.md): the Python package on 10 million
rows (a pandas categorical Series, a polars String Series, numpy integer codes, a
polars LazyFrame streamed from Parquet), `count` against the engines' own
value_counts, `pml apply` on a 10-million-row CSV and Parquet file (time and peak
memory), and Dask on a LocalCluster of two worker processes (checked equal to the
single-process column).

    .venv/bin/python scripts/bench-privatise.py      # after scripts/test-all.sh built both
    .venv/bin/python scripts/bench-privatise.py --in-memory   # the Python rows alone

Each row is timed side by side with numpy's `default_rng(0).random(n)` for the same
n, and the table gives the ratio: applying a design to a pandas categorical Series of
10 million rows is held to at most 5 times that reference.
"""

import sys

import os
import subprocess
import tempfile
import time

import numpy as np
import pandas as pd
import polars as pl

import pmldesign

ROWS = 10_000_000
LABELS = [f"c{i}" for i in range(10)]
KEY = "0x" + "ab" * 32


def best(f, runs=3):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    d = pmldesign.design(np.full(10, 0.1), 1.0, labels=LABELS)
    codes = np.random.default_rng(1).integers(0, 10, ROWS)
    series = pd.Series(pd.Categorical.from_codes(codes, categories=LABELS), name="city")
    polars = pl.Series("city", LABELS)[codes]
    rng = np.random.default_rng(0)
    rows = [
        ("numpy `default_rng(0).random(n)` (reference)", lambda: rng.random(ROWS)),
        ("Python `apply`, pandas categorical Series", lambda: pmldesign.apply(d, series, seed=KEY)),
        ("Python `apply`, polars String Series", lambda: pmldesign.apply(d, polars, seed=KEY)),
        ("Python `apply`, numpy integer codes (`codes=True`)", lambda: pmldesign.apply(d, codes, seed=KEY, codes=True)),
        ("`count`, pandas categorical", lambda: pmldesign.count(series)),
        ("pandas `value_counts` (reference)", lambda: series.value_counts()),
        ("`count`, polars String", lambda: pmldesign.count(polars)),
        ("polars `value_counts` (reference)", lambda: polars.value_counts()),
    ]
    print("| work (10 million rows, 10 categories) | time (s) | million rows/s | x numpy `random(n)` |")
    print("|---|---|---|---|")
    for k, (name, f) in enumerate(rows):
        t = best(f)
        # The reference timed again right after each row: a shared machine's load drifts.
        reference = t if k == 0 else best(rows[0][1])
        print(f"| {name} | {t:.3f} | {ROWS / t / 1e6:.1f} | {t / reference:.1f} |")
    if "--in-memory" in sys.argv[1:]:
        return
    with tempfile.TemporaryDirectory() as tmp:
        frame = pd.DataFrame({"id": np.arange(ROWS), "city": series.astype(str)})
        parquet = os.path.join(tmp, "in.parquet")
        frame.to_parquet(parquet, row_group_size=1_000_000)
        scan = pmldesign.polars.privatise(pl.scan_parquet(parquet), d, "city", seed=KEY)
        t = best(lambda: scan.collect(engine="streaming"))
        print(f"| `pmldesign.polars.privatise`, LazyFrame from Parquet, streaming | {t:.3f} | {ROWS / t / 1e6:.1f} | |")
        cli(d, frame, tmp)
        cluster(d, frame, series, tmp)


def peak_run(args):
    """Wall time and peak resident memory (MB) of one run of a command, by GNU time."""
    r = subprocess.run(["/usr/bin/time", "-f", "%e %M", *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"{args[0]} failed: {r.stderr}")
    wall, kb = r.stderr.strip().splitlines()[-1].split()
    return float(wall), int(kb) / 1024


def cli(d, frame, tmp):
    """`pml apply`, CSV -> CSV and Parquet -> Parquet (two columns), best of three."""
    pml = os.environ.get("PML_BIN", "target/release/pml")
    design = os.path.join(tmp, "d.json")
    with open(design, "w") as f:
        f.write(d.to_json())
    frame.to_csv(os.path.join(tmp, "in.csv"), index=False)
    for ext in ("csv", "parquet"):
        data, out = os.path.join(tmp, f"in.{ext}"), os.path.join(tmp, f"out.{ext}")
        args = [pml, "apply", "--mechanism", design, "--data", data, "--column", "city", "--seed", KEY, "--output", out]
        t, peak = min(peak_run(args) for _ in range(3))
        size = os.path.getsize(data) / 1e6
        print(f"| `pml apply` {ext} -> {ext} ({size:.0f} MB), peak {peak:.0f} MB | {t:.3f} | {ROWS / t / 1e6:.1f} | |")


def cluster(d, frame, series, tmp):
    """Dask on two worker processes, reading 8 Parquet files and privatising on the
    workers (the count pass included); then checked against the single-process column."""
    import dask.dataframe as dd
    import distributed

    parts = os.path.join(tmp, "parts")
    os.mkdir(parts)
    for k, chunk in enumerate(np.array_split(np.arange(ROWS), 8)):
        frame.iloc[chunk].to_parquet(os.path.join(parts, f"part-{k}.parquet"))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None) as c, \
            distributed.Client(c):
        ddf = dd.read_parquet(parts).persist()
        distributed.wait(ddf)
        t = best(lambda: distributed.wait(pmldesign.dask.privatise(ddf, d, "city", seed=KEY).persist()))
        out = pmldesign.dask.privatise(ddf, d, "city", seed=KEY)["city_private"].compute()
    whole = pmldesign.apply(d, series, seed=KEY)
    assert out.astype(str).tolist() == whole.astype(str).tolist()
    print(f"| Dask, 2 worker processes, 8 Parquet parts in memory (equal to one process) | {t:.3f} | {ROWS / t / 1e6:.1f} | |")


if __name__ == "__main__":
    main()
