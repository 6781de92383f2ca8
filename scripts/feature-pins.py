#!/usr/bin/env python3
"""The shared dependencies whose features differ between the tests' build
(`cargo test --workspace`) and the Python bindings' build (`maturin build`, which
selects only crates/pmldesign-python): each one is compiled twice, with every crate
above it. The bindings' Cargo.toml pins the features the tests' build gives them; this
prints what is left (pmldesign-data and the facade: the bindings have no Parquet).

    python3 scripts/feature-pins.py    # exit 1 if a dependency outside the workspace differs
"""
import subprocess
import sys


def features(*selection: str) -> dict:
    out = subprocess.run(
        ["cargo", "tree", "--offline", "--locked", "--prefix", "none", "-f", "{p}|{f}", *selection],
        check=True, capture_output=True, text=True,
    ).stdout
    found: dict = {}
    for line in out.splitlines():
        if "|" in line:
            package, feats = line.replace(" (*)", "").replace(" (proc-macro)", "").split("|", 1)
            found.setdefault(package.strip(), set()).add(feats)
    return found


tests = features("--workspace")
bindings = features("-p", "pmldesign-python")
differ = [p for p in sorted(bindings) if p in tests and bindings[p] != tests[p]]
for p in differ:
    print(f"{p}: bindings {sorted(bindings[p])}, tests {sorted(tests[p])}")
outside = [p for p in differ if "(/" not in p]
sys.exit(1 if outside else 0)
