#!/bin/sh
# The linker of the manylinux2014 wheel (scripts/test-all.sh): zig's cc against glibc 2.17,
# through maturin's zig wrapper (as `maturin build --zig` uses it). Given to the bindings'
# final rustc only (`maturin build ... -- -C linker=THIS`), so the dependencies keep the
# fingerprints of `cargo test --profile ci` and are reused; `--zig` would set the linker
# for every crate, and cargo would compile them all again.
exec maturin zig cc -- -g -fno-sanitize=all -target x86_64-linux-gnu.2.17 "$@"
