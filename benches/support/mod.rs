//! Fixed-seed priors shared by the criterion benches.

use pmldesign::prelude::Prior;

/// A tiny deterministic generator (xorshift64*), so every run sees the same priors.
pub struct XorShift(u64);

impl XorShift {
    pub fn new(seed: u64) -> Self {
        XorShift(seed.max(1))
    }

    /// Uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (x >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A Dirichlet-like prior on N symbols: masses `1 + u`, u uniform, normalised.
pub fn prior(n: usize) -> Prior {
    let mut rng = XorShift::new(0x9E37_79B9_7F4A_7C15 ^ n as u64);
    let w: Vec<f64> = (0..n).map(|_| 1.0 + rng.next_f64()).collect();
    Prior::normalised(w).expect("positive weights")
}
