//! Whole records: several correlated columns released under one guarantee
//! (docs/theory.md §12).
//!
//! A record is X = (A1, ..., Ak), one categorical value per column. Releasing
//! Yj = Mj(Aj) column by column composes (thesis Theorem 5.24 (i)) when each Mj is
//! eps_j-PML for every prior the adversary can hold on Aj after seeing the earlier
//! outputs: a mixture of the conditionals P(Aj | A1..A(j-1) = a), so a prior in
//! their convex hull, and so in the l1 ball around P(Aj) of radius the largest
//! distance to one of them ([`radius`]). The record's channel is the product of the
//! columns' ([`product`]); it is measured against the sample's joint estimate.
//!
//! ```
//! use pmldesign_model::record::RecordSample;
//! // Two columns, three observed combinations.
//! let s = RecordSample::new(
//!     vec!["city".into(), "age".into()],
//!     vec![vec!["Oslo".into(), "Lund".into()], vec!["young".into(), "old".into()]],
//!     vec![(vec![0, 0], 30), (vec![0, 1], 10), (vec![1, 1], 60)],
//! )?;
//! assert_eq!(s.marginal(1), vec![30, 70]);
//! assert_eq!(s.cells(), Some(4));
//! // P(age | Oslo) = (3/4, 1/4) is 0.9 from P(age) = (0.3, 0.7); P(age | Lund) = (0, 1) 0.6.
//! assert!((pmldesign_model::record::radius::spread(&s, 1) - 0.9).abs() < 1e-12);
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

pub mod product;
pub mod radius;
mod sample;

pub use sample::RecordSample;
