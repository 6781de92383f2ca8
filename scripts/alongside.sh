#!/usr/bin/env bash
# What `.ci/run` runs beside the Python tests (scripts/test-all.sh,
# PML_TEST_ALONGSIDE), which leave a core idle much of their time: the lints
# (scripts/lint.sh), then the `highs` feature built and tested
# (scripts/test-highs.sh: HiGHS compiled at -O1, then the solver's tests with it).
# Both use the profile `ci` that the tests built, one after the other (cargo locks
# the profile's directory while a command uses it).
#
#   scripts/alongside.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/lint.sh
scripts/test-highs.sh
