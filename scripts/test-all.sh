#!/usr/bin/env bash
# Every test: the Rust workspace, then the Python package `pmldesign` (built once, in
# release, into a venv) with its pytest suite, which also checks it against the `pml`
# binary that `cargo test` has just built.
#
#   scripts/test-all.sh            # PYTHON=python3.12 and PML_VENV=DIR override the defaults
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --release
# The golden corpus: every `pml` command byte for byte against tests/golden/expected.
python3 scripts/golden.py check --pml "${CARGO_TARGET_DIR:-$PWD/target}/release/pml"

venv=${PML_VENV:-.venv}
if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv"
fi
# The build backend runs `maturin` from PATH: use the venv's.
# shellcheck disable=SC1091
source "$venv/bin/activate"
python -m pip install --quiet --disable-pip-version-check maturin numpy pytest pandas polars "dask[dataframe]"
# A local directory is rebuilt on every install; maturin builds in release.
python -m pip install --quiet --disable-pip-version-check --no-build-isolation \
    --force-reinstall --no-deps ./crates/pmldesign-python
PML_BIN="${CARGO_TARGET_DIR:-$PWD/target}/release/pml" python -m pytest -q crates/pmldesign-python/tests
