#!/usr/bin/env bash
# The `highs` feature built and tested: HiGHS as the LP backend, which also makes the
# direct LP the default loss route at every size. The solver's tests run with it (a
# test that names a route expects HiGHS's where the two backends differ).
# highs-sys builds HiGHS from source: it needs cmake and libclang (for bindgen),
# installed from Debian's packages where they can be; where they cannot, this says
# why and exits 1. `.ci/run` runs it beside the Python tests (scripts/alongside.sh);
# HiGHS's C++ is compiled at -O1 (scripts/highs-toolchain.cmake), about 100 s on two
# cores (docs/reference/development.md).
#
#   scripts/test-highs.sh            # CARGO_TARGET_DIR as for cargo; profile `ci`
set -euo pipefail
cd "$(dirname "$0")/.."
STEP_LABEL=test-highs
# shellcheck source=scripts/step.sh
source scripts/step.sh
if ! command -v cmake >/dev/null 2>&1 || ! ls /usr/lib/llvm-*/lib/libclang*.so* >/dev/null 2>&1; then
    scripts/install-debian.sh cmake libclang-dev || {
        echo "test-highs: cmake and libclang-dev could not be installed; HiGHS cannot be built here" >&2
        exit 1
    }
fi
# HiGHS at -O1 (scripts/highs-toolchain.cmake): a CI-sized build of the same code.
export CMAKE_TOOLCHAIN_FILE=${CMAKE_TOOLCHAIN_FILE:-$PWD/scripts/highs-toolchain.cmake}
step cargo test --profile ci -p pmldesign-solver --features highs --tests
