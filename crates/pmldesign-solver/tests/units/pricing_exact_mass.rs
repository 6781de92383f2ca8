//! Tests of `pricing::exact_mass`.

use ndarray::Array1;
use pmldesign_solver::internals::pricing::exact_mass::*;

/// Mutual information under eps-LDP: the best top mass is the closed form
/// `(D* - 1) / (e^eps - 1)` of docs/theory.md §4d with the value `D* - 1 -
/// ln D*`, and a window around it ends where the value is its floor.
#[test]
fn staircase_windows_hold_the_best_top_mass() {
    let f: fn(f64) -> f64 = |t| if t > 0.0 { t * t.ln() } else { 0.0 };
    for eps in [0.2f64, 1.0, 3.0] {
        let e = eps.exp();
        let d = eps * e / (e - 1.0);
        let value = staircase_value(e, f);
        let (best, top) = maximum(&value);
        assert!((best - (d - 1.0) / (e - 1.0)).abs() < 1e-6, "{eps}: {best}");
        assert!((top - (d - 1.0 - d.ln())).abs() < 1e-13, "{eps}: {top}");
        let floor = top * (1.0 - 1e-8);
        let (lo, hi) = within(&value, best, floor);
        assert!(lo < best && best < hi, "{eps}: {lo} {hi}");
        for end in [lo, hi] {
            assert!(value(end) >= floor && value(end) - floor < 1e-12 * top);
        }
    }
}

/// 200 masses `sqrt(i)` normalised (not on a grid, as rational masses
/// would be): every set found is within the window, and most candidates find one.
#[test]
fn sets_land_in_their_window() {
    let raw: Vec<f64> = (1..=200).map(|i| (i as f64).sqrt()).collect();
    let s: f64 = raw.iter().sum();
    let p: Vec<f64> = raw.iter().map(|v| v / s).collect();
    let lambda = Array1::from_iter(p.iter().map(|v| v * 0.7));
    let t = (-0.9f64).exp();
    let mut found = 0;
    for k in 0..32u64 {
        let order = fill_order(&p, &lambda, 0.3, mix(k));
        let windows = [(t, t * (1.0 + 1e-11)), (t, t * (1.0 + 1e-9))];
        if let Some(m) = exact_set(&p, windows, &order, mix(k)) {
            let mass: f64 = (0..200).filter(|&x| m[x]).map(|x| p[x]).sum();
            assert!(mass >= t && mass <= t * (1.0 + 1e-9), "{mass} vs {t}");
            found += 1;
        }
    }
    assert!(found >= 16, "{found} of 32");
}
