#!/usr/bin/env bash
# Every test: the Rust workspace, then the Python package `pmldesign` (built once, in
# release, into a venv) with its pytest suite, which also checks it against the `pml`
# binary that `cargo test` has just built.
#
#   scripts/test-all.sh            # PYTHON=python3.12 and PML_VENV=DIR override the defaults
set -euo pipefail
cd "$(dirname "$0")/.."
STEP_LABEL=test-all
# shellcheck source=scripts/step.sh
source scripts/step.sh
venv=${PML_VENV:-.venv}
# The Python set-up downloads (pip, Debian) while cargo compiles: it needs nothing of
# the build. Its log is printed once it is waited for, below.
setup_log="${CARGO_TARGET_DIR:-$PWD/target}/setup-python.log"
mkdir -p "$(dirname "$setup_log")"
scripts/setup-python.sh "$venv" >"$setup_log" 2>&1 &
setup=$!
alongside=""
# shellcheck disable=SC2086 # the unset ones are left out
trap 'kill $setup $alongside 2>/dev/null || true' EXIT
# Waits for the background job $1, whose output is in $2 and which $3 names: its log is
# printed, and its failure fails the run.
await_job() {
    local waited=$SECONDS
    wait "$1" || {
        cat "$2" >&2
        echo "test-all: $3 failed (its log is above)" >&2
        exit 1
    }
    cat "$2" >&2
    echo "test-all: $((SECONDS - waited)) s: waited for $3" >&2
}
# Unit and integration tests, then the documentation's examples; the examples/
# programs are not linked here (clippy --all-targets checks that they compile).
# Profile `ci` (Cargo.toml): release with the byte-moving dependencies unoptimised,
# the same numbers, built cold in two thirds of release's time.
# `--workspace` selects the Python bindings too (they have no Rust tests, so nothing of
# theirs is built here): their features count, and with the pins in their Cargo.toml
# (scripts/feature-pins.py) the wheel below, built by maturin in the same profile and
# target directory, reuses every dependency compiled here.
# The CLI as the README's first command builds it (`--no-default-features`: no
# Parquet, no `pml serve`), with the tests of its refusals (the `features` target
# alone: the rest of the suite runs once, below); the bindings' pins keep every
# shared dependency's features. It runs first: the build below puts the default
# `pml` back in place for the golden corpus and Python.
step cargo test -p pmldesign-cli -p pmldesign-python --no-default-features --profile ci --test features
step cargo test --workspace --profile ci --tests
step cargo test --workspace --profile ci --doc
pml="${CARGO_TARGET_DIR:-$PWD/target}/ci/pml"
# The golden corpus: every `pml` command byte for byte against tests/golden/expected.
step python3 scripts/golden.py check --pml "$pml"

await_job "$setup" "$setup_log" scripts/setup-python.sh
setup=""
# The build backend runs `maturin` from PATH: use the venv's.
# shellcheck disable=SC1091
source "$venv/bin/activate"
# The sdist, and the abi3 wheel once, from the tree, in the tests' profile `ci`: the
# bindings are a workspace member with pinned features, so this compiles only pyo3,
# numpy, pmldesign-data and the facade (without Parquet) and the bindings, and reuses
# the rest of what `cargo test` built (a wheel built from the unpacked sdist would
# compile the workspace's crates again). The tests use that wheel. Linked by zig against glibc
# 2.17 (manylinux2014: RHEL/Rocky 8, Ubuntu 20.04, Debian 11, Amazon Linux 2, the usual
# Spark and Dask workers); the host's glibc where zig is absent. zig is the final link's
# linker only (scripts/zig-cc-manylinux2014.sh): `maturin --zig` would set it for every
# crate, a new fingerprint for each, and compile them all again.
dist="${CARGO_TARGET_DIR:-$PWD/target}/python-dist"
rm -rf "$dist"
portable=(--compatibility manylinux2014 -- -C "linker=$PWD/scripts/zig-cc-manylinux2014.sh")
python -c 'import ziglang' 2>/dev/null || portable=()
step maturin sdist -m crates/pmldesign-python/Cargo.toml -o "$dist"
# The sdist is complete: its manifests resolve offline, and against its copy of the
# workspace's lock, which only loses the packages of the members it leaves out (the CLI).
sdist=$(ls "$dist"/pmldesign-*.tar.gz)
tar -xzf "$sdist" -C "$dist"
unpacked="$dist/$(basename "$sdist" .tar.gz)"
cp "$unpacked/Cargo.lock" "$dist/sdist-Cargo.lock"
cargo metadata --offline --format-version 1 --manifest-path "$unpacked/crates/pmldesign-python/Cargo.toml" >/dev/null
if diff "$dist/sdist-Cargo.lock" "$unpacked/Cargo.lock" | grep '^>'; then
    echo "test-all: the sdist's Cargo.lock does not pin what it builds (lines above)" >&2
    exit 1
fi
step maturin build --profile ci -m crates/pmldesign-python/Cargo.toml -o "$dist" "${portable[@]}"
# A command given in PML_TEST_ALONGSIDE (`.ci/run`: scripts/lint.sh) runs from here on,
# beside the Python tests, which leave a core idle much of their time (no Rust test
# with a time limit runs any more); it is waited for at the end. It starts after the
# wheel: the lints share the profile `ci` (its build scripts and procedural macros),
# whose directory cargo locks while a command uses it.
alongside_log="${CARGO_TARGET_DIR:-$PWD/target}/alongside.log"
if [ -n "${PML_TEST_ALONGSIDE:-}" ]; then
    $PML_TEST_ALONGSIDE >"$alongside_log" 2>&1 &
    alongside=$!
fi
wheel=$(ls "$dist"/pmldesign-*-abi3-manylinux*.whl)
# What PyPI and pip will see: the metadata renders (twine), and the platform tag the
# wheel's symbols allow (auditwheel: manylinux_2_17 when linked by zig).
python -m twine check --strict "$dist"/pmldesign-*.tar.gz "$wheel"
tag=$(auditwheel show "$wheel" | tr '\n' ' ' | grep -o 'platform tag: *"[^"]*"')
echo "test-all: auditwheel: the wheel is consistent with the $tag"
if [ ${#portable[@]} -gt 0 ] && [[ "$tag" != *manylinux_2_17_x86_64* ]]; then
    echo "test-all: the zig-linked wheel should be manylinux_2_17, auditwheel says $tag" >&2
    exit 1
fi
python -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$wheel"
# Two workers: the slow pages (a JVM, a Dask cluster, a browser) overlap the rest. Spark's
# tests and the engines page form one group (`xdist_group("spark")`), run by one worker:
# one JVM instead of two on two cores. The slowest tests are listed at the end.
PML_BIN="$pml" step python -m pytest -q -n 2 --dist loadgroup --durations=15 crates/pmldesign-python/tests
# The user guide (MkDocs, docs/ and mkdocs.yml): built strict, so a broken link to a page
# or an anchor, or a Python docstring that does not render, fails the run.
step python -m mkdocs build --strict -f mkdocs.yml -d "${CARGO_TARGET_DIR:-$PWD/target}/book"
# The wheel ships py.typed, so users type-check against it: the package must pass mypy --strict.
# One cache for both runs: the second reads numpy's and pandas' analysis from the first.
mypy_cache="${CARGO_TARGET_DIR:-$PWD/target}/mypy-cache"
(cd crates/pmldesign-python/python && step python -m mypy --strict --config-file ../pyproject.toml --cache-dir "$mypy_cache" -p pmldesign)
# ... and the Python examples of the README and of the user guide (docs/**/*.md)
# type-check against the installed wheel as written, each block a module of its own.
examples="$dist/guide-examples"
rm -rf "$examples"
mkdir -p "$examples"
python - "$examples" <<'PY'
import pathlib, re, sys
pages = [pathlib.Path("README.md"), *sorted(pathlib.Path("docs").rglob("*.md"))]
for page in pages:
    blocks = re.findall(r"^```python\n(.*?)^```", page.read_text(), flags=re.S | re.M)
    stem = re.sub(r"\W", "_", str(page.with_suffix(""))).lower()
    for i, block in enumerate(blocks):
        (pathlib.Path(sys.argv[1]) / f"{stem}_{i}.py").write_text(block)
PY
step python -m mypy --strict --config-file crates/pmldesign-python/pyproject.toml --cache-dir "$mypy_cache" "$examples"
# Installable where the workers are: the wheel in a fresh virtualenv, no Rust on PATH.
base=$(python -c 'import sys; print(sys._base_executable)')
smoke="$dist/smoke-venv"
env -i HOME="$HOME" PATH=/usr/bin:/bin sh -c '! command -v cargo >/dev/null && ! command -v rustc >/dev/null' \
    || { echo "test-all: cargo is still on the smoke test's PATH" >&2; exit 1; }
env -i HOME="$HOME" PATH=/usr/bin:/bin "$base" -m venv "$smoke"
env -i HOME="$HOME" PATH=/usr/bin:/bin "$smoke/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel"
env -i HOME="$HOME" PATH=/usr/bin:/bin "$smoke/bin/python" - <<'PY'
import pmldesign
d = pmldesign.design([0.4, 0.2, 0.2, 0.2], pmldesign.exp_epsilon(9 / 8))
assert d.status == "optimal" and abs(d.utility - 0.0268223) < 1e-6, (d.status, d.utility)
assert pmldesign.Design.from_json(d.to_json()).status == "optimal"
print("test-all: the wheel installs and designs in a fresh virtualenv without Rust:", d.status, round(d.utility, 7))
PY
if [ -n "$alongside" ]; then
    await_job "$alongside" "$alongside_log" "$PML_TEST_ALONGSIDE"
    alongside=""
fi
