#!/usr/bin/env bash
# pml beside libqif on libqif's problems: installs `qif` (libqif's Python
# bindings) into a venv, builds the release `pml`, and runs both in the same run
# (scripts/bench_libqif.py prints the table of docs/benchmarks.md).
#
#   scripts/bench-libqif.sh [--repeat K] [--limit SECONDS] [--grid N,N,..]
#   QIF_VENV=DIR (default .venv-qif) and PML_BIN=PATH override the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${QIF_VENV:-.venv-qif}
if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check qif numpy
if [ -z "${PML_BIN:-}" ]; then
    cargo build --release -p pmldesign-cli >&2
    PML_BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/pml"
fi
"$venv/bin/python" scripts/bench_libqif.py --pml "$PML_BIN" "$@"
