"""Record designs (docs/benchmarks.md): a generated table of 300,000 people with three
correlated columns, region (16 labels), age band (3) and income band (12), 576
combinations; `pml design` releases the record by compose with --delta 1e-6 and by
joint with --delta 1e-6 --time-limit 60. Prints the table of docs/benchmarks.md (wall time and peak
memory by GNU time).

    .venv/bin/python scripts/bench-record.py      # after cargo build --release
"""

import os
import subprocess
import tempfile

import numpy as np
import pandas as pd

PML = os.environ.get("PML_BIN", "target/release/pml")


def people(path, n=300_000):
    rng = np.random.default_rng(26)
    region = rng.choice(16, n, p=rng.dirichlet(np.full(16, 2.0)))
    age = np.where(rng.random(n) < 0.6, region % 3, rng.integers(0, 3, n))
    income = np.clip((region * 12) // 16 + rng.integers(-2, 3, n) + age, 0, 11)
    pd.DataFrame({
        "region": [f"r{v:02d}" for v in region],
        "age": [["young", "middle", "old"][a] for a in age],
        "income": [f"i{v:02d}" for v in income],
    }).to_csv(path, index=False)


def run(args):
    r = subprocess.run(["/usr/bin/time", "-f", "%e %M", PML, *args, "--format", "table"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(r.stderr)
    wall, kb = r.stderr.strip().splitlines()[-1].split()
    lines = r.stdout.splitlines()
    pick = lambda prefix: next(l for l in lines if l.startswith(prefix)).split(": ", 1)[1]  # noqa: E731
    return float(wall), int(kb) / 1024, pick("Utility"), pick("Leakage about the record"), lines[1].strip()


def main():
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "people.csv")
        people(data)
        base = ["design", "--data", data, "--column", "region", "--column", "age", "--column", "income",
                "--epsilon", "2", "--delta", "1e-6"]
        print("| release (300,000 rows, 16 x 3 x 12 = 576 combinations, eps = 2, delta = 1e-6) | time (s) | peak (MB) | I(X; Y) | leakage about the record |")
        print("|---|---|---|---|---|")
        for name, extra in (("compose, split searched", ["--record", "compose"]),
                            ("joint, --time-limit 60", ["--record", "joint", "--time-limit", "60"])):
            wall, peak, utility, leak, first = run(base + extra)
            note = f" ({first.split('(')[-1].rstrip(')')})" if name.startswith("joint") else ""
            print(f"| {name}{note} | {wall:.2f} | {peak:.0f} | {utility} | {leak} |")


if __name__ == "__main__":
    main()
