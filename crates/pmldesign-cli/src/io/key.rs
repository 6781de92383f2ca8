//! The secret key of the random draws (`--seed`, `--seed-file`, else the OS):
//! `pml apply`'s draws and the noise `pml design --private-prior` gives the counts.

use crate::error::CliError;
use pmldesign_data::stream::StreamKey;

/// The key of the draws: `--seed`, `--seed-file`, or a fresh one from the OS. A
/// key under 64 bits is used with a warning: it is found by trying them all.
pub fn stream_key(
    seed: Option<&str>,
    seed_file: Option<&std::path::Path>,
) -> Result<StreamKey, CliError> {
    let key = match (seed, seed_file) {
        (Some(s), _) => StreamKey::parse(s).map_err(|e| CliError::Usage(format!("--seed: {e}")))?,
        (None, Some(path)) => key_file(path)?,
        (None, None) => return Ok(StreamKey::from_os()),
    };
    if let Some(warning) = short_seed(&key) {
        crate::say::warn_guarantee(&format!(
            "warning: {warning} (--seed-file FILE after `head -c 32 /dev/urandom > FILE`)"
        ));
    }
    Ok(key)
}

/// The warning for a key under 64 bits, which is found by trying every key that
/// short (`pml serve` shows it beside the privatised file).
pub fn short_seed(key: &StreamKey) -> Option<String> {
    (key.bits() < 64).then(|| {
        format!(
            "the seed is a {}-bit number: whoever knows the mechanism can try every seed that short and undo the noise; keep the seed secret and use 256 random bits",
            key.bits()
        )
    })
}

/// `--seed-file`: a whole number as `--seed` takes it, or exactly 32 raw bytes.
fn key_file(path: &std::path::Path) -> Result<StreamKey, CliError> {
    let shown = path.display();
    let bytes = std::fs::read(path).map_err(|e| {
        CliError::Usage(format!(
            "cannot read --seed-file {shown}: {e}; give a readable file"
        ))
    })?;
    if let Ok(text) = std::str::from_utf8(&bytes)
        && let Ok(key) = StreamKey::parse(text)
    {
        return Ok(key);
    }
    let raw: [u8; 32] = bytes.as_slice().try_into().map_err(|_| {
        CliError::Usage(format!(
            "invalid --seed-file {shown}: {} bytes, neither a whole number below 2^256 nor 32 raw bytes; write one with `head -c 32 /dev/urandom > {shown}`",
            bytes.len()
        ))
    })?;
    Ok(StreamKey::from_bytes(raw))
}
