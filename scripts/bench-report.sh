#!/usr/bin/env bash
# Regenerates the benchmark table of docs/benchmarks.md (release build, fixed seeds).
# Usage: scripts/bench-report.sh [--notion NAME] [--utility NAME] [--gap G] [--known-only]
#        [--compare-enumeration] [--time-limit S] [N ...]     (default N: 8 12 16 20 22 32)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p pmldesign-cli >&2
cargo run --release --quiet --example bench_report -- "$@"
