//! Every file `pml` reads or writes: matrix files (mechanisms, distances, losses,
//! designs, priors), CSV data, and output written atomically through temporary
//! files. Errors name the flag and the file. Commands call this layer; the argument
//! structs only say which files were named.

pub mod data;
pub mod key;
pub mod load;
pub mod matrix;
pub mod write;
