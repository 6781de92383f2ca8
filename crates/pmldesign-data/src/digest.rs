//! The SHA-256 of an input read once: a reader that hashes what passes through
//! it, so a design's provenance can state the digest of the data file it was
//! counted from (the same as `sha256sum FILE`) without reading the file twice.

use sha2::{Digest, Sha256};
use std::io::Read;

/// A reader that hashes every byte read through it.
pub struct Digesting<R> {
    inner: R,
    hash: Sha256,
}

impl<R: Read> Digesting<R> {
    /// Wraps `inner`.
    pub fn new(inner: R) -> Self {
        Digesting {
            inner,
            hash: Sha256::new(),
        }
    }

    /// The SHA-256 of the bytes read so far, in lowercase hex.
    pub fn hex(&self) -> String {
        self.hash
            .clone()
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }
}

impl<R: Read> Read for Digesting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digest of the standard test vector "abc" (FIPS 180-2).
    #[test]
    fn digests_what_it_reads() {
        let mut r = Digesting::new(&b"abc"[..]);
        let mut out = Vec::new();
        r.read_to_end(&mut out).unwrap();
        assert_eq!(out, b"abc");
        assert_eq!(
            r.hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
