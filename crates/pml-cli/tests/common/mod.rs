//! Helpers shared by the CLI test files: the binary, its JSON output, usage errors.
#![allow(dead_code)]

use assert_cmd::Command;
use serde_json::Value;

/// The `pml` binary.
pub fn pml() -> Command {
    Command::cargo_bin("pml").unwrap()
}

/// Runs `pml ARGS --format json`, asserts success and parses stdout.
pub fn json(args: &[&str]) -> Value {
    let out = pml()
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Asserts that `pml ARGS` is a usage error (exit status 2) whose message contains
/// `needle`.
pub fn usage_error(args: &[&str], needle: &str) {
    let out = pml().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(needle), "{args:?}: {err}");
}
