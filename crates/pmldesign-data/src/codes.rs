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
    draw_at(sampler, codes, stream, (offset..).take(codes.len()), out)
}

/// [`privatise_codes`] with row `positions[k]` for `codes[k]`: positions that are
/// not consecutive, such as those a user's key gives (the same key, the same
/// place of the stream, wherever its row is).
pub fn privatise_codes_at(
    sampler: &MechanismSampler,
    codes: &[u32],
    stream: &mut ColumnStream,
    positions: &[u64],
    out: &mut [u32],
) -> Result<()> {
    one_per_code("positions", positions.len(), codes.len())?;
    draw_at(sampler, codes, stream, positions.iter().copied(), out)
}

fn draw_at(
    sampler: &MechanismSampler,
    codes: &[u32],
    stream: &mut ColumnStream,
    positions: impl Iterator<Item = u64>,
    out: &mut [u32],
) -> Result<()> {
    one_per_code("out", out.len(), codes.len())?;
    let n = sampler.inputs();
    for (k, ((&x, y), row)) in codes.iter().zip(out.iter_mut()).zip(positions).enumerate() {
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

/// `field` has one entry per code, or the error naming it.
fn one_per_code(field: &str, entries: usize, codes: usize) -> Result<()> {
    if entries == codes {
        return Ok(());
    }
    Err(ModelError::invalid(
        field,
        format!("{entries} entries"),
        format!("there are {codes} codes"),
        format!("give one entry of {field} per code"),
    ))
}
