//! The facade's integration tests as one binary (one link for all;
//! `cargo test --test facade -- MODULE::` runs one file): each module is one
//! problem class.

mod data_flow;
mod estimation;
