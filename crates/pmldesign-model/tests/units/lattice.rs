//! Tests of `lattice`.

use pmldesign_model::lattice::*;
use pmldesign_model::measures::ldp_parameter;

#[test]
fn laws_sum_to_one_and_tails_match() {
    for noise in [
        GridNoise::Laplace { scale: 0.3 },
        GridNoise::Laplace { scale: 7.5 },
        GridNoise::Gaussian { variance: 0.2 },
        GridNoise::Gaussian { variance: 40.0 },
    ] {
        let total: f64 = (-2000..=2000).map(|k| noise.pmf(k)).sum();
        assert!((total - 1.0).abs() < 1e-12, "{noise:?}");
        let tail: f64 = (3..=2000).map(|k| noise.pmf(k)).sum();
        assert!((tail - noise.upper_tail(3)).abs() < 1e-12, "{noise:?}");
        assert!((noise.upper_tail(-2) - (1.0 - noise.upper_tail(3))).abs() < 1e-12);
    }
}

#[test]
fn laplace_on_the_grid_keeps_two_over_b() {
    for (scale, n) in [(1.0, 1), (2.5, 8), (0.4, 3)] {
        let noise = GridNoise::Laplace {
            scale: scale * n as f64,
        };
        let m = tail_range(noise, n, 1e-9).unwrap();
        let w = released_mechanism(noise, n, m).unwrap();
        assert!((ldp_parameter(&w) - 2.0 / scale).abs() < 1e-9);
        assert!(noise.upper_tail((m - n + 1) as i64) <= 1e-9);
        assert!(noise.upper_tail((m - 2 * n + 1) as i64) > 1e-9 || m == n);
    }
}

#[test]
fn limits_are_refused() {
    assert!(released_mechanism(GridNoise::Laplace { scale: 1.0 }, 4, 3).is_err());
    assert!(released_mechanism(GridNoise::Laplace { scale: 1.0 }, 1, MAX_GRID_POINTS).is_err());
    assert!(tail_range(GridNoise::Laplace { scale: 1e6 }, 1, 1e-9).is_err());
    assert!(GridNoise::Gaussian { variance: 1e11 }.check().is_err());
    assert!(GridNoise::Laplace { scale: f64::NAN }.check().is_err());
    assert!(tail_range(GridNoise::Laplace { scale: 1.0 }, 1, 0.0).is_err());
}
