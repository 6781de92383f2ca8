//! Privatising integer codes in memory: the path of DataFrames, Arrow arrays and
//! every engine (no string per row). Row `offset + k` draws from its own place
//! of the column's keystream ([`crate::stream`]), so any split of a column,
//! privatised part by part with each part's offset, gives the outputs of the
//! whole, and those of `pml apply` on the same rows.

use crate::sampler::MechanismSampler;
use crate::stream::ColumnStream;
use pmldesign_model::{ModelError, Result};

/// `out[k]` = an output drawn from row `codes[k]` of the mechanism, with the word
/// of row `offset + k` of `stream` (one word a row). A code that is not an input
/// of the mechanism is refused naming its position; `out` is then unspecified.
pub fn privatise_codes(
    sampler: &MechanismSampler,
    codes: &[u32],
    stream: &mut ColumnStream,
    offset: u64,
    out: &mut [u32],
) -> Result<()> {
    if codes.len() != out.len() {
        return Err(ModelError::invalid(
            "out",
            format!("{} entries", out.len()),
            format!("there are {} codes", codes.len()),
            "give one output slot per code",
        ));
    }
    let n = sampler.inputs();
    for (k, (&x, y)) in codes.iter().zip(out.iter_mut()).enumerate() {
        let row = offset + k as u64;
        if x as usize >= n {
            return Err(ModelError::invalid(
                format!("codes[{k}]"),
                x,
                format!("the mechanism has {n} inputs (codes 0..{n})"),
                "map every value to the index of its label first",
            ));
        }
        *y = sampler.sample(x as usize, stream.at(row)) as u32;
    }
    Ok(())
}
