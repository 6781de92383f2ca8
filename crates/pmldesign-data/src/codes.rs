//! Privatising integer codes in memory: the path of DataFrames, Arrow arrays and
//! every engine (no string per row). Row `offset + k` draws from its own place
//! of the column's keystream ([`crate::stream`]), so any split of a column,
//! privatised part by part with each part's offset, gives the outputs of the
//! whole, and those of `pml apply` on the same rows.

use crate::sampler::MechanismSampler;
use crate::stream::ColumnStream;
use pmldesign_model::{ModelError, Result};
use rayon::prelude::*;

/// `out[k]` = an output drawn from row `codes[k]` of the mechanism, with the word
/// of row `offset + k` of `stream` (one word a row). A code that is not an input
/// of the mechanism is refused naming its position; `out` is then unspecified.
/// Large columns are drawn in parallel chunks, each reading its rows' own words,
/// so the outputs are the same at any number of threads.
pub fn privatise_codes(
    sampler: &MechanismSampler,
    codes: &[u32],
    stream: &mut ColumnStream,
    offset: u64,
    out: &mut [u32],
) -> Result<()> {
    privatise_mapped(sampler, codes, stream, Rows::From(offset), out, |&x| {
        Some(x as usize)
    })
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
    privatise_mapped(sampler, codes, stream, Rows::At(positions), out, |&x| {
        Some(x as usize)
    })
}

/// The stream rows of the codes: `offset + k` for code k, or one given per code.
#[non_exhaustive]
#[derive(Debug, Clone, Copy)]
pub enum Rows<'a> {
    /// Code k draws row `offset + k`.
    From(u64),
    /// Code k draws row `positions[k]`.
    At(&'a [u64]),
}

/// Codes a chunk of a parallel draw holds: enough that cloning and seeking the
/// stream at each chunk's start costs nothing next to its draws.
const CHUNK: usize = 1 << 16;

/// The draw of [`privatise_codes`] for codes of any type (a DataFrame's category
/// codes, say), each made a row of the mechanism by `row_of` (None, or a row past
/// the mechanism's, refuses the code naming its position), and outputs of any
/// type (`O::from` the output's index, which the caller has checked fits).
pub fn privatise_mapped<C, O>(
    sampler: &MechanismSampler,
    codes: &[C],
    stream: &ColumnStream,
    rows: Rows<'_>,
    out: &mut [O],
    row_of: impl Fn(&C) -> Option<usize> + Sync,
) -> Result<()>
where
    C: Sync + std::fmt::Display,
    O: Send + TryFrom<usize>,
{
    one_per_code("out", out.len(), codes.len())?;
    if let Rows::At(positions) = rows {
        one_per_code("positions", positions.len(), codes.len())?;
    }
    if sampler.outputs() > 0 && O::try_from(sampler.outputs() - 1).is_err() {
        return Err(ModelError::invalid(
            "out",
            format!("{} outputs", sampler.outputs()),
            "the output codes' type cannot hold every output of the mechanism",
            "give a wider integer type for the outputs",
        ));
    }
    let n = sampler.inputs();
    let chunk = |start: usize, codes: &[C], out: &mut [O]| -> Result<()> {
        let mut stream = stream.clone();
        for (i, (x, y)) in codes.iter().zip(out.iter_mut()).enumerate() {
            let k = start + i;
            let row = match rows {
                Rows::From(offset) => offset + k as u64,
                Rows::At(positions) => positions[k],
            };
            let Some(x) = row_of(x).filter(|&r| r < n) else {
                return Err(ModelError::invalid(
                    format!("codes[{k}]"),
                    x,
                    format!("the mechanism has {n} inputs (codes 0..{n})"),
                    "map every value to the index of its label first",
                ));
            };
            let drawn = sampler.sample(x, stream.at(row));
            // The check above: every output index fits.
            *y = O::try_from(drawn).unwrap_or_else(|_| unreachable!("checked output range"));
        }
        Ok(())
    };
    if codes.len() <= CHUNK {
        return chunk(0, codes, out);
    }
    // Every chunk's outcome in order, so the first refused code is the first of
    // the column whatever the threads did.
    let outcomes: Vec<Result<()>> = codes
        .par_chunks(CHUNK)
        .zip(out.par_chunks_mut(CHUNK))
        .enumerate()
        .map(|(c, (codes, out))| chunk(c * CHUNK, codes, out))
        .collect();
    outcomes.into_iter().collect()
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
