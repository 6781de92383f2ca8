#!/usr/bin/env bash
# Regenerates the README's benchmark table (release build, fixed seeds).
# Usage: scripts/bench-report.sh [N ...]     (default: 8 12 16 18 20 22)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p pml-cli >&2
cargo run --release --quiet --example bench_report -- "$@"
