//! Tests of `measures::conversions`.

use approx::assert_abs_diff_eq;
use pmldesign_model::measures::conversions::*;

#[test]
fn theorem_4_curves_are_inverse_for_uniform_binary() {
    // [D] Cor 4: for the uniform binary prior eps*_u(eps*_l(eps)) = eps.
    for &eps in &[0.05, 0.3, 0.6] {
        assert_abs_diff_eq!(pmc_to_pml(pml_to_pmc(eps, 0.5), 0.5), eps, epsilon = 1e-12);
    }
    assert!(pml_to_pmc(2.0f64.ln(), 0.5).is_infinite());
}
