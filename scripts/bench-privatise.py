"""Throughput of privatising (README, Benchmarks): the Python package on 10 million
rows (a pandas categorical Series, a polars String Series, numpy integer codes),
`count` against the engines' own value_counts, and `pml apply` on a 10-million-row CSV.

    .venv/bin/python scripts/bench-privatise.py      # after scripts/test-all.sh built both
"""

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
    rows = [
        ("Python `apply`, pandas categorical Series", lambda: pmldesign.apply(d, series, seed=KEY)),
        ("Python `apply`, polars String Series", lambda: pmldesign.apply(d, polars, seed=KEY)),
        ("Python `apply`, numpy integer codes", lambda: pmldesign.apply(d, codes, seed=KEY)),
        ("`count`, pandas categorical", lambda: pmldesign.count(series)),
        ("pandas `value_counts` (reference)", lambda: series.value_counts()),
        ("`count`, polars String", lambda: pmldesign.count(polars)),
        ("polars `value_counts` (reference)", lambda: polars.value_counts()),
    ]
    print("| work (10 million rows, 10 categories) | time (s) | million rows/s |")
    print("|---|---|---|")
    for name, f in rows:
        t = best(f)
        print(f"| {name} | {t:.3f} | {ROWS / t / 1e6:.1f} |")
    pml = os.environ.get("PML_BIN", "target/release/pml")
    with tempfile.TemporaryDirectory() as tmp:
        data, design, out = (os.path.join(tmp, n) for n in ("in.csv", "d.json", "out.csv"))
        pd.DataFrame({"id": np.arange(ROWS), "city": series.astype(str)}).to_csv(data, index=False)
        with open(design, "w") as f:
            f.write(d.to_json())
        t = best(lambda: subprocess.run([pml, "apply", "--mechanism", design, "--data", data, "--column", "city",
                                         "--seed", KEY, "--output", out], check=True, capture_output=True))
        print(f"| `pml apply` CSV -> CSV ({os.path.getsize(data) / 1e6:.0f} MB) | {t:.3f} | {ROWS / t / 1e6:.1f} |")


if __name__ == "__main__":
    main()
