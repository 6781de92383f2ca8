//! One module per subcommand: parse, call the library, format.

pub mod apply;
pub mod assess;
pub mod bounds;
pub mod compare;
pub mod design;
pub mod envelope;
