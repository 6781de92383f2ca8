//! The solver's integration tests as one binary (one link for all;
//! `cargo test --test solver -- MODULE::` runs one file): each module is one
//! problem class.

mod common;
mod cross_check;
mod degenerate;
mod design;
mod determinism;
mod edges;
mod envelope;
mod estimation_design;
mod exact_mass;
mod fuzz_design_file;
mod interrupt;
mod loss_interior_point;
mod loss_labels;
mod loss_meets_map;
mod loss_methods;
mod metric;
mod notion_losses;
mod notions;
mod past_proposition_2;
mod pricing;
mod problem;
mod record;
mod sample_design;
mod structured_baselines;
mod units;
mod verify;
mod zero_counts;
