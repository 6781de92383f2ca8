//! Tests of `printed`.

use pmldesign_model::printed::*;

#[test]
fn levels_round_up_at_their_precision() {
    // Gaussian sigma 1's release: 14.1718864 is 14.171887, not 14.171886.
    assert_eq!(level(14.171_886_4), "14.171887");
    assert_eq!(level(0.25), "0.250000");
    assert_eq!(level(0.3), "0.300000");
    assert_eq!(level(0.1 + 0.2), "0.300001");
    assert_eq!(level(1.386_294_361_119_890_6), "1.386295");
    assert_eq!(level(0.0), "0.000000");
    assert_eq!(level_at(0.123_456_789_1, 9), "0.123456790");
    assert_eq!(level_at(0.5, 9), "0.500000000");
    assert_eq!(level(f64::INFINITY), "inf");
    assert_eq!(level(f64::NAN), "nan");
}

#[test]
fn tiny_levels_are_never_zero() {
    // --laplace-scale 1e12: an LDP level of 2e-12.
    assert_eq!(level(2e-12), "2e-12");
    assert_eq!(level(2.000_000_1e-12), "2.01e-12");
    assert_eq!(level(1.234e-7), "1.24e-7");
    assert_eq!(level(9.999e-9), "1e-8");
    assert_eq!(level(5e-7), "5e-7");
    for x in [2e-12, 2.000_000_1e-12, 1.234e-7, 9.999e-9, 3.3e-300] {
        assert!(level(x).parse::<f64>().unwrap() >= x, "{x}");
    }
}

#[test]
fn a_certified_level_within_tolerance_is_its_target() {
    assert_eq!(certified(0.5 + 1e-15, 0.5, 1e-12), "0.500000");
    assert_eq!(certified(0.499_999_999_9, 0.5, 1e-12), "0.500000");
    assert_eq!(certified(0.5 + 1e-9, 0.5, 1e-12), "0.500001");
    assert_eq!(certified(0.25, 0.5, 1e-12), "0.250000");
}
