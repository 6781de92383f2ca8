//! Estimating the input distribution from released counts (docs/theory.md §13):
//! the inversion estimate is unbiased, the intervals cover at their level, EM's
//! estimate is a fixed point at least as likely as the projected inversion,
//! inputs released alike are estimated as one group, and bad input is refused.

use crate::common::Rng;
use ndarray::{Array2, array};
use pmldesign_model::Mechanism;
use pmldesign_model::frequency::{
    FrequencyMethod, FrequencySettings, equal_rows, estimate_frequencies, estimate_functionals,
    identifiable_groups,
};

/// k-ary randomized response at level eps.
pub(crate) fn randomized_response(k: usize, eps: f64) -> Mechanism {
    let e = eps.exp();
    let d = e + k as f64 - 1.0;
    Mechanism::new(Array2::from_shape_fn((k, k), |(x, y)| {
        if x == y { e / d } else { 1.0 / d }
    }))
    .unwrap()
}

/// Counts of `m` rows drawn from p and released through w.
pub(crate) fn released(rng: &mut Rng, w: &Mechanism, p: &[f64], m: usize) -> Vec<u64> {
    let w = w.matrix();
    let q: Vec<f64> = (0..w.ncols())
        .map(|y| p.iter().enumerate().map(|(x, px)| px * w[[x, y]]).sum())
        .collect();
    let mut counts = vec![0u64; q.len()];
    for _ in 0..m {
        let u = rng.unit();
        let mut acc = 0.0;
        let y = q
            .iter()
            .position(|qy| {
                acc += qy;
                u < acc
            })
            .unwrap_or(q.len() - 1);
        counts[y] += 1;
    }
    counts
}

pub(crate) fn settings(method: FrequencyMethod) -> FrequencySettings {
    FrequencySettings {
        method,
        ..FrequencySettings::default()
    }
}

/// 400 repetitions of 10^4 rows through 4-ary randomized response at eps = 1:
/// the unprojected inversion estimate's mean is within 3 standard errors of
/// p, and the 95 % intervals of both methods cover each mass in 92-98 % of
/// repetitions (observed at this seed: 0.94, 0.945, 0.96 and 0.9425 for both).
#[test]
fn inversion_is_unbiased_and_the_intervals_cover() {
    let p = [0.4, 0.3, 0.2, 0.1];
    let w = randomized_response(4, 1.0);
    let mut rng = Rng(37);
    let reps = 400;
    let mut sum = [0.0; 4];
    let mut se = [0.0; 4];
    let mut covered = [[0usize; 4]; 2];
    for _ in 0..reps {
        let counts = released(&mut rng, &w, &p, 10_000);
        for (k, method) in [FrequencyMethod::Inversion, FrequencyMethod::Em]
            .into_iter()
            .enumerate()
        {
            let e = estimate_frequencies(&w, &counts, &settings(method)).unwrap();
            assert_eq!(e.groups.len(), 4);
            for x in 0..4 {
                covered[k][x] += usize::from(e.lower[x] <= p[x] && p[x] <= e.upper[x]);
                if k == 0 {
                    sum[x] += e.unprojected[x];
                    se[x] = e.standard_error[x];
                }
            }
        }
    }
    for x in 0..4 {
        let mean = sum[x] / reps as f64;
        let tolerance = 3.0 * se[x] / (reps as f64).sqrt();
        assert!((mean - p[x]).abs() <= tolerance, "x = {x}: mean {mean}");
        for (k, c) in covered.iter().enumerate() {
            let rate = c[x] as f64 / reps as f64;
            eprintln!("method {k}, x = {x}: coverage {rate}");
            assert!(
                (0.92..=0.98).contains(&rate),
                "method {k}, x = {x}: coverage {rate}"
            );
        }
    }
}

/// EM's estimate is a fixed point of its update and at least as likely as the
/// projected inversion estimate (here inversion leaves the simplex).
#[test]
fn em_is_a_fixed_point_at_least_as_likely_as_inversion() {
    let w = randomized_response(5, 0.5);
    let mut rng = Rng(11);
    let counts = released(&mut rng, &w, &[0.6, 0.3, 0.1, 0.0, 0.0], 500);
    let inv = estimate_frequencies(&w, &counts, &settings(FrequencyMethod::Inversion)).unwrap();
    assert!(
        inv.unprojected.iter().any(|&v| v < 0.0),
        "{:?}",
        inv.unprojected
    );
    let em = estimate_frequencies(&w, &counts, &settings(FrequencyMethod::Em)).unwrap();
    assert!(em.converged);
    assert!(em.log_likelihood >= inv.log_likelihood - 1e-9);
    let m = w.matrix();
    let n: Vec<f64> = counts.iter().map(|&c| c as f64).collect();
    let total: f64 = n.iter().sum();
    let q: Vec<f64> = (0..5)
        .map(|y| (0..5).map(|x| em.estimate[x] * m[[x, y]]).sum())
        .collect();
    for x in 0..5 {
        let step: f64 = (0..5).map(|y| n[y] / total * m[[x, y]] / q[y]).sum();
        assert!(
            (em.estimate[x] * step - em.estimate[x]).abs() < 1e-5,
            "x = {x}"
        );
    }
    for e in [&inv, &em] {
        assert!((e.estimate.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(e.estimate.iter().all(|&v| v >= 0.0));
    }
}

/// Inputs with equal rows form one group: only its total is estimated.
#[test]
fn inputs_released_alike_are_estimated_as_one_group() {
    let w = Mechanism::new(array![
        [0.7, 0.2, 0.1],
        [0.1, 0.2, 0.7],
        [0.7, 0.2, 0.1],
        [0.2, 0.6, 0.2]
    ])
    .unwrap();
    assert_eq!(equal_rows(&w), vec![vec![0, 2], vec![1], vec![3]]);
    let e = estimate_frequencies(&w, &[500, 300, 200], &FrequencySettings::default()).unwrap();
    assert_eq!(e.groups, vec![vec![0, 2], vec![1], vec![3]]);
    assert_eq!(e.estimate.len(), 3);
    assert_eq!(e.rows, 1000);
}

/// The signature-filtered grouping equals the plain first-fit over every group,
/// on mechanisms with repeated rows, rows moved by 1e-13 (equal) and by 1e-11
/// (distinct), at random sizes.
#[test]
fn grouping_by_signature_equals_first_fit_over_every_group() {
    let first_fit = |w: &Array2<f64>| {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for x in 0..w.nrows() {
            let same = |g: &Vec<usize>| {
                w.row(g[0])
                    .iter()
                    .zip(w.row(x))
                    .all(|(a, b)| (a - b).abs() <= 1e-12)
            };
            match groups.iter_mut().find(|g| same(g)) {
                Some(g) => g.push(x),
                None => groups.push(vec![x]),
            }
        }
        groups
    };
    let mut rng = Rng(41);
    for case in 0..200 {
        let (n, m) = (2 + case % 23, 2 + (case * 7) % 11);
        let distinct = 1 + case % n;
        let base = Array2::from_shape_fn((distinct, m), |_| 0.1 + rng.unit());
        let w = Array2::from_shape_fn((n, m), |(x, y)| {
            let row = (x * 5 + case) % distinct;
            let nudge = match (x + case) % 4 {
                0 => 1e-13,
                1 => 1e-11,
                _ => 0.0,
            };
            base[[row, y]] + if y == x % m { nudge } else { 0.0 }
        });
        let sums = w.sum_axis(ndarray::Axis(1));
        let w = Array2::from_shape_fn((n, m), |(x, y)| w[[x, y]] / sums[x]);
        let expected = first_fit(&w);
        let mechanism = Mechanism::new(w).unwrap();
        assert_eq!(equal_rows(&mechanism), expected, "case {case}");
    }
}

/// Bad input is refused naming the field.
#[test]
fn bad_input_is_refused_naming_the_field() {
    let w = randomized_response(3, 1.0);
    let err = |counts: &[u64], s: &FrequencySettings| {
        estimate_frequencies(&w, counts, s).unwrap_err().to_string()
    };
    let s = FrequencySettings::default();
    assert!(err(&[1, 2], &s).contains("counts"));
    assert!(err(&[0, 0, 0], &s).contains("counts"));
    let bad = FrequencySettings {
        confidence: 1.0,
        ..FrequencySettings::default()
    };
    assert!(err(&[1, 2, 3], &bad).contains("confidence"));
    // A count of an output no input can release.
    let never = Mechanism::new(array![[0.5, 0.5, 0.0], [0.25, 0.75, 0.0]]).unwrap();
    let e = estimate_frequencies(&never, &[3, 4, 1], &s)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("counts[2]") && e.contains("never releases"),
        "{e}"
    );
}

/// Distinct rows that are linearly dependent, the third the mean of the
/// others: only the total of all three is determined, which is 1 for certain.
#[test]
fn dependent_rows_of_every_input_give_one_group_of_mass_1() {
    let dependent = Mechanism::new(array![[0.8, 0.2], [0.2, 0.8], [0.5, 0.5]]).unwrap();
    assert_eq!(
        identifiable_groups(&dependent).unwrap(),
        vec![vec![0, 1, 2]]
    );
    for method in [FrequencyMethod::Em, FrequencyMethod::Inversion] {
        let e = estimate_frequencies(&dependent, &[5, 5], &settings(method)).unwrap();
        assert_eq!(e.groups, vec![vec![0, 1, 2]], "{method:?}");
        assert_eq!(e.dependent, vec![true]);
        assert!((e.estimate[0] - 1.0).abs() < 1e-12, "{e:?}");
        assert!(e.standard_error[0] < 1e-12, "{e:?}");
        assert!((e.lower[0] - 1.0).abs() < 1e-9 && (e.upper[0] - 1.0).abs() < 1e-9);
    }
}

/// Six inputs over four outputs: rows 0 and 5 equal, row 2 the mean of rows 3
/// and 4, rows 0, 1, 3 and 4 independent; so {0, 5} is a group of equal rows,
/// 1 is identifiable alone and {2, 3, 4} only together. Blended by an
/// invertible stochastic matrix (which keeps `null(W^T)`) so that no entry is
/// special.
fn with_a_block() -> Mechanism {
    let raw = array![
        [0.7, 0.1, 0.1, 0.1],
        [0.1, 0.7, 0.1, 0.1],
        [0.1, 0.1, 0.4, 0.4],
        [0.1, 0.1, 0.7, 0.1],
        [0.1, 0.1, 0.1, 0.7],
        [0.7, 0.1, 0.1, 0.1],
    ];
    let blend = Array2::from_shape_fn((4, 4), |(a, b)| if a == b { 0.7 } else { 0.1 });
    Mechanism::new(raw.dot(&blend)).unwrap()
}

/// Design time: the identity releases the empirical distribution, whose
/// expected squared error from m rows is `(1 - sum p^2) / m`; merged inputs
/// are reported as one group.
#[test]
fn estimability_has_its_closed_forms() {
    use pmldesign_model::frequency::estimability;
    let p = [0.5, 0.3, 0.2];
    let id = Mechanism::new(Array2::eye(3)).unwrap();
    let e = estimability(&id, &p).unwrap();
    let want = 1.0 - p.iter().map(|x| x * x).sum::<f64>();
    assert!((e.error_per_row.unwrap() - want).abs() < 1e-12);
    let merged = Mechanism::new(array![[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]).unwrap();
    let e = estimability(&merged, &p).unwrap();
    assert_eq!(e.groups, vec![vec![0, 1], vec![2]]);
    // Groups of mass 0.8 and 0.2: 2 * 0.8 * 0.2.
    assert!((e.error_per_row.unwrap() - 0.32).abs() < 1e-12);
    let dependent = Mechanism::new(array![[0.8, 0.2], [0.2, 0.8], [0.5, 0.5]]).unwrap();
    let e = estimability(&dependent, &p).unwrap();
    assert_eq!(e.error_per_row, None);
    // The design-time figures name the block the data determine only in total.
    assert_eq!(e.groups, vec![vec![0, 1, 2]]);
    let six = [0.1, 0.2, 0.15, 0.25, 0.2, 0.1];
    let e = estimability(&with_a_block(), &six).unwrap();
    assert_eq!(e.groups, vec![vec![0, 5], vec![1], vec![2, 3, 4]]);
}

/// Functionals `a . p`: a single input's mass where the inputs are identifiable
/// meets EM's estimate and its error (the inverse Fisher information, here at a
/// maximum on the boundary); where two
/// inputs are released alike their total is identifiable and each alone is not;
/// the total mass is always 1 with no error.
#[test]
fn functionals_are_estimated_where_the_data_determine_them() {
    let settings = settings(FrequencyMethod::Em);
    let rr = randomized_response(3, 1.0);
    let counts = [500, 300, 200];
    let whole = estimate_frequencies(&rr, &counts, &settings).unwrap();
    let unit = |x: usize| {
        (0..3)
            .map(|i| f64::from(u8::from(i == x)))
            .collect::<Vec<f64>>()
    };
    let f =
        estimate_functionals(&rr, &counts, &[unit(0), unit(2), vec![1.0; 3]], &settings).unwrap();
    for (k, x) in [(0, 0), (1, 2)] {
        let v = &f.values[k];
        assert!((v.estimate - whole.estimate[x]).abs() < 1e-8, "{v:?}");
        let se = v.standard_error.unwrap();
        assert!(
            (se - whole.standard_error[x]).abs() < 1e-8 * (1.0 + se),
            "{v:?}"
        );
    }
    let total = &f.values[2];
    assert!((total.estimate - 1.0).abs() < 1e-12 && total.standard_error.unwrap() < 1e-9);
    // Inputs 0 and 1 released alike.
    let w = Mechanism::new(array![[0.6, 0.4], [0.6, 0.4], [0.1, 0.9]]).unwrap();
    let counts = [450, 550];
    let grouped = estimate_frequencies(&w, &counts, &settings).unwrap();
    let f = estimate_functionals(&w, &counts, &[vec![1.0, 1.0, 0.0], unit(0)], &settings).unwrap();
    let (pair, alone) = (&f.values[0], &f.values[1]);
    assert!(pair.identifiable && !alone.identifiable && alone.standard_error.is_none());
    assert!(
        (pair.estimate - grouped.estimate[0]).abs() < 1e-8,
        "{pair:?}"
    );
    let se = pair.standard_error.unwrap();
    assert!(
        (se - grouped.standard_error[0]).abs() < 1e-8,
        "{pair:?} {grouped:?}"
    );
    let e = estimate_functionals(&w, &counts, &[vec![1.0]], &settings).unwrap_err();
    assert!(e.to_string().contains("functionals[0]"), "{e}");
}

/// Groups of equal rows, an input identifiable alone and a block of three
/// whose rows are linearly dependent, found and estimated: with counts at the
/// expected frequencies both methods give the true totals.
#[test]
fn a_block_of_dependent_rows_is_estimated_by_its_total() {
    let w = with_a_block();
    let want = vec![vec![0, 5], vec![1], vec![2, 3, 4]];
    assert_eq!(identifiable_groups(&w).unwrap(), want);
    let p = [0.2, 0.15, 0.1, 0.25, 0.2, 0.1];
    let m = w.matrix();
    let counts: Vec<u64> = (0..m.ncols())
        .map(|y| (1e9 * (0..6).map(|x| p[x] * m[[x, y]]).sum::<f64>()).round() as u64)
        .collect();
    let truth = [0.3, 0.15, 0.55];
    for method in [FrequencyMethod::Em, FrequencyMethod::Inversion] {
        let e = estimate_frequencies(&w, &counts, &settings(method)).unwrap();
        assert_eq!(e.groups, want, "{method:?}");
        assert_eq!(e.dependent, vec![false, false, true]);
        for (g, t) in truth.iter().enumerate() {
            assert!((e.estimate[g] - t).abs() < 1e-6, "{method:?} {e:?}");
            assert!(e.lower[g] < *t && *t < e.upper[g], "{method:?} {e:?}");
        }
        let q: f64 = e.fitted.iter().sum();
        assert!((q - 1.0).abs() < 1e-9, "{e:?}");
    }
}

/// Two blocks whose null vectors the decomposition mixes: reduced to
/// row-echelon form they separate, beside an input identifiable alone.
#[test]
fn reduction_separates_independent_blocks() {
    let a = |x: usize| Array2::from_shape_fn((1, 5), |(_, y)| if y == x { 0.6 } else { 0.1 });
    let rows = [a(4), a(0), a(2), a(1), a(3)];
    let mut w = Array2::zeros((7, 5));
    for (x, r) in rows.iter().enumerate() {
        w.row_mut(x).assign(&r.row(0));
    }
    let mean = |i: usize, j: usize| (&w.row(i) + &w.row(j)) / 2.0;
    let (five, six) = (mean(1, 3), mean(2, 4));
    w.row_mut(5).assign(&five);
    w.row_mut(6).assign(&six);
    let w = Mechanism::new(w).unwrap();
    let groups = identifiable_groups(&w).unwrap();
    assert_eq!(groups, vec![vec![0], vec![1, 3, 5], vec![2, 4, 6]]);
}

/// 400 repetitions of 10^4 rows through [`with_a_block`]: the unprojected
/// inversion estimate of each group's total has its mean within 4 standard
/// errors of the truth, and the 95 % intervals of both methods cover in
/// 92-98 % of repetitions (observed at this seed: 0.95, 0.9475 and 0.9475 for
/// both).
#[test]
fn block_totals_are_unbiased_and_covered() {
    let w = with_a_block();
    let p = [0.2, 0.15, 0.1, 0.25, 0.2, 0.1];
    let truth = [0.3, 0.15, 0.55];
    let (reps, m) = (400, 10_000);
    let mut rng = Rng(29);
    let mut sum = [0.0; 3];
    let mut se = [0.0; 3];
    let mut covered = [[0u32; 3]; 2];
    for _ in 0..reps {
        let counts = released(&mut rng, &w, &p, m);
        for (k, method) in [FrequencyMethod::Inversion, FrequencyMethod::Em]
            .into_iter()
            .enumerate()
        {
            let e = estimate_frequencies(&w, &counts, &settings(method)).unwrap();
            for g in 0..3 {
                covered[k][g] += u32::from(e.lower[g] <= truth[g] && truth[g] <= e.upper[g]);
                if k == 0 {
                    sum[g] += e.unprojected[g];
                    se[g] += e.standard_error[g];
                }
            }
        }
    }
    for g in 0..3 {
        let (mean, se) = (sum[g] / reps as f64, se[g] / reps as f64);
        let tolerance = 4.0 * se / (reps as f64).sqrt();
        assert!(
            (mean - truth[g]).abs() < tolerance,
            "group {g}: {mean} vs {}",
            truth[g]
        );
    }
    let rates = covered.map(|c| c.map(|c| f64::from(c) / reps as f64));
    eprintln!("coverage (inversion, EM): {rates:?}");
    assert!(
        rates.iter().flatten().all(|r| (0.92..=0.98).contains(r)),
        "{rates:?}"
    );
}

/// A loss baseline (a cover by mass at N = 256, outputs merged to guesses: 5 of
/// its 256 outputs used) whose 238 distinct rows faer's SVD did not converge
/// on, which failed the design it came with: its blocks are found, at most
/// rank W (5) of them, covering every input once.
#[test]
fn a_matrix_of_few_used_outputs_has_its_blocks() {
    let text = include_str!("data/svd_baseline.txt");
    let mut w = Array2::zeros((256, 256));
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split(' ').collect();
        let (x, y): (usize, usize) = (f[0].parse().unwrap(), f[1].parse().unwrap());
        w[[x, y]] = f[2].parse::<f64>().unwrap();
    }
    let w = Mechanism::new(w).unwrap();
    let groups = identifiable_groups(&w).unwrap();
    assert!(!groups.is_empty() && groups.len() <= 5, "{}", groups.len());
    let mut inputs: Vec<usize> = groups.concat();
    inputs.sort_unstable();
    assert_eq!(inputs, (0..256).collect::<Vec<_>>());
    // The total is always identifiable (`W 1 = 1`): its estimate is the share of
    // the rows counted, 1, whatever the counts on the outputs used.
    let used = |y: usize| (0..256).any(|x| w.matrix()[[x, y]] > 0.0);
    let counts: Vec<u64> = (0..256)
        .map(|y| if used(y) { 10 + y as u64 } else { 0 })
        .collect();
    let f = estimate_functionals(
        &w,
        &counts,
        &[vec![1.0; 256]],
        &settings(FrequencyMethod::Inversion),
    )
    .unwrap();
    assert!(
        f.values[0].identifiable && (f.values[0].estimate - 1.0).abs() < 1e-9,
        "{:?}",
        f.values[0]
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
    /// The figures' test of independence (a positive definite Fisher
    /// information of the distinct rows) agrees with the rank test of the
    /// groups (QR or LU of the rows): over random mechanisms with a repeated
    /// row, a row the mean of two others, or fewer outputs than inputs, the
    /// groups are the same and the error is defined exactly where the groups
    /// are the equal rows.
    #[test]
    fn the_figures_and_the_rank_test_find_the_same_groups(
        raw in proptest::collection::vec(0.0f64..1.0, 24),
        masses in proptest::collection::vec(0.0f64..1.0, 4),
        pattern in 0usize..4,
    ) {
        use pmldesign_model::frequency::estimability;
        let outputs = if pattern == 3 { 3 } else { 6 };
        let mut rows: Vec<Vec<f64>> = raw.chunks(6).map(|r| {
            let r = &r[..outputs];
            let s: f64 = r.iter().sum::<f64>() + outputs as f64 * 1e-3;
            r.iter().map(|v| (v + 1e-3) / s).collect()
        }).collect();
        match pattern {
            1 => rows[3] = rows[0].clone(),
            2 => rows[3] = rows[0].iter().zip(&rows[1]).map(|(a, b)| 0.5 * (a + b)).collect(),
            _ => {}
        }
        let w = Mechanism::from_rows(rows).unwrap();
        let total: f64 = masses.iter().sum::<f64>() + 4e-3;
        let p: Vec<f64> = masses.iter().map(|m| (m + 1e-3) / total).collect();
        let e = estimability(&w, &p).unwrap();
        proptest::prop_assert_eq!(&e.groups, &identifiable_groups(&w).unwrap());
        proptest::prop_assert_eq!(e.error_per_row.is_some(), e.groups == equal_rows(&w));
        if let Some(error) = e.error_per_row {
            // At least the raw sample's error of the groups' masses.
            let mass = |g: &Vec<usize>| g.iter().map(|&x| p[x]).sum::<f64>();
            let raw: f64 = 1.0 - e.groups.iter().map(|g| mass(g).powi(2)).sum::<f64>();
            proptest::prop_assert!(error >= raw - 1e-9, "{error} below {raw}");
        }
    }
}
