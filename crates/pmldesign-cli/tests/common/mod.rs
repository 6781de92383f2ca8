//! Helpers shared by the CLI test files: the binary, its text and JSON output, usage
//! errors, input files.
#![allow(dead_code)]

pub mod serve;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `pml design` of \[E\] Example 1: prior (0.4, 0.2, 0.2, 0.2) at e^eps = 1.125.
pub const EXAMPLE1: [&str; 5] = [
    "design",
    "--prior",
    "0.4,0.2,0.2,0.2",
    "--exp-epsilon",
    "1.125",
];

/// The `pml` binary.
pub fn pml() -> Command {
    Command::cargo_bin("pml").unwrap()
}

/// The words of `s`, split at white space: `words("radius --samples 10")`.
pub fn words(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

/// Runs `pml ARGS`, asserts success and returns stdout.
pub fn stdout(args: &[&str]) -> String {
    let out = pml().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `pml ARGS` (which ask for JSON), asserts success and parses stdout.
pub fn run_json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout(args)).unwrap()
}

/// Runs `pml ARGS --format json`, asserts success and parses stdout.
pub fn json(args: &[&str]) -> Value {
    run_json(&[args, &["--format", "json"]].concat())
}

/// Runs `pml ARGS` expecting a usage error (exit status 2, nothing on stdout);
/// returns stderr.
pub fn usage_stderr(args: &[&str]) -> String {
    let out = pml().args(args).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}: output on error");
    err
}

/// Asserts that `pml ARGS` is a usage error (exit status 2) whose message contains
/// `needle`.
pub fn usage_error(args: &[&str], needle: &str) {
    let err = usage_stderr(args);
    assert!(err.contains(needle), "{args:?}: {err}");
}

/// Like [`usage_stderr`], and the message is one line.
pub fn one_line_usage_error(args: &[&str]) -> String {
    let err = usage_stderr(args);
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    err
}

/// Writes `text` to the file `name` in `dir`; returns its path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Runs `pml ARGS --output dir/name`, asserts success; returns the file's path.
pub fn output_file(dir: &Path, name: &str, args: &[&str]) -> PathBuf {
    let f = dir.join(name);
    pml().args(args).arg("--output").arg(&f).assert().success();
    f
}

/// The path as a `&str`.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `pml apply --mechanism DESIGN --data DATA --column COLUMN --output OUT`
/// with `extra` flags; returns the process output (the caller checks the status).
pub fn apply_design(
    (design, data, column): (&Path, &Path, &str),
    out: &Path,
    extra: &[&str],
) -> std::process::Output {
    apply_to(
        (design, data),
        out,
        &[&["--column", column], extra].concat(),
    )
}

/// `pml apply` of a record design (it names its own columns) to `data` with
/// `seed`, writing `out`; asserts success and returns what was written.
pub fn apply_record(
    (design, data): (&Path, &Path),
    seed: &str,
    out: &Path,
    extra: &[&str],
) -> String {
    let run = apply_to((design, data), out, &[&["--seed", seed], extra].concat());
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    std::fs::read_to_string(out).unwrap()
}

/// `pml apply --mechanism DESIGN --data DATA --output OUT` with `extra` flags.
fn apply_to((design, data): (&Path, &Path), out: &Path, extra: &[&str]) -> std::process::Output {
    let args = ["apply", "--mechanism", s(design), "--data", s(data)];
    pml()
        .args(args)
        .args(["--output", s(out)])
        .args(extra)
        .output()
        .unwrap()
}

/// Writes `rows` (CSV with columns A and B) to `dir/rec.csv` and designs a
/// `compose` record over A and B at eps = 2 into `dir/rec.json`; returns both paths.
pub fn compose_record(dir: &Path, rows: &str) -> (PathBuf, PathBuf) {
    record_of(dir, rows, "compose")
}

/// [`compose_record`] with the record mode `mode` (`compose`, `joint`, `ldp`).
pub fn record_of(dir: &Path, rows: &str, mode: &str) -> (PathBuf, PathBuf) {
    let data = write(dir, "rec.csv", rows);
    let design = dir.join("rec.json");
    let args = [
        "design",
        "--data",
        s(&data),
        "--column",
        "A",
        "--column",
        "B",
    ];
    let more = ["--epsilon", "2", "--record", mode, "--format", "json"];
    pml()
        .args(args)
        .args(more)
        .arg("--output")
        .arg(&design)
        .assert()
        .success();
    (data, design)
}

/// Writes the CSV text `csv` (a header, then rows of plain values, no quoting)
/// as a Parquet file of text columns at `path`.
pub fn parquet_of(csv: &str, path: &Path) {
    use arrow_array::{ArrayRef, RecordBatch, StringArray};
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let columns = header.iter().enumerate().map(|(j, name)| {
        let values: Vec<&str> = rows.iter().map(|r| r[j]).collect();
        (
            *name,
            std::sync::Arc::new(StringArray::from(values)) as ArrayRef,
        )
    });
    let batch = RecordBatch::try_from_iter(columns).unwrap();
    let file = std::fs::File::create(path).unwrap();
    let mut w = parquet::arrow::ArrowWriter::try_new(file, batch.schema(), None).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
}
