//! One keyed stream for any partitioning: the draw of row i depends on
//! the key, the column's name, i and the row's value only.

use pmldesign_data::stream::{ColumnStream, StreamKey};
use pmldesign_data::{
    CategoricalPrivatiser, MechanismSampler, OnUnknown, Placement, privatise_codes,
    privatise_column,
};
use pmldesign_model::Mechanism;
use rand::{RngExt, SeedableRng};

fn mechanism() -> Mechanism {
    Mechanism::from_rows(vec![
        vec![0.5, 0.2, 0.2, 0.1],
        vec![0.1, 0.6, 0.2, 0.1],
        vec![0.25, 0.25, 0.25, 0.25],
        vec![0.0, 0.1, 0.3, 0.6],
    ])
    .unwrap()
}

fn key() -> StreamKey {
    StreamKey::parse("0x9b05688c2b3e6c1f510e527fade682d1a54ff53a5f1d36f13c6ef372fe94f82b").unwrap()
}

/// Codes 0..4 from a seeded generator.
fn codes(n: usize, seed: u64) -> Vec<u32> {
    let mut r = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    (0..n).map(|_| r.random_range(0..4u32)).collect()
}

fn whole(codes: &[u32], column: &str) -> Vec<u32> {
    let s = MechanismSampler::new(&mechanism()).unwrap();
    let mut out = vec![0; codes.len()];
    let mut stream = ColumnStream::new(&key(), column, 1);
    privatise_codes(&s, codes, &mut stream, 0, &mut out).unwrap();
    out
}

/// Any split at random cut points, each part with its own stream and offset,
/// concatenates to the whole.
#[test]
fn every_split_of_a_column_gives_the_whole() {
    let x = codes(10_000, 1);
    let all = whole(&x, "city");
    let s = MechanismSampler::new(&mechanism()).unwrap();
    let mut r = rand_pcg::Pcg64Mcg::seed_from_u64(2);
    for parts in [1usize, 2, 3, 7] {
        let mut cuts: Vec<usize> = (1..parts).map(|_| r.random_range(0..x.len())).collect();
        cuts.sort();
        let bounds: Vec<usize> = [0].into_iter().chain(cuts).chain([x.len()]).collect();
        let mut joined = Vec::new();
        // Parts in reverse order, each from a fresh stream: order does not matter.
        for w in bounds.windows(2).rev() {
            let mut out = vec![0; w[1] - w[0]];
            let mut stream = ColumnStream::new(&key(), "city", 1);
            privatise_codes(&s, &x[w[0]..w[1]], &mut stream, w[0] as u64, &mut out).unwrap();
            joined.splice(0..0, out);
        }
        assert_eq!(joined, all, "{parts} parts");
    }
}

/// The CSV path draws what the codes path draws for the same rows and column.
#[test]
fn the_csv_stream_is_the_codes_stream() {
    let x = codes(2_000, 3);
    let names: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
    let mut csv = String::from("id,v\n");
    for (i, &c) in x.iter().enumerate() {
        csv.push_str(&format!("{i},{}\n", names[c as usize]));
    }
    let k = key();
    let mut p =
        CategoricalPrivatiser::new(&mechanism(), names.clone(), names.clone(), (&k, "v")).unwrap();
    let mut out = Vec::new();
    privatise_column(
        csv.as_bytes(),
        &mut out,
        "v",
        Placement::Replace,
        OnUnknown::Error,
        &mut p,
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    let drawn: Vec<u32> = text
        .lines()
        .skip(1)
        .map(|l| {
            names
                .iter()
                .position(|n| l.ends_with(&format!(",{n}")))
                .unwrap() as u32
        })
        .collect();
    assert_eq!(drawn, whole(&x, "v"));
}

/// Over 10^6 draws per input the output frequencies follow the mechanism's row
/// (chi-square with 3 degrees of freedom below 20: p about 2e-4), and a draw
/// from the wrong row (an off-by-one) is caught.
#[test]
fn draws_follow_the_rows() {
    let w = mechanism();
    let m = 1_000_000usize;
    for x in 0..4u32 {
        let out = whole(&vec![x; m], &format!("row{x}"));
        let mut freq = [0usize; 4];
        out.iter().for_each(|&y| freq[y as usize] += 1);
        let chi2 = |row: usize| -> f64 {
            (0..4)
                .filter(|&y| w.matrix()[[row, y]] > 0.0)
                .map(|y| {
                    let e = m as f64 * w.matrix()[[row, y]];
                    (freq[y] as f64 - e).powi(2) / e
                })
                .sum()
        };
        assert!(
            chi2(x as usize) < 20.0,
            "row {x}: chi2 {}",
            chi2(x as usize)
        );
        let other = (x as usize + 1) % 4;
        assert!(chi2(other) > 1000.0, "row {x} also fits row {other}");
        if w.matrix()[[x as usize, 0]] == 0.0 {
            assert_eq!(freq[0], 0, "an outcome of probability 0 was drawn");
        }
    }
}

/// Two columns under one key draw independently (randomized response on two
/// symbols: they agree on about half the rows, not on all), and distinct keys
/// give distinct streams.
#[test]
fn columns_and_keys_draw_independently() {
    let rr = Mechanism::from_rows(vec![vec![0.5, 0.5], vec![0.5, 0.5]]).unwrap();
    let s = MechanismSampler::new(&rr).unwrap();
    let m = 1_000_000usize;
    let draw = |key: &StreamKey, column: &str| {
        let mut out = vec![0; m];
        let mut stream = ColumnStream::new(key, column, 1);
        privatise_codes(&s, &vec![0; m], &mut stream, 0, &mut out).unwrap();
        out
    };
    let agree =
        |a: &[u32], b: &[u32]| a.iter().zip(b).filter(|(x, y)| x == y).count() as f64 / m as f64;
    let k = key();
    let (a, b) = (draw(&k, "a"), draw(&k, "b"));
    assert!(
        (agree(&a, &b) - 0.5).abs() < 0.005,
        "columns agree on {}",
        agree(&a, &b)
    );
    let other = draw(&StreamKey::parse("7").unwrap(), "a");
    assert!((agree(&a, &other) - 0.5).abs() < 0.005);
    assert_eq!(draw(&k, "a"), a, "the same key and column replay");
}

#[test]
fn a_code_outside_the_mechanism_is_refused_naming_its_position() {
    let s = MechanismSampler::new(&mechanism()).unwrap();
    let mut out = vec![0; 3];
    let mut stream = ColumnStream::new(&key(), "v", 1);
    let e = privatise_codes(&s, &[0, 4, 1], &mut stream, 0, &mut out).unwrap_err();
    assert!(e.to_string().contains("codes[1]"), "{e}");
}

/// Rows drawn at explicit positions equal rows drawn in order at those positions,
/// and a user's key has one place wherever its row is.
#[test]
fn positions_and_keys_name_places_of_the_stream() {
    let x = codes(500, 4);
    let s = MechanismSampler::new(&mechanism()).unwrap();
    let positions: Vec<u64> = (100..600).collect();
    let mut at = vec![0; 500];
    let mut stream = ColumnStream::new(&key(), "city", 1);
    pmldesign_data::privatise_codes_at(&s, &x, &mut stream, &positions, &mut at).unwrap();
    let mut ordered = vec![0; 500];
    let mut stream = ColumnStream::new(&key(), "city", 1);
    privatise_codes(&s, &x, &mut stream, 100, &mut ordered).unwrap();
    assert_eq!(at, ordered);
    use pmldesign_data::stream::key_position;
    assert_eq!(key_position(b"user-17"), key_position(b"user-17"));
    assert_ne!(key_position(b"user-17"), key_position(b"user-18"));
}

/// A column long enough to be drawn in parallel chunks draws, at any number of
/// threads, what each row draws alone from its place of the stream; a bad code
/// in a later chunk is refused naming its own position.
#[test]
fn parallel_chunks_draw_what_each_row_draws_alone() {
    let x = codes(300_001, 5);
    let s = MechanismSampler::new(&mechanism()).unwrap();
    let offset = 12_345u64;
    let mut one_by_one = ColumnStream::new(&key(), "city", 1);
    let expected: Vec<u32> = (x.iter().enumerate())
        .map(|(k, &c)| s.sample(c as usize, one_by_one.at(offset + k as u64)) as u32)
        .collect();
    for threads in [1, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let got = pool.install(|| {
            let mut out = vec![0; x.len()];
            let mut stream = ColumnStream::new(&key(), "city", 1);
            privatise_codes(&s, &x, &mut stream, offset, &mut out).unwrap();
            out
        });
        assert!(got == expected, "{threads} threads");
    }
    let mut bad = x.clone();
    bad[250_000] = 9;
    bad[290_000] = 9;
    let mut out = vec![0; bad.len()];
    let mut stream = ColumnStream::new(&key(), "city", 1);
    let e = privatise_codes(&s, &bad, &mut stream, 0, &mut out).unwrap_err();
    assert!(e.to_string().contains("codes[250000]"), "{e}");
}
