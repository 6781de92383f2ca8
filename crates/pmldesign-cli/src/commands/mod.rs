//! One module per subcommand: read the inputs ([`crate::io`]), call the library,
//! render the result ([`crate::render`]) and write it ([`crate::io`]). A command
//! never imports another: what two share lives in a lower layer.

pub mod apply;
pub mod assess;
pub mod bounds;
pub mod compare;
pub mod design;
pub mod envelope;
pub mod estimate;
pub mod grid_noise;
pub mod manual;
pub mod publish;
pub mod record;
