//! The refusals of a build without the default features as a binary of their own:
//! `scripts/test-all.sh` builds the CLI so (`--no-default-features --test features`)
//! without compiling the whole suite a second time. `cargo test` leaves this target
//! out (`test = false`); the `cli` target holds the same module.

// Most shared helpers serve other files of the suite.
#![allow(dead_code)]

mod common;
mod features;
