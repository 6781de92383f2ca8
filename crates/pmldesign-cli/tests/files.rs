//! The files `pml` writes (`--output`, `--plot`): their modes, their errors, and the
//! temporary files behind them on SIGINT / SIGTERM.

use crate::common::{EXAMPLE1, output_file, pml, s};

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

/// A design of two colours, `a` and `b`, written to `dir/m.json`.
fn colour_design(dir: &Path) -> std::path::PathBuf {
    output_file(
        dir,
        "m.json",
        &[
            "design",
            "--prior",
            "0.5,0.5",
            "--labels",
            "a,b",
            "--exp-epsilon",
            "2",
        ],
    )
}

/// Every command that writes refuses an output that is one of its inputs (or
/// another of its outputs), by device and inode, before anything is written:
/// exit 2, one line naming both flags, the input untouched.
#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = tempdir();
    let mech = colour_design(dir.path());
    let data = crate::common::write(dir.path(), "in.csv", "id,c\n1,a\n2,b\n3,a\n");
    let key = crate::common::write(dir.path(), "key", "12345\n");
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink(&data, &link).unwrap();
    let (m, d, k, l) = (s(&mech), s(&data), s(&key), s(&link));
    let design = ["design", "--data", d, "--column", "c", "--exp-epsilon", "2"];
    let assess = ["assess", "--mechanism", m, "--data", d, "--column", "c"];
    let apply = ["apply", "--mechanism", m, "--data", d, "--column", "c"];
    let cases: Vec<(Vec<&str>, &str, &str)> = vec![
        (
            [&design[..], &["--output", d]].concat(),
            "--output",
            "--data",
        ),
        (
            [&design[..], &["--output", l]].concat(),
            "--output",
            "--data",
        ),
        (
            [&design[..], &["--report", d]].concat(),
            "--report",
            "--data",
        ),
        (
            [&assess[..], &["--output", d]].concat(),
            "--output",
            "--data",
        ),
        (
            [&assess[..], &["--report", m]].concat(),
            "--report",
            "--mechanism",
        ),
        (
            ["assess", "--design", m, "--output", m].to_vec(),
            "--output",
            "--design",
        ),
        (
            [&apply[..], &["--seed", "1", "--output", m]].concat(),
            "--output",
            "--mechanism",
        ),
        (
            [&apply[..], &["--seed-file", k, "--output", k]].concat(),
            "--output",
            "--seed-file",
        ),
        (
            [
                "envelope",
                "--mechanism",
                m,
                "--prior",
                "0.5,0.5",
                "--plot",
                m,
            ]
            .to_vec(),
            "--plot",
            "--mechanism",
        ),
        (
            [
                "compare",
                "--data",
                d,
                "--column",
                "c",
                "--epsilon",
                "1",
                "--output",
                d,
            ]
            .to_vec(),
            "--output",
            "--data",
        ),
        (
            [
                "bounds", "radius", "--data", d, "--column", "c", "--delta", "0.1", "--output", d,
            ]
            .to_vec(),
            "--output",
            "--data",
        ),
    ];
    let before: Vec<Vec<u8>> = [&mech, &data, &key]
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    for (args, output, input) in cases {
        let err = crate::common::one_line_usage_error(&args);
        assert!(
            err.contains(&format!("invalid {output} "))
                && err.contains(&format!("the {input} file")),
            "{args:?}: {err}"
        );
        let after: Vec<Vec<u8>> = [&mech, &data, &key]
            .iter()
            .map(|p| std::fs::read(p).unwrap())
            .collect();
        assert!(after == before, "{args:?}: an input was changed");
    }
    let report = dir.path().join("r.html");
    let err = crate::common::one_line_usage_error(
        &[
            &EXAMPLE1[..],
            &["--output", s(&report), "--report", s(&report)],
        ]
        .concat(),
    );
    assert!(err.contains("it is also the --output file"), "{err}");
    assert!(temporaries(dir.path()).is_empty());
}

/// Two outputs, or an output and an input, spelled differently but at one
/// place (`r.html` and `./r.html`, `sub/../r.html`), before the file exists,
/// are refused naming both flags; nothing is written.
#[test]
fn outputs_at_one_place_under_two_spellings_are_refused() {
    let dir = tempdir();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let run = |args: &[&str]| {
        let out = pml().current_dir(dir.path()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    for report in ["./r.html", "sub/../r.html"] {
        let args = [&EXAMPLE1[..], &["--output", "r.html", "--report", report]].concat();
        let err = run(&args);
        assert!(
            err.contains(&format!("invalid --report {report}"))
                && err.contains("also the --output file"),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    assert!(!dir.path().join("r.html").exists());
    std::fs::write(dir.path().join("c.csv"), "c\na\nb\n").unwrap();
    let err = run(&[
        "bounds",
        "radius",
        "--data",
        "c.csv",
        "--column",
        "c",
        "--delta",
        "0.1",
        "--output",
        "./sub/../c.csv",
    ]);
    assert!(
        err.contains("invalid --output ./sub/../c.csv") && err.contains("the --data file"),
        "{err}"
    );
}

/// Writes `rows` rows of a column `c` of colours `a` and `b` to `dir/big.csv`.
fn big_csv(dir: &Path, rows: u32) -> std::path::PathBuf {
    use std::io::Write;
    let data = dir.join("big.csv");
    let mut w = std::io::BufWriter::new(std::fs::File::create(&data).unwrap());
    writeln!(w, "id,c").unwrap();
    for i in 0..rows {
        writeln!(w, "{i},{}", if i % 3 == 0 { "a" } else { "b" }).unwrap();
    }
    w.flush().unwrap();
    data
}

/// `pml apply` of the colour design on `data` to `target`, started.
fn spawn_apply(mech: &Path, data: &Path, target: &Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_pml"))
        .args(["apply", "--seed", "1", "--column", "c", "--mechanism"])
        .arg(mech)
        .arg("--data")
        .arg(data)
        .arg("--output")
        .arg(target)
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap()
}

/// Waits until a temporary file shows in `dir`; returns its path.
fn first_temporary(dir: &Path, child: &mut std::process::Child) -> std::path::PathBuf {
    loop {
        if let Some(name) = temporaries(dir).first() {
            return dir.join(name);
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "pml apply ended before its temporary file was seen"
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// The temporary file of an atomic write is 0600 (it holds raw columns); SIGHUP
/// and SIGQUIT remove it as SIGINT and SIGTERM do; SIGKILL, which no process can
/// catch, leaves it readable by its owner only.
#[test]
fn temporary_files_are_private_and_removed_on_every_caught_signal() {
    let dir = tempdir();
    let mech = colour_design(dir.path());
    let data = big_csv(dir.path(), 4_000_000);
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let target = out_dir.join("private.csv");
    for (signal, code) in [("HUP", Some(129)), ("QUIT", Some(131)), ("KILL", None)] {
        let mut child = spawn_apply(&mech, &data, &target);
        let tmp = first_temporary(&out_dir, &mut child);
        let killed = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(killed.success());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), code, "SIG{signal}: {status:?}");
        assert!(!target.exists(), "SIG{signal}: a partial --output");
        if code.is_some() {
            assert!(temporaries(&out_dir).is_empty(), "SIG{signal}: left behind");
        } else {
            assert_eq!(mode(&tmp), 0o600, "the temporary file's mode");
            std::fs::remove_file(&tmp).unwrap();
        }
    }
}

/// A CSV line past 1 MiB is refused naming its line and the limit, and none of it
/// is echoed; a long value in an error is elided in the middle.
#[test]
fn long_lines_and_long_values_give_short_errors() {
    let dir = tempdir();
    let long = format!("id,c\n1,{}\n", "x".repeat(3 << 20));
    let data = crate::common::write(dir.path(), "long.csv", &long);
    let err = crate::common::one_line_usage_error(&[
        "design",
        "--data",
        s(&data),
        "--column",
        "c",
        "--exp-epsilon",
        "2",
    ]);
    assert!(err.contains("line 2") && err.contains("1 MiB"), "{err}");
    assert!(err.len() < 500, "{} bytes", err.len());
    let data = crate::common::write(dir.path(), "in.csv", "id,c\n1,a\n");
    let column = "k".repeat(100_000);
    let err = crate::common::one_line_usage_error(&[
        "design",
        "--data",
        s(&data),
        "--column",
        &column,
        "--exp-epsilon",
        "2",
    ]);
    assert!(err.contains("chars)"), "{err}");
    assert!(err.len() < 500, "{} bytes", err.len());
}

/// Files saved with a UTF-8 byte order mark (as Windows editors save them) are
/// read: a design file, a bare matrix and a CSV header.
#[test]
fn files_with_a_byte_order_mark_are_read() {
    let dir = tempdir();
    let mech = colour_design(dir.path());
    let text = std::fs::read_to_string(&mech).unwrap();
    let bom = crate::common::write(dir.path(), "bom.json", &format!("\u{feff}{text}"));
    crate::common::stdout(&["assess", "--design", s(&bom)]);
    let data = crate::common::write(dir.path(), "bom.csv", "\u{feff}id,c\n1,a\n2,b\n");
    let out = dir.path().join("out.csv");
    crate::common::stdout(&[
        "apply",
        "--mechanism",
        s(&bom),
        "--data",
        s(&data),
        "--column",
        "c",
        "--seed",
        "1",
        "--output",
        s(&out),
    ]);
    crate::common::stdout(&[
        "design",
        "--data",
        s(&data),
        "--column",
        "c",
        "--exp-epsilon",
        "2",
    ]);
}
