#!/usr/bin/env python3
"""Time limits kept on every design route: `pml design ... --time-limit T`.

For each route (a notion, utility or loss over a set) and each N it runs the
design with `--time-limit T` under /usr/bin/time and prints one markdown row: the
route, N, T, the wall time, whether it ended within 1.1 T + 0.5 s, the peak
memory, the status and the certified gap (or the error's first line). Priors are
Dirichlet(1.3) with a fixed seed, so every run sees the same input.
`--pml` names the binary (default: the release build).

Example (the table of docs/benchmarks.md):
    scripts/bench-limits.py --pml target/release/pml --n 16 256 4096 --time-limit 2 10
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

ROUTES = {
    "pml-mi": [],
    "ball-mi": ["--beta", "{beta}"],
    "ldp-mi": ["--notion", "ldp"],
    "lip-ball-loss": ["--notion", "lip", "--beta", "{beta2}", "--utility", "loss", "--loss", "hamming"],
    "pmc-ball-loss": ["--notion", "pmc", "--beta", "{beta2}", "--utility", "loss", "--loss", "hamming"],
    "pml-hamming": ["--utility", "loss", "--loss", "hamming"],
    "ball-hamming": ["--beta", "{beta}", "--utility", "loss", "--loss", "hamming"],
    "pml-estimation": ["--utility", "estimation"],
    "ldp-estimation": ["--notion", "ldp", "--utility", "estimation"],
}


def prior(n, seed=1):
    r = random.Random(seed)
    g = [r.gammavariate(1.3, 1.0) for _ in range(n)]
    s = sum(g)
    return [x / s for x in g]


def run(cmd):
    """(exit status, seconds, peak MB, stderr tail) of cmd under /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        start = time.monotonic()
        done = subprocess.run(
            ["/usr/bin/time", "-f", "%M", "-o", rss.name] + cmd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        seconds = time.monotonic() - start
        kb = rss.read().strip().splitlines()
    peak = int(kb[-1]) / 1024 if kb and kb[-1].isdigit() else float("nan")
    tail = done.stderr.strip().splitlines()
    return done.returncode, seconds, peak, (tail[-1] if tail else "")


def row(pml, route, n, limit, eps):
    p = prior(n)
    values = {"beta": repr(min(p)), "beta2": repr(min(p) * 1.5)}
    extra = [a.format(**values) for a in ROUTES[route]]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "design.json")
        cmd = [pml, "design", "--prior", ",".join(repr(x) for x in p), "--epsilon", str(eps)]
        cmd += extra + ["--time-limit", str(limit), "--format", "json", "-q", "--output", out]
        rc, seconds, peak, tail = run(cmd)
        status, gap = "error", tail[:60]
        if rc == 0:
            with open(out) as f:
                design = json.load(f)
            status = design.get("status", "?")
            c = design.get("certificate") or {}
            gap = c.get("gap", "")
            if isinstance(gap, float) and c.get("upper_bound"):
                gap = gap / max(abs(c["upper_bound"]), 1e-300)
            gap = f"{gap:.1e}" if isinstance(gap, float) else str(gap)
    kept = "yes" if seconds <= 1.1 * limit + 0.5 else "no"
    print(f"| {route} | {n} | {limit} | {seconds:.2f} | {kept} | {peak:.0f} | {status} | {gap} |")
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pml", default="target/release/pml")
    ap.add_argument("--n", type=int, nargs="+", default=[16, 256, 4096])
    ap.add_argument("--time-limit", type=float, nargs="+", default=[2.0])
    ap.add_argument("--eps", type=float, default=0.9)
    ap.add_argument("--routes", nargs="+", default=list(ROUTES))
    args = ap.parse_args()
    print("| route | N | T (s) | wall (s) | kept | peak MB | status | gap |")
    print("|---|---|---|---|---|---|---|---|")
    for route in args.routes:
        for n in args.n:
            for limit in args.time_limit:
                row(args.pml, route, n, limit, args.eps)


if __name__ == "__main__":
    main()
