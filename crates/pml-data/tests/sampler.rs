//! Sampling a mechanism: empirical transition frequencies against `W`, additive noise
//! against its distribution, reproducibility, and the CSV stream.

use pml_data::sampler::{
    AdditiveNoise, AliasTable, BinaryAdditivePrivatiser, CategoricalPrivatiser, MechanismSampler,
    seeded_rng,
};
use pml_data::{OnUnknown, Placement, PrivatiseError, privatise_column};
use pml_model::Mechanism;
use proptest::prelude::*;

/// [E] Example 1: the first-region extremal mechanism for p = (2/5, 1/5, 1/5, 1/5) at
/// eps = ln(9/8).
fn example1() -> Mechanism {
    Mechanism::from_rows(vec![
        vec![0.325, 0.225, 0.225, 0.225],
        vec![0.45, 0.1, 0.225, 0.225],
        vec![0.45, 0.225, 0.1, 0.225],
        vec![0.45, 0.225, 0.225, 0.1],
    ])
    .unwrap()
}

/// A 10 x 10 mechanism with uneven rows and zeros (the 2-singular mechanism of
/// [E] Example 2 mixed with skewed rows).
fn ten_by_ten() -> Mechanism {
    let rows = (0..10)
        .map(|x| {
            let w: Vec<f64> = (0..10)
                .map(|y| {
                    if (x + y) % 4 == 3 {
                        0.0
                    } else {
                        1.0 + ((x * 7 + y * 3) % 11) as f64
                    }
                })
                .collect();
            let s: f64 = w.iter().sum();
            w.into_iter().map(|v| v / s).collect()
        })
        .collect();
    Mechanism::from_rows(rows).unwrap()
}

/// Asserts that each observed frequency `counts[y] / n` is within 4 standard errors
/// `sqrt(p (1 - p) / n)` of `p = row[y]`, and that zero-probability outputs never
/// occur.
fn assert_frequencies(counts: &[u64], row: &[f64], what: &str) {
    let n: u64 = counts.iter().sum();
    for (y, (&c, &p)) in counts.iter().zip(row).enumerate() {
        let f = c as f64 / n as f64;
        if p == 0.0 {
            assert_eq!(c, 0, "{what}: output {y} has probability 0");
            continue;
        }
        let se = (p * (1.0 - p) / n as f64).sqrt();
        assert!(
            (f - p).abs() <= 4.0 * se,
            "{what}: output {y}: frequency {f} vs probability {p} ({:.1} standard errors)",
            (f - p) / se
        );
    }
}

#[test]
fn transition_frequencies_match_the_mechanism() {
    const DRAWS: u64 = 1_000_000;
    for (name, w) in [("example 1", example1()), ("10x10", ten_by_ten())] {
        let sampler = MechanismSampler::new(&w).unwrap();
        let mut rng = seeded_rng(2024);
        for x in 0..w.inputs() {
            let mut counts = vec![0u64; w.outputs()];
            for _ in 0..DRAWS {
                counts[sampler.sample(x, &mut rng)] += 1;
            }
            let row = w.matrix().row(x).to_vec();
            assert_frequencies(&counts, &row, &format!("{name}, row {x}"));
        }
    }
}

#[test]
fn same_seed_same_sequence() {
    let w = ten_by_ten();
    let sampler = MechanismSampler::new(&w).unwrap();
    let draw = |seed: u64| -> Vec<usize> {
        let mut rng = seeded_rng(seed);
        (0..10_000)
            .map(|i| sampler.sample(i % 10, &mut rng))
            .collect()
    };
    assert_eq!(draw(5), draw(5));
    assert_ne!(draw(5), draw(6));
    let noise = |seed: u64, n: AdditiveNoise| -> Vec<f64> {
        let mut rng = seeded_rng(seed);
        (0..1000).map(|_| n.sample(&mut rng)).collect()
    };
    for n in [
        AdditiveNoise::laplace(1.5).unwrap(),
        AdditiveNoise::gaussian(0.7).unwrap(),
    ] {
        assert_eq!(noise(9, n), noise(9, n));
        assert_ne!(noise(9, n), noise(10, n));
    }
}

/// Laplace(b): `P(N > t) = e^(-t/b) / 2`, symmetric, variance `2 b^2`; Gaussian:
/// `P(N > sigma) = 0.158655...`, variance `sigma^2`. Checked over 10^6 draws within 4
/// standard errors.
#[test]
fn additive_noise_has_its_distribution() {
    const DRAWS: usize = 1_000_000;
    let n = DRAWS as f64;
    let within = |f: f64, p: f64, what: &str| {
        let se = (p * (1.0 - p) / n).sqrt();
        assert!((f - p).abs() <= 4.0 * se, "{what}: {f} vs {p}");
    };
    let b = 2.0;
    let laplace = AdditiveNoise::laplace(b).unwrap();
    let mut rng = seeded_rng(11);
    let xs: Vec<f64> = (0..DRAWS).map(|_| laplace.sample(&mut rng)).collect();
    for t in [0.0, 0.5, 2.0, 6.0] {
        let p = (-t / b).exp() / 2.0;
        within(
            xs.iter().filter(|&&x| x > t).count() as f64 / n,
            p,
            "Laplace upper tail",
        );
        within(
            xs.iter().filter(|&&x| x < -t).count() as f64 / n,
            p,
            "Laplace lower tail",
        );
    }
    let var = xs.iter().map(|x| x * x).sum::<f64>() / n;
    // Var of N^2 is E N^4 - (E N^2)^2 = 24 b^4 - 4 b^4 = 20 b^4.
    assert!((var - 2.0 * b * b).abs() <= 4.0 * (20.0f64).sqrt() * b * b / n.sqrt());

    let sigma = 0.8;
    let gauss = AdditiveNoise::gaussian(sigma).unwrap();
    let xs: Vec<f64> = (0..DRAWS).map(|_| gauss.sample(&mut rng)).collect();
    // P(N > k sigma) = erfc(k / sqrt 2) / 2 for k = 0, 1, 2.
    for (k, p) in [
        (0.0, 0.5),
        (1.0, 0.158_655_253_931_457),
        (2.0, 0.022_750_131_948_179),
    ] {
        within(
            xs.iter().filter(|&&x| x > k * sigma).count() as f64 / n,
            p,
            "Gaussian upper tail",
        );
        within(
            xs.iter().filter(|&&x| x < -k * sigma).count() as f64 / n,
            p,
            "Gaussian lower tail",
        );
    }
    let var = xs.iter().map(|x| x * x).sum::<f64>() / n;
    assert!((var - sigma * sigma).abs() <= 4.0 * 2f64.sqrt() * sigma * sigma / n.sqrt());
}

fn labels(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// The CSV stream applies the mechanism row of each record's value: the transition
/// frequencies read back from the output match `W`.
#[test]
fn csv_stream_frequencies_and_layout() {
    let w = example1();
    let names = labels(&["a", "b", "c", "d"]);
    let outs = labels(&["y1", "y2", "y3", "y4"]);
    let rows_per_label = 100_000;
    let mut input = String::from("id,secret,other\n");
    for i in 0..rows_per_label * 4 {
        input.push_str(&format!("{i},{},\"q,{}\"\n", names[i % 4], i % 3));
    }
    let mut p = CategoricalPrivatiser::new(&w, names.clone(), outs.clone(), seeded_rng(3)).unwrap();
    let mut out = Vec::new();
    let s = privatise_column(
        input.as_bytes(),
        &mut out,
        "secret",
        Placement::Append("secret_private"),
        OnUnknown::Error,
        &mut p,
    )
    .unwrap();
    assert_eq!(
        (s.rows, s.privatised, s.skipped, s.kept),
        (400_000, 400_000, 0, 0)
    );
    let text = String::from_utf8(out).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("id,secret,other,secret_private"));
    let mut counts = vec![vec![0u64; 4]; 4];
    for (i, line) in lines.enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        // The quoted field stays quoted: id, secret, "q, k", private.
        assert_eq!(f.len(), 5, "{line}");
        assert_eq!(f[0], i.to_string());
        let x = names.iter().position(|l| l == f[1]).unwrap();
        let y = outs.iter().position(|l| l == f[4]).unwrap();
        counts[x][y] += 1;
    }
    for (x, c) in counts.iter().enumerate() {
        assert_frequencies(c, &w.matrix().row(x).to_vec(), "csv row");
    }

    // In place: the header is unchanged and only the secret column differs.
    let mut p = CategoricalPrivatiser::new(&w, names.clone(), outs, seeded_rng(3)).unwrap();
    let mut out = Vec::new();
    let small = "secret,k\nb,1\na,2\n";
    privatise_column(
        small.as_bytes(),
        &mut out,
        "secret",
        Placement::Replace,
        OnUnknown::Error,
        &mut p,
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "secret,k");
    assert!(
        lines[1].starts_with('y') && lines[1].ends_with(",1"),
        "{text}"
    );
    assert!(
        lines[2].starts_with('y') && lines[2].ends_with(",2"),
        "{text}"
    );
}

#[test]
fn unknown_values_error_skip_keep() {
    let w = example1();
    let names = labels(&["a", "b", "c", "d"]);
    let outs = labels(&["y1", "y2", "y3", "y4"]);
    let input = "v,k\na,1\nz,2\nb,3\n,4\nq,5\n";
    let run = |on: OnUnknown| {
        let mut p =
            CategoricalPrivatiser::new(&w, names.clone(), outs.clone(), seeded_rng(1)).unwrap();
        let mut out = Vec::new();
        let r = privatise_column(
            input.as_bytes(),
            &mut out,
            "v",
            Placement::Append("v_private"),
            on,
            &mut p,
        );
        (r, String::from_utf8(out).unwrap())
    };
    let (r, _) = run(OnUnknown::Error);
    let msg = match r {
        Err(PrivatiseError::Unknown(e)) => e.to_string(),
        other => panic!("expected an input error, got {other:?}"),
    };
    assert!(
        msg.contains("line 3") && msg.contains("\"z\"") && msg.contains("\"a\", \"b\""),
        "{msg}"
    );

    let (r, text) = run(OnUnknown::Skip);
    let s = r.unwrap();
    assert_eq!((s.rows, s.privatised, s.skipped, s.kept), (5, 2, 3, 0));
    assert_eq!(s.first_unknown, Some((3, "z".to_string())));
    let ks: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(ks, ["1", "3"]);

    let (r, text) = run(OnUnknown::Keep);
    let s = r.unwrap();
    assert_eq!((s.rows, s.privatised, s.skipped, s.kept), (5, 2, 0, 3));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[2], "z,2,");
    assert_eq!(lines[5], "q,5,");

    // A missing column and a clashing output column are input errors.
    let mut p = CategoricalPrivatiser::new(&w, names.clone(), outs.clone(), seeded_rng(1)).unwrap();
    let r = privatise_column(
        input.as_bytes(),
        Vec::new(),
        "nope",
        Placement::Append("x"),
        OnUnknown::Error,
        &mut p,
    );
    assert!(matches!(r, Err(PrivatiseError::Input(_))));
    let r = privatise_column(
        input.as_bytes(),
        Vec::new(),
        "v",
        Placement::Append("k"),
        OnUnknown::Error,
        &mut p,
    );
    assert!(matches!(r, Err(PrivatiseError::Input(e)) if e.to_string().contains("already has")));
    // Labels must match the mechanism's rows.
    assert!(
        CategoricalPrivatiser::new(&w, labels(&["a", "b"]), outs.clone(), seeded_rng(1)).is_err()
    );
    assert!(
        CategoricalPrivatiser::new(&w, labels(&["a", "b", "c", "a"]), outs, seeded_rng(1)).is_err()
    );
}

#[test]
fn binary_additive_column() {
    let mut p = BinaryAdditivePrivatiser::new(AdditiveNoise::laplace(1.0).unwrap(), seeded_rng(4));
    let mut input = String::from("x\n");
    for i in 0..20_000 {
        input.push_str(if i % 2 == 0 { "1\n" } else { "-1\n" });
    }
    input.push_str("0\n");
    let mut out = Vec::new();
    let s = privatise_column(
        input.as_bytes(),
        &mut out,
        "x",
        Placement::Append("y"),
        OnUnknown::Keep,
        &mut p,
    )
    .unwrap();
    assert_eq!((s.privatised, s.kept), (20_000, 1));
    let text = String::from_utf8(out).unwrap();
    // Laplace(1) noise: P(sign(x + N) != x) = P(N > 1) = e^-1 / 2.
    let mut flips = 0;
    for line in text.lines().skip(1).take(20_000) {
        let (x, y) = line.split_once(',').unwrap();
        let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
        if x * y < 0.0 {
            flips += 1;
        }
    }
    let p = (-1f64).exp() / 2.0;
    let f = flips as f64 / 20_000.0;
    assert!(
        (f - p).abs() <= 4.0 * (p * (1.0 - p) / 20_000.0).sqrt(),
        "{f} vs {p}"
    );
    assert!(text.ends_with("0,\n"));
}

proptest! {
    /// The alias table represents the normalised weights to within 1e-15.
    #[test]
    fn alias_table_represents_weights(w in prop::collection::vec(prop_oneof![Just(0.0), 0.0..10.0f64], 1..40)) {
        let s: f64 = w.iter().sum();
        prop_assume!(s > 0.0);
        let t = AliasTable::new(&w).unwrap();
        prop_assert_eq!(t.len(), w.len());
        for (i, &wi) in w.iter().enumerate() {
            prop_assert!((t.probability(i) - wi / s).abs() < 1e-14);
        }
    }
}
