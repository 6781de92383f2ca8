//! PML envelopes (\[V\] "Information leakage envelopes", `docs/theory.md` §8): the
//! paper's examples, the closed forms of Theorems 4 and 5, and the post-processing
//! property the upper bound exists for.

use crate::common::{Rng, example2, extremal, randomized_response};
use approx::assert_abs_diff_eq;
use ndarray::Array2;
use pmldesign_model::envelope::{
    self, Envelope, LeakageDistribution, RandomizedResponseEnvelope, binary_envelope, psi1, psi2,
};
use pmldesign_model::{Mechanism, Prior, measures};
use proptest::prelude::*;

/// The post-processing `Z = W P` for a row-stochastic `P` (`M x K`).
fn post_process(w: &Mechanism, p: &Array2<f64>) -> Mechanism {
    Mechanism::new(w.matrix().dot(p)).unwrap()
}

/// The deterministic merge `y -> h[y]` as a 0/1 matrix.
fn merge(h: &[usize], k: usize) -> Array2<f64> {
    Array2::from_shape_fn((h.len(), k), |(y, z)| f64::from(h[y] == z))
}

/// The four-level prior of \[V\] Sec. V-B (k divisible by 4).
fn four_level(k: usize, rho: f64) -> Prior {
    let m = [1.0 - 3.0 * rho, 1.0 - rho, 1.0 + rho, 1.0 + 3.0 * rho];
    Prior::new((0..k).map(|i| m[4 * i / k] / k as f64).collect::<Vec<_>>()).unwrap()
}

const LN4: f64 = std::f64::consts::LN_2 * 2.0;

#[test]
fn example2_and_example3() {
    let (w, p) = example2();
    let ln109 = (10.0f64 / 9.0).ln();
    let pml: Vec<f64> = measures::pml_per_outcome(&w, &p)
        .into_iter()
        .map(Option::unwrap)
        .collect();
    for (got, want) in pml.iter().zip([LN4, LN4, ln109, ln109]) {
        assert_abs_diff_eq!(*got, want, epsilon = 1e-12);
    }
    // (ln 10/9, 0.1)-probabilistic PML.
    assert_abs_diff_eq!(
        measures::tail_probability(&w, &p, ln109 + 1e-9),
        0.1,
        epsilon = 1e-12
    );

    // Outputs 3 and 4 are similar: the reduced mechanism of [V] App. A.
    let (reduced, groups) = envelope::reduce(&w).unwrap();
    assert_eq!(groups, vec![vec![0], vec![1], vec![2, 3]]);
    let want = [
        [0.0, 0.0, 1.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.2, 0.8],
        [0.2, 0.0, 0.8],
    ];
    for (x, row) in want.iter().enumerate() {
        for (y, v) in row.iter().enumerate() {
            assert_abs_diff_eq!(reduced.matrix()[[x, y]], *v, epsilon = 1e-15);
        }
    }
    let dist = LeakageDistribution::new(&w, &p).unwrap();
    assert_eq!(dist.atoms.len(), 3);
    assert_abs_diff_eq!(dist.atoms[0].pml, ln109, epsilon = 1e-12);
    assert_abs_diff_eq!(dist.atoms[0].probability, 0.9, epsilon = 1e-12);
    assert_eq!(dist.atoms[0].outputs, vec![2, 3]);

    // Example 3 at delta = 0.1.
    assert_abs_diff_eq!(dist.left_quantile(0.1).unwrap(), ln109, epsilon = 1e-12);
    assert_abs_diff_eq!(dist.right_quantile(0.1).unwrap(), LN4, epsilon = 1e-12);
    // ... and the envelope is ln 4 on (0, 0.1].
    let env = Envelope::new(&w, &p).unwrap();
    for delta in [1e-6, 0.001, 0.03, 0.05, 0.0999, 0.1] {
        let b = env.bounds(delta).unwrap();
        assert!(b.exact, "{b:?}");
        assert_abs_diff_eq!(b.envelope().unwrap(), LN4, epsilon = 1e-12);
    }
    // Beyond 0.1 the raw quantiles drop to ln 10/9, the envelope bounds do not meet.
    let b = env.bounds(0.2).unwrap();
    assert_abs_diff_eq!(b.right_quantile, ln109, epsilon = 1e-12);
    assert!(!b.exact && b.lower < b.upper);
    // Algorithm 1 at 0.2: x = 4 takes y1 whole and a third of the similar pair.
    assert_abs_diff_eq!(
        b.binary,
        (0.2f64 + 0.4 / 3.0).ln() - 0.2f64.ln(),
        epsilon = 1e-12
    );

    // Z = h(Y) merges {1, 3} and {2, 4}: both outcomes leak ln 6/5 > ln 10/9.
    let z = post_process(&w, &merge(&[0, 1, 0, 1], 2));
    for l in measures::pml_per_outcome(&z, &p) {
        assert_abs_diff_eq!(l.unwrap(), (1.2f64).ln(), epsilon = 1e-12);
    }

    // Theorem 1 (i): psi_1 rises from 13/180 to 2/27 under this post-processing.
    assert_abs_diff_eq!(psi1(&w, &p, ln109).unwrap(), 13.0 / 180.0, epsilon = 1e-12);
    assert_abs_diff_eq!(psi1(&z, &p, ln109).unwrap(), 2.0 / 27.0, epsilon = 1e-12);
    // psi_2 is not comparable with the tail (end of Sec. III).
    assert_abs_diff_eq!(psi2(&w, &p, 3f64.ln()).unwrap(), 0.05, epsilon = 1e-12);
    assert_abs_diff_eq!(psi2(&w, &p, ln109).unwrap(), 13.0 / 90.0, epsilon = 1e-12);
    assert!(psi2(&z, &p, ln109).unwrap() <= 13.0 / 90.0 + 1e-12);
}

/// \[V\] Examples 4 and 5: event-wise leakage, read off Algorithm 1.
#[test]
fn algorithm1_on_examples_4_and_5() {
    let w = Mechanism::from_rows(vec![vec![0.9, 0.0, 0.1], vec![0.0, 0.9, 0.1]]).unwrap();
    let p = Prior::uniform(2).unwrap();
    assert_abs_diff_eq!(
        binary_envelope(&w, &p, 0.45).unwrap(),
        2f64.ln(),
        epsilon = 1e-12
    );
    assert_abs_diff_eq!(
        binary_envelope(&w, &p, 0.55).unwrap(),
        -(0.55f64).ln(),
        epsilon = 1e-12
    );
    // Taking every output leaks nothing.
    assert!(binary_envelope(&w, &p, 1.0 - 1e-15).unwrap() < 1e-12);
    for bad in [0.0, 1.0, -0.5, f64::NAN] {
        let msg = binary_envelope(&w, &p, bad).unwrap_err().to_string();
        assert!(msg.contains("delta") && msg.contains("(0, 1)"), "{msg}");
    }
}

/// \[V\] Theorem 4: the high-privacy extremal mechanism has envelope eps at every delta,
/// and the general bounds meet there.
#[test]
fn theorem4_extremal_envelope_is_eps() {
    let mut rng = Rng(7);
    for _ in 0..300 {
        let n = 2 + rng.below(7);
        let p = rng.prior(n);
        let eps = measures::privacy_thresholds(&p)[1] * (0.01 + 0.98 * rng.unit());
        let env = Envelope::new(&extremal(&p, eps), &p).unwrap();
        assert_eq!(env.distribution().atoms.len(), n);
        for delta in [1e-4, 0.01, 0.1, 0.3, 0.5, 0.9, 0.999] {
            let b = env.bounds(delta).unwrap();
            let closed = envelope::high_privacy_envelope(&p, eps, delta).unwrap();
            assert!(b.exact, "{b:?}");
            assert_abs_diff_eq!(b.envelope().unwrap(), closed, epsilon = 1e-12);
            assert_abs_diff_eq!(b.left_quantile, eps, epsilon = 1e-12);
        }
    }
    let p = Prior::new(vec![0.4, 0.2, 0.2, 0.2]).unwrap();
    let limit = -(0.8f64).ln();
    assert!(envelope::high_privacy_envelope(&p, limit, 0.1).is_err());
    assert!(envelope::high_privacy_envelope(&p, -0.1, 0.1).is_err());
    assert!(envelope::high_privacy_envelope(&p, 0.1, 1.0).is_err());
}

/// \[V\] Theorem 5 for k-RR: part (i) is exact (and the general bounds meet there), part
/// (ii) is Theorem 3 computed in closed form, and the part (iii) lower bound never
/// exceeds either upper bound.
#[test]
fn theorem5_randomized_response() {
    let mut rng = Rng(11);
    let mut cases: Vec<(Prior, f64)> = (0..200)
        .map(|_| {
            let k = 2 + rng.below(9);
            (rng.prior(k), 0.05 + 3.0 * rng.unit())
        })
        .collect();
    // The settings of Fig. 2.
    cases.push((Prior::uniform(3).unwrap(), 1.0));
    cases.push((Prior::new(vec![0.1, 0.1, 0.2, 0.3, 0.3]).unwrap(), 1.0));
    cases.push((four_level(12, 0.1), 1.0));
    cases.push((four_level(20, 0.1), 1.0));
    let (mut lower_checked, mut exact_checked) = (0, 0);
    for (p, er) in &cases {
        let k = p.len();
        let w = randomized_response(k, *er);
        let rr = RandomizedResponseEnvelope::new(p, *er).unwrap();
        let env = Envelope::new(&w, p).unwrap();
        assert_abs_diff_eq!(rr.max_pml(), env.max_pml(), epsilon = 1e-12);
        assert_abs_diff_eq!(
            env.maximal_leakage(),
            (k as f64 * rr.alpha).ln(),
            epsilon = 1e-12
        );
        let q1 = rr.sorted_outputs[0];
        let mut deltas: Vec<f64> = (1..60).map(|i| i as f64 / 60.0).collect();
        deltas.extend([q1 * 0.5, q1, q1 * (1.0 + 1e-9), 1e-4]);
        for delta in deltas {
            let general = env.bounds(delta).unwrap();
            let upper = rr.upper_bound(delta).unwrap();
            assert_abs_diff_eq!(upper, general.upper, epsilon = 1e-12);
            if let Some(e) = rr.exact(delta).unwrap() {
                exact_checked += 1;
                assert_abs_diff_eq!(e, rr.max_pml(), epsilon = 0.0);
                assert!(general.exact, "{general:?}");
                assert_abs_diff_eq!(general.envelope().unwrap(), e, epsilon = 1e-12);
            }
            if let Some(h) = rr.lower_bound(delta).unwrap() {
                lower_checked += 1;
                assert!(
                    h <= upper + 1e-12,
                    "k={k} er={er} delta={delta}: {h} > {upper}"
                );
                assert!(h <= general.upper + 1e-12);
                // Never below the PML of the output at index N, which W attains.
                assert!(h >= 0.0);
            }
        }
    }
    assert!(
        exact_checked > 200 && lower_checked > 3000,
        "{exact_checked} {lower_checked}"
    );

    // Uniform prior: every q_j = 1/k, the regimes collapse and h = ln(k alpha).
    let p = Prior::uniform(4).unwrap();
    let rr = RandomizedResponseEnvelope::new(&p, 1.0).unwrap();
    for delta in [0.3, 0.5, 0.8] {
        assert_abs_diff_eq!(
            rr.lower_bound(delta).unwrap().unwrap(),
            (4.0 * rr.alpha).ln(),
            epsilon = 1e-12
        );
    }
    assert!(RandomizedResponseEnvelope::new(&p, 0.0).is_err());
    assert!(RandomizedResponseEnvelope::new(&p, f64::INFINITY).is_err());
}

/// \[V\] Theorem 5 (iii) is attained: the post-processings of its proof (W for the third
/// regime, Z with weights eta for the others), built here from the bound's value alone,
/// have right quantile at least `h_delta(theta)` at delta.
#[test]
fn theorem5_lower_bound_is_attained_by_the_proof_post_processings() {
    let mut rng = Rng(5);
    let mut checked = 0;
    for _ in 0..150 {
        let k = 2 + rng.below(7);
        let mut masses = rng.prior(k).masses().to_vec();
        masses.sort_by(f64::total_cmp);
        let p = Prior::new(masses).unwrap();
        let er = 0.05 + 3.0 * rng.unit();
        let w = randomized_response(k, er);
        let rr = RandomizedResponseEnvelope::new(&p, er).unwrap();
        let (a, b) = (rr.alpha, rr.beta);
        let q = &rr.sorted_outputs;
        let upper = Envelope::new(&w, &p).unwrap();
        for i in 1..40 {
            let delta = i as f64 / 40.0;
            if delta <= q[0] {
                continue;
            }
            let Some(h) = rr.lower_bound(delta).unwrap() else {
                continue;
            };
            checked += 1;
            let mut before = q[0];
            let mut n = 2;
            while n < k && before + q[n - 1] < delta {
                before += q[n - 1];
                n += 1;
            }
            let theta = ((delta - before) / q[n - 1]).min(1.0);
            let post = if (h - (a / q[n - 1]).ln()).abs() < 1e-12 {
                // W: y_j -> j for j < N, y_N -> N w.p. theta, the rest -> N + 1.
                Array2::from_shape_fn((k, n + 1), |(j, z)| match (j + 1).cmp(&n) {
                    std::cmp::Ordering::Less => f64::from(z == j),
                    std::cmp::Ordering::Equal => {
                        if z == n - 1 {
                            theta
                        } else if z == n {
                            1.0 - theta
                        } else {
                            0.0
                        }
                    }
                    std::cmp::Ordering::Greater => f64::from(z == n),
                })
            } else {
                // Z: y_N split with weights eta over z < N (the set B), 1 - theta to N.
                let tau = h.exp();
                let mut eta: Vec<f64> = (0..n - 1)
                    .map(|i| ((a - tau * q[i]) / (tau * q[n - 1] - b)).max(0.0))
                    .collect();
                let sum: f64 = eta.iter().sum();
                assert!(sum >= theta - 1e-9, "eta sums to {sum} < theta {theta}");
                eta.iter_mut().for_each(|e| *e *= theta / sum);
                Array2::from_shape_fn((k, n), |(j, z)| match (j + 1).cmp(&n) {
                    std::cmp::Ordering::Less => f64::from(z == j),
                    std::cmp::Ordering::Equal => {
                        if z + 1 < n {
                            eta[z]
                        } else {
                            1.0 - theta
                        }
                    }
                    std::cmp::Ordering::Greater => f64::from(z + 1 == n),
                })
            };
            let z = post_process(&w, &post);
            let got = LeakageDistribution::new(&z, &p)
                .unwrap()
                .right_quantile(delta)
                .unwrap();
            assert!(got >= h - 1e-9, "k={k} er={er} delta={delta}: {got} < {h}");
            assert!(got <= upper.bounds(delta).unwrap().upper + 1e-9);
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// Identities of the quantiles and bounds on random mechanisms: the left quantile is
/// the smallest eps of the tail curve with tail at most delta; left <= right; the
/// bounds are ordered and non-increasing in delta.
#[test]
fn quantiles_and_bounds_on_random_mechanisms() {
    let mut rng = Rng(2026);
    for _ in 0..500 {
        let n = 2 + rng.below(5);
        let m = 1 + rng.below(7);
        let w = rng.mechanism(n, m);
        let p = rng.prior(n);
        let env = Envelope::new(&w, &p).unwrap();
        let mass: f64 = env.distribution().atoms.iter().map(|a| a.probability).sum();
        assert_abs_diff_eq!(mass, 1.0, epsilon = 1e-12);
        assert_abs_diff_eq!(env.max_pml(), measures::eps_min(&w, &p), epsilon = 1e-12);
        let tail = measures::tail_curve(&w, &p);
        let mut previous: Option<envelope::EnvelopeBounds> = None;
        for i in 1..40 {
            let delta = i as f64 / 40.0;
            let b = env.bounds(delta).unwrap();
            let from_tail = tail
                .iter()
                .find(|(_, d)| *d <= delta + 1e-12)
                .map(|(e, _)| *e)
                .unwrap();
            assert_abs_diff_eq!(b.left_quantile, from_tail, epsilon = 1e-9);
            assert!(b.left_quantile <= b.right_quantile + 1e-15);
            assert!(b.right_quantile <= b.upper + 1e-12, "{b:?}");
            assert!(b.binary <= b.upper + 1e-12, "{b:?}");
            assert!(b.lower <= b.upper && b.binary >= 0.0);
            if let Some(prev) = previous {
                assert!(b.upper <= prev.upper + 1e-15);
                assert!(b.right_quantile <= prev.right_quantile + 1e-15);
            }
            previous = Some(b);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    /// Post-processing: for a random mechanism and a random merge of its outputs
    /// followed by random splitting, the raw quantiles (left and right) and the binary
    /// envelope of the post-processed mechanism never exceed the Theorem 3 upper bound
    /// of the original; psi_2 never increases (\[V\] Theorem 1 (ii)).
    #[test]
    fn post_processing_stays_below_the_upper_bound(
        raw in proptest::collection::vec(0.0f64..1.0, 12),
        masses in proptest::collection::vec(0.05f64..1.0, 3),
        h in proptest::collection::vec(0usize..3, 4),
        split in proptest::collection::vec(0.0f64..1.0, 12),
        delta in 0.001f64..0.999,
        eps in 0.0f64..2.0,
    ) {
        let rows: Vec<Vec<f64>> = raw.chunks(4).map(|r| {
            let s: f64 = r.iter().sum::<f64>() + 4e-9;
            r.iter().map(|v| (v + 1e-9) / s).collect()
        }).collect();
        let w = Mechanism::from_rows(rows).unwrap();
        let p = Prior::normalised(masses).unwrap();
        let upper = Envelope::new(&w, &p).unwrap().bounds(delta).unwrap().upper;
        // A deterministic merge into 3 symbols, then a random channel 3 -> 4.
        let k = merge(&h, 3);
        let s = Array2::from_shape_fn((3, 4), |(a, b)| split[4 * a + b] + 1e-9);
        let s = &s / &s.sum_axis(ndarray::Axis(1)).insert_axis(ndarray::Axis(1));
        for post in [k.clone(), k.dot(&s)] {
            let z = post_process(&w, &post);
            let bz = Envelope::new(&z, &p).unwrap().bounds(delta).unwrap();
            prop_assert!(bz.left_quantile <= upper + 1e-9, "{bz:?} vs {upper}");
            prop_assert!(bz.right_quantile <= upper + 1e-9, "{bz:?} vs {upper}");
            prop_assert!(bz.binary <= upper + 1e-9, "{bz:?} vs {upper}");
            prop_assert!(bz.upper <= upper + 1e-9);
            prop_assert!(psi2(&z, &p, eps).unwrap() <= psi2(&w, &p, eps).unwrap() + 1e-12);
        }
    }
}

/// \[V\] Algorithm 1 as written: every x's outputs fully sorted by decreasing
/// `s_x(y)` (stable), then taken up to mass delta.
fn binary_envelope_by_full_sort(w: &Mechanism, p: &Prior, delta: f64) -> f64 {
    let q = w.output_marginal(p);
    let m = w.matrix();
    let mut best: f64 = 0.0;
    for x in 0..w.inputs() {
        let mut order: Vec<usize> = (0..q.len()).filter(|&y| q[y] > 0.0).collect();
        order.sort_by(|&a, &b| (m[[x, b]] / q[b]).total_cmp(&(m[[x, a]] / q[a])));
        let (mut mass, mut conditional, mut value) = (0.0, 0.0, None);
        for &y in &order {
            if mass + q[y] >= delta - 1e-12 {
                let zeta = ((delta - mass) / q[y]).clamp(0.0, 1.0);
                value = Some((conditional + zeta * m[[x, y]]) / delta);
                break;
            }
            mass += q[y];
            conditional += m[[x, y]];
        }
        best = best.max(value.unwrap_or(conditional / mass.max(f64::MIN_POSITIVE)));
    }
    best.ln().max(0.0)
}

/// The outputs selected a few at a time give the full sort's bits: mechanisms
/// with ties (entries from a few levels), never-observed outputs, and deltas
/// from one output's mass to nearly all.
#[test]
fn algorithm1_selecting_outputs_is_the_full_sort() {
    let mut rng = Rng(38);
    for (n, k) in [(2, 2), (3, 9), (5, 40), (12, 200)] {
        let p = rng.prior(n);
        let raw = Array2::from_shape_fn((n, k), |(_, y)| match (y % 7, rng.below(3)) {
            (0, _) => 0.0,
            (_, 0) => 1.0,
            (_, 1) => 2.0,
            _ => rng.unit(),
        });
        let rows = raw.sum_axis(ndarray::Axis(1));
        let w = Mechanism::new(&raw / &rows.insert_axis(ndarray::Axis(1))).unwrap();
        for delta in [1e-3, 0.05, 0.3, 0.9, 1.0 - 1e-9] {
            let got = binary_envelope(&w, &p, delta).unwrap();
            let want = binary_envelope_by_full_sort(&w, &p, delta);
            assert_eq!(got.to_bits(), want.to_bits(), "n {n} k {k} delta {delta}");
        }
    }
}
