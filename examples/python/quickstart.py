"""pmldesign quickstart: design the optimal eps-PML mechanism, then compare its mutual
information with randomized response over a range of eps (plotted with matplotlib if it
is installed, else printed as a table).

    pip install ./crates/pmldesign-python      # once, from the repository root
    python examples/python/quickstart.py [--out utility_vs_eps.png]
"""

import argparse
import math

import numpy as np

import pmldesign

PRIOR = [0.4, 0.2, 0.2, 0.2]


def example_1() -> None:
    """[E] Example 1: the known prior at e^eps = 9/8, with its certificate."""
    d = pmldesign.design(PRIOR, pmldesign.exp_epsilon(9 / 8), labels=["a", "b", "c", "d"])
    c = d.certificate
    print(f"[E] Example 1: status {d.status}, I(X;Y) = {d.utility:.9f} nats")
    print(np.array2string(d.mechanism, precision=6, suppress_small=True))
    print(f"worst-case PML {c.worst_case_pml:.9f}, dual bound {c.upper_bound:.9f} (gap {c.gap:.1e})")
    print(f"a privatised sample: {pmldesign.apply(d, ['a', 'b', 'c', 'd', 'a'], seed=7).tolist()}\n")


def sweep(epsilons) -> list:
    """(eps, optimal, randomized response same LDP eps, calibrated to the same PML)."""
    rows = []
    for eps in epsilons:
        d = pmldesign.design(PRIOR, eps)
        b = d.baselines
        rows.append((eps, d.utility, b["same_ldp"].utility, b["pml_calibrated"].utility))
    return rows


def show(rows, out: str) -> None:
    """Plots utility against eps, or prints the table without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"{'eps':>6} {'optimal':>10} {'RR same LDP':>12} {'RR same PML':>12}")
        for eps, opt, ldp, cal in rows:
            print(f"{eps:6.3f} {opt:10.6f} {ldp:12.6f} {cal:12.6f}")
        return
    eps = [r[0] for r in rows]
    for k, label in [(1, "optimal eps-PML design"), (2, "randomized response, same LDP eps"),
                     (3, "randomized response, same worst-case PML")]:
        plt.plot(eps, [r[k] for r in rows], marker="o", label=label)
    plt.xlabel("eps (nats)")
    plt.ylabel("I(X;Y) (nats)")
    plt.title(f"prior {PRIOR}")
    plt.legend()
    plt.savefig(out, dpi=120)
    print(f"wrote {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="utility_vs_eps.png", help="where to save the plot")
    args = parser.parse_args()
    example_1()
    show(sweep(np.linspace(0.05, math.log(1 / min(PRIOR)), 12)), args.out)


if __name__ == "__main__":
    main()
