#!/usr/bin/env python3
"""Time reading a Python ``Design``'s attributes at N = 1024: the first read on each
of several fresh designs (median and largest), and repeated reads (the least); then
``to_json``, ``Design.from_json``, ``verify`` and ``to_html``. Prints Markdown tables
for docs/benchmarks.md.

    python scripts/bench-python-results.py [--n 1024] [--eps 0.9] [--time-limit 5] [--fresh 5]

Two designs: eps-PML with mutual information (few outputs) and the Hamming loss (N
outputs, an N x N matrix). Fresh designs are read back with ``Design.from_json``;
the first design of each kind is also read right after ``design()``.
"""

import argparse
import statistics
import time
from typing import Any, Callable, Dict, List

import numpy as np

import pmldesign

ATTRIBUTES = ("mechanism", "certificate", "baselines", "guarantee", "estimation", "envelope", "pml_per_output", "status", "utility", "labels")


def ms(f: Callable[[], Any]) -> float:
    began = time.perf_counter()
    f()
    return (time.perf_counter() - began) * 1e3


def names(d: pmldesign.Design) -> List[str]:
    return [a for a in ATTRIBUTES if hasattr(type(d), a) or a in d]


def reads(fresh: List[pmldesign.Design], after_design: pmldesign.Design, repeat: int) -> Dict[str, List[float]]:
    """Per attribute: first read after ``design()``, first reads after
    ``from_json`` (each design fresh), and the least of ``repeat`` later reads."""
    out: Dict[str, List[float]] = {}
    for name in names(after_design):
        first = ms(lambda: getattr(after_design, name))
        firsts = [ms(lambda: getattr(d, name)) for d in fresh]
        again = min(ms(lambda: getattr(after_design, name)) for _ in range(repeat))
        out[name] = [first, statistics.median(firsts), max(firsts), again]
    return out


def case(title: str, prior: np.ndarray, eps: float, fresh: int, **kw: Any) -> None:
    began = time.perf_counter()
    d = pmldesign.design(prior, eps, **kw)
    made = (time.perf_counter() - began) * 1e3
    text = d.to_json()
    json_ms = ms(d.to_json)
    back: List[pmldesign.Design] = []
    loads = [ms(lambda: back.append(pmldesign.Design.from_json(text))) for _ in range(fresh)]
    table = reads(back, d, 5)
    n, m = d.mechanism.shape
    print(f"\n{title}: N = {n}, M = {m} outputs, status {d.status}, JSON {len(text) / 1e6:.1f} MB\n")
    print("| attribute | first after `design()` | first after `from_json` (median, max) | repeated |")
    print("|-----------|-----------------------:|--------------------------------------:|---------:|")
    for name, (first, median, most, again) in table.items():
        print(f"| `.{name}` | {first:.3g} ms | {median:.3g} ms, {most:.3g} ms | {again:.2g} ms |")
    rr = d.baselines["same_ldp"]
    rr_first = ms(lambda: rr.mechanism)
    rr_again = ms(lambda: rr.mechanism)
    verify = [ms(d.verify) for _ in range(2)]
    html = [ms(d.to_html) for _ in range(2)]
    print()
    print("| call | time |")
    print("|------|-----:|")
    print(f"| `design(...)` | {made / 1e3:.2f} s |")
    print(f"| `to_json()` | {json_ms:.0f} ms |")
    print(f"| `Design.from_json` (median of {fresh}) | {statistics.median(loads):.0f} ms |")
    print(f"| `verify()` (two calls) | {verify[0]:.0f}, {verify[1]:.0f} ms |")
    print(f"| `to_html()` (two calls) | {html[0]:.0f}, {html[1]:.0f} ms |")
    print(f"| `.baselines['same_ldp'].mechanism` (first, again) | {rr_first:.3g}, {rr_again:.2g} ms |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--eps", type=float, default=0.9)
    ap.add_argument("--time-limit", type=float, default=5.0)
    ap.add_argument("--fresh", type=int, default=5)
    a = ap.parse_args()
    prior = np.random.default_rng(7).dirichlet(np.ones(a.n))
    case("Mutual information", prior, a.eps, a.fresh, time_limit=a.time_limit)
    case("Hamming loss", prior, a.eps, a.fresh, loss="hamming", time_limit=a.time_limit)


if __name__ == "__main__":
    main()
