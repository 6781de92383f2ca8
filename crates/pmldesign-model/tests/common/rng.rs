// The tests' deterministic generator (xorshift64*), std-only.
//
// One definition for the test code of both crates: the integration tests reach it
// through `tests/common/mod.rs` (which adds `prior` and `mechanism`), the unit tests
// in `pmldesign-model/src/measures/assessment.rs` and `pmldesign-solver/src/generic.rs` `include!` this
// file (so it holds outer attributes and comments only). A given seed draws the same
// numbers everywhere.

/// xorshift64*: a tiny seeded generator, so every run sees the same instances.
pub struct Rng(pub u64);

#[allow(dead_code)]
impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in 0..n (up to the modulo bias).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// n prior weights `0.05 + unit()` (to be normalised).
    pub fn prior_weights(&mut self, n: usize) -> Vec<f64> {
        (0..n).map(|_| 0.05 + self.unit()).collect()
    }
}
