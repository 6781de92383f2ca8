#!/usr/bin/env python3
"""Exact LDP designs of mutual information, timed.

For every seed and eps it draws a Dirichlet(1.3) prior on N symbols (Python's
`random.Random(seed).gammavariate`, normalised), runs

    pml design --prior <p> --epsilon EPS --notion ldp --gap 1e-9 --format json --output F

without a time limit and prints one markdown row: the wall time, the status, the
design's mutual information, the certified relative gap and the pricing passes.
The last line gives the largest and the total time. Prints markdown on stdout;
`--pml` names the binary (default: the release build).

Example (the table of docs/benchmarks.md, "Exact LDP at N = 64"):
    scripts/bench-ldp-exact.py --n 64 --seeds 1 2 3 --eps 0.5 0.75 1.0 1.25 1.5
"""

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time


def prior(n, seed):
    r = random.Random(seed)
    g = [r.gammavariate(1.3, 1.0) for _ in range(n)]
    s = sum(g)
    return [x / s for x in g]


def run(pml, n, seed, eps, threads):
    p = prior(n, seed)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "d.json")
        cmd = [pml, "design", "--prior", ",".join(repr(x) for x in p), "--epsilon", str(eps)]
        cmd += ["--notion", "ldp", "--gap", "1e-9", "--format", "json", "--output", out, "-q"]
        if threads:
            cmd += ["--threads", str(threads)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        seconds = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if rc != 0:
            return seconds, f"| {n} | {seed} | {eps} | error (exit {rc}) | | | | {seconds:.1f} | {cpu:.1f} |"
        d = json.load(open(out))
    u = d["utility"]["value"]
    ub = d["certificate"]["upper_bound"]
    gap = (ub - u) / abs(u) if u else float("inf")
    passes = d["solver"]["pricing_passes"]
    row = f"| {n} | {seed} | {eps} | {d['status']} | {u:.9f} | {gap:.1e} | {passes} | {seconds:.1f} | {cpu:.1f} |"
    return seconds, row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pml", default=os.path.join("target", "release", "pml"))
    ap.add_argument("--n", type=int, default=64)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--eps", type=float, nargs="+", default=[0.5, 0.75, 1.0, 1.25, 1.5])
    ap.add_argument("--threads", type=int, default=0, help="--threads for pml (0: its default)")
    args = ap.parse_args()
    print("| N | seed | eps | status | MI (nats) | relative gap | passes | time (s) | CPU (s) |")
    print("|---|---|---|---|---|---|---|---|---|")
    times = []
    for seed in args.seeds:
        for eps in args.eps:
            seconds, row = run(args.pml, args.n, seed, eps, args.threads)
            times.append(seconds)
            print(row, flush=True)
    print(f"\nlargest {max(times):.1f} s, total {sum(times):.1f} s over {len(times)} designs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
