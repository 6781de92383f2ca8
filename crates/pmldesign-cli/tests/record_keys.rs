//! `pml apply --key` with a record design: each row draws from the place of the
//! streams its user's key gives, so reordered or split rows release the same
//! values, in CSV and Parquet alike; an empty key is refused naming its line.

use crate::common::{apply_record, compose_record, s, write};

/// 48 records with keys u0..u47 (A in a1..a3, B in b1..b4).
fn rows(order: impl Iterator<Item = usize>) -> String {
    let mut text = String::from("user,A,B\n");
    for i in order {
        text.push_str(&format!("u{i},a{},b{}\n", 1 + i % 3, 1 + (i / 3) % 4));
    }
    text
}

/// The released (A_private, B_private) of each key.
fn by_key(out: &str) -> std::collections::BTreeMap<String, String> {
    out.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            // The private columns are the last two (the raw ones are left out).
            let n = f.len();
            (f[0].to_string(), format!("{},{}", f[n - 2], f[n - 1]))
        })
        .collect()
}

#[test]
fn a_key_draws_the_same_wherever_its_row_is() {
    let dir = tempfile::tempdir().unwrap();
    let text = rows(0..48);
    let (data, design) = compose_record(dir.path(), &text);
    let seed = "12345678901234567890123456789";
    let forward = apply_record(
        (&design, &data),
        seed,
        &dir.path().join("f.csv"),
        &["--key", "user"],
    );
    let reversed = write(dir.path(), "rev.csv", &rows((0..48).rev()));
    let backward = apply_record(
        (&design, &reversed),
        seed,
        &dir.path().join("b.csv"),
        &["--key", "user"],
    );
    assert_eq!(by_key(&forward), by_key(&backward));
    // By position the reversed rows draw other places: some value differs.
    let plain = apply_record((&design, &reversed), seed, &dir.path().join("p.csv"), &[]);
    assert_ne!(by_key(&plain), by_key(&backward));
    let empty = write(dir.path(), "empty.csv", "user,A,B\nu1,a1,b1\n,a2,b2\n");
    let run = crate::common::pml()
        .args([
            "apply",
            "--mechanism",
            s(&design),
            "--data",
            s(&empty),
            "--key",
            "user",
        ])
        .args(["--seed", seed, "--output", s(&dir.path().join("e.csv"))])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        !run.status.success() && err.contains("key column \"user\" at line 3"),
        "{err}"
    );
}
