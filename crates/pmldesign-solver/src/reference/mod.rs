//! The papers' closed forms and the randomized-response baselines every design
//! is compared with (docs/theory.md §5).

pub(crate) mod baseline;
pub mod closed_form;
pub(crate) mod guesses;
pub(crate) mod literature;
pub(crate) mod pair_balance;
pub mod structured;
