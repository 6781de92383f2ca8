"""Times pmldesign.design on [E] Example 1 and N = 20 (prior proportional to 1..20,
eps = ln 2): the same inputs as `cargo run --release --example design_timing`.

    python examples/python/timing.py
"""

import math
import statistics
import timeit

import numpy as np

import pmldesign

CASES = [
    ("Example 1 (N = 4)", [0.4, 0.2, 0.2, 0.2], math.log(9 / 8), 200),
    ("N = 20", np.arange(1, 21) / 210.0, math.log(2), 20),
]

for name, prior, eps, runs in CASES:
    pmldesign.design(prior, eps)
    times = timeit.repeat(lambda: pmldesign.design(prior, eps), number=1, repeat=runs)
    print(f"{name}: median {statistics.median(times) * 1e6:.1f} us over {runs} runs")
