//! The `pml` binary's integration tests as one binary (one link for all;
//! `cargo test --test cli -- MODULE::` runs one file): each module is one
//! problem class.

mod advice;
mod apply;
mod assess;
mod bins;
mod bounds;
mod caps;
mod cli;
mod common;
mod compare;
mod envelope;
mod estimate;
mod features;
mod files;
mod forgeries;
mod loss;
mod metric;
mod nulls;
mod private_prior;
mod public_record;
mod record_bins;
mod record_keys;
mod record_labels;
mod release;
mod report;
mod serve;
mod serve_load;
