//! One keyed stream of draws for any partitioning (docs/theory.md §11).
//!
//! The draw of row i of column c depends only on the key, the column's name, i and
//! the row's value: never on how the rows are chunked, so the outputs of any split
//! of a column, concatenated, equal privatising it in one call. The stream is
//! ChaCha20 in counter mode: the column's key is SHA-256 of a domain tag, the
//! 256-bit key and the column's name, and row i's words sit at a fixed offset of
//! that column's keystream (seeking is cheap, reading in order is cheaper). Two
//! columns under one key draw from unrelated keystreams.
//!
//! The key is a secret: whoever knows it and the positions can undo most of the
//! noise, and a short seed is found by trying them all.
//!
//! ```
//! use pmldesign_data::stream::{ColumnStream, StreamKey};
//! let key = StreamKey::parse("0x6a09e667f3bcc908b2fb1366ea957d3e3adec17512775099da2f590f0667322a")?;
//! let mut whole = ColumnStream::new(&key, "city", 1);
//! let mut part = ColumnStream::new(&key, "city", 1);
//! let w: Vec<u64> = (0..10).map(|i| whole.word(i)).collect();
//! assert_eq!(part.word(7), w[7]); // row 7 alone draws what it drew in order
//! # Ok::<(), pmldesign_model::ModelError>(())
//! ```

use chacha20::ChaCha20Rng;
use pmldesign_model::{ModelError, Result};
use rand::{Rng, SeedableRng};
use sha2::{Digest, Sha256};

/// Separates this use of SHA-256 from every other.
const DOMAIN: &[u8] = b"pmldesign/stream/v1\0";

/// A 256-bit stream key, from a seed (decimal or hex), a key file or the
/// operating system.
#[derive(Clone, PartialEq, Eq)]
pub struct StreamKey {
    bytes: [u8; 32],
    /// Significant bits of the seed it came from (256 for the OS or a file).
    bits: u32,
}

/// Never print a key.
impl std::fmt::Debug for StreamKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "StreamKey({} bits, hidden)", self.bits)
    }
}

impl StreamKey {
    /// A key from a seed written as a whole number: decimal, or hexadecimal after
    /// `0x`, below 2^256.
    pub fn parse(text: &str) -> Result<Self> {
        let t = text.trim();
        let bad = |why: &str| {
            ModelError::invalid(
                "seed",
                t,
                why,
                "give a whole number below 2^256, decimal or 0x-hexadecimal (best: 64 random hex digits)",
            )
        };
        let (digits, radix) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
            Some(h) => (h, 16u32),
            None => (t, 10u32),
        };
        if digits.is_empty() {
            return Err(bad("it has no digits"));
        }
        let mut bytes = [0u8; 32];
        for c in digits.chars() {
            let d = c
                .to_digit(radix)
                .ok_or_else(|| bad("it is not a whole number"))?;
            if !multiply_add(&mut bytes, radix, d) {
                return Err(bad("it is 2^256 or more"));
            }
        }
        Ok(Self::from_number(bytes))
    }

    /// The key of the 256-bit big-endian number `bytes`.
    fn from_number(bytes: [u8; 32]) -> Self {
        let leading: u32 = bytes
            .iter()
            .position(|&b| b != 0)
            .map_or(256, |i| 8 * i as u32 + bytes[i].leading_zeros());
        StreamKey {
            bytes,
            bits: 256 - leading,
        }
    }

    /// A key from 32 raw bytes (a key file).
    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        StreamKey { bytes, bits: 256 }
    }

    /// A fresh key from the operating system: draws nobody can replay.
    pub fn from_os() -> Self {
        let mut bytes = [0u8; 32];
        rand::fill(&mut bytes);
        Self::from_bytes(bytes)
    }

    /// Significant bits of the seed (a key under 64 bits is found by trying
    /// every seed).
    pub fn bits(&self) -> u32 {
        self.bits
    }
}

/// `n = n * radix + d` on a 256-bit big-endian number; false on overflow.
fn multiply_add(n: &mut [u8; 32], radix: u32, d: u32) -> bool {
    let mut carry = d;
    for b in n.iter_mut().rev() {
        let v = u32::from(*b) * radix + carry;
        *b = (v & 0xff) as u8;
        carry = v >> 8;
    }
    carry == 0
}

/// The place in a column's stream of the row of a user's key (`key=` in Python):
/// the first 8 bytes of SHA-256 of a domain tag and the key. The same key has the
/// same place wherever its row is, so shuffled or repartitioned rows draw the
/// same; two keys share a place with probability about 2^-64.
pub fn key_position(key: &[u8]) -> u64 {
    let mut h = Sha256::new();
    h.update(b"pmldesign/key/v1\0");
    h.update(key);
    let digest = h.finalize();
    u64::from_le_bytes(digest[..8].try_into().unwrap_or([0; 8]))
}

/// A 256-bit key for column `column` under `key`, separated by `domain` from every
/// other use (SHA-256 of the tag, the key and the column's name).
pub(crate) fn column_seed(key: &StreamKey, domain: &[u8], column: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(domain);
    h.update(key.bytes);
    h.update((column.len() as u64).to_le_bytes());
    h.update(column.as_bytes());
    h.finalize().into()
}

/// The draws of one column: `per_row` 64-bit words for each row, row i's at
/// offset `i * per_row` of the column's keystream.
pub struct ColumnStream {
    rng: ChaCha20Rng,
    per_row: u64,
    /// The row whose words the generator stands at.
    next: u64,
}

/// A copy at the same place of the same keystream.
impl Clone for ColumnStream {
    fn clone(&self) -> Self {
        let mut rng = ChaCha20Rng::from_seed(self.rng.get_seed());
        rng.set_word_pos(self.rng.get_word_pos());
        ColumnStream {
            rng,
            per_row: self.per_row,
            next: self.next,
        }
    }
}

/// Never print the keystream's state.
impl std::fmt::Debug for ColumnStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ColumnStream({} words a row)", self.per_row)
    }
}

impl ColumnStream {
    /// The stream of column `column` under `key`, `per_row` words a row.
    pub fn new(key: &StreamKey, column: &str, per_row: u64) -> Self {
        ColumnStream {
            rng: ChaCha20Rng::from_seed(column_seed(key, DOMAIN, column)),
            per_row: per_row.max(1),
            next: 0,
        }
    }

    /// The generator placed at row `row`'s words: draw exactly `per_row` words
    /// from it (reading rows in order seeks nothing).
    pub fn at(&mut self, row: u64) -> &mut ChaCha20Rng {
        if row != self.next {
            // Two 32-bit words per 64-bit word.
            let words = u128::from(row) * u128::from(self.per_row) * 2;
            self.rng.set_word_pos(words);
        }
        self.next = row + 1;
        &mut self.rng
    }

    /// Row `row`'s first word (for streams of one word a row).
    pub fn word(&mut self, row: u64) -> u64 {
        self.at(row).next_u64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_parse_to_the_same_number_in_either_base() {
        let d = StreamKey::parse("255").unwrap();
        let h = StreamKey::parse("0xff").unwrap();
        assert_eq!(d, h);
        assert_eq!(d.bits(), 8);
        let max = format!("0x{}", "f".repeat(64));
        assert_eq!(StreamKey::parse(&max).unwrap().bits(), 256);
        assert!(StreamKey::parse(&(max + "0")).is_err());
        // 2^256 in decimal is refused, 2^256 - 1 is not.
        let two_256 =
            "115792089237316195423570985008687907853269984665640564039457584007913129639936";
        assert!(StreamKey::parse(two_256).is_err());
        let below =
            "115792089237316195423570985008687907853269984665640564039457584007913129639935";
        let all_ones = format!("0x{}", "f".repeat(64));
        assert_eq!(
            StreamKey::parse(below).unwrap(),
            StreamKey::parse(&all_ones).unwrap()
        );
        for bad in ["", "0x", "-1", "1.5", "seven"] {
            assert!(StreamKey::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(StreamKey::parse("0").unwrap().bits(), 0);
    }

    /// Any order of access gives each row its words; columns and keys differ.
    #[test]
    fn a_row_draws_the_same_whatever_the_order() {
        let key = StreamKey::parse("12345678901234567890").unwrap();
        let mut s = ColumnStream::new(&key, "a", 2);
        let in_order: Vec<(u64, u64)> = (0..50)
            .map(|i| {
                let r = s.at(i);
                (r.next_u64(), r.next_u64())
            })
            .collect();
        let mut t = ColumnStream::new(&key, "a", 2);
        for i in [49u64, 3, 17, 18, 0, 25] {
            let r = t.at(i);
            assert_eq!(
                (r.next_u64(), r.next_u64()),
                in_order[i as usize],
                "row {i}"
            );
        }
        let mut other = ColumnStream::new(&key, "b", 2);
        assert_ne!(other.at(0).next_u64(), in_order[0].0);
        let mut other_key = ColumnStream::new(&StreamKey::parse("7").unwrap(), "a", 2);
        assert_ne!(other_key.at(0).next_u64(), in_order[0].0);
    }
}
