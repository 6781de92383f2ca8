//! Fixed-seed Dirichlet(2) priors shared by the report examples (`bench_report`,
//! `loss_report`), so both measure the same instances.

/// SplitMix64: a fixed, dependency-free generator.
pub struct SplitMix(u64);

impl SplitMix {
    pub fn next_f64(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Gamma(2, 1) as the sum of two exponentials.
    pub fn gamma2(&mut self) -> f64 {
        -(1.0 - self.next_f64()).ln() - (1.0 - self.next_f64()).ln()
    }
}

/// A Dirichlet(2) prior on n symbols from seed `seed`.
pub fn dirichlet2(n: usize, seed: u64) -> Vec<f64> {
    let mut g = SplitMix(seed);
    let w: Vec<f64> = (0..n).map(|_| g.gamma2()).collect();
    let s: f64 = w.iter().sum();
    w.iter().map(|x| x / s).collect()
}
