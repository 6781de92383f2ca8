//! Privatising a CSV column as a stream: output frequencies and layout, values
//! outside the alphabet, and additive noise on a grid on a binary column.

use crate::common::{assert_frequencies, example1};
use pmldesign_data::discrete_noise::{DiscreteLaplace, ExactNoise, GridPrivatiser};
use pmldesign_data::sampler::CategoricalPrivatiser;
use pmldesign_data::stream::StreamKey;
use pmldesign_data::{OnUnknown, Placement, PrivatiseError, privatise_column};
use pmldesign_model::lattice::GridNoise;

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
    let mut p =
        CategoricalPrivatiser::new(&w, names.clone(), outs.clone(), (&key(3), "v")).unwrap();
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
    let mut p = CategoricalPrivatiser::new(&w, names.clone(), outs, (&key(3), "v")).unwrap();
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

/// The stream key of a small test seed.
fn key(seed: u64) -> StreamKey {
    StreamKey::parse(&seed.to_string()).unwrap()
}

#[test]
fn unknown_values_error_skip_keep() {
    let w = example1();
    let names = labels(&["a", "b", "c", "d"]);
    let outs = labels(&["y1", "y2", "y3", "y4"]);
    let input = "v,k\na,1\nz,2\nb,3\n,4\nq,5\n";
    let run = |on: OnUnknown| {
        let mut p =
            CategoricalPrivatiser::new(&w, names.clone(), outs.clone(), (&key(1), "v")).unwrap();
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
    let mut p =
        CategoricalPrivatiser::new(&w, names.clone(), outs.clone(), (&key(1), "v")).unwrap();
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
        CategoricalPrivatiser::new(&w, labels(&["a", "b"]), outs.clone(), (&key(1), "v")).is_err()
    );
    assert!(
        CategoricalPrivatiser::new(&w, labels(&["a", "b", "c", "a"]), outs, (&key(1), "v"))
            .is_err()
    );
}

#[test]
fn binary_additive_column() {
    let noise = ExactNoise::Laplace(DiscreteLaplace::on_grid(1.0, 4).unwrap());
    let mut p = GridPrivatiser::new(noise, (4, 80), (&key(4), "v")).unwrap();
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
    // Laplace of scale 4 steps on the grid of step 1/4: P(sign(x + N) = -x) =
    // P(N > 4 steps).
    let mut flips = 0;
    for line in text.lines().skip(1).take(20_000) {
        let (x, y) = line.split_once(',').unwrap();
        let (x, y): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
        if x * y < 0.0 {
            flips += 1;
        }
    }
    let p = GridNoise::Laplace { scale: 4.0 }.upper_tail(5);
    let f = flips as f64 / 20_000.0;
    assert!(
        (f - p).abs() <= 4.0 * (p * (1.0 - p) / 20_000.0).sqrt(),
        "{f} vs {p}"
    );
    assert!(text.ends_with("0,\n"));
}
