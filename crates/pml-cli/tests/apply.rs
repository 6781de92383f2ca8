//! End-to-end tests of `pml apply`.

mod common;
use common::pml;

use std::path::{Path, PathBuf};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// [E] Example 1 designed by `pml design` with labels a..d, in the given format.
fn example1_design(dir: &Path, format: &str) -> PathBuf {
    let f = dir.join(format!("design.{format}"));
    pml()
        .args([
            "design",
            "--prior",
            "0.4,0.2,0.2,0.2",
            "--labels",
            "a,b,c,d",
            "--exp-epsilon",
            "1.125",
            "--format",
            format,
            "--output",
        ])
        .arg(&f)
        .assert()
        .success();
    f
}

/// A CSV of `rows` records `id,secret,note` cycling through `values`.
fn data(dir: &Path, values: &[&str], rows: usize) -> PathBuf {
    let mut s = String::from("id,secret,note\n");
    for i in 0..rows {
        s.push_str(&format!("{i},{},\"n, {i}\"\n", values[i % values.len()]));
    }
    write(dir, "in.csv", &s)
}

/// Runs `pml apply` with `args`; returns (exit code, stderr).
fn apply(args: &[&str]) -> (Option<i32>, String) {
    let out = pml().arg("apply").args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn same_seed_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let mech = example1_design(dir.path(), "json");
    let input = data(dir.path(), &["a", "b", "c", "d"], 2000);
    let run = |seed: &str, out: &str| {
        let out = dir.path().join(out);
        let (code, err) = apply(&[
            "--mechanism",
            s(&mech),
            "--data",
            s(&input),
            "--column",
            "secret",
            "--output",
            s(&out),
            "--seed",
            seed,
        ]);
        assert_eq!(code, Some(0), "{err}");
        assert!(err.contains("2000 privatised"), "{err}");
        std::fs::read_to_string(out).unwrap()
    };
    let a = run("17", "a.csv");
    assert_eq!(a, run("17", "b.csv"));
    assert_ne!(a, run("18", "c.csv"));
    // Without --seed the draws come from the OS and differ between runs.
    let unseeded = |name: &str| {
        let out = dir.path().join(name);
        pml()
            .arg("apply")
            .args([
                "--mechanism",
                s(&mech),
                "--data",
                s(&input),
                "--column",
                "secret",
            ])
            .arg("--output")
            .arg(&out)
            .assert()
            .success();
        std::fs::read_to_string(out).unwrap()
    };
    assert_ne!(unseeded("d.csv"), unseeded("e.csv"));
    // The original columns are kept, quoted as needed, and a column of output names
    // (the "outputs" of the design) is added.
    let mut lines = a.lines();
    assert_eq!(lines.next(), Some("id,secret,note,secret_private"));
    for (i, line) in lines.enumerate() {
        let prefix = format!("{i},{},\"n, {i}\",", ["a", "b", "c", "d"][i % 4]);
        let y = line.strip_prefix(&prefix).expect(line);
        assert!(["y1", "y2", "y3", "y4"].contains(&y), "{line}");
    }
}

#[test]
fn mechanism_as_csv_and_replace() {
    let dir = tempfile::tempdir().unwrap();
    // `pml design --format csv` writes `input,y1,..` with the labels in the first column.
    let mech = example1_design(dir.path(), "csv");
    let input = data(dir.path(), &["d", "c", "b", "a"], 100);
    let out = dir.path().join("out.csv");
    let (code, err) = apply(&[
        "--mechanism",
        s(&mech),
        "--data",
        s(&input),
        "--column",
        "secret",
        "--output",
        s(&out),
        "--seed",
        "1",
        "--replace",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("id,secret,note"));
    for line in lines {
        let y = line.split(',').nth(1).unwrap();
        assert!(y.starts_with('y'), "the raw secret must be gone: {line}");
    }
    // A JSON array of rows carries no labels: the rows are x1..xN unless --labels.
    let rows = write(dir.path(), "rows.json", "[[0.9,0.1],[0.2,0.8]]");
    let bin = data(dir.path(), &["no", "yes"], 10);
    let base = [
        "--mechanism",
        s(&rows),
        "--data",
        s(&bin),
        "--column",
        "secret",
        "--output",
        s(&out),
        "--seed",
        "1",
    ];
    let (code, err) = apply(&base);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("\"x1\", \"x2\""), "{err}");
    let mut named = base.to_vec();
    named.extend([
        "--labels",
        "no,yes",
        "--output-labels",
        "NO,YES",
        "--output-column",
        "answer",
    ]);
    let (code, err) = apply(&named);
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("id,secret,note,answer\n"), "{text}");
    assert!(
        text.lines()
            .skip(1)
            .all(|l| l.ends_with(",NO") || l.ends_with(",YES"))
    );
}

#[test]
fn unknown_value_names_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let mech = example1_design(dir.path(), "json");
    let input = write(dir.path(), "in.csv", "secret,k\na,1\nb,2\nzz,3\nc,4\n,5\n");
    let out = dir.path().join("out.csv");
    let base = [
        "--mechanism",
        s(&mech),
        "--data",
        s(&input),
        "--column",
        "secret",
        "--output",
        s(&out),
        "--seed",
        "3",
    ];
    let (code, err) = apply(&base);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("line 4")
            && err.contains("\"zz\"")
            && err.contains("\"a\", \"b\", \"c\", \"d\""),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(!out.exists(), "nothing is written on error");

    let mut skip = base.to_vec();
    skip.extend(["--on-unknown", "skip"]);
    let (code, err) = apply(&skip);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("read 5 rows")
            && err.contains("3 privatised")
            && err.contains("2 rows")
            && err.contains("skipped")
            && err.contains("line 4"),
        "{err}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let ks: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(ks, ["1", "2", "4"]);

    let mut keep = base.to_vec();
    keep.extend(["--on-unknown", "keep"]);
    let (code, err) = apply(&keep);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("2 rows") && err.contains("kept"), "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[3], "zz,3,");
    assert_eq!(lines[5], ",5,");
}

#[test]
fn laplace_and_gaussian_columns() {
    let dir = tempfile::tempdir().unwrap();
    let input = data(dir.path(), &["1", "-1"], 1000);
    for (flag, value) in [("--laplace-scale", "2.5"), ("--gaussian-sigma", "0.9")] {
        let run = |out: &str| {
            let out = dir.path().join(out);
            let (code, err) = apply(&[
                flag,
                value,
                "--data",
                s(&input),
                "--column",
                "secret",
                "--output",
                s(&out),
                "--seed",
                "8",
            ]);
            assert_eq!(code, Some(0), "{err}");
            std::fs::read_to_string(out).unwrap()
        };
        let a = run("a.csv");
        assert_eq!(a, run("b.csv"));
        for line in a.lines().skip(1) {
            let y: f64 = line.rsplit(',').next().unwrap().parse().expect(line);
            assert!(y.is_finite());
        }
    }
    // A value other than -1 or 1 is outside the alphabet.
    let bad = write(dir.path(), "bad.csv", "x\n1\n0.5\n");
    let (code, err) = apply(&[
        "--laplace-scale",
        "1",
        "--data",
        s(&bad),
        "--column",
        "x",
        "--output",
        s(&dir.path().join("o.csv")),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("line 3") && err.contains("\"-1\", \"1\""),
        "{err}"
    );
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let mech = example1_design(dir.path(), "json");
    let input = data(dir.path(), &["a", "b"], 4);
    let out = dir.path().join("out.csv");
    let (m, i, o) = (s(&mech), s(&input), s(&out));
    let io = ["--data", i, "--column", "secret", "--output", o];
    let with_mechanism = |extra: &[&'static str]| {
        let mut v = vec!["--mechanism", m];
        v.extend(io);
        v.extend(extra);
        v
    };
    let with = |first: &[&'static str]| {
        let mut v = first.to_vec();
        v.extend(io);
        v
    };
    for args in [
        // No mechanism, or two.
        with(&[]),
        with_mechanism(&["--laplace-scale", "1"]),
        // Bad values of flags.
        with(&["--laplace-scale", "-1"]),
        with(&["--gaussian-sigma", "0"]),
        with_mechanism(&["--on-unknown", "ignore"]),
        with_mechanism(&["--seed", "x"]),
        with_mechanism(&["--replace", "--output-column", "z"]),
        // Clashing output column, wrong label count.
        with_mechanism(&["--output-column", "note"]),
        with_mechanism(&["--labels", "a,b"]),
        // Missing column, missing file.
        vec![
            "--mechanism",
            m,
            "--data",
            i,
            "--column",
            "nope",
            "--output",
            o,
        ],
        vec![
            "--mechanism",
            m,
            "--data",
            "/nonexistent.csv",
            "--column",
            "x",
            "--output",
            o,
        ],
    ] {
        let (code, err) = apply(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?}");
    }
    let (_, err) = apply(&[
        "--mechanism",
        m,
        "--data",
        i,
        "--column",
        "nope",
        "--output",
        o,
    ]);
    assert!(err.contains("\"id\", \"secret\", \"note\""), "{err}");
}
