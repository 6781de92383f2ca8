//! The report crate's integration tests as one binary (one link for all;
//! `cargo test --test report -- MODULE::` runs one file): each module is one
//! problem class.

mod common;
mod pages;
mod report;
