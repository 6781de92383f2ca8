//! A build without the default features (`--no-default-features`, as the README's
//! first command builds it): what the missing features would serve is refused in
//! one line that names the fix, exit status 2, and nothing is written. In a build
//! with them the same commands are tested where the features are.

#[cfg(not(feature = "parquet"))]
use crate::common::{apply_design, one_line_usage_error, pml, s, write};

/// `pml serve` without the `serve` feature says how to get it.
#[cfg(not(feature = "serve"))]
#[test]
fn serve_is_refused_naming_the_feature() {
    let err = crate::common::one_line_usage_error(&["serve", "--port", "0"]);
    assert!(
        err.contains("without the `serve` feature") && err.contains("--features serve"),
        "{err}"
    );
}

/// A Parquet file is refused by every command that reads data, and `pml apply`
/// writes no output.
#[cfg(not(feature = "parquet"))]
#[test]
fn parquet_is_refused_by_every_reader_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let table = write(dir.path(), "t.parquet", "PAR1 not read");
    let t = s(&table);
    let design = dir.path().join("d.json");
    let csv = write(dir.path(), "c.csv", "a\nx\ny\nx\n");
    pml()
        .args(["design", "--data", s(&csv), "--column", "a"])
        .args(["--epsilon", "1", "--output", s(&design)])
        .assert()
        .success();
    let d = s(&design);
    for args in [
        vec!["design", "--data", t, "--column", "a", "--epsilon", "1"],
        vec!["estimate", "--mechanism", d, "--data", t, "--column", "a"],
    ] {
        let err = one_line_usage_error(&args);
        assert!(err.contains("without Parquet support"), "{args:?}: {err}");
    }
    let out = dir.path().join("out.parquet");
    let run = apply_design((&design, &table, "a"), &out, &["--seed", "1"]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("without Parquet support"), "{err}");
    assert!(!out.exists(), "apply wrote {}", out.display());
}
