//! End-to-end tests of `pml design --private-prior` (docs/theory.md §6, "A private
//! prior"): the ball is centred at noisy counts, the file holds no true count,
//! the widened radius is re-derived when the design is read, and the same key
//! gives the same bytes.

use crate::common::{one_line_usage_error, output_file, pml, s, words, write};
use serde_json::Value;

const KEY: &str = "0x5eed5eed5eed5eed5eed5eed5eed5eed";

/// `pml design --counts 173,402,0,91 --delta 0.05 --private-prior 1 --seed KEY`.
fn design(dir: &std::path::Path, name: &str, extra: &str) -> std::path::PathBuf {
    let args = format!(
        "design --counts 173,402,0,91 --epsilon 1 --delta 0.05 --private-prior 1 --seed {KEY} --format json {extra}"
    );
    output_file(dir, name, &words(&args))
}

fn read(p: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

#[test]
fn the_centre_is_noisy_and_the_file_holds_no_true_count() {
    let dir = tempfile::tempdir().unwrap();
    let d = read(&design(dir.path(), "d.json", ""));
    let truth = [173.0, 402.0, 0.0, 91.0].map(|c: f64| c / 666.0);
    let center: Vec<f64> = serde_json::from_value(d["uncertainty"]["center"].clone()).unwrap();
    assert_ne!(center, truth);
    let g = &d["guarantee"];
    let total = g["samples"].as_u64().unwrap();
    assert_ne!(total, 666, "the true m is not stated");
    let p = &g["private_prior"];
    let t = p["noise_bound"].as_u64().unwrap();
    assert!(total.abs_diff(666) <= t);
    assert_eq!(p["samples_lower"].as_u64().unwrap(), total - t);
    let beta = g["beta"].as_f64().unwrap();
    let sum = p["sample_beta"].as_f64().unwrap() + p["noise_beta"].as_f64().unwrap();
    assert_eq!(beta, sum);
    assert_eq!(
        p["noise_beta"].as_f64().unwrap(),
        2.0 * t as f64 / total as f64
    );
    // The widened ball holds the true frequencies.
    let l1: f64 = center.iter().zip(truth).map(|(a, b)| (a - b).abs()).sum();
    assert!(l1 <= p["noise_beta"].as_f64().unwrap(), "{l1}");
    let text = serde_json::to_string(&d).unwrap();
    for needle in ["173", "402", "666"] {
        assert!(
            !text.contains(&format!(":{needle},")),
            "{needle} in the file"
        );
    }
    let statement = g["statement"].as_str().unwrap();
    assert!(statement.contains("1-DP about the dataset"), "{statement}");
    assert!(
        statement.contains("over the sample and the noise"),
        "{statement}"
    );
}

#[test]
fn the_design_re_verifies_and_an_altered_radius_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let f = design(dir.path(), "d.json", "");
    pml().args(["assess", "--design", s(&f)]).assert().success();
    let mut d = read(&f);
    let t = d["guarantee"]["private_prior"]["noise_bound"]
        .as_u64()
        .unwrap();
    d["guarantee"]["private_prior"]["noise_bound"] = (t - 1).into();
    let bad = write(dir.path(), "bad.json", &d.to_string());
    let out = pml()
        .args(["assess", "--design", s(&bad)])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("guarantee.private_prior.noise_bound"), "{err}");
    let mut d = read(&f);
    d["guarantee"]["private_prior"]["epsilon"] = 2.0.into();
    let bad = write(dir.path(), "bad2.json", &d.to_string());
    assert!(
        !pml()
            .args(["assess", "--design", s(&bad)])
            .output()
            .unwrap()
            .status
            .success()
    );
}

#[test]
fn the_same_key_gives_the_same_bytes_and_another_key_other_noise() {
    let dir = tempfile::tempdir().unwrap();
    let a = std::fs::read(design(dir.path(), "a.json", "")).unwrap();
    let b = std::fs::read(design(dir.path(), "b.json", "")).unwrap();
    assert_eq!(a, b);
    let key = write(dir.path(), "key", KEY);
    let args = format!(
        "design --counts 173,402,0,91 --epsilon 1 --delta 0.05 --private-prior 1 --seed-file {} --format json",
        s(&key)
    );
    let c = std::fs::read(output_file(dir.path(), "c.json", &words(&args))).unwrap();
    assert_eq!(a, c, "the key in a file draws as on the command line");
    let args = args.replace(
        &format!("--seed-file {}", s(&key)),
        "--seed 0x1234567890abcdef1234",
    );
    let e = std::fs::read(output_file(dir.path(), "e.json", &words(&args))).unwrap();
    assert_ne!(a, e);
}

#[test]
fn bad_levels_and_an_unfixed_alphabet_are_one_line_usage_errors() {
    for v in ["0", "-1", "nan", "inf"] {
        let err = one_line_usage_error(&[
            "design",
            "--counts",
            "3,5",
            "--epsilon",
            "1",
            "--delta",
            "0.05",
            "--private-prior",
            v,
        ]);
        assert!(err.contains("--private-prior"), "{err}");
    }
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "d.csv", "c\na\nb\na\n");
    let base = [
        "design",
        "--data",
        s(&data),
        "--column",
        "c",
        "--epsilon",
        "1",
        "--delta",
        "0.05",
    ];
    let err = one_line_usage_error(&[&base[..], &["--private-prior", "1"]].concat());
    assert!(err.contains("--labels"), "{err}");
    let err = one_line_usage_error(
        &[&base[..], &["--private-prior", "0.001", "--labels", "a,b"]].concat(),
    );
    assert!(err.contains("noisy") || err.contains("noise"), "{err}");
}

#[test]
fn a_data_column_with_labels_is_designed_from_its_noisy_counts() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("c\nz\n");
    for i in 0..900 {
        text.push_str(["a\n", "b\n", "b\n"][i % 3]);
    }
    let data = write(dir.path(), "d.csv", &text);
    let args = [
        "design",
        "--data",
        s(&data),
        "--column",
        "c",
        "--labels",
        "z,a,b",
        "--epsilon",
        "1",
        "--delta",
        "0.05",
        "--private-prior",
        "2",
        "--seed",
        KEY,
        "--format",
        "json",
    ];
    let f = output_file(dir.path(), "d.json", &args);
    let d = read(&f);
    assert_eq!(
        d["provenance"]["input"], "problem",
        "no digest of the data file"
    );
    assert!(d["guarantee"]["private_prior"].is_object());
    pml().args(["assess", "--design", s(&f)]).assert().success();
}
