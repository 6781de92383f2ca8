#!/usr/bin/env python3
"""Thread scaling of `pml design`: the N = 256 mutual-information designs
of scripts/bench-targets.py (the same Dirichlet(1.3) prior) stopped at a fixed gap, so
that every thread count does the same work, at 1, 2, 4, ... threads up to the cores
this machine has; prints a Markdown table of the times, the speedup over one thread,
and whether the output is the same bytes as on one thread.

    scripts/bench-threads.py --pml target/release/pml [--n 256] [--repeat 2]
"""

import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from importlib import import_module

targets = import_module("bench-targets")

# (notion, eps, the gap each count designs to): the notions' flags are bench-targets'.
CASES = [("pml", 0.9, "1e-4"), ("ldp", 1.6, "5e-2")]


def counts(cores):
    out, k = [], 1
    while k < cores:
        out.append(k)
        k *= 2
    return out + [cores]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pml", default="target/release/pml")
    ap.add_argument("--n", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=2, help="runs per count; the fastest is shown")
    a = ap.parse_args()
    p = targets.prior(a.n, 1000 + a.n)
    print("| notion | N | eps | threads | time (s) | speedup | same bytes as 1 thread |")
    print("|---|---|---|---|---|---|---|")
    for notion, eps, gap in CASES:
        flags = targets.flags(notion, eps, p) + ["--gap", gap]
        base, one = None, None
        for k in counts(os.cpu_count() or 1):
            best, out = float("inf"), None
            for _ in range(a.repeat):
                cmd = [a.pml, "design", "--prior", ",".join(repr(x) for x in p), *flags,
                       "--threads", str(k), "--format", "json"]
                t = time.perf_counter()
                out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
                best = min(best, time.perf_counter() - t)
            base = base or best
            one = one or out
            print(f"| {notion} | {a.n} | {eps} | {k} | {best:.2f} | {base / best:.2f} | {'yes' if out == one else 'NO'} |",
                  flush=True)


if __name__ == "__main__":
    main()
