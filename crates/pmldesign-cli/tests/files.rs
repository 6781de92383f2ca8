//! The files `pml` writes (`--output`, `--plot`): their modes, their errors, and the
//! temporary files behind them on SIGINT / SIGTERM.

mod common;
use common::{EXAMPLE1, output_file, pml, s};

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

/// The permission bits of `path`.
fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

/// Runs `pml ARGS` under `umask MASK` (through sh); asserts success.
fn pml_with_umask(mask: &str, args: &[&str]) {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("umask {mask}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_pml"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A temporary directory whose path holds no `.tmp` (tempfile's default prefix).
fn tempdir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("pml-test")
        .tempdir()
        .unwrap()
}

/// The names of the hidden temporary files in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".tmp"))
        .collect()
}

#[test]
fn new_files_get_the_umask_mode_and_replaced_files_keep_theirs() {
    let dir = tempdir();
    for (mask, expected) in [("022", 0o644), ("077", 0o600), ("002", 0o664)] {
        let out = dir.path().join(format!("new-{mask}.json"));
        pml_with_umask(mask, &[&EXAMPLE1[..], &["--output", s(&out)]].concat());
        assert_eq!(mode(&out), expected, "umask {mask}");
        let plot = dir.path().join(format!("new-{mask}.svg"));
        let mech = output_file(dir.path(), "m.json", &EXAMPLE1);
        pml_with_umask(
            mask,
            &[
                "envelope",
                "--mechanism",
                s(&mech),
                "--prior",
                "0.4,0.2,0.2,0.2",
                "--plot",
                s(&plot),
                "--format",
                "json",
            ],
        );
        assert_eq!(mode(&plot), expected, "--plot, umask {mask}");
    }
    // A replaced file keeps its mode, whatever the umask.
    let out = dir.path().join("kept.json");
    for kept in [0o640, 0o604, 0o755] {
        std::fs::write(&out, "old").unwrap();
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(kept)).unwrap();
        pml_with_umask("077", &[&EXAMPLE1[..], &["--output", s(&out)]].concat());
        assert_eq!(mode(&out), kept);
        assert_ne!(std::fs::read_to_string(&out).unwrap(), "old");
    }
}

#[test]
fn write_errors_name_the_flag_and_never_a_temporary_file() {
    let dir = tempdir();
    let missing = dir.path().join("no-such-dir");
    let mech = output_file(dir.path(), "m.json", &EXAMPLE1);
    let cases: [(&str, Vec<String>); 2] = [
        (
            "--output",
            [&EXAMPLE1[..], &["--output"]]
                .concat()
                .iter()
                .map(|a| a.to_string())
                .chain([s(&missing.join("out.json")).to_string()])
                .collect(),
        ),
        (
            "--plot",
            [
                "envelope",
                "--mechanism",
                s(&mech),
                "--prior",
                "0.4,0.2,0.2,0.2",
                "--format",
                "json",
                "--plot",
                s(&missing.join("out.svg")),
            ]
            .iter()
            .map(|a| a.to_string())
            .collect(),
        ),
    ];
    for (flag, args) in cases {
        let out = pml().args(&args).output().unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(&format!("cannot write {flag} ")), "{err}");
        assert!(err.contains("no-such-dir"), "{err}");
        assert!(!err.contains(".tmp"), "a temporary path: {err}");
    }
    assert!(!missing.exists());
    assert!(temporaries(dir.path()).is_empty());
}

#[test]
fn sigterm_and_sigint_remove_the_temporary_file() {
    use std::io::Write;
    let dir = tempdir();
    // A few million rows: `pml apply` runs long enough to be interrupted.
    let data = dir.path().join("big.csv");
    let mut w = std::io::BufWriter::new(std::fs::File::create(&data).unwrap());
    writeln!(w, "id,x").unwrap();
    for i in 0..4_000_000u32 {
        writeln!(w, "{i},{}", if i % 3 == 0 { -1 } else { 1 }).unwrap();
    }
    w.flush().unwrap();
    drop(w);
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let target = out_dir.join("private.csv");
    for (signal, code) in [("TERM", 143), ("INT", 130)] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pml"))
            .args([
                "apply",
                "--laplace-scale",
                "1",
                "--seed",
                "1",
                "--column",
                "x",
            ])
            .arg("--data")
            .arg(&data)
            .arg("--output")
            .arg(&target)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        while temporaries(&out_dir).is_empty() {
            assert!(
                child.try_wait().unwrap().is_none(),
                "pml apply ended before its temporary file was seen"
            );
            assert!(start.elapsed().as_secs() < 60, "no temporary file");
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let killed = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code), "SIG{signal}: {status:?}");
        assert!(temporaries(&out_dir).is_empty(), "SIG{signal}: left behind");
        assert!(!target.exists(), "SIG{signal}: a partial --output");
    }
}
