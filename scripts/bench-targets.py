#!/usr/bin/env python3
"""The design targets, measured: `pml design` against the best structured
baseline, on Dirichlet(1.3) priors with fixed seeds, mutual information.

For every notion (eps-PML for a known prior and for an l1 ball of radius min p,
LDP, LIP, PMC, ALIP with eps_l = 2 eps), every N and eps, it runs
`pml design --time-limit T --format json` and prints one markdown row: the design's
utility, the best structured baseline (family and utility), the best
randomized-response utility, the certified relative gap, the wall time, whether the
time limit was kept (at most 1.1 T + 0.2 s) and the peak memory. The summary line
counts the cases where the design is at least every baseline and where the limit was
kept. Prints markdown on stdout; `--pml` names the binary (default: the release build).

Example (the table of docs/benchmarks.md):
    scripts/bench-targets.py --time-limit 10 --n 256 512 1024 2048 --eps 0.4 0.9 1.6
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

NOTIONS = ["pml", "pml-ball", "ldp", "lip", "pmc", "alip"]


def prior(n, seed):
    r = random.Random(seed)
    g = [r.gammavariate(1.3, 1.0) for _ in range(n)]
    s = sum(g)
    return [x / s for x in g]


def flags(notion, eps, p):
    if notion == "pml":
        return ["--epsilon", str(eps)]
    if notion == "pml-ball":
        return ["--epsilon", str(eps), "--beta", repr(min(p))]
    if notion == "alip":
        return ["--notion", "alip", "--epsilon-upper", str(eps), "--epsilon-lower", str(2 * eps)]
    return ["--notion", notion, "--epsilon", str(eps)]


def peak_mb_of(cmd):
    """Runs cmd under /usr/bin/time; returns (exit status, seconds, peak RSS in MB).

    (Python's own wait4 would report at least this process's size: Linux keeps
    the largest RSS across fork and exec.)"""
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss:
        start = time.monotonic()
        rc = subprocess.run(
            ["/usr/bin/time", "-f", "%M", "-o", rss.name] + cmd,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        ).returncode
        seconds = time.monotonic() - start
        kb = rss.read().strip().splitlines()
    return rc, seconds, float(kb[-1]) / 1024.0 if kb else float("nan")


def run(pml, notion, n, eps, limit, threads):
    p = prior(n, 1000 + n)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "d.json")
        cmd = [pml, "design", "--prior", ",".join(repr(x) for x in p)] + flags(notion, eps, p)
        cmd += ["--time-limit", str(limit), "--format", "json", "--output", out]
        if threads:
            cmd += ["--threads", str(threads)]
        rc, seconds, mb = peak_mb_of(cmd)
        if rc != 0:
            return f"| {notion} | {n} | {eps} | error (exit {rc}) | | | | | | | |", False, False
        d = json.load(open(out))
    u = d["utility"]["value"]
    ub = d["certificate"]["upper_bound"]
    structured = d["baselines"].get("structured", [])
    rr = max(v["utility"] for v in d["baselines"]["randomized_response"].values())
    best = max(structured, key=lambda b: b["utility"]) if structured else None
    best_u = max(rr, best["utility"] if best else rr)
    beats = u >= best_u - 1e-12 * (1 + abs(u))
    kept = seconds <= 1.1 * limit + 0.2
    gap = (ub - u) / max(abs(ub), 1e-300)
    family = f"{best['family']} {best['utility']:.6f}" if best else "-"
    row = (
        f"| {notion} | {n} | {eps} | {u:.6f} | {family} | {rr:.6f} | {u / best_u if best_u else float('nan'):.3f} "
        f"| {gap:.1e} | {d['status']} | {seconds:.1f} | {'yes' if kept else 'NO'} | {mb:.0f} |"
    )
    return row, beats, kept


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pml", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release", "pml"))
    ap.add_argument("--n", type=int, nargs="+", default=[256, 512, 1024, 2048])
    ap.add_argument("--eps", type=float, nargs="+", default=[0.4, 0.9, 1.6])
    ap.add_argument("--ldp-extra-eps", type=float, nargs="*", default=[3.0])
    ap.add_argument("--notions", nargs="+", default=NOTIONS, choices=NOTIONS)
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--threads", type=int, default=0)
    a = ap.parse_args()
    print(f"`{' '.join(sys.argv)}`\n")
    print("| notion | N | eps | design MI | best structured baseline | best RR | design / best | relative gap | status | time (s) | limit kept | peak MB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    cases = beaten = late = 0
    for notion in a.notions:
        for n in a.n:
            for eps in a.eps + (a.ldp_extra_eps if notion == "ldp" else []):
                row, beats, kept = run(a.pml, notion, n, eps, a.time_limit, a.threads)
                print(row, flush=True)
                cases += 1
                beaten += not beats
                late += not kept
    print(f"\ndesign >= best baseline in {cases - beaten} of {cases} cases; time limit kept in {cases - late} of {cases}.")


if __name__ == "__main__":
    main()
