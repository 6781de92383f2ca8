//! The data crate's integration tests as one binary (one link for all;
//! `cargo test --test data -- MODULE::` runs one file): each module is one
//! problem class.

mod bins;
mod blank_rows;
mod columnar;
mod common;
mod discrete_noise;
mod fuzz_csv;
mod layout;
mod matrix;
mod privatise;
mod sampler;
mod stream;
