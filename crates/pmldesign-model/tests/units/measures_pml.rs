//! Tests of `measures::pml`.

use approx::assert_abs_diff_eq;
use pmldesign_model::measures::pml::*;
use pmldesign_model::mechanism::Mechanism;
use pmldesign_model::prior::Prior;

#[test]
fn regions_of_example_prior() {
    let p = Prior::new(vec![0.4, 0.2, 0.2, 0.2]).unwrap();
    let t = privacy_thresholds(&p);
    assert_abs_diff_eq!(t[1], -(0.8f64).ln(), epsilon = 1e-15);
    assert_abs_diff_eq!(t[3], -(0.4f64).ln(), epsilon = 1e-15);
    assert!(t[4].is_infinite());
    assert_eq!(privacy_region(&p, (9.0f64 / 8.0).ln()), 1);
    assert_eq!(privacy_region(&p, 0.3), 2);
    assert_eq!(privacy_region(&p, 100.0), 4);
}

#[test]
fn identity_leaks_eps_max() {
    let p = Prior::new(vec![0.5, 0.3, 0.2]).unwrap();
    let w = Mechanism::identity(3);
    assert_abs_diff_eq!(eps_min(&w, &p), eps_max(&p), epsilon = 1e-15);
    assert_abs_diff_eq!(tail_probability(&w, &p, 0.8), 0.5, epsilon = 1e-15);
}
