#!/usr/bin/env bash
# The lints: clippy over every member and target with `-D warnings` (the Python
# bindings included: pyo3 finds the Python on PATH), clippy of the CLI without its
# default features (the README's first command builds it so: no Parquet, no
# `pml serve`), and the API documentation without a warning (broken or private links
# included). `.ci/run` runs it beside the Python tests (scripts/test-all.sh,
# PML_TEST_ALONGSIDE), which leave a core idle much of their time.
#
# In the tests' profile `ci`: checking generates no code, but the build scripts and
# procedural macros it runs must be built, and in `ci` those that `cargo test
# --profile ci` built serve (docs/reference/development.md). The profile's directory
# is locked while a cargo command uses it, so `.ci/run` starts this after the wheel.
#
#   scripts/lint.sh
set -euo pipefail
cd "$(dirname "$0")/.."
STEP_LABEL=lint
# shellcheck source=scripts/step.sh
source scripts/step.sh
step cargo clippy --profile ci --workspace --all-targets -- -D warnings
# The bindings are selected too (they have no default features): the shared
# dependencies keep the features of the run above (the bindings' pins), so only the
# crates from pmldesign-data up are checked again.
step cargo clippy --profile ci -p pmldesign-cli -p pmldesign-python --all-targets --no-default-features -- -D warnings
RUSTDOCFLAGS="-D warnings" step cargo doc --profile ci --workspace --no-deps --quiet
