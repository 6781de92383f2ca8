#!/usr/bin/env bash
# The Python side of the test command's set-up, downloads only: the venv and every
# package that the tests, the wheel's build and its checks use; Java and pyspark for
# the Spark tests; Chromium and playwright for the browser tests. It needs nothing
# that cargo builds, so scripts/test-all.sh runs it beside the Rust build and test.
#
#   scripts/setup-python.sh VENV      # PYTHON=python3.12 picks the venv's Python
set -euo pipefail
cd "$(dirname "$0")/.."
STEP_LABEL=setup-python
# shellcheck source=scripts/step.sh
source scripts/step.sh
venv=$1
if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv"
fi
py="$venv/bin/python"
pip=("$py" -m pip install --quiet --disable-pip-version-check)
# The tests and the engines; maturin builds the wheel; twine and auditwheel check it;
# mkdocs builds the guide; mypy checks the package and the guide's examples.
step "${pip[@]}" maturin numpy pytest pytest-xdist pandas polars pyarrow \
    "dask[dataframe,distributed]" matplotlib jsonschema "typeguard>=4" \
    twine auditwheel mkdocs "mkdocstrings[python]" mypy
# multi-freq-ldpy (numba; scipy for its jitted linear algebra) for the agreement of
# `estimate` with its IBU; skipped if absent.
step "${pip[@]}" multi-freq-ldpy scipy ||
    echo "multi-freq-ldpy could not be installed: its agreement test will be skipped"
# zig links the wheel against glibc 2.17 (scripts/zig-cc-manylinux2014.sh).
step "${pip[@]}" "ziglang<0.14" ||
    echo "setup-python: ziglang could not be installed: the wheel is built for this machine's glibc only"
# Spark needs a JVM and pyspark; the browser tests Chromium and playwright: installed
# where they can be, else those tests are skipped with the reason.
PYTHON="$py" step scripts/install-spark.sh
PYTHON="$py" step scripts/install-chromium.sh
