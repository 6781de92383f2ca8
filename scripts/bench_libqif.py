"""pml beside libqif (`pip install qif`) on libqif's own problems.

Run by scripts/bench-libqif.sh, which installs qif into a venv and builds `pml`.
Each tool runs in a subprocess of its own, timed from outside (wall clock, process
start included), best of --repeat runs. Rows:

1. eps-LDP, Hamming loss, N = 60, prior proportional to 1/(1+i), eps = 1;
2. line metric |i - j|, absolute loss, N = 30, same prior, eps = 0.5;
3. line metric, absolute loss: the largest N of a grid solved within 10 s.

pml's mechanism is also re-measured with libqif's `smallest_epsilon`.
"""

import argparse
import json
import os
import subprocess
import sys
import time

LIBQIF = r"""
import json, sys, time
import numpy as np, qif
n, eps, metric = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
pi = np.array([1.0 / (1 + i) for i in range(n)]); pi /= pi.sum()
d = qif.metric.discrete() if metric == "discrete" else qif.metric.euclidean()
t = time.perf_counter()
C = qif.mechanism.d_privacy.min_loss_given_d(pi, n, qif.metric.scale(d, eps), d)
inner = time.perf_counter() - t
loss = sum(pi[x] * C[x, y] * d(x, y) for x in range(n) for y in range(n))
print(json.dumps({"loss": loss, "inner": inner}))
"""

SMALLEST = r"""
import json, sys
import numpy as np, qif
W = np.array(json.load(open(sys.argv[1]))["mechanism"])
d = qif.metric.discrete() if sys.argv[2] == "discrete" else qif.metric.euclidean()
print(qif.measure.d_privacy.smallest_epsilon(W, d))
"""


def prior(n):
    w = [1.0 / (1 + i) for i in range(n)]
    s = sum(w)
    return ",".join(repr(x / s) for x in w)


def run_pml(pml, n, eps, metric, timeout):
    notion = ["--notion", "ldp"] if metric == "discrete" else ["--notion", "metric", "--metric", "line"]
    loss = "hamming" if metric == "discrete" else "absolute"
    cmd = [pml, "design", "--prior", prior(n), "--epsilon", str(eps), *notion,
           "--utility", "loss", "--loss", loss, "--format", "json"]
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=True)
    return time.perf_counter() - t, json.loads(out.stdout)


def run_libqif(n, eps, metric, timeout):
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", LIBQIF, str(n), str(eps), metric],
                         capture_output=True, text=True, timeout=timeout, check=True)
    return time.perf_counter() - t, json.loads(out.stdout)


def best(f, repeat):
    runs = [f() for _ in range(repeat)]
    return min(runs, key=lambda r: r[0])


def smallest_epsilon(design, metric, tmp):
    with open(tmp, "w") as f:
        json.dump(design, f)
    out = subprocess.run([sys.executable, "-c", SMALLEST, tmp, metric],
                         capture_output=True, text=True, check=True)
    return float(out.stdout)


def row(name, pml, n, eps, metric, repeat, tmp):
    tp, d = best(lambda: run_pml(pml, n, eps, metric, 600), repeat)
    tq, q = best(lambda: run_libqif(n, eps, metric, 600), repeat)
    se = smallest_epsilon(d, metric, tmp)
    loss = d["loss"]
    diff = abs(loss["expected_loss"] - q["loss"])
    print(f"| {name} | {q['loss']:.10f} | {loss['expected_loss']:.10f} | {diff:.1e} | "
          f"{tq:.2f} | {tp:.2f} | {tq / tp:.1f}x | {se:.12f} | {loss['method']} |", flush=True)
    return diff


def largest_n(f, grid, limit):
    done = None
    for n in grid:
        try:
            t = f(n)
        except subprocess.TimeoutExpired:
            break
        if t > limit:
            break
        done = (n, t)
    return done


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pml", default=os.environ.get("PML_BIN", "pml"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--grid", default="20,30,40,45,50,55,60,65,70,75,80,90,100,120,140,160")
    args = ap.parse_args()
    tmp = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"pml-bench-{os.getpid()}.json")
    print("| case | libqif loss | pml loss | difference | libqif (s) | pml (s) | speed-up "
          "| libqif smallest_epsilon of pml's W | pml method |")
    print("|---|---|---|---|---|---|---|---|---|")
    d1 = row("eps-LDP, Hamming, N = 60, eps = 1", args.pml, 60, 1.0, "discrete", args.repeat, tmp)
    d2 = row("line metric, absolute, N = 30, eps = 0.5", args.pml, 30, 0.5, "line", args.repeat, tmp)
    grid = [int(g) for g in args.grid.split(",")]
    lim = args.limit
    p = largest_n(lambda n: run_pml(args.pml, n, 0.5, "line", lim)[0], grid, lim)
    q = largest_n(lambda n: run_libqif(n, 0.5, "line", lim)[0], grid, lim)
    show = lambda r: "none" if r is None else f"N = {r[0]} ({r[1]:.2f} s)"
    print(f"\nline metric, absolute loss, eps = 0.5: largest N within {lim:g} s on the grid "
          f"{args.grid}: libqif {show(q)}, pml {show(p)}")
    if os.path.exists(tmp):
        os.remove(tmp)
    if max(d1, d2) > 1e-6:
        sys.exit("pml and libqif disagree by more than 1e-6")


if __name__ == "__main__":
    main()
