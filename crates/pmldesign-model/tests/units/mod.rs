//! The model's tests of its modules' items, one file per module of `src/`,
//! named after its path.

mod envelope;
mod error;
mod frequency_fisher;
mod frequency_fit;
mod frequency_quadrature;
mod frequency_subset;
mod lattice;
mod linalg;
mod measures_assessment;
mod measures_conversions;
mod measures_metric;
mod measures_pml;
mod mechanism;
mod names;
mod notion;
mod printed;
mod prior;
mod private_prior;
mod ranking;
mod record_product;
mod record_radius;
mod sample;
mod uncertainty;
