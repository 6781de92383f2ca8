#!/usr/bin/env python3
"""Error per row of the estimate (m E|p^ - p|^2, m -> inf) for `pml design --utility
estimation` beside randomized response and the literature's estimation mechanisms
(k-subset selection at its best size, OUE: figures computed without their outputs;
Hadamard response, written out), under LDP and PML, uniform and Zipf priors. Prints a
Markdown table for docs/benchmarks.md. Past the 1,024 labels of a design's estimation
table only the design's own figure and randomized response's (in closed form, at the
same LDP eps) are printed.

    scripts/bench-estimation.py --pml target/ci/pml [--k 8 16] [--eps 0.5 1 2] [--time-limit 60]
        [--notion ldp pml] [--prior uniform zipf]
"""

import argparse
import json
import math
import subprocess
import time


def prior(kind: str, k: int) -> list[float]:
    w = [1.0] * k if kind == "uniform" else [1.0 / (i + 1) for i in range(k)]
    s = sum(w)
    return [x / s for x in w]


def run(pml: str, p: list[float], notion: str, eps: float, limit: float) -> tuple[dict, float]:
    args = [pml, "design", "--prior", ",".join(repr(x) for x in p), "--notion", notion,
            "--epsilon", str(eps), "--utility", "estimation", "--time-limit", str(limit),
            "--format", "json"]
    began = time.monotonic()
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return json.loads(out), time.monotonic() - began


def rr_error(p: list[float], eps: float) -> float:
    """k-ary randomized response's error per row at eps-LDP: sum_x q_x (1 - q_x) / (a - b)^2,
    q_x = b + (a - b) p_x, a = e^eps / (e^eps + k - 1), b = 1 / (e^eps + k - 1)."""
    e, k = math.exp(eps), len(p)
    a, b = e / (e + k - 1), 1 / (e + k - 1)
    return sum((b + (a - b) * x) * (1 - b - (a - b) * x) for x in p) / (a - b) ** 2


def figure(rows: list[dict], prefix: str) -> str:
    for r in rows:
        if prefix in r["mechanism"] and r["error_per_row"] is not None:
            return f"{r['error_per_row']:.4g}"
    return "-"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pml", default="target/ci/pml")
    ap.add_argument("--k", type=int, nargs="+", default=[8, 16])
    ap.add_argument("--eps", type=float, nargs="+", default=[0.5, 1.0, 2.0])
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--notion", nargs="+", choices=["ldp", "pml"], default=["ldp", "pml"])
    ap.add_argument("--prior", nargs="+", choices=["uniform", "zipf"], default=["uniform", "zipf"])
    a = ap.parse_args()
    print("| notion | prior | k | eps | design | relative gap | time (s) | RR, same LDP eps "
          "| k-subset (figure) | OUE (figure) | Hadamard response |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for notion in a.notion:
        for kind in a.prior:
            for k in a.k:
                for eps in a.eps:
                    p = prior(kind, k)
                    d, secs = run(a.pml, p, notion, eps, a.time_limit)
                    design = -d["utility"]["value"]
                    gap = d["certificate"]["gap"] / max(abs(d["utility"]["value"]), 1e-300)
                    rows = (d.get("estimation") or {}).get("rows")
                    if rows:
                        subset = next((r["mechanism"].split()[0] for r in rows
                                       if "subset selection" in r["mechanism"]), "")
                        best = figure(rows, "subset selection")
                        cells = [figure(rows, "same LDP eps"),
                                 f"{best} ({subset})" if subset else best,
                                 figure(rows, "OUE"), figure(rows, "Hadamard")]
                    else:
                        cells = [f"{rr_error(p, eps):.4g}", "-", "-", "-"]
                    print(f"| {notion} | {kind} | {k} | {eps:g} | {design:.4g} | {gap:.1e} | "
                          f"{secs:.2f} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
