//! The model crate's integration tests as one binary (one link for all;
//! `cargo test --test model -- MODULE::` runs one file): each module is one
//! problem class.

mod additive;
mod alip_levels;
mod common;
mod cyclic_subsets;
mod density;
mod envelope;
mod frequency;
mod frequency_mle;
mod hadamard;
mod sample_plan;
mod subset;
mod unary;
mod uncertainty_checks;
mod units;
