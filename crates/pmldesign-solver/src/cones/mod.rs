//! Extreme rays of the column cones (docs/theory.md §3-4) as sets and families:
//! the structured families of PML and the notions, the sparse form of one PML
//! column, and the double-description enumerator that serves as the reference.

pub(crate) mod double_description;
pub(crate) mod notion_form;
pub(crate) mod notions;
pub(crate) mod rays;
pub(crate) mod sparse;
