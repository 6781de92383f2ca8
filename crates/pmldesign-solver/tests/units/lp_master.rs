//! Tests of the restricted master (`lp::master`).

use ndarray::{Array1, array};
use pmldesign_solver::Interrupt;
use pmldesign_solver::internals::lp::master::*;
use std::time::Instant;

#[test]
fn small_master() {
    // Columns normalised by p = (1/2, 1/2): ones, (2, 0), (0, 2), (1.5, 0.5).
    let v = [
        array![1.0, 1.0],
        array![2.0, 0.0],
        array![0.0, 2.0],
        array![1.5, 0.5],
    ];
    let c = [0.0, 1.0, 1.0, 0.6];
    let mut m = Master::new(2, c[0]);
    for (vk, ck) in v.iter().zip(&c).skip(1) {
        m.push(vk.view(), *ck);
    }
    let s = m.optimise().unwrap();
    assert!((s.value - 1.0).abs() < 1e-12);
    assert!((s.theta[1] - 0.5).abs() < 1e-12 && (s.theta[2] - 0.5).abs() < 1e-12);
    for (vk, ck) in v.iter().zip(&c) {
        assert!(s.dual.dot(vk) >= ck - 1e-12);
    }
    assert!((s.dual.sum() - s.value).abs() < 1e-12);
}

/// A perturbed start (spike basis) and `finish` reach the same optimum as the
/// plain start, with `V theta = 1` exact for the true right-hand side, on a
/// degenerate master (integer-valued columns, many ties).
#[test]
fn perturbed_start_finishes_on_the_true_right_hand_side() {
    let n = 6;
    let mut seed = 7u64;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % 4
    };
    // Columns with r = uniform: entries in {0, .., 3}, scaled to mean 1.
    let mut columns: Vec<(Array1<f64>, f64)> = (0..n)
        .map(|y| {
            let mut v = Array1::from_elem(n, 0.5);
            v[y] = 1.0 + 0.5 * (n - 1) as f64;
            (v, 0.0)
        })
        .collect();
    for _ in 0..60 {
        let raw: Array1<f64> = (0..n).map(|_| next() as f64).collect();
        if raw.sum() == 0.0 {
            continue;
        }
        let v = &raw * (n as f64 / raw.sum());
        let value = v.iter().copied().fold(0.0, f64::max) / n as f64;
        columns.push((v, value));
    }
    let solve = |start: bool| {
        let mut m = Master::new(n, 1.0 / n as f64);
        for (v, c) in &columns {
            m.push(v.view(), *c);
        }
        if start {
            assert!(m.start_from(&(1..=n).collect::<Vec<_>>()));
        }
        let s = m.optimise().unwrap();
        if start { m.finish().unwrap() } else { s }
    };
    let (plain, perturbed) = (solve(false), solve(true));
    assert!((plain.value - perturbed.value).abs() < 1e-12);
    assert!(perturbed.feasible);
    let mut row_sums = Array1::<f64>::ones(n) * perturbed.theta[0];
    for (k, (v, c)) in columns.iter().enumerate() {
        row_sums.scaled_add(perturbed.theta[k + 1], v);
        assert!(perturbed.dual.dot(v) >= c - 1e-12);
    }
    assert!(
        row_sums.iter().all(|&x| (x - 1.0).abs() < 1e-12),
        "{row_sums}"
    );
}

/// Random columns normalised by the uniform distribution (`mean 1`), values
/// `max v / n` as for a PML ray's `mu`: a deterministic generator.
fn random_columns(n: usize, count: usize, seed: u64) -> Vec<(Array1<f64>, f64)> {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) % 1000) as f64 / 1000.0
    };
    (0..count)
        .map(|_| {
            let raw: Array1<f64> = (0..n).map(|_| next() + 0.01).collect();
            let v = &raw * (n as f64 / raw.sum());
            let value = v.iter().map(|x| x * x.ln().max(0.0)).sum::<f64>() / n as f64;
            (v, value)
        })
        .collect()
}

/// Optimality by the certificate: `lambda . v >= c` for every column, `V theta
/// = 1` with theta >= 0, and `sum lambda = c . theta` (strong duality).
fn assert_certified(s: &MasterSolution, ones: f64, columns: &[(Array1<f64>, f64)]) {
    let n = s.dual.len();
    assert!(s.feasible);
    assert!(s.dual.sum() >= ones - 1e-12);
    let mut rows = Array1::<f64>::ones(n) * s.theta[0];
    for (k, (v, c)) in columns.iter().enumerate() {
        assert!(s.dual.dot(v) >= c - 1e-11, "column {k} prices in");
        assert!(s.theta[k + 1] >= 0.0);
        rows.scaled_add(s.theta[k + 1], v);
    }
    assert!(rows.iter().all(|&x| (x - 1.0).abs() < 1e-10), "{rows}");
    assert!((s.dual.sum() - s.value).abs() < 1e-11 * (1.0 + s.value.abs()));
}

fn master_over(n: usize, ones: f64, columns: &[(Array1<f64>, f64)]) -> Master {
    let mut m = Master::new(n, ones);
    for (v, c) in columns {
        m.push(v.view(), *c);
    }
    m
}

/// A pool larger than one partial pricing step, solved in one go and warm
/// after columns are added, reaches the certified optimum; the cold and warm
/// solves agree on the value.
#[test]
fn partial_pricing_and_warm_start_reach_the_certified_optimum() {
    let n = 12;
    let columns = random_columns(n, 2 * PARTIAL_PRICING + 300, 11);
    let (first, rest) = columns.split_at(PARTIAL_PRICING + 100);
    let mut warm = master_over(n, 0.0, first);
    let s = warm.optimise().unwrap();
    assert_certified(&s, 0.0, first);
    for (v, c) in rest {
        warm.push(v.view(), *c);
    }
    let warm_s = warm.optimise().unwrap();
    assert_certified(&warm_s, 0.0, &columns);
    let cold_s = master_over(n, 0.0, &columns).optimise().unwrap();
    assert_certified(&cold_s, 0.0, &columns);
    assert!((warm_s.value - cold_s.value).abs() < 1e-12);
    assert!(warm_s.value >= s.value - 1e-12);
}

/// Many refactorisations (a basis of 80 rows, more pivots than
/// [`REFACTOR_EVERY`]) and a retained pool keep the optimum certified.
#[test]
fn refactorisations_and_retirement_keep_the_optimum() {
    let n = 80;
    let columns = random_columns(n, 1500, 5);
    let mut m = master_over(n, 0.0, &columns);
    let s = m.optimise().unwrap();
    assert_certified(&s, 0.0, &columns);
    // Retire every second non-basic column: the basis stays optimal.
    let keep: Vec<bool> = (0..=columns.len()).map(|j| j % 2 == 0).collect();
    let kept = m.retain(&keep);
    let again = m.optimise().unwrap();
    assert!((again.value - s.value).abs() < 1e-12);
    let kept_columns: Vec<_> = kept[1..].iter().map(|&j| columns[j - 1].clone()).collect();
    assert_certified(&again, 0.0, &kept_columns);
}

/// A singular start (two equal columns) is refused and leaves the master as it
/// was; equal columns in the pool do not stop it.
#[test]
fn singular_start_is_refused() {
    let n = 4;
    let mut columns = random_columns(n, 30, 3);
    columns.push(columns[0].clone());
    let mut m = master_over(n, 0.1, &columns);
    assert!(!m.start_from(&[1, columns.len(), 2, 3]));
    let s = m.optimise().unwrap();
    assert_certified(&s, 0.1, &columns);
}

/// A degenerate master (the optimum's basis holds zeros, many ties) with a
/// deadline already past returns a primal feasible basis at once, and the
/// full solve afterwards is still optimal.
#[test]
fn deadline_returns_a_feasible_basis() {
    let n = 5;
    let columns: Vec<(Array1<f64>, f64)> = (0..n)
        .map(|y| {
            let mut v = Array1::zeros(n);
            v[y] = n as f64;
            (v, 1.0)
        })
        .chain(random_columns(n, 40, 9))
        .collect();
    let mut m = master_over(n, 0.0, &columns);
    m.set_deadline(Some(Instant::now()), &Interrupt::default());
    let early = m.optimise().unwrap();
    assert!(early.feasible);
    m.set_deadline(None, &Interrupt::default());
    let s = m.optimise().unwrap();
    assert_certified(&s, 0.0, &columns);
    assert!((s.value - 1.0).abs() < 1e-12);
}
