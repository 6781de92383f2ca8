"""Unobserved categories (docs/benchmarks.md): each route that meets a category of
count 0 is timed with the zeros and without them, side by side in one run.

- counts: a 48-category column with 13 categories never observed, against the
  same counts with the zeros left out (`--counts` derives the radius from the
  smaller N);
- (a single `--data` column meets no zero: labels that never occur in it are
  refused, as a ball around such an estimate is not the sample's guarantee;)
- joint: a record of two columns, carrier (8 labels) x origin (6 labels), 48
  combinations of which 13 are never observed, against `--counts` of the 35
  observed combinations;
- compose: the same record released column by column (its conditional priors
  have zeros), against the record with the unobserved combinations given one
  row each.

    python3 scripts/bench-unobserved.py    # after cargo build --release
    PML_BIN=/path/to/pml python3 scripts/bench-unobserved.py

Prints the table of docs/benchmarks.md (wall time of each `pml design`).
"""

import json
import os
import subprocess
import tempfile
import time

PML = os.environ.get("PML_BIN", "target/release/pml")
# A joint record's design gets 1/7 of the record's limit (two columns): 1400 s
# leaves it 200 s, past what either design needs here.
LIMIT = os.environ.get("PML_LIMIT", "1400")

COUNTS = [1268, 14651, 2541, 3487, 13783, 15459, 714, 0, 0, 6557, 42076, 6002, 4342, 20701,
          23067, 43939, 1408, 8826, 0, 0, 685, 0, 0, 3260, 0, 342, 0, 2276, 7193, 16928, 6, 0,
          26, 46087, 4534, 8044, 4405, 2995, 13136, 1566, 3596, 0, 6188, 0, 6087, 0, 0, 601]

CARRIERS = [f"c{k}" for k in range(8)]
ORIGINS = [f"o{k}" for k in range(6)]


def joint_counts():
    """Counts of the 48 combinations (carrier-major), 13 of them 0."""
    out = []
    for i in range(len(CARRIERS)):
        for j in range(len(ORIGINS)):
            unobserved = (3 * i + 5 * j) % 7 in (0, 3) and (i, j) != (0, 0)
            out.append(0 if unobserved else 40 + (97 * i + 53 * j + 31 * i * j) % 900)
    return out


def write_record(path, counts, fill=0):
    with open(path, "w") as f:
        f.write("carrier,origin\n")
        for k, n in enumerate(counts):
            row = f"{CARRIERS[k // len(ORIGINS)]},{ORIGINS[k % len(ORIGINS)]}\n"
            f.write(row * (n if n > 0 else fill))


def run(args):
    start = time.monotonic()
    r = subprocess.run([PML, "design", *args, "--epsilon", "1", "--delta", "1e-6",
                        "--time-limit", LIMIT, "--format", "json", "--quiet"],
                       capture_output=True, text=True)
    wall = time.monotonic() - start
    if r.returncode != 0:
        raise SystemExit(f"{args}: {r.stderr}")
    doc = json.loads(r.stdout)
    designs = doc["record"]["designs"] if "record" in doc else [doc]
    status = ",".join(sorted({d.get("status", "?") for d in designs}))
    return wall, status


def main():
    observed = [n for n in COUNTS if n > 0]
    joint = joint_counts()
    with tempfile.TemporaryDirectory() as tmp:
        record = os.path.join(tmp, "record.csv")
        write_record(record, joint)
        filled = os.path.join(tmp, "filled.csv")
        write_record(filled, joint, fill=1)
        pair = ["--column", "carrier", "--column", "origin"]
        rows = [
            ("counts", len(COUNTS), COUNTS.count(0),
             ["--counts", ",".join(map(str, COUNTS))],
             ["--counts", ",".join(map(str, observed))]),
            ("joint record", len(joint), joint.count(0),
             ["--data", record, *pair, "--record", "joint"],
             ["--counts", ",".join(str(n) for n in joint if n > 0)]),
            ("compose record (without: zeros filled with 1 row)", f"{len(CARRIERS)} + {len(ORIGINS)}",
             joint.count(0),
             ["--data", record, *pair, "--record", "compose"],
             ["--data", filled, *pair, "--record", "compose"]),
        ]
        print("| route | N | zeros | with zeros (s) | without (s) | ratio | status with / without |")
        print("|---|---|---|---|---|---|---|")
        for name, n, zeros, with_zeros, without in rows:
            t1, s1 = run(with_zeros)
            t0, s0 = run(without)
            print(f"| {name} | {n} | {zeros} | {t1:.2f} | {t0:.2f} | {t1 / t0:.2f} | {s1} / {s0} |",
                  flush=True)


if __name__ == "__main__":
    main()
