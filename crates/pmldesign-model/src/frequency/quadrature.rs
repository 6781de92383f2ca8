//! Tanh-sinh quadrature on `[0, 1]` for integrands that are sums of powers
//! `t^r`, `r >= 0` (the Fisher information of mechanisms with too many outputs
//! to list, docs/theory.md §13): the double-exponential change of variable
//! absorbs the singular derivatives of `t^r` at 0, so 161 nodes integrate every
//! such power to 2e-15.

/// The tanh-sinh step and half-width: nodes `t_j`, `j = -80..=80`, `h = 1/16`.
const STEP: f64 = 1.0 / 16.0;
const HALF_WIDTH: i32 = 80;

/// The quadrature's nodes and weights on `[0, 1]`.
pub fn tanh_sinh() -> impl Iterator<Item = (f64, f64)> {
    (-HALF_WIDTH..=HALF_WIDTH).map(|j| {
        let x = STEP * f64::from(j);
        let s = std::f64::consts::FRAC_PI_2 * x.sinh();
        let t = 1.0 / (1.0 + (-2.0 * s).exp());
        let c = s.cosh();
        (
            t,
            0.5 * STEP * std::f64::consts::FRAC_PI_2 * x.cosh() / (c * c),
        )
    })
}
