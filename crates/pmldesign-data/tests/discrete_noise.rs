//! Additive noise released on a grid (`docs/theory.md` §7b): outputs on the grid
//! and in the range, frequencies against the released matrix, support equal under
//! both secrets (the float attack's negation), exact small cases, and the same
//! bytes for the same key whatever the order of the rows.

use pmldesign_data::discrete_noise::{
    DiscreteGaussian, DiscreteLaplace, ExactNoise, GridPrivatiser, bernoulli_exp,
};
use pmldesign_data::seeded_rng;
use pmldesign_data::stream::StreamKey;
use pmldesign_data::{ColumnPrivatiser, OnUnknown, Placement, privatise_column};
use pmldesign_model::lattice::tail_range;

fn key() -> StreamKey {
    StreamKey::parse("0x243f6a8885a308d313198a2e03707344a4093822299f31d0082efa98ec4e6c89").unwrap()
}

/// A privatiser of `noise` on the grid 1/n, the range where tails are below 1e-9.
fn privatiser(noise: ExactNoise, n: u64) -> GridPrivatiser {
    let m = tail_range(noise.law(), n, 1e-9).unwrap();
    GridPrivatiser::new(noise, (n, m), (&key(), "s")).unwrap()
}

fn laplace(b: f64, n: u64) -> ExactNoise {
    ExactNoise::Laplace(DiscreteLaplace::on_grid(b, n).unwrap())
}

fn gaussian(sigma: f64, n: u64) -> ExactNoise {
    ExactNoise::Gaussian(DiscreteGaussian::on_grid(sigma, n).unwrap())
}

/// Counts of each grid index (`k + m`) over `rows` rows of secret x.
fn counts(p: &GridPrivatiser, m: u64, rows: u64, positive: bool) -> Vec<u64> {
    let mut c = vec![0u64; 2 * m as usize + 1];
    for r in 0..rows {
        c[(p.draw(r, positive) + m as i64) as usize] += 1;
    }
    c
}

/// Pearson's chi-square of counts against probabilities, cells of expected count
/// below 20 pooled; with its degrees of freedom.
fn chi_square(counts: &[u64], p: &[f64]) -> (f64, usize) {
    let total: u64 = counts.iter().sum();
    let (mut chi, mut df, mut pooled) = (0.0, 0usize, (0.0, 0.0));
    for (&c, &q) in counts.iter().zip(p) {
        let e = q * total as f64;
        if e < 20.0 {
            pooled = (pooled.0 + c as f64, pooled.1 + e);
        } else {
            chi += (c as f64 - e).powi(2) / e;
            df += 1;
        }
    }
    if pooled.1 > 0.0 {
        chi += (pooled.0 - pooled.1).powi(2) / pooled.1.max(1.0);
        df += 1;
    }
    (chi, df.saturating_sub(1))
}

/// The outputs are grid points k/n within [-m/n, m/n], written from k alone; the
/// old float noise wrote almost no value on any grid.
#[test]
fn outputs_are_grid_points_in_the_range() {
    for (noise, n) in [(laplace(0.8, 10), 10), (gaussian(1.5, 6), 6)] {
        let mut p = privatiser(noise, n);
        let m = tail_range(noise.law(), n, 1e-9).unwrap() as i64;
        let mut out = Vec::new();
        for row in 0..20_000u64 {
            out.clear();
            assert!(p.privatise(row, if row % 2 == 0 { b"1" } else { b"-1.0" }, &mut out));
            let text = std::str::from_utf8(&out).unwrap();
            let y: f64 = text.parse().unwrap();
            let k = (y * n as f64).round() as i64;
            assert!(k.abs() <= m, "{text} outside the range");
            assert_eq!(
                text,
                (k as f64 / n as f64).to_string(),
                "{text} is not on the grid"
            );
        }
        assert!(!p.privatise(0, b"0", &mut out));
    }
}

/// 10^6 draws of each secret match the rows of the released matrix (chi-square,
/// fixed key), and the same counts fail against the matrix shifted by one step.
#[test]
fn frequencies_match_the_released_matrix() {
    for (noise, n) in [(laplace(1.0, 4), 4), (gaussian(0.9, 3), 3)] {
        let p = privatiser(noise, n);
        let m = tail_range(noise.law(), n, 1e-9).unwrap();
        let w = p.released().unwrap();
        for (x, positive) in [(0, false), (1, true)] {
            let c = counts(&p, m, 1_000_000, positive);
            let row = w.matrix().row(x).to_vec();
            let (chi, df) = chi_square(&c, &row);
            let threshold = df as f64 + 6.0 * (2.0 * df as f64).sqrt();
            assert!(chi < threshold, "{noise:?} x={x}: chi2 {chi} df {df}");
            let mut shifted = row.clone();
            shifted.rotate_right(1);
            let (chi_shift, _) = chi_square(&c, &shifted);
            assert!(
                chi_shift > 10.0 * threshold,
                "a one-step shift is not caught"
            );
        }
    }
}

/// Every value drawn at least 30 times under one secret is drawn under the other:
/// no output tells the secret (Mironov's attack finds most outputs with one origin).
/// Laplace noise, whose likelihood ratio is at most e^(2/b) everywhere; the
/// Gaussian's tails differ by more, but every grid point has positive probability
/// under both secrets in its released matrix.
#[test]
fn support_is_the_same_under_both_secrets() {
    let g = privatiser(gaussian(1.0, 8), 8).released().unwrap();
    assert!(g.matrix().iter().all(|&p| p > 0.0));
    for (noise, n) in [(laplace(1.0, 8), 8), (laplace(2.0, 5), 5)] {
        let p = privatiser(noise, n);
        let m = tail_range(noise.law(), n, 1e-9).unwrap();
        let minus = counts(&p, m, 1_000_000, false);
        let plus: Vec<u64> = (0..1_000_000u64).fold(vec![0u64; 2 * m as usize + 1], |mut c, r| {
            c[(p.draw(r + 1_000_000, true) + m as i64) as usize] += 1;
            c
        });
        for (k, (&a, &b)) in minus.iter().zip(&plus).enumerate() {
            assert!(
                !((a >= 30 && b == 0) || (b >= 30 && a == 0)),
                "{noise:?} index {k}: {a} vs {b}"
            );
        }
    }
}

/// Bernoulli(e^(-1/2)) and the discrete Laplace law of scale 1 against their exact
/// probabilities over 10^7 draws, within 5 standard errors.
#[test]
fn small_cases_are_exact() {
    const DRAWS: u64 = 10_000_000;
    let within = |count: u64, p: f64, what: &str| {
        let f = count as f64 / DRAWS as f64;
        let se = (p * (1.0 - p) / DRAWS as f64).sqrt();
        assert!((f - p).abs() <= 5.0 * se, "{what}: {f} vs {p}");
    };
    let mut rng = seeded_rng(17);
    let ones = (0..DRAWS).filter(|_| bernoulli_exp(&mut rng, 1, 2)).count() as u64;
    within(ones, (-0.5f64).exp(), "Bernoulli(e^-1/2)");
    let ones = (0..DRAWS / 10)
        .filter(|_| bernoulli_exp(&mut rng, 7, 3))
        .count() as u64;
    within(ones * 10, (-7.0f64 / 3.0).exp(), "Bernoulli(e^-7/3)");
    let lap = DiscreteLaplace::new(1, 1).unwrap();
    let mut c = [0u64; 7];
    for _ in 0..DRAWS {
        let k = lap.sample(&mut rng);
        if k.abs() <= 3 {
            c[(k + 3) as usize] += 1;
        }
    }
    let q = (-1f64).exp();
    for (i, &count) in c.iter().enumerate() {
        let p = (1.0 - q) / (1.0 + q) * q.powi((i as i32 - 3).abs());
        within(count, p, &format!("discrete Laplace at {}", i as i32 - 3));
    }
}

/// Rows privatised in any order or split give the same bytes; another column or
/// key does not.
#[test]
fn same_key_same_bytes_in_any_order() {
    let noise = gaussian(1.5, 6);
    let mut input = String::from("s\n");
    for i in 0..3000 {
        input.push_str(if i % 3 == 0 { "-1\n" } else { "1\n" });
    }
    let run = |column: &str, rows: &str| {
        let m = tail_range(noise.law(), 6, 1e-9).unwrap();
        let mut p = GridPrivatiser::new(noise, (6, m), (&key(), column)).unwrap();
        let mut out = Vec::new();
        privatise_column(
            rows.as_bytes(),
            &mut out,
            "s",
            Placement::Replace,
            OnUnknown::Error,
            &mut p,
        )
        .unwrap();
        out
    };
    let whole = run("s", &input);
    assert_eq!(whole, run("s", &input));
    assert_ne!(whole, run("t", &input));
    let p = privatiser(noise, 6);
    let forward: Vec<i64> = (0..3000).map(|r| p.draw(r, r % 3 != 0)).collect();
    let backward: Vec<i64> = (0..3000).rev().map(|r| p.draw(r, r % 3 != 0)).collect();
    assert!(forward.iter().eq(backward.iter().rev()));
    let text = String::from_utf8(whole).unwrap();
    for (line, k) in text.lines().skip(1).zip(&forward) {
        assert_eq!(line, (*k as f64 / 6.0).to_string());
    }
}
