//! End-to-end tests of the `pml` binary.

use crate::common::{
    EXAMPLE1, json, one_line_usage_error, output_file, pml, s, stdout, usage_error, usage_stderr,
    words, write,
};

use serde_json::Value;

/// Runs `pml design ARGS --format json` and returns the object.
fn design_json(args: &[&str]) -> Value {
    json(&[&["design"][..], args].concat())
}

#[test]
fn example_1_json_has_every_field() {
    let v = design_json(&["--prior", "0.4,0.2,0.2,0.2", "--exp-epsilon", "1.125"]);
    for key in [
        "prior",
        "epsilon",
        "uncertainty",
        "utility",
        "mechanism",
        "pml_per_output",
        "certificate",
        "baselines",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["utility"]["name"], "mi");
    let eps = v["epsilon"].as_f64().unwrap();
    assert!((eps - (1.125f64).ln()).abs() < 1e-15);
    let rows = v["mechanism"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert!((rows[1][1].as_f64().unwrap() - 0.1).abs() < 1e-9);
    let c = &v["certificate"];
    assert!(c["worst_case_pml"].as_f64().unwrap() <= eps + 1e-10);
    assert!(c["max_row_sum_error"].as_f64().unwrap() <= 1e-12);
    assert!(c["upper_bound"].as_f64().unwrap() >= v["utility"]["value"].as_f64().unwrap() - 1e-9);
    let rr = &v["baselines"]["randomized_response"];
    for k in ["same_ldp", "pml_calibrated"] {
        // Left out: its level and N determine it, and readers re-derive it.
        assert!(rr[k].get("mechanism").is_none());
        assert!(rr[k]["ldp_epsilon"].as_f64().is_some());
        assert!(rr[k]["worst_case_pml"].as_f64().unwrap() <= eps + 1e-9);
        assert!(rr[k]["utility"].as_f64().unwrap() <= v["utility"]["value"].as_f64().unwrap());
    }
    assert!((rr["pml_calibrated"]["worst_case_pml"].as_f64().unwrap() - eps).abs() < 1e-9);
}

#[test]
fn ball_and_labels_and_utilities() {
    for u in ["mi", "tv", "chi2", "hellinger", "map"] {
        let v = design_json(&[
            "--prior",
            "0.4,0.3,0.2,0.1",
            "--epsilon",
            "0.7",
            "--beta",
            "0.05",
            "--labels",
            "a,b,c,d",
            "--utility",
            u,
        ]);
        assert_eq!(v["uncertainty"]["kind"], "l1_ball");
        assert_eq!(v["labels"][3], "d");
        assert_eq!(v["utility"]["name"], u);
        assert!(v["certificate"]["worst_case_pml"].as_f64().unwrap() <= 0.7 + 1e-10);
    }
}

#[test]
fn table_and_csv() {
    let example1 = |more: &[&str]| stdout(&[&EXAMPLE1[..], more].concat());
    let text = example1(&["--format", "table", "--labels", "a,b,c,d"]);
    assert!(text.contains("Certificate") && text.contains("randomized response"));
    // The certificate's tolerance is printed in the table too.
    assert!(
        text.contains("Certificate (tolerance 1e-12): worst-case PML"),
        "{text}"
    );
    // --labels is one line of CSV: a quote inside a label is doubled.
    let text = example1(&["--format", "csv", "--labels", "a,\"\"\"b\"\"\",c,d"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "input,y1,y2,y3,y4");
    assert_eq!(lines.len(), 5);
    let (label, rest) = lines[2].rsplit_once("\",").unwrap();
    assert_eq!(label, "\"\"\"b\"\"");
    let first: f64 = rest.split(',').next().unwrap().parse().unwrap();
    assert!((first - 0.45).abs() < 1e-12, "{}", lines[2]);
}

#[test]
fn output_file_is_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = output_file(
        dir.path(),
        "w.json",
        &["design", "--prior", "0.5,0.3,0.2", "--epsilon", "0.3"],
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(v["mechanism"].as_array().unwrap().len(), 3);
    // A failing run leaves nothing behind.
    let bad = dir.path().join("bad.json");
    pml()
        .args([
            "design",
            "--prior",
            "0.5,0.3,0.3",
            "--epsilon",
            "0.3",
            "--output",
        ])
        .arg(&bad)
        .assert()
        .code(2);
    assert!(!bad.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// Renaming over a path that is not a regular file would replace the device (as root,
/// `--output /dev/null` once turned `/dev/null` into a plain file): a FIFO stays a
/// FIFO and gets the text, a symbolic link stays a link and its target is replaced,
/// and `-` is standard output.
#[test]
fn output_keeps_special_files_and_links() {
    use std::os::unix::fs::FileTypeExt;
    let design = ["design", "--prior", "0.5,0.3,0.2", "--epsilon", "0.3"];
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    output_file(dir.path(), "pipe", &design);
    let text = reader.join().unwrap();
    assert!(text.contains("\"mechanism\""), "{text}");
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());

    let real = dir.path().join("real.json");
    std::fs::write(&real, "old").unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    output_file(dir.path(), "link.json", &design);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(&real)
            .unwrap()
            .contains("\"mechanism\"")
    );

    let out = stdout(&[&design[..], &["--output", "-"]].concat());
    assert!(out.contains("\"mechanism\""));
}

#[test]
fn bad_input_exits_2_with_the_field_named() {
    let cases: &[(&[&str], &str)] = &[
        (&["--prior", "0.5,0.6", "--epsilon", "1"], "sum"),
        (&["--prior", "0.5,0,0.5", "--epsilon", "1"], "prior[1]"),
        (&["--prior", "0.5,-0.5,1", "--epsilon", "1"], "prior[1]"),
        (&["--prior", "0.5,NaN,0.5", "--epsilon", "1"], "NaN"),
        (&["--prior", "0.5,0.5", "--epsilon", "-0.1"], "--epsilon"),
        (
            &["--prior", "0.5,0.5", "--exp-epsilon", "0.9"],
            "--exp-epsilon",
        ),
        (
            &[
                "--prior",
                "0.5,0.3,0.2",
                "--epsilon",
                "1",
                "--labels",
                "a,b",
            ],
            "--labels",
        ),
        (
            &[
                "--prior",
                "0.5,0.3,0.2",
                "--epsilon",
                "1",
                "--labels",
                "a, ,c",
            ],
            "--labels[1]",
        ),
        (
            &[
                "--prior",
                "0.5,0.3,0.2",
                "--epsilon",
                "1",
                "--labels",
                "a,b,a",
            ],
            "--labels[2] = a: duplicate label",
        ),
        (
            &["--prior", "0.5,0.3,0.2", "--epsilon", "1", "--beta", "inf"],
            "beta",
        ),
        (
            &["--prior", "0.5,0.3,0.2", "--epsilon", "1", "--beta", "0"],
            "beta",
        ),
        (
            &["--prior", "0.5,0.3,0.2", "--epsilon", "1", "--beta", "-0.1"],
            "beta",
        ),
        (
            &[
                "--counts",
                &["1"; 25].join(","),
                "--epsilon",
                "1",
                "--pricing",
                "enumerate",
            ],
            "limit of 24",
        ),
    ];
    for (args, needle) in cases {
        let err = one_line_usage_error(&[&["design"][..], args].concat());
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn large_epsilon_returns_identity_with_a_note() {
    let v = design_json(&["--prior", "0.5,0.3,0.2", "--epsilon", "5"]);
    assert_eq!(v["status"], "no_privacy_needed");
    assert!(
        v["note"]
            .as_str()
            .unwrap()
            .contains("every mechanism qualifies")
    );
    assert_eq!(v["mechanism"][0][0], 1.0);
}

#[test]
fn design_from_data_states_the_guarantee() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("d.csv");
    let mut text = String::from("id,\"job, title\"\r\n");
    let jobs = ["nurse", "\"clerk, senior\"", "driver"];
    let mut counts = [0u64; 3];
    for i in 0..600 {
        let k = (i * 7 + i / 5) % 3;
        counts[k] += 1;
        text.push_str(&format!("{i},{}\r\n", jobs[k]));
    }
    std::fs::write(&csv, text).unwrap();
    let v = design_json(&[
        "--epsilon",
        "1",
        "--delta",
        "0.01",
        "--column",
        "job, title",
        "--data",
        s(&csv),
    ]);
    let g = &v["guarantee"];
    assert_eq!(g["samples"], 600);
    assert!(
        g["statement"]
            .as_str()
            .unwrap()
            .contains("with probability at least 1 - 0.01")
    );
    assert_eq!(v["labels"][1], "clerk, senior");
    let p = v["prior"].as_array().unwrap();
    for k in 0..3 {
        assert!((p[k].as_f64().unwrap() - counts[k] as f64 / 600.0).abs() < 1e-12);
    }
    assert!(v["certificate"]["worst_case_pml"].as_f64().unwrap() <= 1.0 + 1e-10);
    // The same counts given directly give the same design.
    let counts_arg = counts.map(|c| c.to_string()).join(",");
    let w = design_json(&["--counts", &counts_arg, "--epsilon", "1", "--delta", "0.01"]);
    assert_eq!(w["mechanism"], v["mechanism"]);
}

#[test]
fn data_errors_name_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("d.csv");
    std::fs::write(&csv, "a,b\n1,x\n2,\n3,y\n").unwrap();
    let data = ["design", "--epsilon", "1", "--data", s(&csv), "--column"];
    usage_error(&[&data[..], &["b"]].concat(), "line 3");
    let err = usage_stderr(&[&data[..], &["zzz"]].concat());
    assert!(err.contains("\"a\"") && err.contains("\"b\""), "{err}");
    usage_error(
        &[
            "design",
            "--prior",
            "0.5,0.5",
            "--epsilon",
            "1",
            "--delta",
            "0.1",
        ],
        "--delta",
    );
}

#[test]
fn help_and_guide_list_the_exit_statuses() {
    let help = stdout(&["--help"]);
    let guide = include_str!("../../../docs/reference/cli.md");
    for text in [&help[..], guide] {
        for needle in [
            "Exit status",
            "0",
            "1",
            "2",
            "130",
            "143",
            "SIGINT",
            "SIGTERM",
        ] {
            assert!(text.contains(needle), "{needle} missing");
        }
    }
    assert!(help.contains("2    usage error"), "{help}");
}

#[test]
fn negative_numbers_are_refused_naming_their_flag() {
    let cases: [(&str, &str); 6] = [
        (
            "design --prior 0.5,0.5 --epsilon 1 --time-limit -1",
            "--time-limit",
        ),
        (
            "design --prior 0.5,0.5 --epsilon 1 --time-limit 1e300",
            "--time-limit",
        ),
        (
            "bounds radius --samples -5 --delta 0.1 --alphabet 3",
            "--samples",
        ),
        (
            "bounds radius --samples 5 --delta 0.1 --alphabet -3",
            "--alphabet",
        ),
        (
            "bounds delta-min --epsilon 1 --epsilon-prime 2 --samples -5 --alphabet 3",
            "--samples",
        ),
        (
            "apply --laplace-scale 1 --data x.csv --column x --output y.csv --seed -1",
            "--seed",
        ),
    ];
    for (args, flag) in cases {
        let err = one_line_usage_error(&crate::common::words(args));
        assert!(err.contains(flag), "{args}: {err}");
        assert!(!err.contains("unexpected argument"), "{args}: {err}");
    }
}

#[test]
fn counts_are_whole_exact_and_agree_with_samples() {
    for (counts, needle) in [
        ("1.5,5", "whole numbers"),
        ("-1,5", "whole numbers"),
        ("inf,5", "whole numbers"),
        ("1e300,1e300", "2^53"),
        ("5000000000000000,5000000000000000", "2^53"),
    ] {
        for cmd in ["bounds radius --delta 0.1", "design --epsilon 1"] {
            let args = format!("{cmd} --counts {counts}");
            let err = one_line_usage_error(&crate::common::words(&args));
            assert!(
                err.contains("--counts") && err.contains(needle),
                "{args}: {err}"
            );
        }
    }
    // 4e1 is a whole number; the sample size is the total.
    let v = json(&crate::common::words(
        "bounds radius --delta 0.1 --counts 4e1,60",
    ));
    assert_eq!(v["inputs"]["samples"], 100);
    // --samples must agree with the counts.
    let err = one_line_usage_error(&crate::common::words(
        "bounds radius --samples 5 --counts 50,50 --delta 0.1",
    ));
    assert!(err.contains("--samples") && err.contains("100"), "{err}");
    let err = one_line_usage_error(&crate::common::words(
        "bounds failure-probability --beta 0.5 --samples 5 --counts 50,50",
    ));
    assert!(err.contains("--samples"), "{err}");
    let v = json(&crate::common::words(
        "bounds radius --samples 100 --counts 50,50 --delta 0.1",
    ));
    assert_eq!(v["inputs"]["samples"], 100);
}

#[test]
fn output_extensions_pick_the_format_whatever_their_case() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a.CSV", "b.Csv", "c.csv"] {
        let f = output_file(dir.path(), name, &EXAMPLE1);
        let text = std::fs::read_to_string(f).unwrap();
        assert!(text.starts_with("input,y1"), "{name}: {text}");
    }
    for name in ["d.TXT", "e.txt"] {
        let f = output_file(dir.path(), name, &EXAMPLE1);
        let text = std::fs::read_to_string(f).unwrap();
        assert!(text.contains("Certificate"), "{name}: {text}");
    }
    let mech = output_file(dir.path(), "m.json", &EXAMPLE1);
    let args = [
        "assess",
        "--mechanism",
        s(&mech),
        "--prior",
        "0.4,0.2,0.2,0.2",
    ];
    let f = output_file(dir.path(), "report.TXT", &args);
    assert!(!std::fs::read_to_string(f).unwrap().starts_with('{'));
}

#[test]
fn data_dash_reads_standard_input() {
    let csv = "id,c,s\n1,a,1\n2,b,-1\n3,a,1\n4,b,1\n5,a,-1\n";
    let run = |args: &str| {
        let out = pml()
            .args(crate::common::words(args))
            .write_stdin(csv)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{args}: {err}");
        String::from_utf8(out.stdout).unwrap()
    };
    let v: Value =
        serde_json::from_str(&run("design --data - --column c --epsilon 1 --format json")).unwrap();
    assert_eq!(v["prior"][0], 0.6);
    let dir = tempfile::tempdir().unwrap();
    let mech = output_file(
        dir.path(),
        "m.json",
        &crate::common::words("design --prior 0.6,0.4 --epsilon 1 --labels a,b"),
    );
    let v: Value = serde_json::from_str(&run(&format!(
        "assess --mechanism {} --data - --column c --format json",
        s(&mech)
    )))
    .unwrap();
    assert_eq!(v["prior"][0], 0.6, "{v}");
    let out = run("apply --laplace-scale 1 --seed 3 --data - --column s --output -");
    assert_eq!(out.lines().count(), 6, "{out}");
    assert!(out.starts_with("id,c,s_private\n"), "{out}");
}

#[test]
fn csv_output_defuses_formula_cells() {
    let text = stdout(
        &[
            &EXAMPLE1[..],
            &["--format", "csv", "--labels", "=1+2,@SUM(A1),-1,-x"],
        ]
        .concat(),
    );
    let firsts: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(firsts, ["'=1+2", "'@SUM(A1)", "-1", "'-x"], "{text}");
    // The names apply writes into the privatised column.
    let dir = tempfile::tempdir().unwrap();
    let mech = output_file(
        dir.path(),
        "m.json",
        &crate::common::words("design --prior 0.6,0.4 --epsilon 1 --labels a,b"),
    );
    let data = crate::common::write(dir.path(), "in.csv", "v\na\nb\na\n");
    let out = stdout(&[
        "apply",
        "--mechanism",
        s(&mech),
        "--data",
        s(&data),
        "--column",
        "v",
        "--output",
        "-",
        "--seed",
        "1",
        "--output-labels",
        "=HYPERLINK(1),+A2",
    ]);
    for line in out.lines().skip(1) {
        assert!(line == "'=HYPERLINK(1)" || line == "'+A2", "{out}");
    }
}

/// "valid input never ends in certificate check failed": a valid input
/// past a numerical limit (a mass of 1e-12 over the whole simplex at eps = 700)
/// names the field, its value and the fix, on one line with exit status 1, and
/// writes no mechanism.
#[test]
fn a_numerical_limit_names_its_field_and_fix() {
    let args = words("design --prior 1e-12,0.999999999998,1e-12 --beta 2 --epsilon 700");
    let out = pml().args(&args).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty(), "output on error: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(
        err.starts_with("error: numerical limit: prior = 1e-12: ")
            && err.contains("merge the rarest categories"),
        "{err}"
    );
}

/// Extreme levels, end to end: at eps = 1e-300 the JSON's worst
/// case stays within the stated tolerance of the target; a prior with a mass
/// of 1e-12 is not called optimal at a large relative gap; PMC and LIP at
/// eps = 710 are designs, not errors.
#[test]
fn issue_13_reproducers_hold_from_the_command_line() {
    let v = json(&words("design --prior 0.5,0.5 --epsilon 1e-300"));
    let c = &v["certificate"];
    let (worst, target) = (c["worst_case_pml"].as_f64().unwrap(), 1e-300);
    assert!(worst <= target + c["tolerance"].as_f64().unwrap(), "{c}");
    assert!(c["tolerance"].as_f64().unwrap() <= 1e-12, "{c}");

    let v = json(&words("design --prior 1e-12,0.999999999999 --epsilon 1"));
    let (u, gap) = (
        v["certificate"]["utility_value"].as_f64().unwrap(),
        v["certificate"]["gap"].as_f64().unwrap(),
    );
    if v["status"] == "optimal" {
        assert!(
            gap <= (1e-9 * u.abs()).max(1e-15),
            "optimal at gap {gap}, utility {u}"
        );
    }

    for notion in ["pmc", "lip"] {
        let args = format!("design --prior 0.5,0.3,0.2 --notion {notion} --epsilon 710");
        let v = json(&words(&args));
        assert!(
            v["mechanism"].is_array() || v["mechanism"].is_object(),
            "{notion}: {v}"
        );
    }
}

/// `pml ... | head -c 10`: a reader that closes standard output early is no
/// error: nothing on stderr, exit status 0.
#[test]
fn a_closed_standard_output_is_not_an_error() {
    use std::io::Read;
    let prior = vec!["0.025"; 40].join(",");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("pml"))
        .args([
            "design",
            "--prior",
            &prior,
            "--epsilon",
            "1",
            "--format",
            "json",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The pipe's read end is dropped here: the next write fails with EPIPE.
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--mechanism -` and `--design -` read standard input; two inputs
/// from standard input are refused naming the second.
#[test]
fn a_mechanism_is_read_from_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let design = output_file(
        dir.path(),
        "design.json",
        &[&EXAMPLE1[..], &["--labels", "a,b,c,d", "--format", "json"]].concat(),
    );
    let text = std::fs::read_to_string(&design).unwrap();
    let verdict = pml()
        .args(["assess", "--design", "-"])
        .write_stdin(text.clone())
        .output()
        .unwrap();
    assert!(
        verdict.status.success(),
        "{}",
        String::from_utf8_lossy(&verdict.stderr)
    );
    assert!(String::from_utf8_lossy(&verdict.stdout).contains("verified"));
    let data = write(dir.path(), "in.csv", "v\na\nb\n");
    let out = dir.path().join("out.csv");
    let apply = [
        "apply",
        "--mechanism",
        "-",
        "--data",
        s(&data),
        "--column",
        "v",
        "--output",
        s(&out),
    ];
    let done = pml()
        .args(apply)
        .args(["--seed", &format!("0x{}", "ab".repeat(32))])
        .write_stdin(text.clone())
        .output()
        .unwrap();
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let both = [
        "apply",
        "--mechanism",
        "-",
        "--data",
        "-",
        "--column",
        "v",
        "--output",
        s(&out),
    ];
    let refused = pml().args(both).write_stdin(text).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("reads standard input already"));
}

/// `--quiet` silences notes and summaries, never a warning about a guarantee.
#[test]
fn quiet_silences_notes_but_not_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let data = write(dir.path(), "in.csv", "v\nx1\nx2\n");
    let matrix = write(dir.path(), "w.csv", "0.75,0.25\n0.25,0.75\n");
    let out = dir.path().join("out.csv");
    let key = format!("0x{}", "cd".repeat(32));
    let run = |extra: &[&str]| {
        let args = [
            "apply",
            "--mechanism",
            s(&matrix),
            "--data",
            s(&data),
            "--column",
            "v",
        ];
        let done = pml()
            .args(args)
            .args(["--output", s(&out), "--seed", &key])
            .args(extra)
            .output()
            .unwrap();
        assert!(done.status.success());
        String::from_utf8(done.stderr).unwrap()
    };
    let loud = run(&[]);
    assert!(
        loud.contains("pml apply: read 2 rows") && loud.contains("bare matrix"),
        "{loud}"
    );
    let quiet = run(&["--quiet"]);
    assert!(
        !quiet.contains("pml apply: read") && quiet.contains("bare matrix"),
        "{quiet}"
    );
}

/// `--quiet` never hides a warning about a guarantee: a release with no finite
/// LDP level, and rows whose missingness is released as is (`--nulls drop`).
#[test]
fn quiet_keeps_every_warning_about_a_guarantee() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let key = format!("0x{}", "cd".repeat(32));
    // `pml -q apply ARGS` on the column v of `data`: its stderr.
    let quiet_apply = |data: &str, args: &[&str]| {
        let data = write(dir.path(), "in.csv", data);
        let done = pml()
            .args(["-q", "apply", "--data", s(&data), "--column", "v"])
            .args(["--output", s(&out), "--seed", &key])
            .args(args)
            .output()
            .unwrap();
        assert!(done.status.success());
        String::from_utf8(done.stderr).unwrap()
    };
    let noise = words("--gaussian-sigma 1 --grid 1 --range 100000");
    let err = quiet_apply("v\n-1\n1\n", &noise);
    assert!(
        err.starts_with("warning: ") && err.contains("no finite LDP level"),
        "{err}"
    );
    let matrix = write(dir.path(), "w.csv", "0.75,0.25\n0.25,0.75\n");
    let bare = [
        "--mechanism",
        s(&matrix),
        "--labels",
        "x1,x2",
        "--nulls",
        "drop",
    ];
    let err = quiet_apply("v\nx1\n \nx2\n", &bare);
    assert!(
        err.contains("1 row with a missing value written missing")
            && err.contains("released as is")
            && err.contains("bare matrix")
            && !err.contains("pml apply: read"),
        "{err}"
    );
}

/// `pml completions SHELL` and `pml man` are generated from the arguments:
/// every subcommand appears in both.
#[test]
fn completions_and_the_manual_page_list_every_command() {
    let bash = stdout(&["completions", "bash"]);
    let man = stdout(&["man"]);
    assert!(
        man.starts_with(".ie") && man.contains(".TH pml 1"),
        "{}",
        &man[..80]
    );
    // `pml serve` is a command of the builds with the `serve` feature.
    let serve = cfg!(feature = "serve").then_some("serve");
    let commands = ["design", "estimate", "apply", "assess", "envelope"];
    for command in commands.into_iter().chain(serve) {
        assert!(bash.contains(command), "bash: {command}");
        assert!(man.contains(command), "man: {command}");
    }
    usage_error(&["completions", "tcsh"], "tcsh");
}

/// Rules that depend only on which flags are given are clap's: each
/// refusal exits 2 before anything is read, in one line that names the flags
/// (both of a conflict, or the one missing) and the fix.
#[test]
fn flag_rules_are_clap_s_and_name_both_flags() {
    let conflict = "cannot be used with";
    let missing = "error: missing --samples";
    let cases = [
        (
            "design --prior 0.5,0.5 --epsilon 1 --delta 0.05",
            ["--delta", "--prior"],
            conflict,
        ),
        (
            "assess --mechanism m.csv --prior 0.5,0.5 --delta 0.05",
            ["--delta", "--prior"],
            conflict,
        ),
        (
            "assess --mechanism m.csv --prior 0.5,0.5 --report r.html --tradeoff-budget 3",
            ["--tradeoff-budget", "--mechanism"],
            conflict,
        ),
        (
            "bounds radius --prior 0.5,0.5 --delta 0.1",
            ["--samples", "add it"],
            missing,
        ),
        (
            "bounds failure-probability --prior 0.5,0.5 --beta 0.1",
            ["--samples", "add it"],
            missing,
        ),
    ];
    for (args, flags, kind) in cases {
        let err = usage_stderr(&words(args));
        assert!(err.contains(kind), "{args}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args}: {err}");
        assert!(
            kind == missing || err.contains("drop one of them"),
            "{args}: {err}"
        );
        for flag in flags {
            assert!(err.contains(flag), "{args}: {flag} not named: {err}");
        }
    }
}

/// `--labels` reads CSV quoting, so a label may hold a comma; `--labels-file`
/// takes one label a line; both together, or a blank line in the file, are
/// usage errors.
#[test]
fn labels_with_commas_by_quoting_or_from_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let design = |labels: &[&str]| {
        let args = [
            &["design", "--prior", "0.5,0.5", "--epsilon", "1"][..],
            labels,
        ]
        .concat();
        json(&args)["labels"].clone()
    };
    let want = serde_json::json!(["a,b", "c"]);
    assert_eq!(design(&["--labels", "\"a,b\",c"]), want);
    let file = write(dir.path(), "labels.txt", "a,b\r\nc\n");
    assert_eq!(design(&["--labels-file", s(&file)]), want);
    let base = ["design", "--prior", "0.5,0.5", "--epsilon", "1"];
    let both = [&base[..], &["--labels", "x,y", "--labels-file", s(&file)]].concat();
    usage_error(&both, "--labels-file");
    let blank = write(dir.path(), "blank.txt", "a\n\nc\n");
    let err = usage_stderr(&[&base[..], &["--labels-file", s(&blank)]].concat());
    assert!(
        err.contains("--labels-file") && err.contains("line 2"),
        "{err}"
    );
    // pml apply matches the quoted labels to the column's values.
    let data = write(dir.path(), "in.csv", "v\n\"a,b\"\nc\n");
    let matrix = write(dir.path(), "w.csv", "0.75,0.25\n0.25,0.75\n");
    let out = dir.path().join("out.csv");
    let key = format!("0x{}", "cd".repeat(32));
    let args = [
        "apply",
        "--mechanism",
        s(&matrix),
        "--data",
        s(&data),
        "--column",
        "v",
        "--output",
        s(&out),
        "--seed",
        &key,
    ];
    for labels in [["--labels", "\"a,b\",c"], ["--labels-file", s(&file)]] {
        let done = pml().args(args).args(labels).output().unwrap();
        let err = String::from_utf8_lossy(&done.stderr);
        assert!(
            done.status.success() && err.contains("2 privatised"),
            "{err}"
        );
    }
}

/// A design file with a key the reader does not know inside `notion`,
/// `uncertainty`, `certificate.notion` or `certificate.levels` is refused,
/// naming the key.
#[test]
fn unknown_keys_inside_a_design_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/golden/inputs/design_ball.json"
    ))
    .unwrap();
    let original: Value = serde_json::from_str(&text).unwrap();
    let ok = write(dir.path(), "ok.json", &text);
    pml()
        .args(["assess", "--design", s(&ok)])
        .assert()
        .success();
    for path in [
        &["notion"][..],
        &["uncertainty"],
        &["certificate", "notion"],
        &["certificate", "levels"],
    ] {
        let mut v = original.clone();
        let mut at = &mut v;
        for key in path {
            at = &mut at[*key];
        }
        at["extra_key"] = serde_json::json!(1);
        let f = write(dir.path(), "extra.json", &v.to_string());
        let err = one_line_usage_error(&["assess", "--design", s(&f)]);
        assert!(err.contains("unknown field `extra_key`"), "{path:?}: {err}");
    }
}
